"""Figures of results files (matplotlib, Agg backend: no display needed), fit for a paper.

Each function takes a results file's lines as a list of dicts, header first, as `cardgames
tournament ... --out F` and `cardgames eval ... --out F` write them
(`[json.loads(l) for l in open(F)]`, or `cardgames.read_results(F).lines()`), draws on `ax` (a new
figure when None) and returns the axes. Save with `save(ax, "f.pdf")`: PDF and SVG are vector,
PNG is drawn at the dpi asked for. The rules (players, partnerships, cards per hand) come from the
file's header, so every preset's files work, partnership duplicate files and 17-card hands too.

- paired_difference(lines, a, b): tournament with --duplicate: the score per hand of player A
  minus player B on the same deals, its running mean board by board and the 95% band (Student's t,
  as the command line's paired comparison computes it).
- scores_per_hand(lines): tournament: each player's mean score per hand on each board, boards
  aligned across players (the same x is the same deals), with its running mean.
- loss_by_tricks_left(lines): eval --mode play: each policy's mean loss by the tricks left in the
  hand when it chose, with 95% intervals and the number of decisions under each bar.
- policy_losses(lines): eval (either mode): each policy's mean loss with its 95% interval and count.

Hearts scores are penalty points: their axes say "lower is better".
"""

import math

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import matplotlib.transforms  # noqa: E402
from matplotlib.ticker import MaxNLocator  # noqa: E402

# A hand's size for each player count the presets deal (52 cards, Hearts with 5 or 6 players
# deals 50 or 48): what an eval --mode play file's tricks are counted against when its header
# names no rules.
_HAND_SIZES = (8, 10, 13, 17)


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


def header_rules(header):
    """The Rules a results file's header names (tournament files, eval --mode bid files), or None
    when it names none (eval --mode play: the rules are the records')."""
    rules = header.get("options", {}).get("rules")
    if rules is None:
        return None
    from . import Rules

    return Rules(**rules)


def rotations(header):
    """Result lines per board of a tournament file: with --duplicate, one per seating (2 for
    partnership Spades, where the sides swap; else one per player), else 1."""
    options = header["options"]
    if not options.get("duplicate"):
        return 1
    rules = header_rules(header)
    partnership = rules.num_units < rules.players
    return 2 if partnership else rules.players


def lower_is_better(header):
    """Whether a score in this file is better when lower (Hearts penalty points)."""
    rules = header_rules(header)
    return rules is not None and rules.game == "hearts"


def _axes(ax, figsize=(6, 3.5)):
    if ax is None:
        _, ax = plt.subplots(figsize=figsize)
    return ax


def save(figure, path, dpi=300):
    """Writes a figure (or the figure of an axes) to path; the format is the file's extension:
    .pdf and .svg are vector (dpi only matters for rasterised parts), .png is drawn at dpi."""
    figure = getattr(figure, "figure", figure)
    figure.savefig(str(path), dpi=dpi, bbox_inches="tight")
    return path


def _mean_interval(values):
    """(mean, half width of the 95% Student's t interval (NaN below 2 values), count)."""
    n = len(values)
    if n == 0:
        return float("nan"), float("nan"), 0
    mean = sum(values) / n
    if n < 2:
        return mean, float("nan"), n
    sd = math.sqrt(max(0.0, sum((x - mean) ** 2 for x in values) / (n - 1)))
    return mean, _t_quantile(n - 1) * sd / math.sqrt(n), n


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


def board_sums(lines):
    """Per board, in board order: (board, lines, {spec: (sum of its seat-hand scores, hands)}),
    each unit counted once per line, as the command line's paired comparison counts them."""
    _, results = _split(lines, "tournament")
    per_board = {}
    for r in results:
        board = per_board.setdefault(r["board"], {"lines": 0, "sums": {}})
        board["lines"] += 1
        for spec, seat in _units(r):
            s = board["sums"].setdefault(spec, [0.0, 0])
            s[0] += sum(r["seat_hand_scores"][seat])
            s[1] += len(r["seat_hand_scores"][seat])
    return [(b, per_board[b]["lines"], {k: tuple(v) for k, v in per_board[b]["sums"].items()})
            for b in sorted(per_board)]


def board_pairs(lines, a, b):
    """Per complete board (all its rotations in the file), in board order: (board, A's mean score
    per hand, B's) on that board's deals."""
    header, _ = _split(lines, "tournament")
    wanted = rotations(header)
    pairs = []
    for board, count, sums in board_sums(lines):
        sa, sb = sums.get(a), sums.get(b)
        if count != wanted or not sa or not sb or not sa[1] or not sb[1]:
            continue
        pairs.append((board, sa[0] / sa[1], sb[0] / sb[1]))
    return pairs


def board_differences(lines, a, b):
    """Per complete board, in board order: A's mean score per hand minus B's (the differences the
    command line's paired comparison averages)."""
    return [x - y for _, x, y in board_pairs(lines, a, b)]


def paired_difference(lines, a, b, ax=None):
    """The running mean of A minus B per board with its 95% band."""
    header, _ = _split(lines, "tournament")
    diffs = board_differences(lines, a, b)
    if not diffs:
        raise ValueError(f"results: no complete board on which both {a} and {b} played")
    ax = _axes(ax)
    boards = list(range(1, len(diffs) + 1))
    means, lows, highs = _running_band(diffs)
    ax.plot(boards, means, marker="." if len(boards) < 30 else None, label=f"{a} − {b}")
    ax.fill_between(boards, lows, highs, alpha=0.3, label="95% interval")
    ax.axhline(0, color="grey", linewidth=0.8)
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel("boards (complete duplicate boards)")
    unit = "points" if lower_is_better(header) else "score"
    better = " (lower is better for A)" if lower_is_better(header) else " (higher is better for A)"
    ax.set_ylabel(f"A − B, {unit} per hand{better}")
    ax.set_title(f"paired difference: {a} − {b} (n = {len(diffs)} boards)")
    ax.legend()
    return ax


def scores_per_hand(lines, ax=None):
    """Each player's mean score per hand on each board (dots; the same x is the same deals for
    every player) and its running mean over the boards so far (total score over total hands). The
    legend's n is the player's hands, counted once for each seat unit it held (as the command
    line's table counts games)."""
    header, _ = _split(lines, "tournament")
    sums = board_sums(lines)
    specs = list(dict.fromkeys(spec for _, _, s in sums for spec in s))
    if not specs:
        raise ValueError("results: no tournament result lines")
    ax = _axes(ax)
    for spec in specs:
        boards, per_board, running = [], [], []
        total = hands = 0.0
        for board, _, s in sums:
            if spec not in s or not s[spec][1]:
                continue
            total += s[spec][0]
            hands += s[spec][1]
            boards.append(board + 1)
            per_board.append(s[spec][0] / s[spec][1])
            running.append(total / hands)
        points = ax.plot(boards, per_board, ".", alpha=0.35)[0]
        ax.plot(boards, running, color=points.get_color(), label=f"{spec} (n = {int(hands)})")
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel("board")
    if lower_is_better(header):
        ax.set_ylabel("points per hand (lower is better)")
    else:
        ax.set_ylabel("score per hand")
    ax.set_title("score per hand: each board (dots) and running mean")
    ax.legend()
    return ax


def eval_cards_per_hand(lines):
    """The cards per hand of an eval --mode play file: its header's rules when it names them,
    else the smallest hand size of the presets that holds every decision in it (at trick t a
    seat holds cards per hand − t cards, at least as many as its legal ones)."""
    header, results = _split(lines, "eval")
    rules = header_rules(header)
    if rules is not None:
        return rules.cards_per_hand
    least = max((r["trick"] + len(r.get("legal", ())) for r in results), default=0)
    for size in _HAND_SIZES:
        if size >= least:
            return size
    raise ValueError(f"results: a decision at trick {least - 1} is past every hand size {_HAND_SIZES}")


def _eval_policy_losses(lines):
    header, results = _split(lines, "eval")
    if not results:
        raise ValueError("results: no eval result lines")
    return header["options"]["policies"], results


def loss_by_tricks_left(lines, cards_per_hand=None, ax=None):
    """Eval --mode play: mean loss per policy by tricks left in the hand at the decision (the
    trick being played counts), with 95% intervals and each bar's count of decisions.
    cards_per_hand: None takes it from the file (eval_cards_per_hand)."""
    header, results = _split(lines, "eval")
    if header["options"].get("mode") != "play":
        raise ValueError("results: loss by tricks left needs an eval --mode play file")
    policies, results = _eval_policy_losses(lines)
    if cards_per_hand is None:
        cards_per_hand = eval_cards_per_hand(lines)
    by_left = [dict() for _ in policies]
    for r in results:
        left = cards_per_hand - r["trick"]
        if not 1 <= left <= cards_per_hand:
            raise ValueError(f"results: result {r['index']} is at trick {r['trick']}, past a hand of "
                             f"{cards_per_hand} cards")
        for p, loss in enumerate(r["loss"]):
            by_left[p].setdefault(left, []).append(loss)
    ax = _axes(ax)
    width = 0.8 / len(policies)
    for p, spec in enumerate(policies):
        lefts = sorted(by_left[p])
        stats = [_mean_interval(by_left[p][x]) for x in lefts]
        # Left to right in the order of the legend, on an axis that runs from the first trick.
        xs = [x - (p - (len(policies) - 1) / 2) * width for x in lefts]
        ax.bar(xs, [m for m, _, _ in stats], width, yerr=[h for _, h, _ in stats], capsize=2,
               error_kw={"linewidth": 0.8}, label=spec)
    # Every policy judged the same decisions: one count per bar group, along the top, in room kept
    # above the highest interval.
    low, high = ax.get_ylim()
    ax.set_ylim(low, high + 0.1 * (high - low))
    top = matplotlib.transforms.blended_transform_factory(ax.transData, ax.transAxes)
    for left, losses in sorted(by_left[0].items()):
        ax.text(left, 0.98, str(len(losses)), transform=top, ha="center", va="top", fontsize="x-small")
    ax.set_xlim(cards_per_hand + 0.5, 0.5)
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel("tricks left in the hand")
    ax.set_ylabel("mean loss (lower is better)")
    ax.set_title("eval: loss by tricks left (95% intervals; decisions along the top)")
    ax.legend(loc="center right")
    return ax


def policy_losses(lines, ax=None):
    """Eval (bid or play): each policy's mean loss against the reference's best choice, with its
    95% interval and its count of items."""
    header, _ = _split(lines, "eval")
    policies, results = _eval_policy_losses(lines)
    stats = [_mean_interval([r["loss"][p] for r in results]) for p in range(len(policies))]
    ax = _axes(ax, figsize=(max(3.5, 1.2 * len(policies) + 1.5), 3.5))
    ax.bar(range(len(policies)), [m for m, _, _ in stats], 0.6, yerr=[h for _, h, _ in stats], capsize=3,
           color=[f"C{p}" for p in range(len(policies))])
    ax.set_xticks(range(len(policies)), [f"{spec}\nn = {n}" for spec, (_, _, n) in zip(policies, stats)])
    ax.set_ylabel("mean loss (lower is better)")
    ax.set_title(f"{header['options'].get('mode')}: mean loss, 95% intervals")
    return ax
