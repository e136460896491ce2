#!/usr/bin/env python3
"""End-to-end checks of `cardgames learn bids-data` / `bids-fit` and `pimc:bid=model` (issue 25).

usage: learn_e2e.py CARDGAMES_BINARY CASE

The data runs use the `rule` bot (and a tiny `pimc` once), so they are fast.
"""
from e2e import check, finish, header_of, path, read, run, same_for_threads

SEED = "1000005"


def data(out, threads, bot="rule", hands="40"):
    return ["learn", "bids-data", "--preset", "spades-partnership", "--hands", hands, "--seed", SEED,
            "--bot", bot, "--threads", threads, "--quiet", "--out", path(out)]


def case_bids_data_threads():
    # The same data, byte for byte, for any thread count: with the rule player and with pimc.
    lines = same_for_threads(lambda out, t: run(*data(out, t)), "r", "rule", counts=("1", "3"))
    pimc = "pimc:worlds=2,rollouts=2"
    same_for_threads(lambda out, t: run(*data(out, t, bot=pimc, hands="2")), "p", "pimc")
    check(len(lines) == 41, f"expected a header and 40 hands, got {len(lines)} lines")
    # Bids are varied around the rule player's: some nil, some off by one.
    import json
    seats = [s for line in lines[1:] for s in json.loads(line)["seats"]]
    check(any(s["bid"] == 0 for s in seats), "no nil bid in the data")
    check(any(s["bid"] not in (0, s["rule_bid"]) for s in seats), "no varied bid in the data")
    check(all(sum(x["tricks"] for x in json.loads(line)["seats"]) == 13 for line in lines[1:]), "13 tricks a hand")


def case_bids_data_refuse():
    # Evaluation seeds are not training seeds.
    p = run("learn", "bids-data", "--hands", "2", "--seed", "1021", "--out", path("x.jsonl"), expect=2)
    check("not a training seed" in p.stderr, p.stderr)
    p = run("learn", "bids-data", "--game", "hearts", "--hands", "2", "--seed", SEED, "--out", path("x.jsonl"),
            expect=2)
    check("Spades only" in p.stderr, p.stderr)
    p = run("learn", "nonsense", expect=2)
    check("'bids-data' or 'bids-fit'" in p.stderr, p.stderr)


def case_bids_fit_and_play():
    run(*data("d.jsonl", "2", hands="300"))
    model = path("m.txt")
    out = run("learn", "bids-fit", "--data", path("d.jsonl"), "--out", model).stdout
    check("held-out:" in out and "mean abs error" in out, out)
    # The one hold-out rule (apps/learn/holdout.hpp): the seats of the hands whose index is a
    # multiple of N, whichever line of the file they are on.
    import json
    hands = [json.loads(line) for line in read("d.jsonl").decode().splitlines()[1:]]
    for n in (3, 7):
        held = [s for h in hands if h["index"] % n == 0 for s in h["seats"] if not s["blind"]]
        nils = sum(s["bid"] == 0 for s in held)
        out = run("learn", "bids-fit", "--data", path("d.jsonl"), "--holdout", str(n), "--out", path(f"m{n}.txt")).stdout
        check(f"held-out: {len(held) - nils} bids" in out and f"; {nils} nil bids" in out, f"--holdout {n}: {out}")
    run("learn", "bids-fit", "--data", path("d.jsonl"), "--holdout", "0.2", "--out", path("m0.txt"), expect=2)
    model_bytes = read("m.txt")
    text = header_of(model_bytes)
    check(text.startswith("cardgames-model 2\n") and "\nkind bids\n" in text
          and "\nform spades-partnership\n" in text and f"\nseeds {SEED}\n" in text, text[:800])
    check(f"# made by: cardgames learn bids-fit --data {path('d.jsonl')} --out {model}" in text, text[:800])
    check(f"--seed {SEED}" in text, "the model names the data's seed")
    # The model plays: pimc bids by it in a short tournament.
    spec = f"pimc:bid=model,bid_model={model},worlds=2,rollouts=2"
    run("tournament", "--game", "spades", "--players", f"{spec},rule,{spec},rule", "--hands", "1", "--seed", "3",
        "--threads", "1", "--quiet", "--out", path("t.jsonl"))
    # A damaged model is refused before play: exit 2, naming the file and the field.
    for name, bad_bytes, says in (("bad.txt", model_bytes[:-9] + bytes([model_bytes[-9] ^ 4]) + model_bytes[-8:],
                                   "field 'checksum'"),
                                  ("short.txt", model_bytes[:-3], "truncated: the payload has")):
        bad = path(name)
        with open(bad, "wb") as f:
            f.write(bad_bytes)
        spec = f"pimc:bid=model,bid_model={bad}"
        p = run("tournament", "--game", "spades", "--players", f"{spec},rule,rule,rule", "--hands", "1",
                "--out", path("t2.jsonl"), expect=2)
        check(f"bid model '{bad}': " in p.stderr and says in p.stderr, p.stderr)
    p = run("tournament", "--game", "spades", "--players", f"pimc:bid=model,bid_model={path('none.txt')},rule,rule,rule",
            "--hands", "1", "--out", path("t3.jsonl"), expect=2)
    check("none.txt" in p.stderr, p.stderr)
    # A model of other rules is refused too.
    p = run("tournament", "--preset", "spades-cutthroat3", "--players",
            f"pimc:bid=model,bid_model={model},worlds=2,rule,rule", "--hands", "1", "--out", path("t4.jsonl"), expect=2)
    check("made for 4 players" in p.stderr, p.stderr)


finish()
