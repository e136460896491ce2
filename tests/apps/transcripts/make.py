#!/usr/bin/env python3
"""Writes the golden transcripts of `cardgames play` (tests/apps/transcript_test.py checks them).

Each game is a seed, options and a script: the lines typed first (bad input included) and at the
first card prompt, then the human plays one whole hand as the hint bot (`rule`) advises, then
types the lines given last (in partnership Spades: yes to blind nil, then no at its confirmation)
and quits (or the input ends). The input that results
is saved as NAME.in and what the program printed as NAME.out. Run it after a reviewed change of
the table's look:  python3 tests/apps/transcripts/make.py build/apps/cardgames
"""
import pathlib, re, subprocess, sys

HERE = pathlib.Path(__file__).parent
GAMES = {
    # partnership Spades; the human bids nil (0, then confirms); bad bids first; in the next hand,
    # blind nil is offered: yes, then no at the confirmation
    "spades_partnership": (["--game", "spades", "--seed", "4"], ["", "14", "nine", "0", "maybe", "y"], [], ["y", "n"]),
    # the input ends after the hand
    "spades_cutthroat3": (["--preset", "spades-cutthroat3", "--seed", "2"], ["4"], ["last"], None),
    # a card not held, a pass of the wrong size, a card named twice, a typo of a command; then a
    # card not held and one that does not follow suit
    "hearts4": (["--game", "hearts", "--seed", "1"], ["QS", "KS AH", "KS KS AH", "hnad", "last"], ["AS", "4S"], []),
    "hearts5": (["--preset", "hearts5", "--seed", "3"], [], [], []),
}
BASE = ["play", "--ascii", "--bots", "rule", "--helper", "rule"]


def run(exe, args, lines):
    return subprocess.run([exe] + BASE + args, input="".join(l + "\n" for l in lines),
                          capture_output=True, text=True, timeout=60).stdout


def script(exe, args, first, at_first_card, quit):
    lines = list(first)
    while True:
        out = run(exe, args, lines + ["hint"])
        if "Hand over." in out:
            return lines + (quit + ["quit", "y"] if quit is not None else [])
        advice = re.findall(r"Hint \(rule bot\): (.*)", out)[-1]
        if advice.startswith("play "):
            lines += at_first_card
            at_first_card = []
            lines.append(advice.split()[1])
        elif advice.startswith("pass "): lines.append(" ".join(advice.split()[1:]))
        elif advice.startswith("bid nil"): lines += ["nil", "y"]
        elif advice.startswith("bid "): lines.append(advice.split()[1])
        else: raise SystemExit("unexpected hint: " + advice)


def main():
    exe = sys.argv[1]
    for name, (args, first, at_first_card, quit) in GAMES.items():
        lines = script(exe, args, first, at_first_card, quit)
        (HERE / f"{name}.args").write_text(" ".join(args) + "\n")
        (HERE / f"{name}.in").write_text("".join(l + "\n" for l in lines))
        (HERE / f"{name}.out").write_text(run(exe, args, lines))
        print(name, len(lines), "lines")


if __name__ == "__main__":
    main()
