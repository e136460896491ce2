#!/usr/bin/env python3
"""End-to-end checks of the predictive cut-off evaluation (issue 25): `learn cutoff-data` writes the
same file for any --threads (Hearts and Spades), `learn cutoff-fit` writes a model that names its command and data and
prints its held-out error beside the even share's, the model
plays through `pimc:eval=search,cutoff=model` with the same decisions for any thread count, and bad
input (seeds, games, model files, options) is refused with exit 2.

usage: learn_cutoff_e2e.py CARDGAMES_BINARY CASE

pimc runs with few worlds and nodes so that the runs are short.
"""
import json

from e2e import check, expect_bad, finish, header_of, path, plays, read, run, same_for_threads, shipped_model

SEARCH = "pimc:eval=search,worlds=4,nodes=150,rollouts=4"


def data(out, threads, hands="6", seed="1000007", preset="hearts4"):
    return run("learn", "cutoff-data", "--preset", preset, "--hands", hands, "--seed", seed,
               "--threads", threads, "--out", path(out), "--quiet")


def case_cutoff_data_fit_play():
    lines = same_for_threads(data, "c", "learn cutoff-data")
    check(len(lines) == 7, f"6 hands and a header, got {len(lines)} lines")
    for l in lines[1:]:
        positions = json.loads(l)["positions"]
        check([p["tricks_left"] for p in positions] == list(range(13, 0, -1)), "one position per trick boundary")
        for p in positions:
            check(sum(p["rest"]) == p["points_left"], "the seats take every point left")
            check(len(p["features"]) == 4 and all(len(r) == 20 for r in p["features"]), "20 features per seat")
        check(positions[0]["points_left"] == 26, "the whole hand's points at the first trick")

    out = run("learn", "cutoff-fit", "--data", path("c1.jsonl"), "--holdout", "3", "--out", path("m.txt")).stdout
    check("held-out seat positions: mean abs error" in out and "even share" in out and "wrote" in out, out)
    model = header_of(read("m.txt"))
    check(model.startswith("cardgames-model 2\n") and "\nkind linear\ntask cutoff-eval\n" in model
          and "\nform hearts4\n" in model, "model header")
    check(f"command cardgames learn cutoff-fit --data {path('c1.jsonl')}" in model, "the command is recorded")
    check("seed 1000007" in model and "--players \"rule,rule,rule,rule\"" in model, "the data's command is recorded")

    spec = f"{SEARCH},cutoff=model,cutoff_model={path('m.txt')}"
    plays_alike_on_any_threads("hearts4", f"{spec},rule,rule,rule", 4)


def plays_alike_on_any_threads(preset, players, games):
    """A one-board duplicate match plays the same for --threads 1 and 2, and its records replay."""
    for threads in ("1", "2"):
        run("tournament", "--preset", preset, "--players", players, "--hands", "1", "--seed", "1011",
            "--duplicate", "--threads", threads, "--quiet", "--out", path(f"{preset}-t{threads}.jsonl"))
    check(plays(f"{preset}-t1.jsonl") == plays(f"{preset}-t2.jsonl"),
          f"cutoff=model ({preset}): --threads 1 and 2 play differently")
    out = run("replay", path(f"{preset}-t1.jsonl")).stdout
    check(f"{games} games replayed, 0 with errors" in out, out)


def case_cutoff_spades():
    # Spades: the tricks each seat takes in the rest of the hand, given the bids.
    spades = same_for_threads(lambda out, t: data(out, t, hands="4", preset="spades-partnership"), "s",
                              "learn cutoff-data (Spades)")
    for l in spades[1:]:
        for p in json.loads(l)["positions"]:
            check(sum(p["rest"]) == p["tricks_left"], "the seats take every trick left")
            check(len(p["features"]) == 4 and all(len(r) == 20 for r in p["features"]), "20 features per seat")
    out = run("learn", "cutoff-fit", "--data", path("s1.jsonl"), "--holdout", "2", "--out", path("s.txt")).stdout
    check("held-out seat positions" in out, out)
    model = header_of(read("s.txt"))
    names = [l for l in model.splitlines() if l.startswith("names ")]
    check("\nform spades-partnership\n" in model and names and "need" in names[0].split()
          and "the tricks a seat takes" in model,
          "a Spades model of Spades features")
    # A Hearts data file beside a Spades one is refused.
    data("h.jsonl", "1", hands="1")
    expect_bad(["learn", "cutoff-fit", "--data", path("s1.jsonl"), "--data", path("h.jsonl"), "--out", path("x.txt")],
               "'hearts4' data beside 'spades-partnership' data")
    spec = f"{SEARCH},cutoff=model,cutoff_model={path('s.txt')}"
    plays_alike_on_any_threads("spades-partnership", f"{spec},rule,{spec},rule", 2)


def tournament_with(spec, game="hearts"):
    return ["tournament", "--game", game, "--players", ",".join([spec] + ["rule"] * 3), "--hands", "1",
            "--out", path("t.jsonl")]


def case_cutoff_refuse():
    expect_bad(["learn", "cutoff-data", "--preset", "hearts4", "--hands", "1", "--seed", "1051",
                "--out", path("x.jsonl")], "--seed 1051", "training seed")
    expect_bad(["learn", "cutoff-fit", "--data", path("none.jsonl"), "--out", path("m.txt")], "none.jsonl")
    good = ["cardgames-model 1", "kind cutoff-eval", "form hearts4", "weights 20", "bias 1.0"]
    with open(path("bad.txt"), "w") as f:
        f.write("\n".join(good + ["points_left x"]) + "\n")
    expect_bad(tournament_with(f"{SEARCH},cutoff=model,cutoff_model={path('bad.txt')}"),
               f"model '{path('bad.txt')}' line 6: 'x' is not a number")
    with open(path("policy.txt"), "wb") as f:
        f.write(shipped_model("hearts4-playout.txt"))
    expect_bad(tournament_with(f"{SEARCH},cutoff=model,cutoff_model={path('policy.txt')}"),
               "a 'playout-policy' model, not a cutoff-eval")
    expect_bad(tournament_with("pimc:cutoff=model"), "cutoff=model goes with eval=search")
    expect_bad(tournament_with(f"{SEARCH},cutoff_model=x.txt"), "cutoff_model= goes with cutoff=model")
    expect_bad(tournament_with(f"{SEARCH},cutoff=magic"), "cutoff=magic is not even, model or net")
    with open(path("hearts.txt"), "wb") as f:
        f.write(shipped_model("hearts4-cutoff.txt"))
    expect_bad(tournament_with(f"{SEARCH},cutoff=model,cutoff_model={path('hearts.txt')}", game="spades"),
               f"model '{path('hearts.txt')}': made for hearts4, not for spades-partnership")
    expect_bad(tournament_with(f"{SEARCH},cutoff=model,utility=tricks", game="spades"),
               "cutoff=model goes with utility=score")


finish()
