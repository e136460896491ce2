"""python3 -m cardgames.report RESULTS -o report.png: the plots of a results file.

A tournament file: each player's score per hand, and with --duplicate the paired difference of
two players (--a, --b; default the first two) board by board with its 95% band. An eval --mode
play file: each policy's mean loss by tricks left. The file is read through the checked readers
(cardgames.read_results): a bad file is refused with the command line's message (exit status 2).
"""

import argparse
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from . import InputError, plots, read_results  # noqa: E402


def draw(path, out, a=None, b=None):
    results = read_results(path)
    lines = results.lines()
    if results.command == "eval":
        if results.header["options"]["mode"] != "play":
            raise InputError(f"'{path}': an eval --mode bid file; the report plots play mode's loss by tricks left")
        fig, ax = plt.subplots(figsize=(7, 4))
        plots.loss_by_tricks_left(lines, ax=ax)
    else:
        specs = list(dict.fromkeys(results.header["options"]["players"]))
        paired = results.header["options"].get("duplicate") and len(specs) >= 2
        fig, axes = plt.subplots(1, 2 if paired else 1, figsize=(12 if paired else 7, 4), squeeze=False)
        if paired:
            plots.paired_difference(lines, a or specs[0], b or next(s for s in specs if s != (a or specs[0])),
                                    ax=axes[0][0])
        plots.scores_per_hand(lines, ax=axes[0][-1])
    fig.tight_layout()
    fig.savefig(out, dpi=80)
    plt.close(fig)


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python3 -m cardgames.report", description=__doc__.split("\n")[0])
    parser.add_argument("results", help="a results file of cardgames tournament or eval")
    parser.add_argument("-o", "--out", default="report.png", help="the picture to write (PNG)")
    parser.add_argument("--a", help="tournament --duplicate: player A of the paired difference")
    parser.add_argument("--b", help="player B")
    args = parser.parse_args(argv)
    try:
        draw(args.results, args.out, args.a, args.b)
    except (InputError, ValueError) as e:
        print(f"cardgames.report: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
