#!/usr/bin/env python3
"""End-to-end checks of `cardgames tournament`, `eval` and `deals` (issue 5).

usage: tournament_e2e.py CARDGAMES_BINARY CASE

Uses the `random` bot (and `rule` once), so the runs are fast.
No check depends on wall-clock time: the kill tests wait for lines in the file, not for seconds.
"""
import hashlib
import json
import os
import resource
import signal
import subprocess
import time

from e2e import BIN, RANDOM4, TMP, check, finish, path, read, run, tournament


def case_tournament_threads():
    # The same seed gives the same file whatever the thread count, duplicate or not.
    for game, dup in (("hearts", []), ("spades", ["--duplicate"])):
        run(*tournament(f"{game}1.jsonl", *dup, game=game, threads="1"))
        run(*tournament(f"{game}3.jsonl", *dup, game=game, threads="3"))
        check(read(f"{game}1.jsonl") == read(f"{game}3.jsonl"), f"{game}: --threads 1 and 3 differ")
    lines = read("spades1.jsonl").decode().splitlines()
    check(len(lines) == 1 + 6 * 2, f"spades duplicate: expected 13 lines, got {len(lines)}")
    header = json.loads(lines[0])
    check(header["type"] == "header" and header["command"] == "tournament", "header line")
    first, second = json.loads(lines[1]), json.loads(lines[2])
    check(first["board"] == second["board"] == 0 and second["rotation"] == 1, "rotations of board 0")
    check(first["hands"][0]["deal"] == second["hands"][0]["deal"], "duplicate boards replay the same deal")
    check(first["players"] == second["players"][-1:] + second["players"][:-1], "players rotated one seat")
    out = run("replay", path("spades1.jsonl")).stdout
    check("12 games replayed, 0 with errors" in out, "results replay as game records: " + out)


def case_tournament_hands_replay():
    # Games stopped after a hand (--hands) are complete records: they replay, and eval reads them.
    run(*tournament("hands.jsonl", "--duplicate", count=("--hands", "3"), players="rule,random,random,random"))
    out = run("replay", path("hands.jsonl")).stdout
    check("12 games replayed, 0 with errors" in out, "hand-limited results replay: " + out)
    run("eval", "--mode", "play", "--records", path("hands.jsonl"), "--policies", "rule", "--reference", "random",
        "--count", "5", "--samples", "2", "--out", path("hands_eval.jsonl"), "--quiet")
    check(len(read("hands_eval.jsonl").decode().splitlines()) == 1 + 5, "eval over hand-limited records")


def case_tournament_refuse():
    run(*tournament("a.jsonl"))
    good = read("a.jsonl")
    # An existing file is never overwritten without --resume.
    p = run(*tournament("a.jsonl"), expect=2)
    check("--resume" in p.stderr and read("a.jsonl") == good, "existing file refused: " + p.stderr)
    # Other options: refused, naming the difference.
    p = run(*tournament("a.jsonl", "--resume", count=("--games", "9")), expect=2)
    check("line 1" in p.stderr and "games" in p.stderr and read("a.jsonl") == good, "header mismatch: " + p.stderr)
    # A malformed line: refused with its number, file untouched.
    lines = good.decode().splitlines(keepends=True)
    lines[3] = '{"type":"game", oops\n'
    bad = "".join(lines).encode()
    with open(path("a.jsonl"), "wb") as f:
        f.write(bad)
    p = run(*tournament("a.jsonl", "--resume"), expect=2)
    check("line 4" in p.stderr and read("a.jsonl") == bad, "malformed line: " + p.stderr)
    # A well-formed line with a missing field, and a foreign file.
    lines[3] = '{"type":"game","index":2}\n'
    with open(path("a.jsonl"), "w") as f:
        f.write("".join(lines))
    p = run(*tournament("a.jsonl", "--resume"), expect=2)
    check("line 4" in p.stderr, "line without result fields: " + p.stderr)
    with open(path("foreign.jsonl"), "w") as f:
        f.write('{"name": "something else"}\n')
    p = run(*tournament("foreign.jsonl", "--resume"), expect=2)
    check("line 1" in p.stderr and read("foreign.jsonl") == b'{"name": "something else"}\n', "foreign: " + p.stderr)
    p = run("tournament", "--report", path("foreign.jsonl"), expect=2)
    check("line 1" in p.stderr, "--report of a foreign file")


def case_tournament_resume():
    # A write cut short (as by SIGKILL): resuming drops the partial line and finishes the run.
    # Two specs (the rule bot too), so the table has a paired comparison.
    two = "random,rule,random,rule"
    run(*tournament("full.jsonl", "--duplicate", count=("--hands", "40"), players=two))
    full = read("full.jsonl")
    for cut in (len(full) // 3, len(full) // 2 + 17, len(full) - 5, full.index(b"\n") + 1, 40, 0):
        with open(path("cut.jsonl"), "wb") as f:
            f.write(full[:cut])
        run(*tournament("cut.jsonl", "--duplicate", "--resume", count=("--hands", "40"), players=two))
        check(read("cut.jsonl") == full, f"resume after a cut at byte {cut} differs")
    # Resuming a complete file changes nothing and prints the same table.
    t1 = run(*tournament("full.jsonl", "--duplicate", "--resume", count=("--hands", "40"), players=two)).stdout
    t2 = run("tournament", "--report", path("full.jsonl")).stdout
    # A run's table ends by saying what it ran on; the report of the file has no run.
    check(t1.endswith("\nplayed on 2 threads\n"), "the run's table names its threads\n" + t1)
    t1 = t1[: t1.rindex("\nplayed on")]
    check(read("full.jsonl") == full and t1 == t2 and "paired comparison" in t1, "complete resume\n" + t1 + t2)


def kill_midway(sig, args, out):
    p = subprocess.Popen([BIN, *args], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    while p.poll() is None:
        if os.path.exists(path(out)) and read(out).count(b"\n") >= 50:
            p.send_signal(sig)
            break
        time.sleep(0.005)
    _, err = p.communicate()
    return p.returncode, err


def case_tournament_interrupt():
    count = ("--hands", "1500")
    run(*tournament("ref.jsonl", count=count))
    ref = read("ref.jsonl")
    for sig, name in ((signal.SIGKILL, "kill"), (signal.SIGINT, "int")):
        out = f"{name}.jsonl"
        rc, err = kill_midway(sig, tournament(out, count=count), out)
        partial = read(out)
        if rc == 0:
            print(f"note: the run finished before SIG{name.upper()} arrived")
        elif sig == signal.SIGINT:
            check(rc == 130 and "--resume" in err, f"SIGINT: status {rc}, {err}")
            check(partial.endswith(b"\n"), "SIGINT leaves only complete lines")
        check(ref.startswith(partial[: partial.rfind(b"\n") + 1]), f"SIG{name.upper()}: the file is not a prefix")
        run(*tournament(out, "--resume", count=count))
        check(read(out) == ref, f"SIG{name.upper()} then --resume differs from the uninterrupted run")


def case_tournament_files():
    # One run at a time on a results file: a second one is refused while the first writes.
    small = "pimc:worlds=2,rollouts=2,rule,rule,rule"
    first = subprocess.Popen([BIN, *tournament("busy.jsonl", count=("--hands", "300"), players=small, threads="1")],
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    while first.poll() is None and (not os.path.exists(path("busy.jsonl")) or read("busy.jsonl").count(b"\n") < 3):
        time.sleep(0.005)
    p = run(*tournament("busy.jsonl", "--resume", count=("--hands", "300"), players=small, threads="1"), expect=2)
    check("another run is writing" in p.stderr and path("busy.jsonl") in p.stderr, "second writer: " + p.stderr)
    check(first.wait() == 0, "the first run finished")
    lines = read("busy.jsonl").decode().splitlines()
    check([json.loads(x)["index"] for x in lines[1:]] == list(range(300)), "each result once, in order")
    # What rank 0 cannot write to is refused up front, naming it.
    for bad in ("/dev/full", TMP):
        args = tournament("x.jsonl", count=("--hands", "3"))
        args[args.index("--out") + 1] = bad
        p = run(*args, expect=2)
        check(bad in p.stderr, f"--out {bad}: " + p.stderr)
    # A write that fails part-way (here a file size limit, as a full disk): status 1 with the
    # path, the results before it kept, and --resume finishes the file.
    count = ("--hands", "200")
    run(*tournament("ref.jsonl", count=count))
    ref = read("ref.jsonl")

    def limited():
        resource.setrlimit(resource.RLIMIT_FSIZE, (len(ref) // 2, len(ref) // 2))
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a failed write instead of a kill

    p = subprocess.run([BIN, *tournament("full.jsonl", count=count)], capture_output=True, text=True,
                       preexec_fn=limited)
    check(p.returncode == 1 and "write failed" in p.stderr and path("full.jsonl") in p.stderr,
          f"failed write: status {p.returncode}, {p.stderr}")
    check("bug" not in p.stderr, "a failed write is not a bug: " + p.stderr)
    partial = read("full.jsonl")
    check(0 < len(partial) < len(ref) and ref.startswith(partial[: partial.rfind(b"\n") + 1]), "kept a prefix")
    run(*tournament("full.jsonl", "--resume", count=count))
    check(read("full.jsonl") == ref, "resume after a failed write")
    # Fields of the wrong type, or a header without options, are bad input (status 2, the line
    # named) for --report and --resume alike, not a crash.
    header = json.loads(ref.split(b"\n")[0])
    result = ref.split(b"\n")[1].decode()
    no_options = {k: v for k, v in header.items() if k != "options"}
    bad_seats = json.loads(result)
    bad_seats["seat_win"] = 7
    for name, text in (("type", '{"type":1}\n'), ("options", json.dumps(no_options) + "\n"),
                       ("index", json.dumps(header) + "\n" + result.replace('"index":0', '"index":"0"') + "\n"),
                       ("seats", json.dumps(header) + "\n" + json.dumps(bad_seats) + "\n")):
        with open(path(f"bad_{name}.jsonl"), "w") as f:
            f.write(text)
        p = run("tournament", "--report", path(f"bad_{name}.jsonl"), expect=2)
        check("line" in p.stderr and "bug" not in p.stderr, f"--report of a bad {name}: " + p.stderr)
        p = run(*tournament(f"bad_{name}.jsonl", "--resume", count=count), expect=2)
        check(read(f"bad_{name}.jsonl") == text.encode(), f"--resume changed a bad {name} file")
    p = run("replay", path("bad_type.jsonl"), expect=2)
    check("line 1" in p.stderr and "bug" not in p.stderr, "replay of a record with a wrong type: " + p.stderr)
    p = run("eval", "--mode", "play", "--records", path("bad_type.jsonl"), "--policies", "random", "--out",
            path("e.jsonl"), expect=2)
    check("line 1" in p.stderr and not os.path.exists(path("e.jsonl")), "eval of a record with a wrong type: " + p.stderr)
    # A refused command leaves the file byte for byte as it was.
    before = hashlib.sha256(ref).hexdigest()
    run(*tournament("ref.jsonl", count=count), expect=2)
    run(*tournament("ref.jsonl", "--resume", count=("--hands", "201")), expect=2)
    check(hashlib.sha256(read("ref.jsonl")).hexdigest() == before, "a refused run changed the file")


def case_eval_resume():
    deals = run("deals", "--game", "spades", "--count", "3", "--seed", "2").stdout
    with open(path("deals.txt"), "w") as f:
        f.write(deals)
    bid = ["eval", "--game", "spades", "--mode", "bid", "--deals", path("deals.txt"), "--policies", "random,random",
           "--reference", "random", "--samples", "3", "--quiet"]
    t = run(*bid, "--threads", "2", "--out", path("bid.jsonl")).stdout
    check("best bid" in t and "random" in t, "bid table:\n" + t)
    lines = read("bid.jsonl").decode().splitlines()
    check(len(lines) == 1 + 3 * 4, "bid: one line per deal and seat")
    row = json.loads(lines[1])
    check(len(row["values"]) == 14 and len(row["loss"]) == 2 and min(row["loss"]) >= 0, "bid line fields")
    full = read("bid.jsonl")
    with open(path("bid2.jsonl"), "wb") as f:
        f.write(full[: len(full) * 2 // 3])
    run(*bid, "--threads", "1", "--out", path("bid2.jsonl"), "--resume")
    check(read("bid2.jsonl") == full, "eval bid resume differs")
    # Play: the decisions of tournament records.
    run(*tournament("games.jsonl", count=("--games", "2")))
    play = ["eval", "--mode", "play", "--records", path("games.jsonl"), "--policies", "random", "--reference", "random",
            "--samples", "2", "--count", "40", "--threads", "2", "--quiet"]
    t = run(*play, "--out", path("play.jsonl")).stdout
    check("agreement" in t, "play table:\n" + t)
    lines = read("play.jsonl").decode().splitlines()
    check(len(lines) == 41, f"play: 40 decisions, got {len(lines) - 1}")
    row = json.loads(lines[1])
    check(row["best"] in row["legal"] and row["choices"][0] in row["legal"] and len(row["legal"]) > 1, "play line")
    check(t.endswith("\nevaluated on 2 threads\n"), "the run's table names its threads\n" + t)
    check(run("eval", "--report", path("play.jsonl")).stdout == t[: t.rindex("\nevaluated on")],
          "eval --report prints the same table")
    p = run(*play, "--out", path("play.jsonl"), "--samples", "3", "--resume", expect=2)
    check("samples" in p.stderr, "eval header mismatch: " + p.stderr)
    p = run("eval", "--game", "hearts", "--mode", "bid", "--policies", "random", "--out", path("x.jsonl"), expect=2)
    check("Spades" in p.stderr, "bid eval on Hearts refused")


def case_deals():
    a = run("deals", "--game", "hearts", "--preset", "hearts3", "--count", "20", "--seed", "4").stdout
    b = run("deals", "--game", "hearts", "--preset", "hearts3", "--count", "20", "--seed", "4").stdout
    lines = a.splitlines()
    check(a == b and len(lines) == 21 and lines[0].startswith("# cardgames deals"), "deals output")
    check(all(line.startswith("3:") for line in lines[1:]), "3-player deals use the 3: notation")
    check(len(set(lines[1:])) == 20, "deals differ")


finish()
