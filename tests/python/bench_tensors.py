#!/usr/bin/python3
"""Observation tensors per second (a measurement, not a test).

usage: PYTHONPATH=build/apps/python /usr/bin/python3 tests/python/bench_tensors.py [--preset P] [--states N]
       [--seconds S]

Collects N states from random one-hand games of the preset, then calls observation_tensor (and
information_state_tensor) for the player to move on them, round and round, for S seconds each,
and prints the rate.
"""
import argparse
import random
import time

import cardgames


def collect(rules, count, seed):
    rng = random.Random(seed)
    states = []
    game = 0
    while len(states) < count:
        state = cardgames.new_game(rules, seed + game, hands=1)
        game += 1
        while not state.is_terminal() and len(states) < count:
            states.append(state.clone())
            state.apply_action(rng.choice(state.legal_actions()))
    return states


def rate(states, call, seconds):
    calls = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for s in states:
            call(s, s.current_player())
        calls += len(states)
    return calls / (time.perf_counter() - start)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--preset", default="hearts4")
    parser.add_argument("--states", type=int, default=1000)
    parser.add_argument("--seconds", type=float, default=3.0)
    args = parser.parse_args()
    rules = cardgames.Rules(args.preset)
    states = collect(rules, args.states, 1)
    obs = rate(states, cardgames.State.observation_tensor, args.seconds)
    info = rate(states, cardgames.State.information_state_tensor, args.seconds)
    print(f"{args.preset}: {obs:,.0f} observation tensors/s ({rules.observation_shape[0]} floats), "
          f"{info:,.0f} information state tensors/s ({rules.information_state_shape[0]} floats)")


if __name__ == "__main__":
    main()
