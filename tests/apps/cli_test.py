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
    expect_bad(["play", "--bots", "pimc:worlds=0"], "worlds=0 is not a whole number from 1 to 100000")
    expect_bad(["play", "--seat", "7"], "--seat: seat '7'")
    expect_bad(["play", "--seat", "X"], "--seat: seat 'X'", "N, E, S, W")
    expect_bad(["play", "--seat", "3", "--preset", "hearts3"], "--seat: seat '3'")
    expect_bad(["play", "--frobnicate"], "frobnicate")
    expect_bad(["bench", "--rules", "--games", "0"], "('0')", "--games", "from 1 to")
    expect_bad(["bench", "--dds-compare", "3", "--dds-repeat", "0"], "('0')", "--dds-repeat", "from 1 to 1000")
    expect_bad(["nosuchcommand"], "unknown command 'nosuchcommand'")
    # infer=net's policy network: refused before the first hand, naming the file; no results file.
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "r.jsonl")
        tour = ["tournament", "--hands", "1", "--out", out]
        expect_bad(tour + ["--preset", "hearts4", "--players", "pimc:infer=net,infer_net=" + d + "/no.net,rule,rule,rule"],
                   f"'{d}/no.net'", "cannot open")
        expect_bad(tour + ["--preset", "hearts5", "--players", "pimc:infer=net,rule,rule,rule,rule"],
                   "hearts5-playout-net.net", "cannot open")
        expect_bad(tour + ["--preset", "hearts4", "--players", "pimc:infer=play,infer_net=x.net,rule,rule,rule"],
                   "infer_net= goes with infer=net")
        # bid=net's and pass=net's networks likewise.
        expect_bad(tour + ["--preset", "spades-partnership", "--players", "pimc:bid=net,bid_net=" + d + "/no.net,rule,rule,rule"],
                   f"'{d}/no.net'", "cannot open")
        expect_bad(tour + ["--preset", "hearts5", "--players", "pimc:pass=net,rule,rule,rule,rule"],
                   "hearts5-pass-net.net", "cannot open")
        expect_bad(tour + ["--preset", "hearts4", "--players", "pimc:pass=rule,pass_net=x.net,rule,rule,rule"],
                   "pass_net= goes with pass=net")
        assert not os.path.exists(out), "a refused run wrote its results file"


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


SPADES_POSITION = ["--game", "spades", "--deal", "N:AKQ.2.. JT9.3.. 876.4.. 543.5.."]


def case_numbers_exact():
    """Every numeric option takes exactly the whole numbers of its range: nothing that wraps
    (-1 for an unsigned option), overflows or is only partly a number (issue 18)."""
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "r.jsonl")
        tour = ["tournament", "--game", "hearts", "--players", "rule,rule,rule,rule", "--out", out]
        evalb = ["eval", "--game", "spades", "--policies", "rule", "--out", out]
        cases = [
            (["deals", "--count", "1"], "--seed", ["-1", "18446744073709551616", "1e3", "12abc", ""]),
            (["deals"], "--count", ["0", "-1", "1000000001", "99999999999999999999", "2.5"]),
            (["play"], "--seed", ["-1"]),
            (["solve"] + SPADES_POSITION, "--nodes", ["-1", "1e3"]),
            (["solve"] + SPADES_POSITION, "--depth", ["-1", "18", "99999999999"]),
            (tour, "--games", ["4611686018427387904", "0", "-3"]),
            (tour + ["--games", "1"], "--threads", ["0", "-1", "1025"]),
            (tour + ["--games", "1"], "--seed", ["-1"]),
            (evalb, "--samples", ["0", "1000001"]),
            (evalb, "--count", ["0", "-5", "4611686018427387904"]),
            (evalb, "--seed", ["-1"]),
            (["bench"], "--dds-compare", ["-1", "0", "1000001"]),
            (["bench", "--dds-compare", "1"], "--dds-tricks", ["0", "14"]),
            (["bench", "--dds-compare", "1"], "--dds-seed", ["-1"]),
            (["bench", "--rules"], "--games", ["-1", "1e3"]),
            (["bench", "--pimc"], "--hands", ["0", "-1"]),
            (["bench", "--pimc"], "--seed", ["-1"]),
        ]
        for base, option, values in cases:
            for v in values:
                expect_bad(base + [option, v], f"('{v}')" if v else option, option, "whole number from")
        # Bot specs: the same for every numeric key.
        for spec, text in [("pimc:worlds=99999999999", "worlds=99999999999"), ("pimc:worlds=-5", "worlds=-5"),
                           ("pimc:nodes=1e3", "nodes=1e3"), ("pimc:rollouts=12abc", "rollouts=12abc"),
                           ("pimc:depth=18", "depth=18"), ("pimc:threads=-1", "threads=-1"),
                           ("pimc:ms=86400001", "ms=86400001"), ("external:cmd=cat,ms=0", "ms=0")]:
            expect_bad(["play", "--bots", spec], text, "is not a whole number from")
        assert not os.path.exists(out), "a refused run wrote its results file"
    # The edges of a range are accepted.
    code, out, err = run(["deals", "--count", "1", "--seed", "18446744073709551615"])
    assert code == 0 and "--seed 18446744073709551615" in out, out + err


def case_paths_checked():
    """A directory (or a device) where a file is wanted is refused with its name, not read as
    empty (issue 18)."""
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "r.jsonl")
        expect_bad(["play", "--preset", d + "/"], f"preset '{d}/'", "a directory, not a file")
        expect_bad(["deals", "--preset", "/dev/zero"], "'/dev/zero'", "not a regular file")
        expect_bad(["replay", d], f"'{d}'", "a directory, not a file")
        expect_bad(["eval", "--mode", "play", "--records", d, "--policies", "rule", "--out", out],
                   f"--records '{d}'", "a directory, not a file")
        expect_bad(["eval", "--game", "spades", "--deals", d, "--policies", "rule", "--out", out],
                   f"--deals '{d}'", "a directory, not a file")
        expect_bad(["tournament", "--report", d], f"'{d}'", "a directory, not a file")
        expect_bad(["eval", "--report", d], f"'{d}'", "a directory, not a file")
        expect_bad(["bench", "--positions", "/dev/null"], "--positions '/dev/null'", "not a regular file")
        expect_bad(["bench", "--nets", "--model", "/dev/null"], "model file '/dev/null': not a regular file")
        expect_bad(["bench", "--nets", "--model", d], f"model file '{d}'", "a directory, not a file")
        for spec in ["pimc:playout=net,playout_net=" + d, "net:model=" + d]:
            expect_bad(["tournament", "--preset", "hearts4", "--players", spec + ",rule,rule,rule", "--hands", "1",
                        "--out", out], f"model file '{d}'", "a directory, not a file")
        assert not os.path.exists(out), "a refused run wrote its results file"
        # A pipe is a file: records can come from <(...).
        code, games, err = run(["play", "--seed", "2", "--bots", "rule", "--helper", "rule", "--record", out, "--ascii"],
                               stdin="auto\n")
        assert code == 0, err
        p = subprocess.run(["bash", "-c", f'"$0" replay <(cat "$1")', BIN, out], capture_output=True, text=True)
        assert p.returncode == 0 and "1 games replayed, 0 with errors" in p.stdout, p.stdout + p.stderr


def case_options_apply():
    """An option that does not apply to the command, or that another contradicts, is refused
    (issue 18); the combinations the documentation shows still run."""
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "r.jsonl")
        # --game only picks the default preset: beside a preset of the other game it is refused.
        expect_bad(["play", "--game", "spades", "--preset", "hearts5"], "--game spades", "--preset hearts5", "hearts preset")
        expect_bad(["deals", "--game", "hearts", "--rule", "game=spades"], "--game hearts", "--rule game=spades")
        code, _, err = run(["deals", "--game", "hearts", "--preset", "hearts3", "--count", "1"])
        assert code == 0, err
        # Stray words, in every command.
        for command in [["play"], ["solve"] + SPADES_POSITION, ["bench", "--rules"], ["bot"], ["deals"],
                        ["tournament", "--report", out], ["eval", "--report", out]]:
            expect_bad(command + ["stray"], "unexpected argument 'stray'")
        expect_bad(["replay", out, "stray"], "too many positional options")
        # eval: seats exactly as a list of seat numbers, and options of the other mode refused.
        evalb = ["eval", "--game", "spades", "--policies", "rule", "--out", out]
        for seats in ["1x", "01", "0,,1", "0,", "0,0", "9", "-1"]:
            expect_bad(evalb + ["--seats", seats], f"--seats '{seats}'")
        expect_bad(evalb + ["--records", out], "--records applies only with --mode play")
        for extra in [["--game", "hearts"], ["--preset", "hearts4"], ["--rule", "end_score=50"], ["--deals", out]]:
            expect_bad(["eval", "--mode", "play", "--records", out, "--policies", "rule", "--out", out] + extra,
                       extra[0] + " applies only with --mode bid")
        # --report prints a file and runs nothing: run options beside it are refused.
        expect_bad(["tournament", "--report", out, "--threads", "2"], "--threads does not apply with --report")
        expect_bad(["eval", "--report", out, "--policies", "rule"], "--policies does not apply with --report")
        # bench: one mode, and only that mode's options.
        expect_bad(["bench", "--rules", "--pimc"], "at most one of --rules, --pimc, --nets and --dds-compare")
        expect_bad(["bench", "--nets", "--spec", "rule"], "--spec applies only with --pimc")
        expect_bad(["bench", "--pimc", "--model", out], "--model applies only with --nets")
        expect_bad(["bench", "--pimc", "--games", "3"], "--games applies only with --rules")
        expect_bad(["bench", "--rules", "--spec", "rule"], "--spec applies only with --pimc")
        expect_bad(["bench", "--preset", "hearts4"], "--preset applies only with --pimc or --nets")
        expect_bad(["bench", "--dds-tricks", "6"], "--dds-tricks applies only with --dds-compare")
        expect_bad(["bench", "--rules", "--positions", out], "--positions applies only to the search bench")
        expect_bad(["bench", "--pimc", "--format", "json"], "--format applies only to the search bench and --dds-compare")
        # solve: --bids only for the score utility, leaf-value tables only where the search reads them.
        expect_bad(["solve"] + SPADES_POSITION + ["--bids", "1,1,1,1"], "--bids applies only with --utility score")
        expect_bad(["solve"] + SPADES_POSITION + ["--leaf-tables", "--depth", "1"], "--leaf-tables applies only")
        expect_bad(["solve"] + SPADES_POSITION + ["--leaf-tables", "--algorithm", "maxn"], "--leaf-tables applies only")
        assert not os.path.exists(out), "a refused run wrote its results file"


def case_out_of_threads():
    """A machine out of threads or processes ends the run with a message and exit status 1, never
    an abort or a hang (issue 18). The limit is RLIMIT_NPROC, which the kernel does not apply to
    root: as root, the run is started as a user id of its own (no other process counts against
    its limit)."""
    import resource
    as_root = os.geteuid() == 0
    uid = 54321 + os.getpid() % 1000

    def limited(n):
        def pre():
            if as_root:
                os.setgid(uid)
                os.setuid(uid)
            resource.setrlimit(resource.RLIMIT_NPROC, (n, n))
        return pre

    # LeakSanitizer needs a thread of its own at exit, which the limit refuses.
    env = dict(os.environ, ASAN_OPTIONS=os.environ.get("ASAN_OPTIONS", "") + ":detect_leaks=0")

    def run_limited(args, n, cwd):
        p = subprocess.run([os.path.abspath(BIN)] + args, preexec_fn=limited(n), capture_output=True, text=True, timeout=120, env=env,
                           stdin=subprocess.DEVNULL, cwd=cwd)
        assert "terminate" not in p.stderr and "bug" not in p.stderr and "Sanitizer" not in p.stderr, p.stderr
        return p

    with tempfile.TemporaryDirectory() as d:
        os.chmod(d, 0o777)
        out = os.path.join(d, "t.jsonl")
        tour = ["tournament", "--game", "hearts", "--players", "rule,rule,rule,rule", "--hands", "2", "--quiet"]
        # No thread at all: refused at the start, for the batch and for play.
        p = run_limited(tour + ["--threads", "4", "--out", out], 1, d)
        assert p.returncode == 1 and "could start only 0 of the 4 threads" in p.stderr, p.stderr
        p = run_limited(["play", "--seed", "1", "--bots", "pimc:worlds=2", "--ascii"], 1, d)
        assert p.returncode == 1 and "threads the run needs" in p.stderr, p.stderr
        if not as_root:
            return  # the user's other processes count too: only the refusal can be tested
        # Fewer threads than --threads asks: refused, where oneTBB would end the program while
        # starting its workers one from another.
        os.remove(out)
        p = run_limited(tour + ["--threads", "4", "--out", out], 3, d)
        assert p.returncode == 1 and "could start only 2 of the 4 threads" in p.stderr, p.stderr
        # Enough threads: the run completes and the refused one left a resumable file.
        p = run_limited(tour + ["--threads", "4", "--out", out, "--resume"], 8, d)
        assert p.returncode == 0 and "win rate" in p.stdout, p.stdout + p.stderr
        # An external bot whose process cannot be started fails the run (exit 1): it is not the
        # bot's fault, so it is no fallback recorded against it.
        out2 = os.path.join(d, "x.jsonl")
        p = run_limited(["tournament", "--game", "hearts", "--players", 'external:cmd="cat",rule,rule,rule', "--hands", "1",
                         "--threads", "1", "--quiet", "--out", out2], 2, d)
        assert p.returncode == 1 and "fork" in p.stderr and "could not start a thread or process" in p.stderr, p.stderr
        with open(out2) as f:
            assert len(f.read().splitlines()) == 1, "only the header: no result with a fallback"


def solve_dd_and_alphabeta(position):
    """The JSON answers of `solve` on `position` by the double-dummy solver and by alpha-beta."""
    answers = []
    for algorithm in ["dd", "alphabeta"]:
        code, out, err = run(position + ["--algorithm", algorithm])
        assert code == 0, err
        answers.append(json.loads(out))
    return answers


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
    dd, ab = solve_dd_and_alphabeta(position)
    assert dd["value"] == ab["value"] and dd["moves"] == ab["moves"], (dd, ab)
    assert [m["value"] for m in dd["moves"] if m["card"] == dd["best"]] == [dd["value"]], dd
    # The trick's last card to play: its value counts the trick it completes (it was left out).
    last = ["solve", "--game", "spades", "--rule", "spades_lead_anytime=true", "--deal",
            "N:K... A..2. Q... J...", "--leader", "S", "--trick", "AD 5C 7H", "--format", "json"]
    dd, ab = solve_dd_and_alphabeta(last)
    assert dd["value"] == [1, 1] and dd["moves"] == ab["moves"], (dd, ab)
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
        # A file without a game record is an error, not "0 games replayed".
        empty = os.path.join(d, "empty.jsonl")
        with open(empty, "w") as f:
            f.write('{"type": "header", "command": "tournament"}\n')
        expect_bad(["replay", empty], "no game record in it")
    code, out, _ = run(["replay", "--help"])
    assert code == 0 and "usage: cardgames replay [options] FILE" in out, out


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


def case_external_missing():
    # A bot program that cannot be started stops the run at once (no game, no file), while one that
    # starts and then misbehaves still gets its fallback (tests/bots/bad_bot.py cases elsewhere).
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "t.jsonl")
        for cmd, says in [("./no_such_bot", "'./no_such_bot': no such file"), ("no-such-program -x", "no such program in PATH"),
                          (d, "is not an executable file")]:
            expect_bad(["tournament", "--game", "hearts", "--players", f'external:cmd="{cmd}",rule,rule,rule', "--hands", "2",
                        "--out", out], "cannot be started", says)
            assert not os.path.exists(out), "a refused run wrote its file"
        expect_bad(["play", "--bots", 'external:cmd="./no_such_bot",rule,rule'], "cannot be started")


def case_version():
    code, out, err = run(["--version"])
    assert code == 0 and out.startswith("cardgames ") and out.strip().split()[1][0].isdigit(), (code, out, err)
    # A bot's options, from its table: pimc's four groups, the oracle's without the worlds' own.
    code, out, err = run(["help", "pimc"])
    assert code == 0 and "  worlds=1 to 100000 [64]\n" in out, (code, out, err)
    for group in ("sampling:", "card valuation:", "bids and passes:", "search:"):
        assert "\n" + group + "\n" in out, (group, out)
    code, out, err = run(["help", "oracle"])
    assert code == 0 and "  moon=auto, on or off [auto]\n" in out and "worlds=" not in out, out
    code, out, err = run(["help", "external"])
    assert code == 0 and "  fallback=SPEC [random]\n" in out and "  ms=1 to 86400000 [10000]\n" in out, out
    assert run(["help", "rule"])[1] == "rule takes no options\n"
    expect_bad(["help", "pmic"], "unknown bot 'pmic'", "known: pimc")
    expect_bad(["help", "pimc", "--html"], "usage: cardgames help BOT [--markdown]")


CASES = {name[5:]: f for name, f in globals().items() if name.startswith("case_")}

if __name__ == "__main__":
    CASES[sys.argv[2]]()
    print("1 passed, 0 failed")
