#!/usr/bin/env python3
"""Drives `cardgames bot` as another program's table would, and checks its answers.

usage: check_bot_command.py path/to/cardgames
Exit status 0 when every check passes; the failures are printed otherwise.
"""
import subprocess
import sys

CARDGAMES = sys.argv[1]
failures = []


def run(args, text):
    p = subprocess.run([CARDGAMES, *args], input=text, capture_output=True, text=True, timeout=30)
    return p.returncode, p.stdout.splitlines(), p.stderr


def check(what, ok, detail=""):
    if not ok:
        failures.append(f"{what}: {detail}")


HEARTS = """cardgames-protocol 1
game hearts players=4 seat=2 seed=12345
rules game=hearts players=4 pass_count=3
hand 0 dealer=3 pass=left scores=0,0,0,0
cards AS KS QS 5H 4H 9D 8D 7D KC 9C 5C 4C 3C
ask pass count=3 to=3 AS KS QS 5H 4H 9D 8D 7D KC 9C 5C 4C 3C
passed 3 AS KS QS
received 1 2C JC TD
card 2 2C
card 3 7C
card 0 8C
card 1 QC
trick 1
card 1 AC
ask play KC JC 9C 5C 4C 3C
end
"""

SPADES = """cardgames-protocol 1
game spades players=4 seat=1 seed=7
rules game=spades players=4 partnership=true
hand 0 dealer=3 scores=0,0 bags=0,0
cards AS KS 5S 2S AH QH 9H 4H 8D 7D KC 9C 5C
bid 0 4
ask bid 0 1 2 3 4 5 6 7 8 9 10 11 12 13
end
"""

for spec in ("random", "rule"):
    code, out, err = run(["bot", "--spec", spec], HEARTS)
    check(f"{spec} hearts: exit status", code == 0, f"{code} {err}")
    check(f"{spec} hearts: two answers", len(out) == 2, out)
    if len(out) == 2:
        passed = out[0].split()
        hand = set("AS KS QS 5H 4H 9D 8D 7D KC 9C 5C 4C 3C".split())
        check(f"{spec} hearts: pass of 3 held cards", len(set(passed)) == 3 and set(passed) <= hand, out[0])
        check(f"{spec} hearts: a club is played", out[1] in "KC JC 9C 5C 4C 3C".split(), out[1])
    code, out, err = run(["bot", "--spec", spec], SPADES)
    check(f"{spec} spades: exit status", code == 0, f"{code} {err}")
    check(f"{spec} spades: a bid 0..13", len(out) == 1 and out[0].isdigit() and 0 <= int(out[0]) <= 13, out)

# The same seed gives the same answers.
a = run(["bot", "--spec", "random"], HEARTS)[1]
b = run(["bot", "--spec", "random"], HEARTS)[1]
check("random: same seed, same answers", a == b, f"{a} vs {b}")

code, out, err = run(["bot", "--spec", "random"], "cardgames-protocol 99\n")
check("unknown protocol version: exit status 2", code == 2, f"{code} {err}")
check("unknown protocol version: message", "version" in err, err)

code, out, err = run(["bot", "--spec", "random"], HEARTS.replace("card 3 7C", "card 1 7C"))
check("an event out of turn: exit status 2", code == 2, f"{code} {err}")
check("an event out of turn: names the line", "line 10" in err, err)

code, out, err = run(["bot", "--spec", "nosuchbot"], "")
check("unknown bot: exit status 2", code == 2, f"{code} {err}")
check("unknown bot: message", "nosuchbot" in err, err)

code, out, err = run(["bot", "--help"], "")
check("--help: exit status 0", code == 0, f"{code} {err}")

# Input ends without `end`: the bot exits quietly.
code, out, err = run(["bot", "--spec", "random"], SPADES.replace("end\n", ""))
check("end of input: exit status 0", code == 0, f"{code} {err}")

for f in failures:
    print("FAILED", f)
print(f"{len(failures)} failure(s)")
sys.exit(1 if failures else 0)
