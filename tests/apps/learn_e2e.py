#!/usr/bin/env python3
"""End-to-end checks of `cardgames learn` and the learned play-out policy (issue 25): the data file
is the same for any --threads, a fitted model plays through `policy` and `pimc:playout=model` with
the same decisions for any thread count, and bad input (seeds, model files) is refused with exit 2.

usage: learn_e2e.py CARDGAMES_BINARY CASE

pimc runs with few worlds so that the runs are short.
"""
import json
import os

from e2e import (check, expect_bad, finish, header_of, mpirun, path, plays, read, run, same_for_threads,
                 shipped_model, version_one)

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
    model = header_of(read("m.txt"))
    check(model.startswith("cardgames-model 2\n") and "\nkind linear\ntask playout-policy\n" in model
          and "\nform hearts4\n" in model and "\ntensor weight f64 29\n" in model, "model header")
    check(f"command cardgames learn fit --data {path('d1.jsonl')}" in model, "the command is recorded")
    check("seed 1000005" in model and "\nseeds 1000005\n" in model, "the data's seed is recorded")

    # The model plays, by itself and inside pimc's play-outs, the same for any thread count.
    for k, spec in enumerate((f"policy:model={path('m.txt')}", f"{PIMC},playout=model,playout_model={path('m.txt')}")):
        for threads in ("1", "2"):
            run("tournament", "--game", "hearts", "--players", f"{spec},rule,rule,rule", "--hands", "2",
                "--seed", "1011", "--duplicate", "--threads", threads, "--quiet", "--out", path(f"t{k}{threads}.jsonl"))
        check(plays(f"t{k}1.jsonl") == plays(f"t{k}2.jsonl"), f"{spec}: --threads 1 and 2 play differently")
        out = run("replay", path(f"t{k}1.jsonl")).stdout
        check("8 games replayed, 0 with errors" in out, out)


def case_learn_convert():
    # A version 1 file plays as before, and converted it plays the same and reads back the same.
    with open(path("v1.txt"), "w") as f:
        f.write(version_one(shipped_model("hearts4-playout.txt")))
    out = run("learn", "convert", "--in", path("v1.txt"), "--out", path("v2.txt")).stdout
    check("a playout-policy model for hearts4, 29 weights, version 1" in out, out)
    v2 = read("v2.txt")
    check(header_of(v2).startswith("cardgames-model 2\n# an old file\n# Converted from version 1"), "comments kept")
    check(v2[-8 * 29:] == shipped_model("hearts4-playout.txt")[-8 * 29:], "the same weights, bit for bit")
    for name in ("v1", "v2"):
        run("tournament", "--game", "hearts", "--players", f"policy:model={path(name + '.txt')},rule,{PIMC},rule",
            "--hands", "2", "--seed", "1011", "--duplicate", "--threads", "2", "--quiet", "--out",
            path(f"c{name}.jsonl"))
    check(plays("cv1.jsonl") == plays("cv2.jsonl"), "the converted model plays differently")

    # Lying version 2 files are refused (exit 2), naming the file and what is wrong.
    def refused(name, data, *fragments, game="hearts"):
        with open(path(name), "wb") as f:
            f.write(data)
        expect_bad(["tournament", "--game", game, "--players", f"policy:model={path(name)},rule,rule,rule",
                    "--hands", "1", "--out", path("t.jsonl")], f"model '{path(name)}'", *fragments)

    refused("flipped.txt", v2[:-5] + bytes([v2[-5] ^ 1]) + v2[-4:], "field 'checksum'", "altered or damaged")
    refused("short.txt", v2[:-20], "truncated: the payload has 212 of 232 bytes")
    refused("header.txt", v2[:v2.index(b"\nform ")], "truncated: the header ends")
    refused("cutoff.txt", shipped_model("hearts4-cutoff.txt"), "a 'cutoff-eval' model, not a playout-policy")
    refused("spades.txt", v2, "made for hearts4, not for spades-partnership", game="spades")
    refused("relabelled.txt", v2.replace(b"kind linear", b"kind lineal"), "field 'checksum'")
    expect_bad(["learn", "convert", "--in", path("short.txt"), "--out", path("x.txt")],
               f"model '{path('short.txt')}': truncated")
    check(not os.path.exists(path("x.txt")), "a refused conversion writes nothing")
    # A bid model converts too, and a converted file converts to the same bytes.
    with open(path("bids.txt"), "wb") as f:
        f.write(shipped_model("spades-bids.txt"))
    out = run("learn", "convert", "--in", path("bids.txt"), "--out", path("bids2.txt")).stdout
    check("a bids model for spades-partnership, 100 weights, version 2" in out, out)
    check(read("bids2.txt") == shipped_model("spades-bids.txt"), "a version 2 file converts to itself")


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
                "--hands", "1", "--out", path("t.jsonl")], "playout=magic is not auto, rule, model, net or fit")


finish()
