"""Figures of results files (matplotlib, Agg backend: no display needed).

Each function takes a results file's lines as a list of dicts, header first, as `cardgames
tournament ... --out F` and `cardgames eval ... --out F` write them
(`[json.loads(l) for l in open(F)]`), draws on `ax` (a new figure when None) and returns the axes.
Save with `ax.figure.savefig("f.png")`.

- paired_difference(lines, a, b): tournament with --duplicate: the score per hand of player A
  minus player B on the same deals, its running mean board by board and the 95% band (Student's t,
  as the command line's paired comparison computes it).
- scores_per_hand(lines): tournament: each player's score per hand, hand by hand, with its running
  mean.
- loss_by_tricks_left(lines): eval --mode play: each policy's mean loss by the tricks left in the
  hand when it chose.
"""

import math

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def _t_quantile(df, p=0.975):
    """Student's t quantile (scipy's when there, else a Cornish-Fisher expansion)."""
    try:
        from scipy.stats import t

        return float(t.ppf(p, df))
    except ImportError:
        z = 1.959963984540054 if p == 0.975 else math.sqrt(2) * _erfinv(2 * p - 1)
        g1 = (z**3 + z) / 4
        g2 = (5 * z**5 + 16 * z**3 + 3 * z) / 96
        g3 = (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / 384
        return z + g1 / df + g2 / df**2 + g3 / df**3


def _erfinv(y):
    # Winitzki's approximation, refined by two Newton steps.
    a = 0.147
    ln = math.log(1 - y * y)
    x = math.copysign(math.sqrt(math.sqrt((2 / (math.pi * a) + ln / 2) ** 2 - ln / a) - (2 / (math.pi * a) + ln / 2)), y)
    for _ in range(2):
        x -= (math.erf(x) - y) / (2 / math.sqrt(math.pi) * math.exp(-x * x))
    return x


def _split(lines, command):
    if not lines or lines[0].get("type") != "header":
        raise ValueError("results: the first line must be the header")
    if lines[0].get("command") != command:
        raise ValueError(f"results: a {lines[0].get('command')} file, not a {command} file")
    return lines[0], [line for line in lines[1:] if line.get("type") != "header"]


def _axes(ax):
    if ax is None:
        _, ax = plt.subplots(figsize=(7, 4))
    return ax


def _running_band(values):
    means, lows, highs = [], [], []
    # Running sums, so that a band over n values costs n steps, not n squared.
    total = total_sq = 0.0
    for k, x in enumerate(values, 1):
        total += x
        total_sq += x * x
        mean = total / k
        means.append(mean)
        if k < 2:
            lows.append(float("nan"))
            highs.append(float("nan"))
            continue
        sd = math.sqrt(max(0.0, (total_sq - k * mean * mean) / (k - 1)))
        half = _t_quantile(k - 1) * sd / math.sqrt(k)
        lows.append(mean - half)
        highs.append(mean + half)
    return means, lows, highs


def _units(result):
    """Each unit (a player spec in one seat unit: a partnership or a lone seat) of a tournament
    result once, as (spec, seat) for its first seat: a unit's seats share its scores."""
    seen = set()
    for seat, spec in enumerate(result["players"]):
        key = (spec, result["seat_unit"][seat])
        if key not in seen:
            seen.add(key)
            yield spec, seat


def board_differences(lines, a, b):
    """Per complete board, in board order: A's mean score per hand minus B's (the differences the
    command line's paired comparison averages)."""
    header, results = _split(lines, "tournament")
    rotations = len(header["options"]["players"]) if header["options"].get("duplicate") else 1
    per_board = {}
    for r in results:
        board = per_board.setdefault(r["board"], {"lines": 0, "sums": {}})
        board["lines"] += 1
        for spec, seat in _units(r):
            s = board["sums"].setdefault(spec, [0.0, 0])
            s[0] += sum(r["seat_hand_scores"][seat])
            s[1] += len(r["seat_hand_scores"][seat])
    diffs = []
    for board in sorted(per_board):
        data = per_board[board]
        if data["lines"] != rotations:
            continue
        sa, sb = data["sums"].get(a), data["sums"].get(b)
        if not sa or not sb or not sa[1] or not sb[1]:
            continue
        diffs.append(sa[0] / sa[1] - sb[0] / sb[1])
    return diffs


def paired_difference(lines, a, b, ax=None):
    """The running mean of A minus B per board with its 95% band."""
    diffs = board_differences(lines, a, b)
    if not diffs:
        raise ValueError(f"results: no complete board on which both {a} and {b} played")
    ax = _axes(ax)
    boards = list(range(1, len(diffs) + 1))
    means, lows, highs = _running_band(diffs)
    ax.plot(boards, means, label=f"{a} - {b}")
    ax.fill_between(boards, lows, highs, alpha=0.3, label="95% interval")
    ax.axhline(0, color="grey", linewidth=0.8)
    ax.set_xlabel("boards")
    ax.set_ylabel("score per hand, A - B (running mean)")
    ax.set_title(f"paired difference: {a} - {b}")
    ax.legend()
    return ax


def scores_per_hand(lines, ax=None):
    """Each player's score per hand, hand by hand in file order, and its running mean."""
    _, results = _split(lines, "tournament")
    series = {}
    for r in results:
        for spec, seat in _units(r):
            series.setdefault(spec, []).extend(r["seat_hand_scores"][seat])
    if not series:
        raise ValueError("results: no tournament result lines")
    ax = _axes(ax)
    for spec, xs in series.items():
        hands = list(range(1, len(xs) + 1))
        points = ax.plot(hands, xs, ".", alpha=0.3)[0]
        ax.plot(hands, _running_band(xs)[0], color=points.get_color(), label=spec)
    ax.set_xlabel("hands")
    ax.set_ylabel("score per hand (dots) and running mean")
    ax.set_title("score per hand")
    ax.legend()
    return ax


def loss_by_tricks_left(lines, cards_per_hand=13, ax=None):
    """Eval --mode play: mean loss per policy by tricks left in the hand at the decision."""
    header, results = _split(lines, "eval")
    if header["options"].get("mode") != "play":
        raise ValueError("results: loss by tricks left needs an eval --mode play file")
    policies = header["options"]["policies"]
    by_left = [dict() for _ in policies]
    for r in results:
        left = cards_per_hand - r["trick"]
        for p, loss in enumerate(r["loss"]):
            s = by_left[p].setdefault(left, [0.0, 0])
            s[0] += loss
            s[1] += 1
    if not results:
        raise ValueError("results: no eval result lines")
    ax = _axes(ax)
    width = 0.8 / len(policies)
    for p, spec in enumerate(policies):
        lefts = sorted(by_left[p])
        ax.bar([x + (p - (len(policies) - 1) / 2) * width for x in lefts],
               [by_left[p][x][0] / by_left[p][x][1] for x in lefts], width, label=spec)
    ax.set_xlabel("tricks left in the hand")
    ax.set_ylabel("mean loss")
    ax.set_title("eval: loss by tricks left")
    ax.invert_xaxis()
    ax.legend()
    return ax
