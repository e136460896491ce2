"""The module against the command line: a game played through State with make_bot in every seat
is the game `cardgames tournament` plays for the same seed (the same record), and solve() answers
what `cardgames solve --format json` answers for the documentation's examples."""
import json
import os
import pathlib
import re
import shlex
import subprocess

import pytest

import cardgames

TOURNAMENT_ONLY = {"index", "board", "rotation", "seat_unit", "seat_win", "seat_hand_scores"}


def tournament_lines(cardgames_bin, tmp_path, preset, players, count_option, seed):
    out = tmp_path / "results.jsonl"
    subprocess.run([cardgames_bin, "tournament", "--preset", preset, "--players", ",".join(players),
                    *count_option, "--seed", str(seed), "--threads", "1", "--quiet", "--out", str(out)],
                   check=True, capture_output=True)
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    return [{k: v for k, v in line.items() if k not in TOURNAMENT_ONLY} for line in lines[1:]]


def play_with_bots(rules, seed, hands, specs):
    state = cardgames.new_game(rules, seed, hands=hands)
    bots = None
    board = -1
    while not state.is_terminal():
        if state.board != board:  # the tournament makes each board's bots afresh, from its seeds
            board = state.board
            game_seed = state.game_seed()
            bots = [cardgames.make_bot(spec, cardgames.tournament_bot_seed(game_seed, e))
                    for e, spec in enumerate(specs)]
        state.apply_action(bots[state.current_player()].act(state))
    return state


@pytest.mark.parametrize("preset,specs,hands,seed", [
    ("hearts4", ["rule"] * 4, 1, 7),
    ("hearts4", ["rule"] * 4, 3, 8),
    ("spades-partnership", ["rule"] * 4, 2, 9),
    ("spades-cutthroat3", ["rule", "random", "rule"], 2, 10),
    ("hearts5", ["random", "rule", "rule", "random", "rule"], 1, 11),
    ("hearts4", ["pimc:worlds=4,rollouts=4", "rule", "rule", "rule"], 1, 12),
])
def test_hands_match_tournament(cardgames_bin, tmp_path, preset, specs, hands, seed):
    expected = tournament_lines(cardgames_bin, tmp_path, preset, specs, ["--hands", str(hands)], seed)
    state = play_with_bots(cardgames.Rules(preset), seed, hands, specs)
    assert state.records(players=specs) == expected


@pytest.mark.parametrize("preset,seed", [("hearts4", 3), ("spades-partnership", 4)])
def test_whole_game_matches_tournament(cardgames_bin, tmp_path, preset, seed):
    specs = ["rule"] * 4
    expected = tournament_lines(cardgames_bin, tmp_path, preset, specs, ["--games", "1"], seed)
    state = play_with_bots(cardgames.Rules(preset), seed, None, specs)
    assert [state.record(players=specs)] == expected


def test_bot_asked_anywhere():
    """A bot asked about states out of order (clones, other games) answers as a fresh one."""
    rules = cardgames.Rules("spades-partnership")
    state = cardgames.new_game(rules, 5)
    bot = cardgames.make_bot("rule")
    states = []
    while not state.is_terminal() and len(states) < 200:
        states.append(state.clone())
        state.apply_action(bot.act(state))
    fresh = [cardgames.make_bot("rule").act(s) for s in states[::7]]
    assert [bot.act(s) for s in states[::7]] == fresh


def test_pimc_analyze():
    state = cardgames.new_game(cardgames.Rules("hearts4"), 2, hands=1)
    while state.phase() != "play":
        state.apply_action(state.legal_actions()[0])
    bot = cardgames.make_bot("pimc:worlds=8", seed=3)
    analysis = bot.analyze(state)
    assert [c["action"] for c in analysis["cards"]] == state.legal_actions()
    assert analysis["best"] in state.legal_actions()
    assert bot.act(state) == analysis["best"]
    with pytest.raises(ValueError, match="only a pimc bot"):
        cardgames.make_bot("rule").analyze(state)


# --- solve -----------------------------------------------------------------------------------

def readme_solve_commands():
    """The `$ cardgames solve` examples of the README and of every document under docs/."""
    readme = pathlib.Path(os.environ["CARDGAMES_README"])
    text = "\n".join(p.read_text() for p in [readme] + sorted((readme.parent / "docs").rglob("*.md"))).replace("\\\n", " ")
    return [line[len("$ cardgames "):] for line in text.splitlines() if line.startswith("$ cardgames solve ")]


def kwargs_of(words):
    """`cardgames solve` options as solve()'s keyword arguments."""
    kw, rules, i = {}, [], 0
    flags = {"--leaf-tables": "leaf_tables", "--no-tt": "no_tt"}
    while i < len(words):
        w = words[i]
        if w in flags:
            kw[flags[w]] = True
            i += 1
            continue
        key, value = w[2:].replace("-", "_"), words[i + 1]
        i += 2
        if key == "rule":
            rules.append(value)
        elif key == "broken":
            kw[key] = value == "true"
        elif key in ("depth", "nodes"):
            kw[key] = int(value)
        elif key != "format":
            kw[key] = value
    if rules:
        kw["rules"] = rules
    return kw


@pytest.mark.parametrize("command", readme_solve_commands())
def test_solve_matches_command_line(cardgames_bin, command):
    words = shlex.split(command)[1:]
    run = subprocess.run([cardgames_bin, "solve", *words, "--format", "json"], capture_output=True, text=True)
    kw = kwargs_of(words)
    if run.returncode == 2:
        message = run.stderr.strip().removeprefix("cardgames solve: ")
        with pytest.raises(cardgames.InputError) as error:
            cardgames.solve(**kw)
        assert str(error.value) == message
        return
    assert run.returncode == 0, run.stderr
    expected = json.loads(run.stdout)
    answer = cardgames.solve(**kw)
    del expected["ms"], answer["ms"]
    assert answer == expected


def test_solve_python_arguments(cardgames_bin):
    """A seat number, a list of bids and a dict of rules mean what their text means."""
    deal = "3:AK.Q.. QJ.3.. 32.A.."
    as_text = cardgames.solve(preset="spades-cutthroat3", deal=deal, utility="score", bids="2,1,nil", leader="0")
    as_python = cardgames.solve(preset="spades-cutthroat3", deal=deal, utility="score", bids=[2, 1, "nil"], leader=0)
    del as_text["ms"], as_python["ms"]
    assert as_text == as_python and as_text["value"] == [20, -10, -100]


def test_solve_errors():
    with pytest.raises(cardgames.InputError, match="--bids applies only with --utility score"):
        cardgames.solve(deal="N:AKQ.2.. JT9.3.. 876.4.. 543.5..", game="spades", bids="1,1,1,1")
    with pytest.raises(ValueError, match=re.escape("algorithm 'nope': expected one of")):
        cardgames.solve(deal="N:AKQ.2.. JT9.3.. 876.4.. 543.5..", game="spades", algorithm="nope")
    with pytest.raises(ValueError, match="depth 99"):
        cardgames.solve(deal="N:AKQ.2.. JT9.3.. 876.4.. 543.5..", game="spades", depth=99)
