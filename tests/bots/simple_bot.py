#!/usr/bin/env python3
"""A small bot for the cardgames text protocol (docs/PROTOCOL.md), in plain Python 3.

It keeps its own hand from the table's events, bids the high cards it holds, passes its highest
cards and plays a random legal card (random.Random seeded by the table's seed). It checks that the
table's legal choices are cards it holds, so a test sees the protocol's events add up.

Run it at a table:  cardgames tournament --players 'external:cmd="python3 tests/bots/simple_bot.py",rule'
"""
import random
import sys

RANKS = "23456789TJQKA"


def rank(card):
    return RANKS.index(card[0])


class SimpleBot:
    def __init__(self):
        self.rng = random.Random(0)
        self.seat = 0
        self.hand = set()
        self.decisions = 0

    # Events: update what we know. Unknown lines are ignored, as the protocol asks.
    def event(self, words):
        kind = words[0]
        if kind == "game":
            params = dict(w.split("=", 1) for w in words[1:] if "=" in w)
            self.seat = int(params["seat"])
            self.rng = random.Random(int(params.get("seed", "0")))
        elif kind == "hand":
            self.hand = set()
        elif kind == "cards":
            self.hand = set(words[1:])
        elif kind == "passed":
            self.hand -= set(words[2:])
        elif kind == "received":
            self.hand |= set(words[2:])
        elif kind == "exchange":
            giver, receiver = int(words[1]), int(words[2])
            if giver == self.seat:
                self.hand -= set(words[3:])
            if receiver == self.seat:
                self.hand |= set(words[3:])
        elif kind == "card" and int(words[1]) == self.seat:
            self.hand.discard(words[2])

    # Decisions: return the answer line.
    def decide(self, words):
        self.decisions += 1
        kind = words[1]
        params = dict(w.split("=", 1) for w in words[2:] if "=" in w)
        choices = [w for w in words[2:] if "=" not in w]
        if kind == "blind_nil":
            return "no"
        if kind == "bid":
            strong = sum(1 for c in self.hand if c[0] in "AK" or (c[1] == "S" and rank(c) >= rank("Q")))
            bid = str(max(1, strong))
            return bid if bid in choices else choices[-1]
        if kind == "pass":
            assert set(choices) == self.hand, f"table lists {choices}, bot holds {sorted(self.hand)}"
            count = int(params["count"])
            return " ".join(sorted(choices, key=rank, reverse=True)[:count])
        if kind == "play":
            assert set(choices) <= self.hand, f"legal {choices} not all in hand {sorted(self.hand)}"
            return self.rng.choice(choices)
        raise ValueError("unknown decision " + kind)


def main(bot=None):
    bot = bot or SimpleBot()
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        if words[0] == "end":
            break
        if words[0] == "ask":
            print(bot.decide(words), flush=True)
        else:
            bot.event(words)


if __name__ == "__main__":
    main()
