"""cardgames.learn against `cardgames learn`: the same options write the same shards byte for byte;
a cut shard resumes to the bytes of an uninterrupted run; Ctrl-C stops a run that resume=True
completes; bad arguments raise InputError naming the argument and its value, with nothing
written."""
import faulthandler
import os
import signal
import subprocess
import threading

import pytest

import cardgames
from cardgames import learn

WATCHDOG_SECONDS = 200


@pytest.fixture(autouse=True)
def watchdog():
    faulthandler.dump_traceback_later(WATCHDOG_SECONDS, exit=True)
    yield
    faulthandler.cancel_dump_traceback_later()


def cli(cardgames_bin, *args, check=True):
    return subprocess.run([cardgames_bin, *map(str, args)], capture_output=True, text=True, check=check)


def shard_bytes(folder):
    return {p.name: p.read_bytes() for p in sorted(folder.glob("shard-*.cgsp"))}


# --- selfplay ----------------------------------------------------------------------------------

def test_selfplay_writes_the_clis_shards(cardgames_bin, tmp_path):
    """Two shards, a pimc seat and a --values bot, other threads than the CLI's: the same bytes."""
    players = ["pimc:worlds=2,rollouts=1", "rule", "rule", "rule"]
    cli(cardgames_bin, "learn", "selfplay", "--game", "hearts", "--players", ",".join(players), "--seats", "0,1",
        "--values", "pimc:worlds=2,rollouts=1", "--hands", 5, "--seed", 1000007, "--shard-hands", 3,
        "--threads", 1, "--quiet", "--out", tmp_path / "cli")
    report = learn.selfplay(out=tmp_path / "py", game="hearts", players=players, seats=[0, 1],
                            values="pimc:worlds=2,rollouts=1", hands=5, seed=1000007, shard_hands=3, threads=2,
                            quiet=True)
    expected = shard_bytes(tmp_path / "cli")
    assert list(expected) == ["shard-00000.cgsp", "shard-00001.cgsp"]
    assert shard_bytes(tmp_path / "py") == expected
    assert report["complete"] and report["shards"] == 2 and report["hands"] == 5 and report["form"] == "hearts4"
    assert report["records"] == sum(len(b) - 4096 for b in expected.values()) // 136
    assert sum(report["by_phase"].values()) == report["records"]
    assert report["options"]["players"] == players and report["options"]["seats"] == [0, 1]


def test_selfplay_defaults_are_the_clis(cardgames_bin, tmp_path):
    """No players, seats, seed or shard_hands: the command line's defaults; the report is --report's."""
    cli(cardgames_bin, "learn", "selfplay", "--preset", "spades-partnership", "--hands", 3, "--quiet",
        "--out", tmp_path / "cli")
    report = learn.selfplay(out=tmp_path / "py", preset="spades-partnership", hands=3, quiet=True)
    assert shard_bytes(tmp_path / "py") == shard_bytes(tmp_path / "cli")
    printed = cli(cardgames_bin, "learn", "selfplay", "--report", tmp_path / "cli").stdout
    again = learn.selfplay_report(tmp_path / "cli")
    p = again["by_phase"]
    assert printed == (f"{tmp_path / 'cli'}: {again['shards']} shards, {again['hands']} hands of {again['form']}, "
                       f"{again['records']} decisions ({p['blind_nil']} blind nil, {p['bid']} bids, {p['pass']} "
                       f"passes, {p['play']} plays); every record checked and replayed\n")
    assert {k: v for k, v in report.items() if k not in ("folder", "complete")} == \
        {k: v for k, v in again.items() if k != "folder"}
    assert report["options"]["seed"] == 1000000 and report["options"]["shard_hands"] == 100000


def test_selfplay_rules_and_player_text(cardgames_bin, tmp_path):
    """rules as a dict, players as the command line's text."""
    cli(cardgames_bin, "learn", "selfplay", "--game", "hearts", "--rule", "pass_count=2", "--players",
        "rule,random,rule,random", "--hands", 2, "--quiet", "--out", tmp_path / "cli")
    learn.selfplay(out=tmp_path / "py", game="hearts", rules={"pass_count": 2}, players="rule,random,rule,random",
                   hands=2, quiet=True)
    assert shard_bytes(tmp_path / "py") == shard_bytes(tmp_path / "cli")


def test_selfplay_resumes_a_cut_shard(tmp_path):
    args = dict(game="hearts", hands=7, shard_hands=3, quiet=True)
    learn.selfplay(out=tmp_path / "whole", **args)
    whole = shard_bytes(tmp_path / "whole")
    cut = tmp_path / "cut"
    learn.selfplay(out=cut, **args)
    (cut / "shard-00002.cgsp").unlink()
    second = cut / "shard-00001.cgsp"
    second.write_bytes(second.read_bytes()[:-1000])  # part of a hand
    with pytest.raises(cardgames.InputError, match="resume"):
        learn.selfplay(out=cut, **args)  # a folder with shards, without resume=True
    learn.selfplay(out=cut, resume=True, **args)
    assert shard_bytes(cut) == whole


def test_sigint_stops_selfplay_then_resume(tmp_path):
    args = dict(game="hearts", players=["pimc:worlds=4", "rule", "rule", "rule"], seats=[0], hands=24,
                shard_hands=8, threads=2, quiet=True)
    learn.selfplay(out=tmp_path / "whole", **args)
    out = tmp_path / "stopped"
    timer = threading.Timer(0.3, os.kill, (os.getpid(), signal.SIGINT))
    timer.start()
    with pytest.raises(KeyboardInterrupt):
        learn.selfplay(out=out, **args)
    timer.join()
    assert learn.selfplay_report(out)["hands"] < 24
    report = learn.selfplay(out=out, resume=True, **args)
    assert report["complete"] and report["hands"] == 24
    assert shard_bytes(out) == shard_bytes(tmp_path / "whole")


@pytest.mark.parametrize("kwargs, words", [
    (dict(hands=0), ["hands", "0"]),
    (dict(hands="3"), ["hands", "'3'"]),
    (dict(hands=2, seed=5), ["--seed 5", "training seed"]),
    (dict(hands=2, seats=[0, 7]), ["--seats", "seat 7"]),
    (dict(hands=2, seats=[2, 1]), ["--seats", "seat 1"]),
    (dict(hands=2, players=["rule", "nosuchbot", "rule", "rule"]), ["nosuchbot"]),
    (dict(hands=2, players=["rule"] * 3), ["--players", "3 specs for 4 seats"]),
    (dict(hands=2, values="rule"), ["--values", "'rule'"]),
    (dict(hands=2, shard_hands=0), ["shard_hands", "0"]),
    (dict(hands=2, threads=0), ["threads", "0"]),
    (dict(hands=2, preset="nosuchpreset"), ["nosuchpreset"]),
])
def test_selfplay_bad_arguments_write_nothing(tmp_path, kwargs, words):
    out = tmp_path / "sp"
    rules = {} if "preset" in kwargs else {"game": "hearts"}
    with pytest.raises(cardgames.InputError) as e:
        learn.selfplay(out=out, quiet=True, **rules, **kwargs)
    for w in words:
        assert w in str(e.value)
    assert not out.exists()


def test_selfplay_releases_the_gil(tmp_path):
    """A Python thread keeps running while a run plays its hands on the other thread."""
    ticks = []
    done = threading.Event()

    def count():
        while not done.is_set():
            ticks.append(1)
            done.wait(0.001)

    counter = threading.Thread(target=count)
    counter.start()
    before = len(ticks)
    learn.selfplay(out=tmp_path / "sp", game="hearts", players=["pimc:worlds=4", "rule", "rule", "rule"],
                   seats=[0], hands=6, threads=1, quiet=True)
    during = len(ticks) - before
    done.set()
    counter.join()
    # About 0.5 s of play: a thread holding the GIL would leave the counter a few switch intervals.
    assert during > 50
