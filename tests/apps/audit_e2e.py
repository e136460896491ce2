#!/usr/bin/env python3
"""End-to-end checks of the third hostile audit's findings (issue 45): a refused run leaves no
results file behind, the fit commands read their data once (a pipe, a FIFO) and never write over
it, a model path in a missing folder is bad input, --rule values are values (never INI text), and
`solve --bids` takes only the bids the rules have.

usage: audit_e2e.py CARDGAMES_BINARY CASE
"""
import json
import os
import re
import subprocess
import threading

from e2e import BIN, check, finish, header_of, path, read, run

MODELS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "data", "models")
PIMC = "pimc:worlds=4,rollouts=4"


def expect_bad(args, *fragments):
    p = run(*args, expect=2)
    for f in fragments:
        check(f in p.stderr, f"{args}: '{f}' not in the error: {p.stderr}")
    check("internal error" not in p.stderr, p.stderr)
    return p


def refused_without_file(args, out, *fragments):
    """The run is refused with status 2, and its results file was never made."""
    expect_bad(args + ["--out", path(out)], *fragments)
    check(not os.path.exists(path(out)), f"{args}: the refused run left '{out}' behind")
    # The same command again is refused for the same reason, not for "the file exists".
    p = expect_bad(args + ["--out", path(out)], *fragments)
    check("the file exists" not in p.stderr, p.stderr)


def case_refused_no_file():
    hearts_model = os.path.join(MODELS, "hearts4-playout.txt")
    bids_model = os.path.join(MODELS, "spades-bids.txt")
    # A hearts4 play-out policy at a Spades table, alone and inside pimc's play-outs.
    for spec in (f"policy:model={hearts_model}", f"{PIMC},playout=model,playout_model={hearts_model}"):
        refused_without_file(["tournament", "--game", "spades", "--players", f"{spec},rule,rule,rule",
                              "--hands", "1", "--quiet"], "t.jsonl",
                             f"bot spec '{spec}'", "made for hearts4, not for spades-partnership")
    # The partnership bid model at a cutthroat table.
    spec = f"pimc:bid=model,bid_model={bids_model},worlds=2"
    refused_without_file(["tournament", "--preset", "spades-cutthroat3", "--players", f"{spec},rule,rule",
                          "--hands", "1", "--quiet"], "t.jsonl", "made for 4 players")
    # The form's default play-out model missing (there is none for 3-player Hearts).
    refused_without_file(["tournament", "--preset", "hearts3", "--players", f"{PIMC},playout=model,rule,rule",
                          "--hands", "1", "--quiet"], "t.jsonl", "hearts3-playout.txt", "cannot open")
    refused_without_file(["tournament", "--preset", "hearts3", "--players", "policy,rule,rule",
                          "--hands", "1", "--quiet"], "t.jsonl", "hearts3-playout.txt")
    # The same through a fallback of an external bot, and through learn data and learn bids-data.
    refused_without_file(["tournament", "--game", "spades", "--players",
                          f"external:cmd=false,fallback=policy:model={hearts_model},rule,rule,rule",
                          "--hands", "1", "--quiet"], "t.jsonl", "made for hearts4")
    refused_without_file(["learn", "data", "--game", "spades", "--players",
                          f"{PIMC},policy:model={hearts_model},rule,rule", "--hands", "1", "--quiet"],
                         "d.jsonl", "made for hearts4, not for spades-partnership")
    refused_without_file(["learn", "cutoff-data", "--preset", "hearts3", "--players", "policy,rule,rule",
                          "--hands", "1", "--quiet"], "c.jsonl", "hearts3-playout.txt")
    refused_without_file(["learn", "bids-data", "--preset", "spades-cutthroat3", "--bot",
                          f"pimc:bid=model,bid_model={bids_model}", "--hands", "1", "--quiet"],
                         "b.jsonl", "made for 4 players")
    # Eval: bid mode at the deals' rules, play mode at each record's.
    with open(path("deals.txt"), "w") as f:
        f.write(run("deals", "--game", "spades", "--count", "2", "--seed", "3").stdout)
    refused_without_file(["eval", "--game", "spades", "--mode", "bid", "--deals", path("deals.txt"), "--policies",
                          f"rule,policy:model={hearts_model}", "--reference", "random", "--samples", "2",
                          "--quiet"], "e.jsonl", "made for hearts4")
    run("tournament", "--game", "spades", "--players", "random,random,random,random", "--hands", "1", "--seed", "5",
        "--quiet", "--out", path("records.jsonl"))
    refused_without_file(["eval", "--mode", "play", "--records", path("records.jsonl"), "--policies",
                          f"policy:model={hearts_model}", "--reference", "random", "--samples", "2", "--count", "4",
                          "--quiet"], "e.jsonl", "made for hearts4")
    # Where the model fits, the same command runs.
    run("tournament", "--game", "hearts", "--players", f"policy:model={hearts_model},rule,rule,rule", "--hands", "1",
        "--quiet", "--out", path("ok.jsonl"))
    check(len(read("ok.jsonl").splitlines()) == 2, "a header and a hand")


def learn_data(out):
    run("learn", "data", "--game", "hearts", "--players", f"{PIMC},rule,rule,rule", "--hands", "2",
        "--seed", "1000005", "--threads", "2", "--out", path(out), "--quiet")


def cutoff_data(out):
    run("learn", "cutoff-data", "--preset", "hearts4", "--hands", "3", "--seed", "1000007", "--threads", "2",
        "--out", path(out), "--quiet")


def fit_through(command, data_name, out, via):
    """Runs `learn COMMAND` on the data through a FIFO (fed by a thread) or /dev/fd (a pipe)."""
    with open(path(data_name), "rb") as f:
        data = f.read()
    if via == "fifo":
        fifo = path(f"{out}.fifo")
        os.mkfifo(fifo)

        def feed():
            with open(fifo, "wb") as w:
                w.write(data)

        t = threading.Thread(target=feed)
        t.start()
        p = subprocess.run([BIN, "learn", command, "--data", fifo, "--holdout", "2", "--out", path(out)],
                           capture_output=True, text=True, timeout=60)
        t.join()
    else:
        r, w = os.pipe()
        proc = subprocess.Popen([BIN, "learn", command, "--data", f"/dev/fd/{r}", "--holdout", "2",
                                 "--out", path(out)], pass_fds=(r,), stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True)
        os.close(r)
        with os.fdopen(w, "wb") as f:
            f.write(data)
        out_text, err = proc.communicate(timeout=60)
        p = subprocess.CompletedProcess(proc.args, proc.returncode, out_text, err)
    check(p.returncode == 0, f"learn {command} --data through a {via}: status {p.returncode}\n{p.stderr}")
    return read(out)


def fingerprints(model):
    return re.findall(r"fnv1a [0-9a-f]{16}", model)


def case_fit_reads_once():
    learn_data("d.jsonl")
    cutoff_data("c.jsonl")
    for command, data_name in (("fit", "d.jsonl"), ("cutoff-fit", "c.jsonl")):
        run("learn", command, "--data", path(data_name), "--holdout", "2", "--out", path(f"{command}.txt"))
        from_file = read(f"{command}.txt")
        for via in ("fifo", "pipe"):
            model = fit_through(command, data_name, f"{command}-{via}.txt", via)
            # The same data hashed in the one reading: the same fingerprint, the same weights.
            got, want = fingerprints(header_of(model)), fingerprints(header_of(from_file))
            check(got == want and got, f"{command} through a {via}: {got} vs {want}")
            # The weights: the payload, after the checksum line.
            weights = lambda m: m[m.index(b"\n", m.index(b"\nchecksum ") + 1):]
            check(weights(model) == weights(from_file), f"{command} through a {via}: other weights")


def case_fit_out_checked():
    learn_data("d.jsonl")
    cutoff_data("c.jsonl")
    run("learn", "bids-data", "--preset", "spades-partnership", "--hands", "2", "--seed", "1000005", "--bot", "rule",
        "--quiet", "--out", path("b.jsonl"))
    os.link(path("d.jsonl"), path("d-link.jsonl"))
    os.symlink(path("c.jsonl"), path("c-sym.jsonl"))
    os.makedirs(path("sub"))
    cases = (("fit", "d.jsonl", "d-link.jsonl"), ("cutoff-fit", "c.jsonl", "c-sym.jsonl"),
             ("bids-fit", "b.jsonl", "sub/../b.jsonl"))
    for command, data_name, other in cases:
        before = read(data_name)
        # The data file itself, and the same file by another path.
        for out in (data_name, other):
            expect_bad(["learn", command, "--data", path(data_name), "--out", path(out)],
                       f"--out '{path(out)}': the same file as the input '{path(data_name)}'")
            check(read(data_name) == before, f"learn {command}: the data was written over")
        # A folder that does not exist: refused before the fit, not an internal error.
        missing = path("no/such/dir/m.txt")
        expect_bad(["learn", command, "--data", path(data_name), "--out", missing],
                   f"--out '{missing}': the folder '{path('no/such/dir')}' does not exist")
    expect_bad(["learn", "fit", "--data", path("d.jsonl"), "--out", path("c.jsonl/m.txt")],
               f"the folder '{path('c.jsonl')}' is not a folder")
    # bids-fit's --test files are inputs too.
    expect_bad(["learn", "bids-fit", "--data", path("b.jsonl"), "--test", path("d.jsonl"), "--out", path("d.jsonl")],
               "the same file as the input")
    # A folder the fit cannot write in.
    if os.geteuid() != 0:
        os.makedirs(path("ro"))
        os.chmod(path("ro"), 0o500)
        expect_bad(["learn", "fit", "--data", path("d.jsonl"), "--out", path("ro/m.txt")], "cannot write in")


def tournament_with_rule(rule, expect=0):
    return run("tournament", "--game", "hearts", "--players", "random,random,random,random", "--hands", "1",
               "--seed", "3", "--rule", rule, "--quiet", "--out", path("r.jsonl"), expect=expect)


def case_rule_values():
    for rule, what in (("end_score=5\nplayers=3", "a line break"), ("end_score=12#abc", "'#'"),
                       ("end_score=12;abc", "';'"), ("end_score=12\rx", "a line break"),
                       ("end_score=12\x01", "a control character")):
        p = tournament_with_rule(rule, expect=2)
        check("--rule 'end_score=" in p.stderr and what in p.stderr, f"{rule!r}: {p.stderr}")
        check(not os.path.exists(path("r.jsonl")), f"{rule!r}: a results file was made")
    p = tournament_with_rule("end_score=12abc", expect=2)
    check("end_score=12abc: expected a whole number" in p.stderr, p.stderr)
    # Legal values still work, blanks around them dropped as a rules file drops them.
    tournament_with_rule("end_score= 50 ")
    rules = json.loads(read("r.jsonl").decode().splitlines()[0])["options"]["rules"]
    check(rules["end_score"] == "50" and rules["players"] == "4", str(rules))


def case_solve_bids():
    spades = ["solve", "--game", "spades", "--deal", "N:AKQ.2.. JT9.3.. 876.4.. 543.5..", "--utility", "score"]
    cutthroat = ["solve", "--preset", "spades-cutthroat3", "--deal", "3:AK.Q.. QJ.3.. 32.A..", "--utility", "score",
                 "--leader", "0"]
    # Blind nil only where the rules have it: not in cutthroat, nor with blind_nil=false.
    expect_bad(cutthroat + ["--bids", "bnil,1,nil"], "--bids 'bnil,1,nil': 'bnil': these rules have no blind nil bid")
    expect_bad(spades + ["--rule", "blind_nil=false", "--bids", "bnil,3,4,3"], "these rules have no blind nil bid")
    expect_bad(spades + ["--rule", "nil=false", "--bids", "nil,3,4,3"], "these rules have no nil bid")
    # At most the cards in a hand: 13 in 4-player games, 17 in 3-player ones.
    expect_bad(spades + ["--bids", "14,3,4,3"], "'14' is not a bid (0-13, nil, bnil)")
    expect_bad(cutthroat + ["--bids", "18,1,nil"], "'18' is not a bid (0-17, nil)")
    # What the rules allow still solves.
    run(*spades, "--bids", "bnil,3,13,nil")
    run(*cutthroat, "--bids", "17,nil,2")

finish()
