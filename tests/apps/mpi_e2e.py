#!/usr/bin/env python3
"""End-to-end checks of `tournament` and `eval` over MPI ranks (issue 15): `mpirun -np 3` writes
the same file as one process, a run killed part-way resumes without losing or repeating a result,
and bad input is refused by rank 0 with status 2 and nothing overwritten.

usage: mpi_e2e.py CARDGAMES_BINARY CASE

No check depends on wall-clock time: the kill tests wait for lines in the file, not for seconds.
"""
import os
import signal
import subprocess
import time

from e2e import BIN, MPIRUN, check, finish, mpirun, path, read, run, shipped_model, tournament, version_one

TWO = "random,rule,random,rule"


def eval_bid(out, *extra):
    return ["eval", "--game", "spades", "--mode", "bid", "--deals", path("deals.txt"), "--policies", "random,rule",
            "--reference", "random", "--samples", "2", "--threads", "1", "--out", path(out), "--quiet", *extra]


def write_deals(name, seed):
    with open(path(name), "w") as f:
        f.write(run("deals", "--game", "spades", "--count", "4", "--seed", str(seed)).stdout)


def case_mpi_files():
    # Tournament: 3 ranks, one thread each, against one process on two threads.
    args = ("--duplicate",)
    run(*tournament("one.jsonl", *args, count=("--hands", "30"), players=TWO))
    p = mpirun(3, *tournament("three.jsonl", *args, count=("--hands", "30"), players=TWO, threads="1"))
    check(read("one.jsonl") == read("three.jsonl"), "tournament: 3 ranks and 1 process write different files")
    check(p.stdout.endswith("\nplayed on 3 ranks x 1 thread\n"), "the table names the ranks\n" + p.stdout)
    check(p.stdout.count("paired comparison") == 1, "one table, from rank 0\n" + p.stdout)
    # Eval, bid mode and play mode (on the tournament's records).
    write_deals("deals.txt", 3)
    run(*eval_bid("bid1.jsonl"))
    mpirun(3, *eval_bid("bid3.jsonl"))
    check(read("bid1.jsonl") == read("bid3.jsonl"), "eval bid: 3 ranks and 1 process differ")
    play = ["eval", "--mode", "play", "--records", path("one.jsonl"), "--policies", "random", "--reference", "random",
            "--samples", "2", "--count", "30", "--threads", "1", "--quiet"]
    run(*play, "--out", path("play1.jsonl"))
    mpirun(2, *play, "--out", path("play2.jsonl"))
    check(read("play1.jsonl") == read("play2.jsonl"), "eval play: 2 ranks and 1 process differ")


def children(pid):
    with open(f"/proc/{pid}/task/{pid}/children") as f:
        return [int(c) for c in f.read().split()]


def kill_midway(args, out, victim):
    """Starts mpirun, and once 40 results are in the file interrupts the run as Ctrl-C does
    (SIGINT to mpirun and its ranks, one process group) or kills one rank (as a node that dies)."""
    p = subprocess.Popen(MPIRUN + ["-np", "3", BIN, *args], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                         stdin=subprocess.DEVNULL, text=True, start_new_session=True)
    while p.poll() is None:
        if os.path.exists(path(out)) and read(out).count(b"\n") >= 40:
            if victim == "ctrl-c":
                os.killpg(p.pid, signal.SIGINT)
            else:
                ranks = children(p.pid)
                os.kill(ranks[-1], signal.SIGKILL)
            break
        time.sleep(0.005)
    _, err = p.communicate()
    return p.returncode, err


def case_mpi_resume():
    # A small pimc in one seat: hands of milliseconds, so that the run is still going when stopped.
    # After a Ctrl-C the ranks still write what they hold: some 250 more lines in the Release build
    # (all of 200 hands, at times), some 25 in a sanitizer build, which plays several times slower.
    hands = "100" if os.environ.get("CARDGAMES_SANITIZE") else "400"
    count, players = ("--hands", hands), "pimc:worlds=2,rollouts=2,rule,rule,rule"
    run(*tournament("ref.jsonl", count=count, players=players))
    ref = read("ref.jsonl")
    for victim in ("ctrl-c", "rank"):
        out = f"{victim}.jsonl"
        rc, err = kill_midway(tournament(out, count=count, threads="1", players=players), out, victim)
        lines = read(out).count(b"\n")
        print(f"{victim} stopped: status {rc}, {lines} lines written")
        partial = read(out)
        if rc == 0:
            print(f"note: the run finished before the {victim} was stopped")
        complete = partial[: partial.rfind(b"\n") + 1]
        check(ref.startswith(complete), f"{victim}: the file is not a prefix of the uninterrupted one\n{err}")
        # Resumed on another number of ranks: what is there stays, the rest is added once.
        mpirun(2, *tournament(out, "--resume", count=count, threads="1", players=players))
        check(read(out) == ref, f"{victim} stopped, then --resume: the file differs from the uninterrupted run")


def case_mpi_refuse():
    base = tournament("r.jsonl", threads="1")
    # Ranks started with different options (an MPMD command line): refused before anything is written.
    other = [a if a != "7" else "8" for a in base]
    p = mpirun(0, expect=2, command=["-np", "1", BIN, *base, ":", "-np", "2", BIN, *other])
    check("rank 1" in p.stderr and "same command" in p.stderr, "mismatched options: " + p.stderr)
    check(not os.path.exists(path("r.jsonl")), "mismatched options wrote a file")
    # An --out that rank 0 cannot write: a directory, a file in a missing directory.
    os.mkdir(path("dir"))
    for bad in (path("dir"), path("missing/r.jsonl")):
        p = mpirun(3, *[a if a != path("r.jsonl") else bad for a in base], expect=2)
        check(bad in p.stderr and p.stderr.count("cardgames tournament:") == 1, "unwritable --out: " + p.stderr)
    # A results file made with other options: refused by rank 0, left as it was.
    run(*base)
    before = read("r.jsonl")
    p = mpirun(3, *[a if a != "6" else "5" for a in base], "--resume", expect=2)
    check("other options" in p.stderr and read("r.jsonl") == before, "header mismatch: " + p.stderr)
    # Ranks that read different input (the same relative --deals path in two working folders)
    # cannot agree on the results file: refused, nothing written.
    for name, seed in (("a", 1), ("b", 2)):
        os.mkdir(path(name))
        write_deals(f"{name}/deals.txt", seed)
    args = [a if a != path("deals.txt") else "deals.txt" for a in eval_bid("e.jsonl")]
    p = mpirun(0, expect=2, command=["-np", "1", "-wdir", path("a"), BIN, *args, ":",
                                     "-np", "1", "-wdir", path("b"), BIN, *args])
    check("rank 1" in p.stderr and "input files" in p.stderr and not os.path.exists(path("e.jsonl")),
          "ranks with different inputs: " + p.stderr)
    # Only the batch commands spread over ranks.
    p = mpirun(2, "deals", "--count", "2", expect=2)
    check("only tournament, eval and learn" in p.stderr, "deals under mpirun: " + p.stderr)


def case_mpi_models():
    # Ranks that read different model files at the same path (a relative model= in two working
    # folders; the header names only the path): refused, nothing written. The same files pass.
    # Version 1 text, which is still read, so that a weight is simply edited.
    text = version_one(shipped_model("hearts4-playout.txt"))
    lines = text.splitlines()
    k = max(i for i, line in enumerate(lines) if len(line.split()) == 2 and line.split()[0] != "weights"
            and not line.startswith("#") and line != "end" and line.split()[0] not in ("kind", "form"))
    name, value = lines[k].split()
    changed = "\n".join(lines[:k] + [f"{name} {float(value) + 0.5!r}"] + lines[k + 1:]) + "\n"
    for folder, content in (("a", text), ("b", changed), ("c", text)):
        os.mkdir(path(folder))
        with open(path(f"{folder}/m.txt"), "w") as f:
            f.write(content)
    for command in (["tournament", "--game", "hearts", "--players", "policy:model=m.txt,rule,rule,rule",
                     "--hands", "2", "--seed", "7", "--threads", "1", "--quiet"],
                    ["learn", "data", "--game", "hearts", "--players",
                     "pimc:worlds=2,rollouts=2,playout=model,playout_model=m.txt,rule,rule,rule", "--hands", "1",
                     "--seed", "1000005", "--threads", "1", "--quiet"]):
        out = path(f"{command[0]}.jsonl")
        p = mpirun(0, expect=2, command=["-np", "1", "-wdir", path("a"), BIN, *command, "--out", out, ":",
                                         "-np", "1", "-wdir", path("b"), BIN, *command, "--out", out])
        check("rank 1 read other model files than rank 0" in p.stderr and not os.path.exists(out),
              f"{command[0]}, ranks with different models: " + p.stderr)
        mpirun(0, command=["-np", "1", "-wdir", path("a"), BIN, *command, "--out", out, ":",
                           "-np", "1", "-wdir", path("c"), BIN, *command, "--out", out])
        check(os.path.exists(out), f"{command[0]}: ranks with the same models wrote nothing")


finish()
