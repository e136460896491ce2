#!/usr/bin/python3
"""Milliseconds per `analyze` call of a pimc bot from Python (a measurement, not a test).

usage: PYTHONPATH=build/apps/python /usr/bin/python3 tests/python/bench_analyze.py [--preset hearts4]
       [--spec pimc:worlds=16] [--positions 40]

Collects the card-play positions of rule-bot games (seeds 1, 2, ...) until it has N, then has one
bot per game analyze each of that game's positions in order (the bot follows one game forward, as
it does in play), and prints the mean and the slowest call.
"""
import argparse
import os
import time

import cardgames


def positions_by_game(rules, count):
    rule = cardgames.make_bot("rule")
    games = []
    total = seed = 0
    while total < count:
        seed += 1
        state = cardgames.new_game(rules, seed, hands=1)
        found = []
        while not state.is_terminal() and total + len(found) < count:
            if state.phase() == "play" and len(state.legal_actions()) > 1:
                found.append(state.clone())
            state.apply_action(rule.act(state))
        games.append(found)
        total += len(found)
    return games


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--preset", default="hearts4")
    parser.add_argument("--spec", default="pimc:worlds=16")
    parser.add_argument("--positions", type=int, default=40)
    args = parser.parse_args()
    games = positions_by_game(cardgames.Rules(args.preset), args.positions)
    times = []
    for found in games:
        bot = cardgames.make_bot(args.spec, seed=1)
        for state in found:
            start = time.perf_counter()
            bot.analyze(state)
            times.append(time.perf_counter() - start)
    print(f"{args.preset}, {args.spec}, {len(times)} positions, load {os.getloadavg()[0]:.1f}: "
          f"{1000 * sum(times) / len(times):.1f} ms per analyze call (slowest {1000 * max(times):.1f} ms)")


if __name__ == "__main__":
    main()
