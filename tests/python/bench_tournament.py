#!/usr/bin/python3
"""Hands per second of a tournament with one Python policy and three `rule` bots (a measurement,
not a test): the policy in process (cardgames.tournament with a Python object), and a Python bot
through the text protocol (`cardgames tournament` with external:cmd="/usr/bin/python3
tests/bots/simple_bot.py", one child process per game). Both play random legal cards.

usage: PYTHONPATH=build/apps/python /usr/bin/python3 tests/python/bench_tournament.py
       [--bin build/apps/cardgames] [--preset hearts4] [--hands 200] [--threads 1]
"""
import argparse
import os
import pathlib
import random
import subprocess
import tempfile
import time

import cardgames

ROOT = pathlib.Path(__file__).resolve().parents[2]


class RandomPolicy:
    name = "random"

    def __init__(self, seed=0):
        self.rng = random.Random(seed)

    def act(self, observation):
        return self.rng.choice(observation["legal_actions"])


def timed(run):
    start = time.perf_counter()
    run()
    return time.perf_counter() - start


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--bin", default=str(ROOT / "build/apps/cardgames"))
    parser.add_argument("--preset", default="hearts4")
    parser.add_argument("--hands", type=int, default=200)
    parser.add_argument("--threads", type=int, default=1)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        in_process = timed(lambda: cardgames.tournament(
            [RandomPolicy(), "rule", "rule", "rule"], preset=args.preset, hands=args.hands,
            threads=args.threads, quiet=True, out=os.path.join(tmp, "in-process.jsonl")))
        external = 'external:cmd="/usr/bin/python3 tests/bots/simple_bot.py"'
        protocol = timed(lambda: subprocess.run(
            [args.bin, "tournament", "--preset", args.preset, "--players", f"{external},rule,rule,rule",
             "--hands", str(args.hands), "--threads", str(args.threads), "--quiet",
             "--out", os.path.join(tmp, "protocol.jsonl")], check=True, cwd=ROOT, capture_output=True))
    print(f"{args.preset}, {args.hands} hands, threads={args.threads}, load {os.getloadavg()[0]:.1f}")
    print(f"  Python policy in process:        {args.hands / in_process:8.1f} hands/s")
    print(f"  Python bot via the text protocol: {args.hands / protocol:8.1f} hands/s")


if __name__ == "__main__":
    main()
