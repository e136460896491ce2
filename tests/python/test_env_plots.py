"""cardgames.env runs whole games as a PettingZoo-style environment; cardgames.plots draws PNGs
from results files the command line wrote."""
import json
import subprocess

import numpy as np

import cardgames
from cardgames import plots
from cardgames.env import CardGameEnv


def run_env(rules, seed, hands):
    env = CardGameEnv(rules, hands=hands)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    totals = {a: 0.0 for a in env.possible_agents}
    steps = 0
    for agent in env.agent_iter():
        observation, reward, termination, truncation, info = env.last()
        totals[agent] += reward
        assert observation["observation"].shape == rules.observation_shape
        if termination or truncation:
            assert not observation["action_mask"].any()
            env.step(None)
            continue
        legal = np.flatnonzero(observation["action_mask"])
        env.step(int(rng.choice(legal)))
        steps += 1
    return env, totals, steps


def test_env_whole_game():
    for preset in ("hearts4", "spades-partnership"):
        rules = cardgames.Rules(preset)
        env, totals, steps = run_env(rules, 3, None)
        assert env.state.is_terminal() and steps > 52 and not env.agents
        sign = -1 if rules.game == "hearts" else 1
        assert [totals[a] for a in env.possible_agents] == [sign * r for r in env.state.returns()]


def test_plots_make_pngs(cardgames_bin, tmp_path):
    results = tmp_path / "t.jsonl"
    subprocess.run([cardgames_bin, "tournament", "--players", "rule,random,rule,random", "--hands", "3",
                    "--duplicate", "--seed", "2", "--threads", "1", "--quiet", "--out", str(results)],
                   check=True, capture_output=True)
    lines = [json.loads(line) for line in results.read_text().splitlines()]
    diffs = plots.board_differences(lines, "rule", "random")
    assert len(diffs) == 3
    evals = tmp_path / "e.jsonl"
    subprocess.run([cardgames_bin, "eval", "--mode", "play", "--records", str(results), "--policies", "rule,random",
                    "--count", "8", "--samples", "2", "--threads", "1", "--quiet", "--out", str(evals)],
                   check=True, capture_output=True)
    eval_lines = [json.loads(line) for line in evals.read_text().splitlines()]
    for name, ax in [("paired", plots.paired_difference(lines, "rule", "random")),
                     ("scores", plots.scores_per_hand(lines)),
                     ("loss", plots.loss_by_tricks_left(eval_lines))]:
        png = tmp_path / f"{name}.png"
        ax.figure.savefig(png)
        assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_paired_difference_matches_command_line(cardgames_bin, tmp_path):
    """The last point of the running mean is the command line's paired comparison."""
    results = tmp_path / "t.jsonl"
    run = subprocess.run([cardgames_bin, "tournament", "--players", "rule,random,rule,random", "--hands", "4",
                          "--duplicate", "--seed", "5", "--threads", "1", "--quiet", "--out", str(results)],
                         check=True, capture_output=True, text=True)
    lines = [json.loads(line) for line in results.read_text().splitlines()]
    diffs = plots.board_differences(lines, "rule", "random")
    table = next(line for line in run.stdout.splitlines() if "rule - random:" in line)
    assert table.split(":")[1].split()[0] == f"{sum(diffs) / len(diffs):.2f}"
