"""The report and the figures on every kind of results file: partnership duplicate files (two
rotations a board), 3-player cutthroat (17-card hands), eval files of both modes; vector output
and a chosen dpi; what the axes say. to_pandas() rows and per-board pairs."""
import contextlib
import io
import json
import struct
import subprocess
import types

import pytest

import cardgames
import cardgames.report
from cardgames import plots


@pytest.fixture(autouse=True)
def close_figures():
    yield
    plots.plt.close("all")


def cli(cardgames_bin, *args):
    return subprocess.run([cardgames_bin, *map(str, args)], check=True, capture_output=True, text=True)


def tournament_file(cardgames_bin, tmp_path, preset, players, hands=3, seed=2, duplicate=True):
    out = tmp_path / f"{preset}.jsonl"
    run = cli(cardgames_bin, "tournament", "--preset", preset, "--players", ",".join(players), "--hands", hands,
              *(["--duplicate"] if duplicate else []), "--seed", seed, "--threads", 1, "--quiet", "--out", out)
    return out, run.stdout


def read_lines(path):
    return [json.loads(line) for line in path.read_text().splitlines()]


def table_pair(stdout, a, b):
    line = next(line for line in stdout.splitlines() if f"{a} - {b}:" in line)
    return float(line.split(":")[1].split()[0])


def report(path, out, *extra):
    """`python3 -m cardgames.report PATH -o OUT ...`, run in this process (its main(), what the
    command runs; test_runs.py runs the command itself): its exit status and standard error."""
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        status = cardgames.report.main([str(path), "-o", str(out), *extra])
    return types.SimpleNamespace(returncode=status, stderr=err.getvalue())


@pytest.mark.parametrize("preset,players,rotations", [
    ("spades-partnership", ["rule", "random", "rule", "random"], 2),
    ("spades-cutthroat3", ["rule", "random", "rule"], 3),
    ("hearts4", ["rule", "random", "rule", "rule"], 4),
])
def test_paired_difference_on_every_kind_of_duplicate_file(cardgames_bin, tmp_path, preset, players, rotations):
    """The rotations per board come from the header: a partnership file has two lines a board, and
    its paired difference is the command line's (it was refused: "no complete board")."""
    path, stdout = tournament_file(cardgames_bin, tmp_path, preset, players, hands=3)
    lines = read_lines(path)
    assert plots.rotations(lines[0]) == rotations
    assert len(lines) - 1 == 3 * rotations
    diffs = plots.board_differences(lines, "rule", "random")
    assert len(diffs) == 3
    assert f"{sum(diffs) / len(diffs):.2f}" == f"{table_pair(stdout, 'rule', 'random'):.2f}"
    result = cardgames.read_results(path)
    pairs = result.board_pairs("rule", "random")
    assert list(pairs["board"]) == [0, 1, 2]
    assert list(pairs["difference"]) == pytest.approx(diffs)
    assert result.summary()["pairs"][0]["difference"]["estimate"] == pytest.approx(pairs["difference"].mean())
    run = report(path, tmp_path / "report.png")
    assert run.returncode == 0, run.stderr


def test_incomplete_board_is_left_out(cardgames_bin, tmp_path):
    path, _ = tournament_file(cardgames_bin, tmp_path, "spades-partnership", ["rule", "random", "rule", "random"])
    lines = read_lines(path)[:-1]  # board 2 has one of its two rotations
    assert len(plots.board_differences(lines, "rule", "random")) == 2


def test_loss_by_tricks_left_on_17_card_hands(cardgames_bin, tmp_path):
    """3-player Spades deals 17 cards: tricks left run 17..1 (they ran 14 down to -2)."""
    records, _ = tournament_file(cardgames_bin, tmp_path, "spades-cutthroat3", ["rule", "random", "rule"], hands=2)
    evals = tmp_path / "e.jsonl"
    cli(cardgames_bin, "eval", "--mode", "play", "--records", records, "--policies", "rule,random", "--count", 60,
        "--samples", 1, "--threads", 1, "--quiet", "--out", evals)
    lines = read_lines(evals)
    assert plots.eval_cards_per_hand(lines) == 17
    ax = plots.loss_by_tricks_left(lines)
    lefts = {round(bar.get_x() + bar.get_width() / 2) for bar in ax.patches}
    tricks = {r["trick"] for r in lines[1:]}
    assert lefts == {17 - t for t in tricks}
    assert min(lefts) >= 1 and max(lefts) <= 17 and max(lefts) >= 14
    assert ax.get_xlim() == (17.5, 0.5)
    # Each group of bars is labelled with its count of decisions; they add up to the file's items.
    counts = {round(t.get_position()[0]): int(t.get_text()) for t in ax.texts}
    assert set(counts) == lefts and sum(counts.values()) == len(lines) - 1
    # A 13-card file is told apart.
    records4, _ = tournament_file(cardgames_bin, tmp_path, "hearts4", ["rule", "random", "rule", "rule"], hands=2)
    evals4 = tmp_path / "e4.jsonl"
    cli(cardgames_bin, "eval", "--mode", "play", "--records", records4, "--policies", "rule", "--count", 40,
        "--samples", 1, "--threads", 1, "--quiet", "--out", evals4)
    assert plots.eval_cards_per_hand(read_lines(evals4)) == 13
    with pytest.raises(ValueError, match="past a hand of 8 cards"):
        plots.loss_by_tricks_left(read_lines(evals), cards_per_hand=8)
    run = report(evals, tmp_path / "e.pdf", "--cards-per-hand", "8")
    assert run.returncode == 2 and "past a hand of 8 cards" in run.stderr
    assert report(evals, tmp_path / "e.pdf").returncode == 0


@pytest.mark.parametrize("suffix,magic", [(".pdf", b"%PDF"), (".svg", b"<?xml"), (".png", b"\x89PNG")])
def test_report_writes_vector_and_raster(cardgames_bin, tmp_path, suffix, magic):
    path, _ = tournament_file(cardgames_bin, tmp_path, "hearts4", ["rule", "random", "rule", "rule"])
    out = tmp_path / f"report{suffix}"
    run = report(path, out)
    assert run.returncode == 0, run.stderr
    data = out.read_bytes()
    assert data.startswith(magic)
    if suffix == ".svg":
        assert b"<svg" in data and b"<image" not in data  # vector: no embedded picture


def png_size(path):
    width, height = struct.unpack(">II", path.read_bytes()[16:24])
    return width, height


def test_dpi_is_the_one_asked_for(cardgames_bin, tmp_path):
    path, _ = tournament_file(cardgames_bin, tmp_path, "hearts4", ["rule", "random", "rule", "rule"])
    assert report(path, tmp_path / "a.png", "--dpi", "100").returncode == 0
    assert report(path, tmp_path / "b.png", "--dpi", "200").returncode == 0
    (wa, ha), (wb, hb) = png_size(tmp_path / "a.png"), png_size(tmp_path / "b.png")
    assert abs(wb - 2 * wa) <= 4 and abs(hb - 2 * ha) <= 4
    bad = report(path, tmp_path / "c.png", "--dpi", "0")
    assert bad.returncode == 2 and "--dpi 0" in bad.stderr
    bad = report(path, tmp_path / "c.jpg")
    assert bad.returncode == 2 and "c.jpg" in bad.stderr


def test_axes_say_what_is_better_and_count_boards_in_whole_numbers(cardgames_bin, tmp_path):
    hearts, _ = tournament_file(cardgames_bin, tmp_path, "hearts4", ["rule", "random", "rule", "rule"], hands=3)
    spades, _ = tournament_file(cardgames_bin, tmp_path, "spades-partnership", ["rule", "random", "rule", "random"])
    for path, lower in [(hearts, True), (spades, False)]:
        lines = read_lines(path)
        for ax in (plots.scores_per_hand(lines), plots.paired_difference(lines, "rule", "random")):
            assert ("lower is better" in ax.get_ylabel()) == lower
            ax.figure.canvas.draw()
            ticks = [t for t in ax.get_xticks() if ax.get_xlim()[0] <= t <= ax.get_xlim()[1]]
            assert ticks and all(float(t).is_integer() for t in ticks)


def test_scores_per_hand_aligns_boards_across_players(cardgames_bin, tmp_path):
    """Each player's points are on the boards' x: the same x is the same deals for every player."""
    path, _ = tournament_file(cardgames_bin, tmp_path, "spades-partnership", ["rule", "random", "rule", "random"],
                              hands=4)
    ax = plots.scores_per_hand(read_lines(path))
    xs = [list(line.get_xdata()) for line in ax.lines]
    assert xs and all(x == [1, 2, 3, 4] for x in xs)


def test_policy_losses_have_intervals_and_counts(cardgames_bin, tmp_path):
    evals = tmp_path / "bids.jsonl"
    cli(cardgames_bin, "eval", "--mode", "bid", "--preset", "spades-partnership", "--policies", "rule,random",
        "--count", 3, "--samples", 2, "--threads", 1, "--quiet", "--out", evals)
    lines = read_lines(evals)
    ax = plots.policy_losses(lines)
    items = len(lines) - 1
    assert [t.get_text() for t in ax.get_xticklabels()] == [f"rule\nn = {items}", f"random\nn = {items}"]
    assert len(ax.lines) + len(ax.collections) >= 1  # the error bars
    means = [bar.get_height() for bar in ax.patches]
    assert means == pytest.approx([sum(r["loss"][p] for r in lines[1:]) / items for p in range(2)])
    run = report(evals, tmp_path / "bids.svg")
    assert run.returncode == 0, run.stderr


def test_to_pandas_is_one_row_per_seat_and_hand(cardgames_bin, tmp_path):
    out = tmp_path / "games.jsonl"
    cli(cardgames_bin, "tournament", "--preset", "hearts4", "--players", "rule,random,rule,rule", "--games", 1,
        "--seed", 3, "--threads", 1, "--quiet", "--out", out)
    result = cardgames.read_results(out)
    frame = result.to_pandas()
    record = result.records[0]
    hands = len(record["seat_hand_scores"][0])
    assert hands > 1 and len(frame) == 4 * hands
    assert list(frame.columns) == ["index", "board", "rotation", "seat", "player", "unit", "hand", "score", "win",
                                   "bid", "blind", "tricks"]
    for seat in range(4):
        rows = frame[frame["seat"] == seat]
        assert list(rows["hand"]) == list(range(hands))
        assert list(rows["score"]) == record["seat_hand_scores"][seat]
        assert list(rows["tricks"]) == [h["tricks"][seat] for h in record["hands"]]
    assert (frame["bid"] == -1).all() and not frame["blind"].any()  # Hearts has no bids
    games = result.to_pandas(per="game")
    assert len(games) == 4 and list(games["hands"]) == [hands] * 4
    assert list(games["score"]) == [sum(s) for s in record["seat_hand_scores"]]
    with pytest.raises(ValueError, match="per='seat'"):
        result.to_pandas(per="seat")


def test_to_pandas_gives_each_seats_bid_and_tricks_in_spades(cardgames_bin, tmp_path):
    """The bid and the tricks taken of every seat and hand, as the game records have them: the
    tricks of a hand sum to its cards per hand, and a nil is made where bid == 0 and tricks == 0."""
    out = tmp_path / "spades.jsonl"
    cli(cardgames_bin, "tournament", "--preset", "spades-partnership", "--players", "rule,random,rule,random",
        "--games", 2, "--seed", 5, "--threads", 1, "--quiet", "--out", out)
    result = cardgames.read_results(out)
    frame = result.to_pandas()
    for (index, hand), rows in frame.groupby(["index", "hand"]):
        played = result.records[index]["hands"][hand]
        assert list(rows["bid"]) == played["bids"]
        assert list(rows["blind"]) == played["blind_nil"]
        assert list(rows["tricks"]) == played["tricks"]
        assert rows["tricks"].sum() == 13
    assert (frame["bid"] == 0).any()  # random bids nil often enough to check the count below
    nils = frame[frame["bid"] == 0]
    made = sum(all(w != r.seat for w in result.records[r.index]["hands"][r.hand]["trick_winners"])
               for r in nils.itertuples())
    assert (nils["tricks"] == 0).sum() == made


def test_to_pandas_pairs_are_the_summarys(cardgames_bin, tmp_path):
    """per="pair": a row per complete board and pair of players; each pair's mean difference is
    the summary's (the command line's paired comparison)."""
    path, _ = tournament_file(cardgames_bin, tmp_path, "spades-cutthroat3", ["rule", "random", "pimc:worlds=2,rollouts=2"],
                              hands=2)
    result = cardgames.read_results(path)
    frame = result.to_pandas(per="pair")
    summary = result.summary()["pairs"]
    assert len(frame) == 2 * len(summary) == 6
    for pair in summary:
        rows = frame[(frame["a"] == pair["a"]) & (frame["b"] == pair["b"])]
        assert list(rows["board"]) == [0, 1]
        assert rows["difference"].mean() == pytest.approx(pair["difference"]["estimate"])
    with pytest.raises(ValueError, match="per='pairs'"):
        cardgames.read_results(path).to_pandas(per="pairs")
