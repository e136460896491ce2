"""What the end-to-end scripts share: the binary and case from the command line, a scratch folder,
and running the binary with its exit status checked.

usage of a script that imports it: SCRIPT CARDGAMES_BINARY CASE
"""
import json
import os
import shutil
import struct
import subprocess
import sys
import tempfile

BIN = sys.argv[1]
CASE = sys.argv[2]
TMP = tempfile.mkdtemp(prefix="cardgames-e2e-")
RANDOM4 = "random,random,random,random"


def run(*args, expect=0):
    p = subprocess.run([BIN, *args], capture_output=True, text=True)
    if p.returncode != expect:
        sys.exit(f"FAIL: {' '.join(args)}: status {p.returncode}, expected {expect}\n{p.stdout}\n{p.stderr}")
    return p


# mpirun on a 2-core machine wants --oversubscribe, and refuses root without its flag.
MPIRUN = ["mpirun", "--oversubscribe"] + (["--allow-run-as-root"] if os.geteuid() == 0 else [])


def mpirun(ranks, *args, expect=0, command=None):
    """Runs the binary with `args` on `ranks` ranks (or mpirun with `command`), its status checked."""
    argv = MPIRUN + ["-np", str(ranks), BIN, *args] if command is None else MPIRUN + command
    p = subprocess.run(argv, capture_output=True, text=True, stdin=subprocess.DEVNULL)
    if p.returncode != expect:
        sys.exit(f"FAIL: {' '.join(argv)}: status {p.returncode}, expected {expect}\n{p.stdout}\n{p.stderr}")
    return p


def expect_bad(args, *fragments):
    """Runs the binary with `args`: it must refuse them (status 2) with every fragment in its error."""
    p = run(*args, expect=2)
    for f in fragments:
        check(f in p.stderr, f"{args}: '{f}' not in the error: {p.stderr}")
    return p


def path(name):
    return os.path.join(TMP, name)


def read(name):
    with open(path(name), "rb") as f:
        return f.read()


def plays(name):
    """The hands of each game in results file `name`, after its header line."""
    return [json.loads(l)["hands"] for l in read(name).decode().splitlines()[1:]]


def same_for_threads(write, stem, what, counts=("1", "2")):
    """write(out, threads) into {stem}{threads}.jsonl for each thread count: the files must be the
    same bytes. Returns the lines of the first."""
    outs = [f"{stem}{t}.jsonl" for t in counts]
    for out, t in zip(outs, counts):
        write(out, t)
    first = read(outs[0])
    for out, t in zip(outs[1:], counts[1:]):
        check(read(out) == first, f"{what}: --threads {counts[0]} and {t} differ")
    return first.decode().splitlines()


def header_of(model):
    """The text header of a version 2 model file (its payload is binary)."""
    return model[:model.index(b"\nchecksum ")].decode()


def shipped_model(name):
    """The bytes of the model file `name` in data/models."""
    here = os.path.dirname(os.path.abspath(__file__))
    with open(os.path.join(here, "..", "..", "data", "models", name), "rb") as f:
        return f.read()


def version_one(model):
    """A version 2 linear model file written as version 1, the text format the first fits wrote."""
    fields = dict(l.split(" ", 1) for l in header_of(model).splitlines()[1:] if not l.startswith("#"))
    names = fields["names"].split()
    weights = struct.unpack(f"<{len(names)}d", model[-8 * len(names):])
    lines = ["cardgames-model 1", "# an old file", f"kind {fields['task']}", f"form {fields['form']}",
             f"weights {len(names)}"] + [f"{n} {w!r}" for n, w in zip(names, weights)] + ["end"]
    return "\n".join(lines) + "\n"


def check(cond, msg):
    if not cond:
        sys.exit("FAIL: " + msg)


def tournament(out, *extra, game="hearts", count=("--games", "6"), threads="2", players=RANDOM4):
    return ["tournament", "--game", game, "--players", players, *count, "--seed", "7", "--threads", threads,
            "--out", path(out), "--quiet", *extra]


def finish():
    """Runs the case the command line names; the scratch folder is kept on failure, for a look."""
    globals_of_main = sys.modules["__main__"].__dict__
    globals_of_main["case_" + CASE]()
    shutil.rmtree(TMP)
    print("ok", CASE)
