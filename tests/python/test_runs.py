"""cardgames.tournament(), evaluate() and read_results() against the command line: the same options
write the same file byte for byte; a Python policy that answers as the rule bot plays as `rule`;
Python and native players share a threaded run; Ctrl-C stops a run and resume=True completes it;
bad input raises InputError with the command line's message."""
import json
import os
import random
import signal
import subprocess
import sys
import threading
import time

import pytest

import cardgames

# A threaded run with a Python player must end: past this, dump every thread's stack and exit
# (CTest's TIMEOUT is the outer bound).
WATCHDOG_SECONDS = 200
pytestmark = pytest.mark.usefixtures("watchdog")


def cli(cardgames_bin, *args, check=True):
    return subprocess.run([cardgames_bin, *map(str, args)], capture_output=True, text=True, check=check)


class RulePolicy:
    """Answers what the rule bot answers, through make_bot("rule")."""
    name = "rule-in-python"

    def __init__(self):
        self.bot = cardgames.make_bot("rule")
        self.calls = 0

    def act(self, observation):
        self.calls += 1
        return self.bot.act(observation)


class RandomPolicy:
    def __init__(self, seed=0):
        self.rng = random.Random(seed)

    def act(self, observation):
        assert observation["observation"].dtype.name == "float32"
        assert list(observation["action_mask"].nonzero()[0]) == observation["legal_actions"]
        assert observation["info"]["seat"] == observation["seat"]
        return self.rng.choice(observation["legal_actions"])


# --- the same file as the command line ---------------------------------------------------------

@pytest.mark.parametrize("preset,players,count,extra", [
    ("hearts4", ["rule", "random", "rule", "rule"], ("hands", 3), {"duplicate": True}),
    ("spades-partnership", ["rule", "pimc:worlds=4,rollouts=4", "rule", "rule"], ("hands", 2), {}),
    ("spades-cutthroat3", ["rule", "random", "rule"], ("games", 1), {}),
])
def test_tournament_file_is_the_command_lines(cardgames_bin, tmp_path, preset, players, count, extra):
    cli_out, py_out = tmp_path / "cli.jsonl", tmp_path / "py.jsonl"
    cli(cardgames_bin, "tournament", "--preset", preset, "--players", ",".join(players), f"--{count[0]}", count[1],
        "--seed", 5, "--threads", 2, "--quiet", "--out", cli_out, *(["--duplicate"] if extra.get("duplicate") else []))
    result = cardgames.tournament(players, preset=preset, **{count[0]: count[1]}, seed=5, threads=2, quiet=True,
                                  out=py_out, **extra)
    assert py_out.read_bytes() == cli_out.read_bytes()
    assert result.complete and result.done == result.total == len(result.records)
    from_cli = cardgames.read_results(cli_out)
    assert from_cli.records == result.records and from_cli.summary() == result.summary()
    players_summary = result.summary()["players"]
    assert {p["player"] for p in players_summary} == set(players)
    assert sum(p["games"] for p in players_summary) >= result.total


def test_eval_files_are_the_command_lines(cardgames_bin, tmp_path):
    cli(cardgames_bin, "eval", "--mode", "bid", "--preset", "spades-partnership", "--policies", "rule,random", "--count", 2, "--samples", 2,
        "--seats", "0,1", "--threads", 2, "--quiet", "--out", tmp_path / "bid-cli.jsonl")
    bid = cardgames.evaluate(mode="bid", preset="spades-partnership", policies=["rule", "random"], count=2, samples=2, seats="0,1", threads=2,
                             quiet=True, out=tmp_path / "bid-py.jsonl")
    assert (tmp_path / "bid-py.jsonl").read_bytes() == (tmp_path / "bid-cli.jsonl").read_bytes()
    assert [p["policy"] for p in bid.summary()["policies"]] == ["rule", "random"]
    frame = bid.to_pandas()
    assert len(frame) == 2 * len(bid.records) == 8
    assert set(frame["policy"]) == {"rule", "random"}

    records = tmp_path / "games.jsonl"
    cli(cardgames_bin, "tournament", "--preset", "hearts4", "--players", "rule,rule,rule,rule", "--hands", 1,
        "--quiet", "--out", records)
    cli(cardgames_bin, "eval", "--mode", "play", "--records", records, "--policies", "random", "--count", 6,
        "--samples", 2, "--threads", 1, "--quiet", "--out", tmp_path / "play-cli.jsonl")
    play = cardgames.evaluate(mode="play", records=records, policies=["random"], count=6, samples=2, threads=1,
                              quiet=True, out=tmp_path / "play-py.jsonl")
    assert (tmp_path / "play-py.jsonl").read_bytes() == (tmp_path / "play-cli.jsonl").read_bytes()
    assert play.summary()["policies"][0]["loss"]["n"] == 6
    assert cardgames.read_results(tmp_path / "play-cli.jsonl").records == play.records


# --- Python players ----------------------------------------------------------------------------

def without_player_names(records):
    return [{k: v for k, v in r.items() if k != "players"} for r in records]


@pytest.mark.parametrize("preset", ["hearts4", "spades-partnership", "spades-cutthroat4"])
def test_python_rule_policy_plays_as_rule(tmp_path, preset):
    policy = RulePolicy()
    native = cardgames.tournament(["rule"] * 4, preset=preset, hands=3, seed=9, threads=1, quiet=True,
                                  out=tmp_path / "native.jsonl")
    python = cardgames.tournament([policy, "rule", "rule", "rule"], preset=preset, hands=3, seed=9, threads=1,
                                  quiet=True, out=tmp_path / "python.jsonl")
    assert policy.calls >= 3 * 13
    assert python.header["options"]["players"][0] == "python:rule-in-python"
    assert without_player_names(python.records) == without_player_names(native.records)
    assert [r["players"][0] for r in python.records] == ["python:rule-in-python"] * 3


def test_python_policy_in_eval(tmp_path):
    policy = RulePolicy()
    native = cardgames.evaluate(mode="bid", preset="spades-partnership", policies=["rule"], count=2, samples=2, quiet=True,
                                out=tmp_path / "native.jsonl")
    python = cardgames.evaluate(mode="bid", preset="spades-partnership", policies=[policy], count=2, samples=2, quiet=True,
                                out=tmp_path / "python.jsonl")
    assert [r["bids"] for r in python.records] == [r["bids"] for r in native.records]
    assert [r["loss"] for r in python.records] == [r["loss"] for r in native.records]
    assert python.summary()["policies"][0]["policy"] == "python:rule-in-python"


def test_threaded_run_with_python_and_pimc(tmp_path):
    """threads=2: the Python player is called under the GIL while the pimc bots farm their worlds
    on the run's threads; the run ends (the watchdog fails it otherwise) with every hand."""
    result = cardgames.tournament([RandomPolicy(1), "pimc:worlds=4,rollouts=4", "pimc:worlds=4,rollouts=4", "rule"],
                                  preset="hearts4", hands=4, seed=3, threads=2, quiet=True, out=tmp_path / "t.jsonl")
    assert result.complete and len(result.records) == 4


def test_threaded_eval_with_python_policy(cardgames_bin, tmp_path):
    records = tmp_path / "games.jsonl"
    cli(cardgames_bin, "tournament", "--preset", "hearts4", "--players", "rule,rule,rule,rule", "--hands", 1,
        "--quiet", "--out", records)
    result = cardgames.evaluate(mode="play", records=records, policies=[RulePolicy(), "pimc:worlds=4,rollouts=4"],
                                reference="pimc:worlds=2,rollouts=2", count=8, samples=2, threads=2, quiet=True,
                                out=tmp_path / "e.jsonl")
    assert result.complete and len(result.records) == 8
    rule = cardgames.evaluate(mode="play", records=records, policies=["rule"], reference="pimc:worlds=2,rollouts=2",
                              count=8, samples=2, threads=1, quiet=True, out=tmp_path / "rule.jsonl")
    assert [r["choices"][0] for r in result.records] == [r["choices"][0] for r in rule.records]


def test_illegal_action_is_refused(tmp_path):
    class Bad:
        def act(self, observation):
            return 200

    with pytest.raises(cardgames.InputError, match="python player 'Bad': action 200 is not legal now"):
        cardgames.tournament([Bad(), "rule", "rule", "rule"], preset="hearts4", hands=1, quiet=True,
                             out=tmp_path / "bad.jsonl")


# --- Ctrl-C and resume -------------------------------------------------------------------------

class SlowRule(RulePolicy):
    """The rule bot's answers, slowly, raising KeyboardInterrupt from call `interrupt_at` on (from, not at:
    two games call it at once, so a count can be skipped)."""
    name = "slow-rule"

    def __init__(self, interrupt_at=None, delay=0.0):
        super().__init__()
        self.interrupt_at, self.delay = interrupt_at, delay

    def act(self, observation):
        if self.interrupt_at is not None and self.calls >= self.interrupt_at:
            raise KeyboardInterrupt
        time.sleep(self.delay)
        return super().act(observation)


def run_slow(policy, out, resume=False, hands=12):
    return cardgames.tournament([policy, "rule", "rule", "rule"], preset="hearts4", hands=hands, seed=4, threads=2,
                                quiet=True, out=out, resume=resume)


def test_keyboard_interrupt_from_policy_then_resume(tmp_path):
    complete = tmp_path / "complete.jsonl"
    run_slow(SlowRule(), complete)
    out = tmp_path / "interrupted.jsonl"
    with pytest.raises(KeyboardInterrupt):
        run_slow(SlowRule(interrupt_at=70), out)
    done = out.read_bytes()
    assert complete.read_bytes().startswith(done) and len(done) < len(complete.read_bytes())
    run_slow(SlowRule(), out, resume=True)
    assert out.read_bytes() == complete.read_bytes()


def test_sigint_stops_run_then_resume(tmp_path):
    complete = tmp_path / "complete.jsonl"
    run_slow(SlowRule(), complete, hands=8)
    out = tmp_path / "interrupted.jsonl"
    timer = threading.Timer(0.5, os.kill, (os.getpid(), signal.SIGINT))
    timer.start()
    started = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        run_slow(SlowRule(delay=0.05), out, hands=8)
    timer.join()
    assert time.monotonic() - started < 60
    lines = out.read_text().splitlines()
    assert 1 <= len(lines) < 9 and json.loads(lines[0])["type"] == "header"
    run_slow(SlowRule(), out, resume=True, hands=8)
    assert out.read_bytes() == complete.read_bytes()


# --- bad input ---------------------------------------------------------------------------------

def cli_message(cardgames_bin, *args):
    run = cli(cardgames_bin, *args, check=False)
    assert run.returncode == 2, run.stderr
    return run.stderr.strip().split(": ", 1)[1]


def test_bad_input_has_the_command_lines_message(cardgames_bin, tmp_path):
    out = tmp_path / "r.jsonl"
    cases = [
        (dict(players=["rule"] * 3, preset="hearts4", hands=1),
         ["tournament", "--players", "rule,rule,rule", "--preset", "hearts4", "--hands", 1]),
        (dict(players=["rule", "nosuchbot", "rule", "rule"], preset="hearts4", hands=1),
         ["tournament", "--players", "rule,nosuchbot,rule,rule", "--preset", "hearts4", "--hands", 1]),
        (dict(players=["rule"] * 4, preset="nosuchpreset", hands=1),
         ["tournament", "--players", "rule,rule,rule,rule", "--preset", "nosuchpreset", "--hands", 1]),
    ]
    for kwargs, args in cases:
        with pytest.raises(cardgames.InputError) as e:
            cardgames.tournament(out=out, quiet=True, **kwargs)
        assert str(e.value) == cli_message(cardgames_bin, *args, "--out", out)
    with pytest.raises(cardgames.InputError) as e:
        cardgames.evaluate(mode="bid", preset="spades-partnership", policies=["rule"], seats="0,0", out=out,
                           quiet=True)
    assert str(e.value) == cli_message(cardgames_bin, "eval", "--preset", "spades-partnership", "--policies", "rule",
                                       "--seats", "0,0", "--out", out)
    assert not out.exists()
    assert issubclass(cardgames.InputError, ValueError)


def test_read_results_refuses_a_bad_file(cardgames_bin, tmp_path):
    good = tmp_path / "good.jsonl"
    cardgames.tournament(["rule"] * 4, preset="hearts4", hands=2, quiet=True, out=good)
    bad = tmp_path / "bad.jsonl"
    lines = good.read_text().splitlines()
    line = json.loads(lines[1])
    line["seat_win"][0] = 7
    bad.write_text("\n".join([lines[0], json.dumps(line), lines[2]]) + "\n")
    with pytest.raises(cardgames.InputError) as e:
        cardgames.read_results(bad)
    assert str(e.value) == cli_message(cardgames_bin, "tournament", "--report", bad)


# --- data frames and the report ----------------------------------------------------------------

def test_to_pandas_and_report(tmp_path):
    result = cardgames.tournament(["rule", "random", "rule", "rule"], preset="hearts4", hands=3, duplicate=True,
                                  quiet=True, out=tmp_path / "d.jsonl")
    frame = result.to_pandas()
    assert len(frame) == 4 * len(result.records) == 48
    per_player = frame.groupby("player")["score"].sum()
    assert per_player.sum() == sum(sum(sum(s) for s in r["seat_hand_scores"]) for r in result.records)
    pair = result.summary()["pairs"][0]
    assert {pair["a"], pair["b"]} == {"rule", "random"} and pair["difference"]["n"] == 3
    png = tmp_path / "report.png"
    run = subprocess.run([sys.executable, "-m", "cardgames.report", str(tmp_path / "d.jsonl"), "-o", str(png)],
                         capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    bad = subprocess.run([sys.executable, "-m", "cardgames.report", str(tmp_path / "missing.jsonl")],
                         capture_output=True, text=True)
    assert bad.returncode == 2 and "missing.jsonl" in bad.stderr


class Recorder(RulePolicy):
    """The rule bot's answers, keeping every observation it was given."""
    name = "recorder"

    def __init__(self):
        super().__init__()
        self.seen = []

    def act(self, observation):
        self.seen.append(observation)
        return super().act(observation)


@pytest.mark.parametrize("preset", ["hearts4", "spades-partnership"])
def test_observation_is_what_state_shows(tmp_path, preset):
    """What a Python player is given at each decision is what State shows its seat at that point
    of the same game: the tensor, the mask, the legal actions and the info_state dict."""
    recorder = Recorder()
    cardgames.tournament([recorder, "rule", "rule", "rule"], preset=preset, hands=2, seed=6, threads=1, quiet=True,
                         out=tmp_path / "r.jsonl")
    state = cardgames.new_game(cardgames.Rules(preset), 6, hands=2)
    rule = cardgames.make_bot("rule")
    at = 0
    while not state.is_terminal():
        if state.current_player() == 0:
            seen = recorder.seen[at]
            at += 1
            assert seen["phase"] == state.phase() and seen["seat"] == 0
            assert (seen["observation"] == state.observation_tensor(0)).all()
            assert (seen["action_mask"] == state.legal_actions_mask()).all()
            assert seen["legal_actions"] == state.legal_actions()
            assert seen["info"] == state.info_state(0)
        state.apply_action(rule.act(state))
    assert at == len(recorder.seen) > 2 * 13
