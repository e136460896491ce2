#!/usr/bin/env python3
"""End-to-end runs of `cardgames play`, `solve`, `replay` and option handling: what a user types,
what they see, and that bad input names the offending text, exits with status 2 and never crashes.

usage: cli_test.py CARDGAMES CASE
"""
import json
import os
import resource
import signal
import subprocess
import sys
import tempfile

BIN = sys.argv[1]


def run(args, stdin="", timeout=300):
    p = subprocess.run([BIN] + args, input=stdin, capture_output=True, text=True, timeout=timeout)
    return p.returncode, p.stdout, p.stderr


def expect_bad(args, *fragments, stdin=""):
    code, out, err = run(args, stdin)
    assert code == 2, f"{args}: exit {code}, want 2\nstdout: {out}\nstderr: {err}"
    for f in fragments:
        assert f in err, f"{args}: '{f}' not in the error:\n{err}"
    assert "Traceback" not in err and "terminate" not in err and "Sanitizer" not in err, err


def case_bad_options():
    expect_bad(["play", "--rule", "bogus=1"], "unknown rule 'bogus'")
    expect_bad(["play", "--rule", "players=x"], "players=x", "expected a whole number")
    expect_bad(["play", "--preset", "nosuch"], "preset 'nosuch'", "no such preset")
    expect_bad(["play", "--game", "bridge"], "--game 'bridge'")
    expect_bad(["play", "--bots", "pmic"], "unknown bot 'pmic'")
    expect_bad(["play", "--bots", "pimc:worlds=0"], "worlds must be at least 1")
    expect_bad(["play", "--seat", "7"], "--seat: seat '7'")
    expect_bad(["play", "--seat", "X"], "--seat: seat 'X'", "N, E, S, W")
    expect_bad(["play", "--frobnicate"], "frobnicate")
    expect_bad(["bench", "--rules", "--games", "0"], "--games must be at least 1")
    expect_bad(["bench", "--dds-compare", "3", "--dds-repeat", "0"], "--dds-repeat must be at least 1")
    expect_bad(["nosuchcommand"], "unknown command 'nosuchcommand'")


def case_bad_positions():
    expect_bad(["solve", "--game", "spades", "--deal", "N:AKQ.2.. JT9.3.. 876.4.. 543.5.A"], "hand 4 '543.5.A'", "3 suits")
    expect_bad(["solve", "--game", "spades", "--deal", "N:AKQ.2.. JT9.3.. 876.4.. 543.A5.."], "543.A5..", "should hold 4")
    expect_bad(["solve", "--game", "spades", "--deal", "N:AKQ.2.. AT9.3.. 876.4.. 543.5.."], "AS is dealt twice")
    expect_bad(["solve", "--game", "spades", "--deal", "N:AKQ.2.. JT9.3.. 876.4.. 543.5..", "--algorithm", "magic"], "algorithm 'magic'")
    expect_bad(["solve", "--game", "spades", "--deal", "N:AKQ.2.. JT9.3.. 876.4.. 543.5..", "--utility", "points"], "utility 'points'")
    expect_bad(["solve", "--game", "spades", "--deal", "N:AKQ.2.. JT9.3.. 876.4.. 543.5..", "--leader", "Q"], "seat 'Q'")
    # A full Hearts deal must be led by the holder of the 2 of clubs.
    code, deals, _ = run(["deals", "--game", "hearts", "--count", "1", "--seed", "3"])
    deal = [l for l in deals.splitlines() if not l.startswith("#")][0]
    holder = next(i for i, h in enumerate(deal[2:].split()) if h.split(".")[3].endswith("2"))
    expect_bad(["solve", "--game", "hearts", "--deal", deal, "--leader", str((holder + 1) % 4)], "cannot lead the first trick")


def case_solve():
    code, out, err = run(["solve", "--game", "spades", "--rule", "spades_lead_anytime=true", "--deal",
                          "N:AKQ.2.. JT9.3.. 876.4.. 543.5..", "--format", "json"])
    assert code == 0, err
    j = json.loads(out)
    assert j["value"] == [3, 1], j
    assert {m["card"] for m in j["moves"]} == {"AS", "KS", "QS", "2H"}, j
    for algorithm in ["maxn", "shallow", "bnb", "lastbranch", "speculative", "alphabeta"]:
        code, out2, err = run(["solve", "--game", "spades", "--rule", "spades_lead_anytime=true", "--deal",
                               "N:AKQ.2.. JT9.3.. 876.4.. 543.5..", "--format", "json", "--algorithm", algorithm])
        assert code == 0, err
        assert json.loads(out2)["value"] == [3, 1], (algorithm, out2)
    # The double-dummy solver: every card's value as the generic two-sided search gives it, on a
    # 6-trick position with a trick in progress.
    position = ["solve", "--game", "spades", "--rule", "spades_lead_anytime=true", "--deal",
                "N:K8.Q4.A9. T6.T5.K7. A9.87.T5. J4..QJ8.", "--leader", "W", "--trick", "2S", "--format", "json"]
    code, out, err = run(position + ["--algorithm", "dd"])
    assert code == 0, err
    dd = json.loads(out)
    code, out, err = run(position + ["--algorithm", "alphabeta"])
    assert code == 0, err
    ab = json.loads(out)
    assert dd["value"] == ab["value"] and dd["moves"] == ab["moves"], (dd, ab)
    assert [m["value"] for m in dd["moves"] if m["card"] == dd["best"]] == [dd["value"]], dd
    expect_bad(["solve", "--game", "hearts", "--deal", "N:AKQ.2.. JT9.3.. 876.4.. 543.5..", "--algorithm", "dd"],
               "--algorithm dd", "partnership Spades")
    expect_bad(position[:-2] + ["--algorithm", "dd", "--depth", "2"], "no --depth")
    # A node limit that stops before any card is valued says so (not "no legal move").
    expect_bad(position[:-2] + ["--nodes", "5"], "--nodes 5", "too few")


def case_play_pipe():
    with tempfile.TemporaryDirectory() as d:
        record = os.path.join(d, "g.jsonl")
        # Help, an unknown word, an illegal card, a hint, then let the bot finish the game.
        code, out, err = run(["play", "--seed", "4", "--bots", "rule", "--helper", "rule", "--record", record, "--ascii"],
                             stdin="help\nzz\n2H\nhint\nauto\n")
        assert code == 0, err
        assert "Commands:" in out and "'zz' is not a card" in out and "Hint (" in out, out
        assert "=== Game over ===" in out and "Winner:" in out, out[-500:]
        code, out, err = run(["replay", record])
        assert code == 0 and "ok," in out and "0 with errors" in out, out + err
        # Quitting asks first; "n" keeps playing, end of input abandons with status 1.
        code, out, _ = run(["play", "--seed", "4", "--bots", "rule", "--ascii"], stdin="quit\nn\nquit\ny\n")
        assert code == 0 and "Abandon this game?" in out and "Game abandoned." in out, out


def case_replay_bad():
    with tempfile.TemporaryDirectory() as d:
        bad = os.path.join(d, "bad.jsonl")
        with open(bad, "w") as f:
            f.write('{"type": "game", "rules": {"game": "hearts"}, "seed": 1, "hands": []}\n{not json\n')
        expect_bad(["replay", bad], "line 2", "not JSON")
        with open(bad, "w") as f:
            f.write('{"type": "game", "rules": {"game": "hearts", "players": "9"}, "seed": 1, "hands": []}\n')
        expect_bad(["replay", bad], "line 1", "players=9")
        expect_bad(["replay", os.path.join(d, "missing.jsonl")], "cannot open")


def case_play_record():
    # play --record: a path that cannot be a file is refused before the game (status 2, named); a
    # write that fails (here a file size limit, as a full disk) is status 1 naming the file, never
    # status 0 with the game lost.
    game = ["play", "--seed", "4", "--bots", "rule", "--helper", "rule", "--ascii"]
    with tempfile.TemporaryDirectory() as d:
        for bad in ("/dev/full", d):
            expect_bad(game + ["--record", bad], f"--record '{bad}'", stdin="auto\n")
        record = os.path.join(d, "g.jsonl")
        with open(record, "w") as f:
            f.write("x" * 100 + "\n")

        def limited():
            resource.setrlimit(resource.RLIMIT_FSIZE, (101, 101))
            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a failed write instead of a kill

        p = subprocess.run([BIN] + game + ["--record", record], input="auto\n", capture_output=True, text=True,
                           preexec_fn=limited, timeout=300)
        assert p.returncode == 1 and "write failed" in p.stderr and record in p.stderr, (p.returncode, p.stderr)
        assert "bug" not in p.stderr, p.stderr
        with open(record) as f:
            assert f.read() == "x" * 100 + "\n", "the record file changed"


def case_verbose():
    # -vv logs every pimc decision on stderr; stdout (results, the bot protocol) stays the same.
    with tempfile.TemporaryDirectory() as d:
        args = ["tournament", "--game", "hearts", "--players", "pimc:worlds=4,rule,rule,rule", "--hands", "1",
                "--seed", "3", "--quiet"]
        code, quiet_out, quiet_err = run(args + ["--out", os.path.join(d, "a.jsonl")])
        assert code == 0, quiet_err
        assert "pimc seat" not in quiet_err, quiet_err
        code, out, err = run(["-vv"] + args + ["--out", os.path.join(d, "b.jsonl")])
        assert code == 0, err
        assert out == quiet_out, (out, quiet_out)
        assert "[debug] pimc seat 0 hand 0" in err and "worlds" in err, err
        assert "[info] tournament: 1 hands of 1 to play" in err, err
    expect_bad(["-v"], "usage: cardgames [-v|-vv] <command>")
    # After the command it is no option of the command: the message says where it goes.
    expect_bad(["tournament", "-vv", "--game", "hearts"], "-vv goes before the command: cardgames -vv tournament")


def case_version():
    code, out, err = run(["--version"])
    assert code == 0 and out.startswith("cardgames ") and out.strip().split()[1][0].isdigit(), (code, out, err)


CASES = {name[5:]: f for name, f in globals().items() if name.startswith("case_")}

if __name__ == "__main__":
    CASES[sys.argv[2]]()
    print("1 passed, 0 failed")
