#!/usr/bin/env python3
"""End-to-end checks of `cardgames learn selfplay` (issue 42): the shards are the same bytes for any
--threads and MPI rank count, a run cut at any byte resumes to the bytes of an uncut run, and a
damaged or lying shard is refused with exit 2 naming the file and the field.

usage: selfplay_e2e.py CARDGAMES_BINARY CASE

pimc runs with few worlds so that the runs are short.
"""
import os
import shutil
import signal
import struct
import subprocess
import time

from e2e import BIN, check, expect_bad, finish, mpirun, path, run

PIMC = "pimc:worlds=4,rollouts=4"
HEADER, RECORD = 4096, 136


def selfplay(out, *extra, threads="2", hands="5", shard_hands="2", expect=0):
    return run("learn", "selfplay", "--game", "hearts", "--players", f"{PIMC},rule,{PIMC},rule", "--seats", "0,1",
               "--values", PIMC, "--hands", hands, "--seed", "1000042", "--shard-hands", shard_hands, "--threads",
               threads, "--out", path(out), "--quiet", *extra, expect=expect)


def shards(folder):
    d = path(folder)
    return {n: open(os.path.join(d, n), "rb").read() for n in sorted(os.listdir(d)) if n.endswith(".cgsp")}


def fnv_check(body):
    h = 0xCBF29CE484222325
    for b in body:
        h = ((h ^ b) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return (h ^ h >> 16 ^ h >> 32 ^ h >> 48) & 0xFFFF


def case_selfplay_threads():
    selfplay("t1", threads="1")
    selfplay("t2", threads="2")
    one, two = shards("t1"), shards("t2")
    check(list(one) == ["shard-00000.cgsp", "shard-00001.cgsp", "shard-00002.cgsp"], f"3 shards of 2 hands: {list(one)}")
    check(one == two, "learn selfplay: --threads 1 and 2 write different shards")
    report = run("learn", "selfplay", "--report", path("t1")).stdout
    check("3 shards, 5 hands of hearts4" in report and "every record checked and replayed" in report, report)
    body = b"".join(s[HEADER:] for s in one.values())
    check(len(body) % RECORD == 0, "whole records")
    seats = {body[i + 4] for i in range(0, len(body), RECORD)}
    check(seats == {0, 1}, f"only the seats asked for are recorded: {seats}")
    # Partnership Spades with its bids, by the rule player.
    run("learn", "selfplay", "--preset", "spades-partnership", "--hands", "2", "--seed", "1000043", "--threads", "2",
        "--out", path("s"), "--quiet")
    report = run("learn", "selfplay", "--report", path("s")).stdout
    check("2 hands of spades-partnership" in report and " 8 bids" in report, report)


def case_selfplay_resume():
    selfplay("full")
    full = shards("full")
    sizes = [(n, len(b)) for n, b in full.items()]
    # Cut the run's files as a kill could leave them: a last shard cut at some byte (in its header,
    # between records, inside a record), with the shards after it not written yet.
    cuts = [(0, 0), (0, 100), (0, HEADER), (0, HEADER + 1), (1, HEADER + RECORD), (1, HEADER + 3 * RECORD + 17),
            (1, sizes[1][1] - 1), (1, sizes[1][1]), (2, sizes[2][1] - RECORD)]
    for k, (shard, size) in enumerate(cuts):
        folder = f"cut{k}"
        os.makedirs(path(folder))
        for name, data in list(full.items())[:shard + 1]:
            with open(os.path.join(path(folder), name), "wb") as f:
                f.write(data if name != sizes[shard][0] else data[:size])
        selfplay(folder, "--resume")
        check(shards(folder) == full, f"cut at shard {shard} byte {size}: the resumed run differs from the uncut one")
    # Without --resume a folder with shards is refused and left as it was.
    p = selfplay("full", expect=2)
    check("add --resume" in p.stderr, p.stderr)
    check(shards("full") == full, "a refused run changed the shards")
    # Other options are refused on resume.
    p = run("learn", "selfplay", "--game", "hearts", "--hands", "5", "--seed", "1000042", "--shard-hands", "2",
            "--out", path("full"), "--resume", "--quiet", expect=2)
    check("other options" in p.stderr, p.stderr)


def case_selfplay_kill():
    # A run killed (SIGKILL) part-way, wherever its writes stood, resumes to the uncut run's bytes.
    selfplay("whole", hands="12", shard_hands="5")
    whole = shards("whole")
    cmd = [BIN, "learn", "selfplay", "--game", "hearts", "--players", f"{PIMC},rule,{PIMC},rule", "--seats", "0,1",
           "--values", PIMC, "--hands", "12", "--seed", "1000042", "--shard-hands", "5", "--threads", "2",
           "--out", path("killed"), "--quiet"]
    p = subprocess.Popen(cmd)
    first = os.path.join(path("killed"), "shard-00000.cgsp")
    while p.poll() is None and (not os.path.exists(first) or os.path.getsize(first) < HEADER + 20 * RECORD):
        time.sleep(0.005)
    p.send_signal(signal.SIGKILL)
    p.wait()
    check(shards("killed") != whole, "the run ended before it was killed: nothing was tested")
    selfplay("killed", "--resume", hands="12", shard_hands="5")
    check(shards("killed") == whole, "a killed run, resumed, differs from the uncut one")


def case_selfplay_mpi():
    selfplay("one", threads="2")
    mpirun(2, "learn", "selfplay", "--game", "hearts", "--players", f"{PIMC},rule,{PIMC},rule", "--seats", "0,1",
           "--values", PIMC, "--hands", "5", "--seed", "1000042", "--shard-hands", "2", "--threads", "1",
           "--out", path("two"), "--quiet")
    check(shards("one") == shards("two"), "learn selfplay: 2 ranks and 1 process write different shards")


def damaged(name, offset, change, recheck):
    """A copy of folder `good` whose shard 0 has its byte at `offset` changed (and its record's check
    recomputed when `recheck`, so that only the content lies)."""
    shutil.copytree(path("good"), path(name))
    f = os.path.join(path(name), "shard-00000.cgsp")
    data = bytearray(open(f, "rb").read())
    data[offset] = change(data[offset])
    if recheck:
        start = HEADER + (offset - HEADER) // RECORD * RECORD
        struct.pack_into("<H", data, start + 134, fnv_check(data[start:start + 134]))
    open(f, "wb").write(bytes(data))
    return f


def case_selfplay_refuse():
    base = ["learn", "selfplay", "--game", "hearts", "--hands", "1"]
    expect_bad(base + ["--seed", "7", "--out", path("x")], "--seed 7", "training seed")
    expect_bad(base + ["--seats", "0,4", "--out", path("x")], "--seats", "seat 4")
    expect_bad(base + ["--seats", "a", "--out", path("x")], "'a' is not a seat number")
    expect_bad(base + ["--values", "rule", "--out", path("x")], "--values 'rule'", "pimc")
    expect_bad(base + ["--players", "rule,rule", "--out", path("x")], "2 specs for 4 seats")
    expect_bad(base, "--out is required")
    run(*base, "--seed", "1000044", "--seats", "0", "--values", PIMC, "--out", path("good"), "--quiet")
    r1 = HEADER + RECORD  # the second record
    cases = [
        ("flip", r1 + 30, lambda b: b ^ 1, False, "record 1: field 'check'"),
        ("seat", r1 + 4, lambda b: 9, True, "record 1: field 'seat'"),
        ("action", r1 + 7, lambda b: (b + 1) % 52, True, "record 1: field 'action'"),
        ("result", r1 + 12, lambda b: b ^ 4, True, "record 1: field 'result'"),
        ("deal", r1 + 24, lambda b: b ^ 0b111, True, "record 1: field 'deal'"),
        ("index", r1 + 10, lambda b: 0, True, "record 1: field 'index'"),
        ("header", 30, lambda b: ord("X"), False, "field 'header'"),
    ]
    for name, offset, change, recheck, fragment in cases:
        f = damaged(name, offset, change, recheck)
        expect_bad(["learn", "selfplay", "--report", path(name)], f"'{f}'", fragment)
    # A resume refuses a damaged shard too, and leaves it as it was.
    f = damaged("resume", r1 + 30, lambda b: b ^ 1, False)
    before = open(f, "rb").read()
    expect_bad(["learn", "selfplay", "--game", "hearts", "--hands", "1", "--seed", "1000044", "--seats", "0",
                "--values", PIMC, "--out", path("resume"), "--resume", "--quiet"], f"'{f}' record 1: field 'check'")
    check(open(f, "rb").read() == before, "a refused resume changed the shard")


finish()
