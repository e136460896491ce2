#!/usr/bin/env python3
"""A deliberately bad bot for the protocol tests: it plays like simple_bot.py for its first AFTER
decisions, then misbehaves in one way:

  bad_bot.py malformed [AFTER]   answers a line that is not a choice at all
  bad_bot.py illegal   [AFTER]   answers a well-formed choice the rules refuse
  bad_bot.py slow      [AFTER]   sleeps 5 seconds before answering (past any short time limit)
  bad_bot.py crash     [AFTER]   exits with status 3 without answering
  bad_bot.py silent    [AFTER]   closes its output and keeps running
  bad_bot.py chatty    [AFTER]   writes a second line after its answer
  bad_bot.py partial   [AFTER]   writes its answer without the newline, then sleeps 30 seconds
  bad_bot.py flood     [AFTER]   writes without end and without a newline
  bad_bot.py badutf8   [AFTER]   answers bytes that are not UTF-8, with a terminal escape among them
  bad_bot.py script    [AFTER]   answers a long word in Japanese (3-byte characters, no whole card)
"""
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import simple_bot  # noqa: E402

MODE = sys.argv[1]
# Lone surrogates from "surrogateescape" go out as the raw bytes they stand for: invalid UTF-8.
sys.stdout.reconfigure(errors="surrogateescape")
AFTER = int(sys.argv[2]) if len(sys.argv) > 2 else 3


class BadBot(simple_bot.SimpleBot):
    def decide(self, words):
        if self.decisions < AFTER:
            return super().decide(words)
        self.decisions += 1
        kind = words[1]
        if MODE == "malformed":
            return "I think I'll play the best card"
        if MODE == "illegal":
            choices = [w for w in words[2:] if "=" not in w]
            if kind == "bid":
                return "99"
            if kind == "blind_nil":
                return "yes please"
            if kind == "pass":
                return " ".join(choices[:1])  # too few cards
            held = set(choices)
            for suit in "SHDC":
                for r in simple_bot.RANKS:
                    if r + suit not in held:
                        return r + suit  # a card that is not legal here
        if MODE == "slow":
            time.sleep(5)
            return super().decide(words)
        if MODE == "crash":
            sys.stderr.write("bad_bot.py: crashing on purpose\n")
            sys.exit(3)
        if MODE == "silent":
            sys.stdout.flush()
            os.close(1)  # the table sees end of output while the process lives on
            time.sleep(5)
            sys.exit(0)
        if MODE == "partial":
            sys.stdout.write(super().decide(words))
            sys.stdout.flush()
            time.sleep(30)
            sys.exit(0)
        if MODE == "flood":
            chunk = "x" * 4096
            while True:
                sys.stdout.write(chunk)
                sys.stdout.flush()
        if MODE == "chatty":
            return super().decide(words) + "\nthinking about the next trick..."
        if MODE == "badutf8":
            return "\udcff\udcfe\udcc3( 2C \x1b[31m\udce3\udc81"
        if MODE == "script":
            return "\u30c0\u30a4\u30e4\u306e\u30a8\u30fc\u30b9" * 40
        raise SystemExit("unknown mode " + MODE)


if __name__ == "__main__":
    simple_bot.main(BadBot())
