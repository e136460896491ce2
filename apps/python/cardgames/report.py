"""python3 -m cardgames.report RESULTS -o report.png: the plots of a results file.

A tournament file: each player's score per hand board by board, and with --duplicate the paired
difference of two players (--a, --b; default the first two) board by board with its 95% band. An
eval --mode play file: each policy's mean loss by tricks left and overall; an eval --mode bid
file: each policy's mean loss. The output's extension chooses its format: .pdf and .svg are
vector, .png is drawn at --dpi. The rules (rotations per board, cards per hand) come from the
file's header. The file is read through the checked readers (cardgames.read_results): a bad file
is refused with the command line's message (exit status 2).
"""

import argparse
import pathlib
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from . import InputError, plots, read_results  # noqa: E402

FORMATS = (".png", ".pdf", ".svg")


def draw(path, out, a=None, b=None, dpi=150, cards_per_hand=None):
    if pathlib.Path(out).suffix.lower() not in FORMATS:
        raise InputError(f"-o '{out}': expected a file name ending in {', '.join(FORMATS)}")
    results = read_results(path)
    lines = results.lines()
    if results.command == "eval":
        play = results.header["options"]["mode"] == "play"
        fig, axes = plt.subplots(1, 2 if play else 1, figsize=(11 if play else 5, 4), squeeze=False,
                                 gridspec_kw={"width_ratios": [3, 1]} if play else None)
        if play:
            plots.loss_by_tricks_left(lines, cards_per_hand=cards_per_hand, ax=axes[0][0])
        plots.policy_losses(lines, ax=axes[0][-1])
    else:
        specs = list(dict.fromkeys(results.header["options"]["players"]))
        paired = results.header["options"].get("duplicate") and len(specs) >= 2
        fig, axes = plt.subplots(1, 2 if paired else 1, figsize=(12 if paired else 7, 4), squeeze=False)
        if paired:
            first = a or specs[0]
            plots.paired_difference(lines, first, b or next(s for s in specs if s != first), ax=axes[0][0])
        plots.scores_per_hand(lines, ax=axes[0][-1])
    fig.tight_layout()
    plots.save(fig, out, dpi=dpi)
    plt.close(fig)


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python3 -m cardgames.report", description=__doc__.split("\n")[0])
    parser.add_argument("results", help="a results file of cardgames tournament or eval")
    parser.add_argument("-o", "--out", default="report.png", help="the picture to write: .png, .pdf or .svg")
    parser.add_argument("--dpi", type=int, default=150, help="dots per inch of a .png (default 150)")
    parser.add_argument("--a", help="tournament --duplicate: player A of the paired difference")
    parser.add_argument("--b", help="player B")
    parser.add_argument("--cards-per-hand", type=int,
                        help="eval --mode play: the hand size its records were dealt (default: from the file)")
    args = parser.parse_args(argv)
    try:
        if not 1 <= args.dpi <= 2400:
            raise InputError(f"--dpi {args.dpi}: expected 1 to 2400")
        draw(args.results, args.out, args.a, args.b, dpi=args.dpi, cards_per_hand=args.cards_per_hand)
    except (InputError, ValueError) as e:
        print(f"cardgames.report: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
