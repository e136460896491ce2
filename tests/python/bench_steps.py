#!/usr/bin/python3
"""Steps per second of pure-Python random play (a measurement, not a test), through each of the
Python interfaces: the native State, the OpenSpiel-shaped game (cardgames.load_game) and the AEC
environment (cardgames.env), each choosing uniformly among the legal actions with Python's random.

usage: PYTHONPATH=build/apps/python /usr/bin/python3 tests/python/bench_steps.py [--preset hearts4]
       [--seconds 3]

Each interface plays one-hand games (hands=1) from seeds 1, 2, ... for about S seconds; a step is
one action applied (the AEC environment's final step(None) calls are not counted).
"""
import argparse
import os
import random
import time

import cardgames
import cardgames.env


def state_steps(state, rng):
    """Plays `state` (a native State or an OpenSpiel-shaped one: the same methods) to its end."""
    steps = 0
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
        steps += 1
    return steps


def env_steps(env, rng, seed):
    env.reset(seed=seed)
    steps = 0
    for _ in env.agent_iter():
        observation, _, termination, truncation, _ = env.last()
        if termination or truncation:
            env.step(None)
            continue
        env.step(rng.choice(observation["action_mask"].nonzero()[0].tolist()))
        steps += 1
    return steps


def rate(play, seconds):
    rng = random.Random(1)
    steps = games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        games += 1
        steps += play(rng, games)
    return steps / (time.perf_counter() - start), games


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--preset", default="hearts4")
    parser.add_argument("--seconds", type=float, default=3.0)
    args = parser.parse_args()
    rules = cardgames.Rules(args.preset)
    game = cardgames.load_game(args.preset)
    env = cardgames.env.env(args.preset, hands=1)
    print(f"{args.preset}, {args.seconds:g} s each, load {os.getloadavg()[0]:.1f}")
    interfaces = [
        ("native State", lambda rng, s: state_steps(cardgames.new_game(rules, s, hands=1), rng)),
        ("OpenSpiel-shaped game", lambda rng, s: state_steps(game.new_initial_state(s), rng)),
        ("AEC environment (observations)", lambda rng, s: env_steps(env, rng, s)),
    ]
    for name, play in interfaces:
        steps_per_second, games = rate(play, args.seconds)
        print(f"  {name:32s} {steps_per_second:10,.0f} steps/s ({games} hands)")


if __name__ == "__main__":
    main()
