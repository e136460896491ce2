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
import sys
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


def case_tournament_seat_seeds():
    # --seat-seeds: the bots are seeded by seat, so one spec in every seat plays each board alike in
    # every rotation (the paired difference of two spellings of it is 0); by entry it does not.
    def scores(name):
        by_board = {}
        for line in read(name).decode().splitlines()[1:]:
            r = json.loads(line)
            by_board.setdefault(r["board"], []).append(r["seat_hand_scores"])
        return by_board
    run(*tournament("seat.jsonl", "--duplicate", "--seat-seeds", count=("--hands", "4")))
    run(*tournament("entry.jsonl", "--duplicate", count=("--hands", "4")))
    seat, entry = scores("seat.jsonl"), scores("entry.jsonl")
    check(all(len(v) == 4 and all(x == v[0] for x in v) for v in seat.values()), f"by seat: {seat}")
    check(any(any(x != v[0] for x in v) for v in entry.values()), f"by entry: {entry}")
    check(json.loads(read("seat.jsonl").decode().splitlines()[0])["options"]["seat_seeds"] is True,
          "the header records seat_seeds")
    check("seat_seeds" not in json.loads(read("entry.jsonl").decode().splitlines()[0])["options"],
          "a run without it writes the header it always did")
    p = run(*tournament("seat.jsonl", "--duplicate", count=("--hands", "4")), "--resume", expect=2)
    check("seat_seeds" in p.stderr, f"resume without --seat-seeds: {p.stderr}")


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
    first = subprocess.Popen([BIN, *tournament("busy.jsonl", count=("--hands", "120"), players=small, threads="1")],
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    while first.poll() is None and (not os.path.exists(path("busy.jsonl")) or read("busy.jsonl").count(b"\n") < 3):
        time.sleep(0.005)
    p = run(*tournament("busy.jsonl", "--resume", count=("--hands", "120"), players=small, threads="1"), expect=2)
    check("another run is writing" in p.stderr and path("busy.jsonl") in p.stderr, "second writer: " + p.stderr)
    check(first.wait() == 0, "the first run finished")
    lines = read("busy.jsonl").decode().splitlines()
    check([json.loads(x)["index"] for x in lines[1:]] == list(range(120)), "each result once, in order")
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


def case_tournament_oracle():
    # The oracle sees every hand: each record names its seat under "cheats", the table marks its
    # row, the records replay, and where the program cannot show it the hands it is refused.
    oracle = "oracle:rollouts=4"
    args = ["tournament", "--preset", "spades-cutthroat3", "--players", f"{oracle},rule,rule", "--hands", "2",
            "--duplicate", "--seed", "3", "--threads", "2", "--out", path("oracle.jsonl"), "--quiet"]
    t = run(*args).stdout
    check(f"\n{oracle} (sees all hands) " in t and "\nrule " in t, "the table marks the oracle's row\n" + t)
    check(run("tournament", "--report", path("oracle.jsonl")).stdout == t[: t.rindex("\nplayed on")],
          "--report marks it too")
    for line in read("oracle.jsonl").decode().splitlines()[1:]:
        r = json.loads(line)
        check(r["cheats"] == [r["players"].index(oracle)], f"the record marks the oracle's seat: {r['cheats']}")
    check("6 games replayed, 0 with errors" in run("replay", path("oracle.jsonl")).stdout, "replay")
    # The header names the entries that see every hand; a record that does not mark them is refused.
    lines = read("oracle.jsonl").decode().splitlines(keepends=True)
    check(json.loads(lines[0])["options"]["cheats"] == [0], "the header marks the oracle: " + lines[0][:300])
    r = json.loads(lines[2])
    del r["cheats"]
    with open(path("unmarked.jsonl"), "w") as f:
        f.write(lines[0] + lines[1] + json.dumps(r) + "\n")
    p = run("tournament", "--report", path("unmarked.jsonl"), expect=2)
    check("line 3" in p.stderr and "see every hand" in p.stderr, "an unmarked oracle record: " + p.stderr)
    p = run(*[path("unmarked.jsonl") if a == path("oracle.jsonl") else a for a in args], "--resume", expect=2)
    check("line 3" in p.stderr, "--resume of it: " + p.stderr)
    p = run("eval", "--mode", "play", "--records", path("oracle.jsonl"), "--policies", "oracle", "--out",
            path("oracle_eval.jsonl"), expect=2)
    check("--policies: oracle sees every hand" in p.stderr and not os.path.exists(path("oracle_eval.jsonl")),
          "eval --mode play --policies oracle: " + p.stderr)
    p = run("bot", "--spec", "oracle", expect=2)
    check("sees every hand" in p.stderr, "bot --spec oracle: " + p.stderr)
    p = run("play", "--preset", "hearts3", "--seed", "1", "--helper", "oracle", expect=2)
    check("--helper oracle" in p.stderr and "sees every hand" in p.stderr, "play --helper oracle: " + p.stderr)
    p = subprocess.run([BIN, "play", "--preset", "hearts3", "--seed", "4", "--bots", f"{oracle},rule", "--helper",
                        "rule", "--seat", "0", "--ascii"], input="auto\n", capture_output=True, text=True)
    check(p.returncode == 0 and f"{oracle} (sees all hands)" in p.stdout.split("\n")[2],
          "play says at the opening which seat sees all hands:\n" + p.stdout[:400])


def case_deals():
    a = run("deals", "--game", "hearts", "--preset", "hearts3", "--count", "20", "--seed", "4").stdout
    b = run("deals", "--game", "hearts", "--preset", "hearts3", "--count", "20", "--seed", "4").stdout
    lines = a.splitlines()
    check(a == b and len(lines) == 21 and lines[0].startswith("# cardgames deals"), "deals output")
    check(all(line.startswith("3:") for line in lines[1:]), "3-player deals use the 3: notation")
    check(len(set(lines[1:])) == 20, "deals differ")


def refused_everywhere(name, text, *fragments, resume=None, report="tournament", report_with=()):
    """The file `name` holding `text` is bad input for --report (with `report_with`, e.g. the
    deal set) and --resume when given its arguments: status 2, the file, line and key named, no
    bug, and the file unchanged."""
    with open(path(name), "wb") as f:
        f.write(text)
    runs = [(report, "--report", path(name), *report_with)]
    if resume:
        runs.append(resume)
    for args in runs:
        p = run(*args, expect=2)
        for fragment in (path(name), *fragments):
            check(fragment in p.stderr, f"{name}: '{fragment}' not in the message of {args[0]} {args[1]}: {p.stderr}")
        check("bug" not in p.stderr and "Sanitizer" not in p.stderr, f"{name}: {p.stderr}")
        check(read(name) == text, f"{name}: {args[1]} changed the file")


def case_tournament_values():
    # Values of the right type but absurd, or not this file's: refused by --report and --resume.
    count = ("--hands", "4")
    run(*tournament("ref.jsonl", count=count))
    lines = read("ref.jsonl").decode().splitlines()
    header, first = json.loads(lines[0]), json.loads(lines[1])
    resume = lambda name: tournament(name, "--resume", count=count)  # noqa: E731

    def with_first(name, change, *fragments):
        line = json.loads(lines[1])
        change(line)
        text = "\n".join([lines[0], json.dumps(line)] + lines[2:]) + "\n"
        refused_everywhere(name, text.encode(), "line 2", *fragments, resume=resume(name))

    with_first("board.jsonl", lambda j: j.update(board=1e300), 'key "board"')
    with_first("board2.jsonl", lambda j: j.update(board=3), 'key "board"', "expected 0")
    three = {k: first[k][:3] for k in ("players", "seat_unit", "seat_win", "seat_hand_scores")}
    with_first("seats.jsonl", lambda j: j.update(three), 'key "players"')
    with_first("win.jsonl", lambda j: j["seat_win"].__setitem__(0, -1), 'key "seat_win[0]"')
    with_first("score.jsonl", lambda j: j["seat_hand_scores"][1].__setitem__(0, 1e300), 'key "seat_hand_scores[1][0]"')
    with_first("card.jsonl", lambda j: j["hands"][0]["plays"][3].__setitem__(1, "1X"), 'key "hands[0].plays[3][1]"')
    with_first("seat.jsonl", lambda j: j["hands"][0]["plays"][3].__setitem__(0, 4), 'key "hands[0].plays[3][0]"')
    with_first("spec.jsonl", lambda j: j["players"].__setitem__(0, "rule"), 'key "players"')
    with_first("rules.jsonl", lambda j: j["rules"].update(pass_count="2"), 'key "rules"')
    with_first("deep.jsonl", lambda j: j.update(extra=json.loads("[" * 40 + "]" * 40)), "nested deeper")
    # A record nested 100,000 levels deep: refused before it is parsed, not a stack overflow.
    deep = "[" * 100000 + "]" * 100000
    refused_everywhere("deep2.jsonl", ("\n".join([lines[0], deep] + lines[2:]) + "\n").encode(), "line 2", "nested deeper",
                       resume=resume("deep2.jsonl"))
    with open(path("deep.rec"), "w") as f:
        f.write('{"type":"game","x":' + deep + "}\n")
    p = run("replay", path("deep.rec"), expect=2)
    check("line 1" in p.stderr and "nested deeper" in p.stderr, "replay of a deep record: " + p.stderr)
    # The header: negative and absurd counts, a wrong type, a number where the seed goes.
    for key, value in (("hands", -5), ("hands", 10 ** 18), ("duplicate", "yes"), ("seed", -1), ("players", ["random"] * 3)):
        h = json.loads(lines[0])
        h["options"][key] = value
        refused_everywhere(f"h_{key}.jsonl", ("\n".join([json.dumps(h)] + lines[1:]) + "\n").encode(), "line 1",
                           f'key "options.{key}"')
    # A record with a card that is not a card or a seat out of range is bad input for replay and eval too.
    bad = json.loads(lines[1])
    bad["hands"][0]["plays"][0] = [7, "2C"]
    with open(path("seat.rec"), "w") as f:
        f.write(json.dumps(bad) + "\n")
    p = run("replay", path("seat.rec"), expect=2)
    check("line 1" in p.stderr and 'key "hands[0].plays[0][0]"' in p.stderr, "replay, seat 7: " + p.stderr)
    p = run("eval", "--mode", "play", "--records", path("seat.rec"), "--policies", "random", "--out", path("e.jsonl"),
            expect=2)
    check('hands[0].plays[0][0]' in p.stderr and not os.path.exists(path("e.jsonl")), "eval, seat 7: " + p.stderr)
    # Text quoted from a file reaches the terminal with its control characters escaped.
    bad = json.loads(lines[1])
    bad["hands"][0]["deal"] = "N:\x1b[2J\x1b]0;pwned\x07"
    with open(path("esc.rec"), "w") as f:
        f.write(json.dumps(bad) + "\n")
    p = run("replay", path("esc.rec"), expect=2)
    check("\x1b" not in p.stderr and "\x07" not in p.stderr and "\\x1b[2J" in p.stderr, "escapes: " + repr(p.stderr))


def case_eval_values():
    # Eval results: a line of the other mode (a foreign line), a negative loss, a header with
    # policies as a number or a count of -1: status 2 with the key, the file unchanged.
    deals = run("deals", "--game", "spades", "--count", "2", "--seed", "2").stdout
    with open(path("deals.txt"), "w") as f:
        f.write(deals)
    bid = ["eval", "--game", "spades", "--mode", "bid", "--deals", path("deals.txt"), "--policies", "random,rule",
           "--reference", "random", "--samples", "2", "--quiet", "--threads", "1"]
    run(*bid, "--out", path("bid.jsonl"))
    run(*tournament("games.jsonl", count=("--hands", "2")))
    play = ["eval", "--mode", "play", "--records", path("games.jsonl"), "--policies", "random,rule", "--reference",
            "random", "--samples", "2", "--count", "5", "--quiet", "--threads", "1"]
    run(*play, "--out", path("play.jsonl"))
    bid_lines = read("bid.jsonl").decode().splitlines()
    play_lines = read("play.jsonl").decode().splitlines()

    def bad_bid(name, lines, *fragments):
        refused_everywhere(name, ("\n".join(lines) + "\n").encode(), *fragments, resume=[*bid, "--out", path(name),
                                                                                          "--resume"], report="eval")

    foreign = json.loads(play_lines[2])
    foreign["index"] = 1
    bad_bid("foreign.jsonl", [bid_lines[0], bid_lines[1], json.dumps(foreign)] + bid_lines[3:], "line 3", 'key "deal_index"')
    tourney = json.loads(read("games.jsonl").decode().splitlines()[1])
    bad_bid("tourney.jsonl", [bid_lines[0], json.dumps(tourney)] + bid_lines[2:], "line 2", "key")
    line = json.loads(bid_lines[1])
    line["loss"][1] = -3
    bad_bid("loss.jsonl", [bid_lines[0], json.dumps(line)] + bid_lines[2:], "line 2", 'key "loss[1]"')
    line = json.loads(bid_lines[1])
    line["loss"] = line["loss"][:1]
    bad_bid("loss1.jsonl", [bid_lines[0], json.dumps(line)] + bid_lines[2:], "line 2", 'key "loss"')
    line = json.loads(bid_lines[1])
    line["seat"] = 4
    bad_bid("seat.jsonl", [bid_lines[0], json.dumps(line)] + bid_lines[2:], "line 2", 'key "seat"')
    for key, value in (("policies", 3), ("count", -1), ("mode", "guess")):
        h = json.loads(bid_lines[0])
        h["options"][key] = value
        refused_everywhere(f"h_{key}.jsonl", ("\n".join([json.dumps(h)] + bid_lines[1:]) + "\n").encode(), "line 1",
                           f'key "options.{key}"', report="eval")
    line = json.loads(play_lines[1])
    line["choices"][0] = "2X"
    refused_everywhere("choice.jsonl", ("\n".join([play_lines[0], json.dumps(line)] + play_lines[2:]) + "\n").encode(),
                       "line 2", 'key "choices[0]"', resume=[*play, "--out", path("choice.jsonl"), "--resume"],
                       report="eval")


def case_tournament_replayed():
    # Result lines that parse but lie (issue 24): each game is replayed, its seat fields compared
    # and its deals checked against the header's seed, by --report and --resume alike.
    run(*tournament("ref.jsonl"))
    lines = read("ref.jsonl").decode().splitlines()
    resume = lambda name: tournament(name, "--resume")  # noqa: E731

    def with_line(name, number, change, *fragments):
        line = json.loads(lines[number])
        change(line)
        text = "\n".join(lines[:number] + [json.dumps(line)] + lines[number + 1:]) + "\n"
        refused_everywhere(name, text.encode(), f"line {number + 1}", *fragments, resume=resume(name))

    def flip_win(j):
        j["seat_win"][2] = 1 - j["seat_win"][2]

    with_line("win.jsonl", 3, flip_win, 'key "seat_win[2]"', "replayed game gives")
    with_line("score.jsonl", 2, lambda j: j["seat_hand_scores"][1].__setitem__(0, j["seat_hand_scores"][1][0] + 1),
              'key "seat_hand_scores[1][0]"', "replayed game gives")

    def illegal(j):
        plays = j["hands"][0]["plays"]
        plays[0][1], plays[1][1] = plays[1][1], plays[0][1]  # each plays the other's card

    with_line("illegal.jsonl", 2, illegal, 'key "hands"', "does not replay")

    # Board 1's game under board 0's index and seed: every card legal, every outcome its own,
    # but not the deal the header's seed gives board 0.
    other = json.loads(lines[2])

    def other_board(j):
        j.update({k: other[k] for k in other if k not in ("index", "board", "rotation", "seed")})

    with_line("board.jsonl", 1, other_board, 'key "hands[0].deal"', "not the deal of board 0")
    # The genuine file still reports, and resumes unchanged.
    run(*resume("ref.jsonl"))
    check(read("ref.jsonl").decode().splitlines() == lines, "--resume of the genuine file changed it")
    check("random" in run("tournament", "--report", path("ref.jsonl")).stdout, "--report of the genuine file")


def case_eval_checked():
    # Eval results checked against their input and their own values (issue 24).
    for name, seed in (("deals.txt", "2"), ("deals2.txt", "3")):
        with open(path(name), "w") as f:
            f.write(run("deals", "--game", "spades", "--count", "2", "--seed", seed).stdout)
    bid = ["eval", "--game", "spades", "--mode", "bid", "--policies", "random,rule", "--reference", "random",
           "--samples", "2", "--count", "2", "--quiet", "--threads", "1"]
    run(*bid, "--deals", path("deals.txt"), "--out", path("bid.jsonl"))
    run(*bid, "--deals", path("deals2.txt"), "--out", path("bid2.jsonl"))
    run(*tournament("games.jsonl", count=("--hands", "2")))
    other_seed = tournament("games2.jsonl", count=("--hands", "2"))
    other_seed[other_seed.index("--seed") + 1] = "8"
    run(*other_seed)
    play = ["eval", "--mode", "play", "--policies", "random,rule", "--reference", "random", "--samples", "2",
            "--count", "5", "--quiet", "--threads", "1"]
    run(*play, "--records", path("games.jsonl"), "--out", path("play.jsonl"))
    run(*play, "--records", path("games2.jsonl"), "--out", path("play2.jsonl"))
    bid_lines = read("bid.jsonl").decode().splitlines()
    play_lines = read("play.jsonl").decode().splitlines()
    with_deals = ("--deals", path("deals.txt"))
    with_records = ("--records", path("games.jsonl"))

    def bad(name, lines, mode, *fragments):
        args, given = (bid, with_deals) if mode == "bid" else (play, with_records)
        text = ("\n".join(lines) + "\n").encode()
        refused_everywhere(name, text, *fragments, resume=[*args, *given, "--out", path(name), "--resume"],
                           report="eval", report_with=given)
        # What the file alone shows is refused without the input too.
        refused_everywhere(name, text, *fragments, report="eval")

    def changed(lines, number, change):
        line = json.loads(lines[number])
        change(line)
        return lines[:number] + [json.dumps(line)] + lines[number + 1:]

    # A loss that is not the best value minus the chosen one; a best that is not the highest.
    bad("loss.jsonl", changed(bid_lines, 3, lambda j: j["loss"].__setitem__(0, j["loss"][0] + 1)), "bid", "line 4",
        'key "loss[0]"', "best value minus the chosen one")
    bad("ploss.jsonl", changed(play_lines, 2, lambda j: j["loss"].__setitem__(1, j["loss"][1] + 0.5)), "play",
        "line 3", 'key "loss[1]"')

    def lower_best(j):
        j["values"][j["legal"].index(j["best"])] = -1000

    bad("best.jsonl", changed(play_lines, 1, lower_best), "play", "line 2", 'key "best"', "highest value")
    # More items than the header's count: 2 deals x 4 seats, 5 decisions.
    extra = json.loads(bid_lines[-1])
    extra.update(index=8, deal_index=2)
    bad("more.jsonl", bid_lines + [json.dumps(extra)], "bid", "line 10", 'key "index"', "item 8, but")
    extra = json.loads(play_lines[-1])
    extra["index"] = 5
    bad("pmore.jsonl", play_lines + [json.dumps(extra)], "play", "line 7", 'key "index"', "item 5, but")
    # Items of another deal set, other records: refused by --resume and by --report given the input.
    other = read("bid2.jsonl").decode().splitlines()
    text = ("\n".join([bid_lines[0]] + other[1:]) + "\n").encode()
    refused_everywhere("foreign.jsonl", text, "line 2", 'key "deal"', "item 0 of the deal set",
                       resume=[*bid, *with_deals, "--out", path("foreign.jsonl"), "--resume"], report="eval",
                       report_with=with_deals)
    other = read("play2.jsonl").decode().splitlines()
    text = ("\n".join([play_lines[0]] + other[1:]) + "\n").encode()
    refused_everywhere("pforeign.jsonl", text, "line 2", "of the records",
                       resume=[*play, *with_records, "--out", path("pforeign.jsonl"), "--resume"], report="eval",
                       report_with=with_records)
    # --report with an input that is not the header's, or of the other mode.
    p = run("eval", "--report", path("bid.jsonl"), "--deals", path("deals2.txt"), expect=2)
    check(path("deals2.txt") in p.stderr and "not the deal set" in p.stderr, "--report with other deals: " + p.stderr)
    p = run("eval", "--report", path("bid.jsonl"), "--records", path("games.jsonl"), expect=2)
    check("--records does not apply" in p.stderr, "--report of a bid file with --records: " + p.stderr)
    # The genuine files: the same table with and without the input, and resume leaves them be.
    for lines, args, given, name in ((bid_lines, bid, with_deals, "bid.jsonl"),
                                     (play_lines, play, with_records, "play.jsonl")):
        table = run("eval", "--report", path(name)).stdout
        check(run("eval", "--report", path(name), *given).stdout == table, f"{name}: --report with its input")
        run(*args, *given, "--out", path(name), "--resume")
        check(read(name).decode().splitlines() == lines, f"{name}: --resume changed the genuine file")
    # An empty deal set: refused, naming it, and no results file.
    with open(path("empty.txt"), "w") as f:
        f.write("# no deals here\n")
    p = run(*bid, "--deals", path("empty.txt"), "--out", path("e.jsonl"), expect=2)
    check(path("empty.txt") in p.stderr and "no deals" in p.stderr and not os.path.exists(path("e.jsonl")),
          "eval --mode bid on an empty deal set: " + p.stderr)


BOTS = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "bots")


def case_tournament_bot_text():
    # An external bot answering invalid UTF-8 (with a terminal escape), or a long word in Japanese
    # that the note must cut: the tournament finishes, its notes are valid and safe, --resume and
    # --report work, the file replays, and play --record keeps the game.
    for mode in ("badutf8", "script"):
        bot = f'external:cmd="{sys.executable} {BOTS}/bad_bot.py {mode} 2"'
        args = tournament(f"{mode}.jsonl", count=("--hands", "2"), players=f"{bot},random,random,random", threads="1")
        p = run(*args)
        check("\x1b" not in p.stderr, f"{mode}: a terminal escape reached stderr")
        data = read(f"{mode}.jsonl")
        notes = [n for line in data.decode("utf-8").splitlines()[1:] for n in json.loads(line)["fallbacks"]]
        check(len(notes) == 2, f"{mode}: one note per game, got {notes}")
        for n in notes:
            check(len(n["received"].encode()) <= 203 and "\x1b" not in n["received"] + n["reason"], f"{mode}: {n}")
            if mode == "badutf8":
                check("\ufffd" in n["received"] and "\\x1b[31m" in n["received"], f"{mode}: {n}")
            else:
                check(n["received"].endswith("...") and n["received"].startswith("\u30c0\u30a4"), f"{mode}: {n}")
        run(*args, "--resume")
        check(read(f"{mode}.jsonl") == data, f"{mode}: --resume of the finished file changed it")
        check("random" in run("tournament", "--report", path(f"{mode}.jsonl")).stdout, f"{mode}: --report")
        out = run("replay", path(f"{mode}.jsonl")).stdout
        check("2 games replayed, 0 with errors" in out, f"{mode}: replay: {out}")
        rec = path(f"{mode}.rec")
        p = subprocess.run([BIN, "play", "--seed", "4", "--bots", f"{bot},rule,rule", "--helper", "rule", "--record", rec,
                            "--ascii"], input="auto\n", capture_output=True, text=True, errors="replace")
        check(p.returncode == 0 and os.path.getsize(rec) > 0, f"{mode}: play --record: {p.returncode} {p.stderr}")
        check("fallbacks" in read(f"{mode}.rec").decode("utf-8"), f"{mode}: the record has the note")
        out = run("replay", rec).stdout
        check("1 games replayed, 0 with errors" in out, f"{mode}: replay of play's record: {out}")


finish()
