#!/usr/bin/env python3
"""End-to-end checks of `cardgames learn` and the learned play-out policy (issue 25): the data file
is the same for any --threads, a fitted model plays through `policy` and `pimc:playout=model` with
the same decisions for any thread count, and bad input (seeds, model files) is refused with exit 2.

usage: learn_e2e.py CARDGAMES_BINARY CASE

pimc runs with few worlds so that the runs are short.
"""
import json

from e2e import check, expect_bad, finish, mpirun, path, plays, read, run, same_for_threads

PIMC = "pimc:worlds=4,rollouts=4"


def data(out, threads, hands="3", seed="1000005"):
    return run("learn", "data", "--game", "hearts", "--players", f"{PIMC},rule,{PIMC},rule", "--hands", hands,
               "--seed", seed, "--threads", threads, "--out", path(out), "--quiet")


def case_learn_threads():
    lines = same_for_threads(data, "d", "learn data")
    check(len(lines) == 4, f"3 hands and a header, got {len(lines)} lines")
    decisions = [d for l in lines[1:] for d in json.loads(l)["decisions"]]
    check(decisions and {d["seat"] for d in decisions} == {0, 2}, "only the pimc seats are recorded")
    for d in decisions:
        n = len(d["cards"])
        check(n >= 2 and len(d["values"]) == n and len(d["features"]) == n, "one row per legal card")
        check(max(d["values"]) == d["values"][d["choice"]], "pimc's choice has the best value")
        check(sum(row[0] for row in d["features"]) == 1, "one card is the rule player's")
    report = run("learn", "data", "--report", path("d1.jsonl")).stdout
    check(f"3 hands of hearts4, {len(decisions)} decisions" in report, report)

    out = run("learn", "fit", "--data", path("d1.jsonl"), "--holdout", "3", "--out", path("m.txt")).stdout
    check("held out" in out and "wrote" in out, out)
    model = read("m.txt").decode()
    check(model.startswith("cardgames-model 1\n") and "\nform hearts4\n" in model, "model header")
    check(f"command cardgames learn fit --data {path('d1.jsonl')}" in model, "the command is recorded")
    check("seed 1000005" in model, "the data's seed is recorded")

    # The model plays, by itself and inside pimc's play-outs, the same for any thread count.
    for k, spec in enumerate((f"policy:model={path('m.txt')}", f"{PIMC},playout=model,playout_model={path('m.txt')}")):
        for threads in ("1", "2"):
            run("tournament", "--game", "hearts", "--players", f"{spec},rule,rule,rule", "--hands", "2",
                "--seed", "1011", "--duplicate", "--threads", threads, "--quiet", "--out", path(f"t{k}{threads}.jsonl"))
        check(plays(f"t{k}1.jsonl") == plays(f"t{k}2.jsonl"), f"{spec}: --threads 1 and 2 play differently")
        out = run("replay", path(f"t{k}1.jsonl")).stdout
        check("8 games replayed, 0 with errors" in out, out)


def case_learn_mpi():
    # Two ranks write the file that one process writes.
    data("one.jsonl", "2")
    mpirun(2, "learn", "data", "--game", "hearts", "--players", f"{PIMC},rule,{PIMC},rule", "--hands", "3",
           "--seed", "1000005", "--threads", "1", "--out", path("two.jsonl"), "--quiet")
    check(read("one.jsonl") == read("two.jsonl"), "learn data: 2 ranks and 1 process write different files")


def case_learn_refuse():
    expect_bad(["learn", "data", "--game", "hearts", "--hands", "1", "--seed", "1011", "--out", path("x.jsonl")],
               "--seed 1011", "training seed, 1000000..1999999999")
    expect_bad(["learn", "data", "--game", "hearts", "--hands", "1", "--players", "rule,rule,rule,rule",
                "--out", path("x.jsonl")], "no pimc seat")
    expect_bad(["learn"], "give 'data'")
    expect_bad(["learn", "fit", "--data", path("none.jsonl"), "--out", path("m.txt")], "none.jsonl")
    good = ["cardgames-model 1", "kind playout-policy", "form hearts4", "weights 29"]
    with open(path("bad.txt"), "w") as f:
        f.write("\n".join(good + ["rule 1.0", "lead_rank x"]) + "\n")
    for spec in (f"policy:model={path('bad.txt')}", f"pimc:playout=model,playout_model={path('bad.txt')}"):
        expect_bad(["tournament", "--game", "hearts", "--players", f"{spec},rule,rule,rule", "--hands", "1",
                    "--out", path("t.jsonl")], f"model '{path('bad.txt')}' line 6: 'x' is not a number")
    expect_bad(["tournament", "--game", "hearts", "--players", f"policy:model={path('none.txt')},rule,rule,rule",
                "--hands", "1", "--out", path("t.jsonl")], f"model '{path('none.txt')}'")
    expect_bad(["tournament", "--game", "hearts", "--players", "pimc:playout_model=x.txt,rule,rule,rule",
                "--hands", "1", "--out", path("t.jsonl")], "model= goes with playout=model")
    expect_bad(["tournament", "--game", "hearts", "--players", "pimc:playout=magic,rule,rule,rule",
                "--hands", "1", "--out", path("t.jsonl")], "playout=magic is not rule or model")


finish()
