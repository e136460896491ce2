#!/usr/bin/python3
"""How promptly a tournament stops: the time from a signal to the process's exit, and the lines
written after the signal, with the machine's load beside each figure. A benchmark, not a test.

usage: scripts/stop_timing.py CARDGAMES_BINARY [rule|pimc|external ...]
  rule      rule bots in every seat, --threads 2, SIGTERM once 300 hands are written
  pimc      pimc in every seat, --threads 2, SIGTERM once 3 hands are written
  external  an external bot that never answers (ms=86400000), SIGTERM 2 s after the start
"""
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

BIN = sys.argv[1]
TMP = tempfile.mkdtemp(prefix="stop-timing-")
OUT = os.path.join(TMP, "results.jsonl")


def lines():
    with open(OUT, "rb") as f:
        return f.read().count(b"\n")


def measure(name, players, hands, wait_lines=None, wait_seconds=None):
    if os.path.exists(OUT):
        os.remove(OUT)
    load = " ".join(open("/proc/loadavg").read().split()[:3])
    p = subprocess.Popen([BIN, "tournament", "--game", "hearts", "--players", players, "--hands", str(hands),
                          "--seed", "1", "--threads", "2", "--out", OUT, "--quiet"],
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    if wait_seconds:
        time.sleep(wait_seconds)
    while wait_lines and (not os.path.exists(OUT) or lines() < wait_lines):
        if p.poll() is not None:
            sys.exit(f"{name}: the run ended before the signal")
        time.sleep(0.01)
    start = time.time()
    p.send_signal(signal.SIGTERM)
    at = lines() if os.path.exists(OUT) else 0
    try:
        p.wait(timeout=30)
        print(f"{name}: exit {p.returncode} {time.time() - start:.3f} s after SIGTERM, "
              f"{lines() - at} lines written after it; load {load}")
    except subprocess.TimeoutExpired:
        p.kill()
        p.wait()
        print(f"{name}: still running 30 s after SIGTERM; load {load}")


bot = os.path.join(TMP, "never.sh")
with open(bot, "w") as f:
    f.write("sleep 300 &\nwait\n")
CASES = {
    "rule": lambda: measure("rule", "rule,rule,rule,rule", 1000000, wait_lines=300),
    "pimc": lambda: measure("pimc", "pimc,pimc,pimc,pimc", 1000, wait_lines=3),
    "external": lambda: measure("external", f'external:cmd="sh {bot}",ms=86400000,rule,rule,rule', 10,
                                wait_seconds=2),
}
for case in sys.argv[2:] or list(CASES):
    CASES[case]()
shutil.rmtree(TMP)
