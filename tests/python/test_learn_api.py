"""cardgames.learn against `cardgames learn`: the same options write the same shards byte for byte;
a cut shard resumes to the bytes of an uninterrupted run; Ctrl-C stops a run that resume=True
completes; bad arguments raise InputError naming the argument and its value, with nothing
written."""
import os
import pathlib
import signal
import subprocess
import threading

import pytest

import cardgames
from cardgames import learn

WATCHDOG_SECONDS = 200
SHIPPED_BIDS = pathlib.Path(__file__).resolve().parents[2] / "data" / "models" / "spades-bids.txt"
pytestmark = pytest.mark.usefixtures("watchdog")


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
    run = learn.selfplay(out=tmp_path / "py", game="hearts", players=players, seats=[0, 1],
                         values="pimc:worlds=2,rollouts=1", hands=5, seed=1000007, shard_hands=3, threads=2,
                         quiet=True)
    assert run == {"out": str(tmp_path / "py"), "hands": 5, "complete": True}
    expected = shard_bytes(tmp_path / "cli")
    assert list(expected) == ["shard-00000.cgsp", "shard-00001.cgsp"]
    assert shard_bytes(tmp_path / "py") == expected
    report = learn.selfplay_report(tmp_path / "py")
    assert report["shards"] == 2 and report["hands"] == 5 and report["form"] == "hearts4"
    assert report["records"] == sum(len(b) - 4096 for b in expected.values()) // 136
    assert sum(report["by_phase"].values()) == report["records"]
    assert report["options"]["players"] == players and report["options"]["seats"] == [0, 1]


def test_selfplay_defaults_are_the_clis(cardgames_bin, tmp_path):
    """No players, seats, seed or shard_hands: the command line's defaults; the report is --report's."""
    cli(cardgames_bin, "learn", "selfplay", "--preset", "spades-partnership", "--hands", 3, "--quiet",
        "--out", tmp_path / "cli")
    learn.selfplay(out=tmp_path / "py", preset="spades-partnership", hands=3, quiet=True)
    assert shard_bytes(tmp_path / "py") == shard_bytes(tmp_path / "cli")
    report = learn.selfplay_report(tmp_path / "py")
    printed = cli(cardgames_bin, "learn", "selfplay", "--report", tmp_path / "cli").stdout
    again = learn.selfplay_report(tmp_path / "cli")
    p = again["by_phase"]
    assert printed == (f"{tmp_path / 'cli'}: {again['shards']} shards, {again['hands']} hands of {again['form']}, "
                       f"{again['records']} decisions ({p['blind_nil']} blind nil, {p['bid']} bids, {p['pass']} "
                       f"passes, {p['play']} plays); every record checked and replayed\n")
    assert {k: v for k, v in report.items() if k != "folder"} == {k: v for k, v in again.items() if k != "folder"}
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

    def interrupt_after_a_hand():  # the whole run takes a few seconds; a hand, a tenth of one
        shard = out / "shard-00000.cgsp"
        while not (shard.exists() and shard.stat().st_size > 4096):
            threading.Event().wait(0.005)
        os.kill(os.getpid(), signal.SIGINT)

    interrupter = threading.Thread(target=interrupt_after_a_hand)
    interrupter.start()
    with pytest.raises(KeyboardInterrupt):
        learn.selfplay(out=out, **args)
    interrupter.join()
    assert learn.selfplay_report(out)["hands"] < 24
    assert learn.selfplay(out=out, resume=True, **args)["complete"]
    assert learn.selfplay_report(out)["hands"] == 24
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


# --- the fits' data ---------------------------------------------------------------------------

def test_data_commands_write_the_clis_files(cardgames_bin, tmp_path):
    """Each data command with its defaults and with options, at other threads than the CLI's."""
    pimc = "pimc:worlds=2,rollouts=1"
    cases = [
        (cardgames.policy_data, dict(game="hearts", players=[pimc, "rule", pimc, "rule"], hands=3, seed=1000005),
         ["data", "--game", "hearts", "--players", f"{pimc},rule,{pimc},rule", "--hands", 3, "--seed", 1000005]),
        (cardgames.cutoff_data, dict(hands=4), ["cutoff-data", "--hands", 4]),
        (cardgames.cutoff_data, dict(preset="spades-cutthroat3", rules={"nil": False}, players="rule,random,rule",
                                     hands=3, seed=1000009),
         ["cutoff-data", "--preset", "spades-cutthroat3", "--rule", "nil=false", "--players", "rule,random,rule",
          "--hands", 3, "--seed", 1000009]),
        (cardgames.bids_data, dict(bot="rule", hands=6), ["bids-data", "--bot", "rule", "--hands", 6]),
    ]
    for k, (run, kwargs, args) in enumerate(cases):
        cli(cardgames_bin, "learn", *args, "--threads", 1, "--quiet", "--out", tmp_path / f"cli{k}.jsonl")
        result = run(out=tmp_path / f"py{k}.jsonl", threads=2, quiet=True, **kwargs)
        assert (tmp_path / f"py{k}.jsonl").read_bytes() == (tmp_path / f"cli{k}.jsonl").read_bytes(), args
        assert result == {"out": str(tmp_path / f"py{k}.jsonl"), "hands": kwargs["hands"], "complete": True}


def test_data_command_resumes(tmp_path):
    whole, cut = tmp_path / "whole.jsonl", tmp_path / "cut.jsonl"
    cardgames.cutoff_data(out=whole, hands=6, quiet=True)
    lines = whole.read_bytes().splitlines(keepends=True)
    cut.write_bytes(b"".join(lines[:3]) + lines[3][:20])  # two hands and part of a third
    with pytest.raises(cardgames.InputError, match="resume"):
        cardgames.cutoff_data(out=cut, hands=6, quiet=True)
    cardgames.cutoff_data(out=cut, hands=6, resume=True, quiet=True)
    assert cut.read_bytes() == whole.read_bytes()


@pytest.mark.parametrize("run, kwargs, words", [
    ("policy_data", dict(game="hearts", players=["rule"] * 4), ["--players 'rule,rule,rule,rule'", "no pimc seat"]),
    ("policy_data", dict(game="hearts", seed=7), ["--seed 7", "training seed"]),
    ("cutoff_data", dict(players=["rule"] * 3), ["3 specs for 4 seats"]),
    ("cutoff_data", dict(hands=0), ["hands", "0"]),
    ("cutoff_data", dict(threads="two"), ["threads", "'two'"]),
    ("bids_data", dict(game="hearts"), ["Spades only"]),
    ("bids_data", dict(bot="nosuchbot"), ["nosuchbot"]),
])
def test_data_bad_arguments_write_nothing(tmp_path, run, kwargs, words):
    out = tmp_path / "d.jsonl"
    with pytest.raises(cardgames.InputError) as e:
        getattr(cardgames, run)(out=out, quiet=True, **{"hands": 2, **kwargs})
    for w in words:
        assert w in str(e.value)
    assert not out.exists()


# --- the fits ----------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def fit_data(cardgames_bin, tmp_path_factory):
    """Tiny data files of `learn data`, `cutoff-data` and `bids-data` (a second of work)."""
    d = tmp_path_factory.mktemp("fit-data")
    cli(cardgames_bin, "learn", "data", "--game", "hearts", "--players", "pimc:worlds=2,rollouts=1,rule,rule,rule",
        "--hands", 6, "--seed", 1000005, "--quiet", "--out", d / "policy.jsonl")
    cli(cardgames_bin, "learn", "cutoff-data", "--preset", "hearts4", "--hands", 12, "--seed", 1000007, "--quiet",
        "--out", d / "cutoff.jsonl")
    for name, seed in (("bids", 1000005), ("bids-test", 1000011)):
        cli(cardgames_bin, "learn", "bids-data", "--preset", "spades-partnership", "--bot", "rule", "--hands", 40,
            "--seed", seed, "--quiet", "--out", d / f"{name}.jsonl")
    return d


def cli_model(cardgames_bin, out, *args):
    """The model file `cardgames learn ARGS --out OUT` writes, and what it prints; OUT is left free."""
    printed = cli(cardgames_bin, "learn", *args).stdout
    data = out.read_bytes()
    out.unlink()
    return data, printed


def test_fit_policy_writes_the_clis_model(cardgames_bin, fit_data, tmp_path):
    out = tmp_path / "policy.txt"
    data = str(fit_data / "policy.jsonl")
    model, printed = cli_model(cardgames_bin, out, "fit", "--data", data, "--out", out, "--holdout", 3, "--l2", 0.5,
                               "--temperature", 0.25)
    r = cardgames.fit_policy(data=data, out=out, holdout=3, l2=0.5, temperature=0.25)
    assert out.read_bytes() == model
    lines = printed.splitlines()
    assert lines[0] == (f"{r['decisions']} decisions of {r['hands']} hands, {r['held_out_decisions']} held out; "
                        f"{r['iterations']} Newton steps")
    for line, key in zip(lines[1:4], ("model_train", "model_held_out", "rule_held_out")):
        m = r[key]
        assert line.endswith(f"agrees with pimc {100 * m['agreement']:.1f}%, loses {m['loss']:.3f} of pimc's value "
                             f"per decision")
    assert r["train_decisions"] + r["held_out_decisions"] == r["decisions"] and r["out"] == str(out)
    assert len(r["weights"]) == 29 and r["converged"]


def test_fit_cutoff_writes_the_clis_model(cardgames_bin, fit_data, tmp_path):
    out = tmp_path / "cutoff.txt"
    data = str(fit_data / "cutoff.jsonl")
    model, printed = cli_model(cardgames_bin, out, "cutoff-fit", "--data", data, "--out", out, "--ridge", 0.01)
    r = cardgames.fit_cutoff(data=[data], out=out, ridge=0.01)
    assert out.read_bytes() == model
    h = r["held_out"]
    assert printed.splitlines()[:2] == [
        f"{r['positions']} positions of {r['hands']} hands; fitted on {r['train_seats']} seat positions",
        f"{h['seats']} held-out seat positions: mean abs error {h['mean_abs_error']:.3f} (whole shares "
        f"{h['shares_mean_abs_error']:.3f}), rmse {h['rmse']:.3f}; even share {h['even_mean_abs_error']:.3f}, "
        f"rmse {h['even_rmse']:.3f}"]


def test_fit_bids_writes_the_clis_model(cardgames_bin, fit_data, tmp_path):
    out = tmp_path / "bids.txt"
    data, test = str(fit_data / "bids.jsonl"), str(fit_data / "bids-test.jsonl")
    for held in ([], ["--test", test]):
        model, printed = cli_model(cardgames_bin, out, "bids-fit", "--data", data, "--out", out, "--holdout", 4,
                                   *held)
        r = cardgames.fit_bids(data=data, out=out, holdout=4, test=held[1:] or None)
        assert out.read_bytes() == model
        f = r["held_out"]
        assert printed.splitlines()[0] == r["figures"] == (
            f"held-out: {f['bids']} bids, tricks mean abs error {f['tricks_mean_abs_error']:.3f} (rule bid "
            f"{f['rule_bid_mean_abs_error']:.3f}), log-loss {f['tricks_log_loss']:.3f}; {f['nil_bids']} nil bids, "
            f"made {f['nil_made_share']:.3f} (predicted {f['nil_predicted_share']:.3f}), log-loss "
            f"{f['nil_log_loss']:.3f} (fit on {r['train_seats']} seats)")
        # With --test every --data seat is fitted; without, a quarter of the hands are held out.
        assert (r["train_seats"] == r["seats"]) == bool(held) and 0 < r["nil_bids"] < r["seats"]
        out.unlink()


@pytest.mark.parametrize("fit, data, kwargs, words", [
    ("fit_policy", "policy.jsonl", dict(holdout=1), ["holdout", "1"]),
    ("fit_policy", "policy.jsonl", dict(l2="big"), ["l2", "'big'"]),
    ("fit_policy", "policy.jsonl", dict(temperature=-1.0), ["--temperature"]),
    ("fit_policy", "cutoff.jsonl", dict(), ["cutoff.jsonl"]),
    ("fit_cutoff", "cutoff.jsonl", dict(ridge=1000), ["--ridge 1000"]),
    ("fit_cutoff", "nosuchfile.jsonl", dict(), ["nosuchfile.jsonl"]),
    ("fit_bids", "bids.jsonl", dict(ridge=True), ["ridge", "True"]),
    ("fit_bids", "bids.jsonl", dict(holdout=2.5), ["holdout", "2.5"]),
])
def test_fit_bad_arguments_write_nothing(fit_data, tmp_path, fit, data, kwargs, words):
    out = tmp_path / "model.txt"
    with pytest.raises(cardgames.InputError) as e:
        getattr(cardgames, fit)(data=fit_data / data, out=out, **kwargs)
    for w in words:
        assert w in str(e.value)
    assert not out.exists()
    with pytest.raises(cardgames.InputError, match="does not exist"):
        getattr(cardgames, fit)(data=fit_data / data, out=tmp_path / "no" / "model.txt")


# --- convert and the data report ---------------------------------------------------------------

def test_convert_model_writes_the_clis_file(cardgames_bin, tmp_path):
    """A shipped model converts to the same bytes as `learn convert` writes; the report is its text."""
    shipped = SHIPPED_BIDS
    printed = cli(cardgames_bin, "learn", "convert", "--in", shipped, "--out", tmp_path / "cli.txt").stdout
    r = learn.convert_model(shipped, tmp_path / "py.txt")
    assert (tmp_path / "py.txt").read_bytes() == (tmp_path / "cli.txt").read_bytes() == shipped.read_bytes()
    assert r["in"] == str(shipped) and r["out"] == str(tmp_path / "py.txt") and r["from_version"] == 2
    assert r["kind"] in printed and str(r["weights"]) in printed


def test_convert_model_refuses_a_cut_file(tmp_path):
    cut = tmp_path / "cut.txt"
    cut.write_bytes(SHIPPED_BIDS.read_bytes()[:200])
    with pytest.raises(cardgames.InputError, match="cut.txt"):
        learn.convert_model(cut, tmp_path / "out.txt")
    assert not (tmp_path / "out.txt").exists()


def test_policy_data_report_is_the_clis(cardgames_bin, fit_data):
    path = fit_data / "policy.jsonl"
    printed = cli(cardgames_bin, "learn", "data", "--report", path).stdout.strip()
    r = learn.policy_data_report(path)
    assert printed == f"{path}: {r['hands']} hands of {r['form']}, {r['decisions']} decisions, {r['cards']} legal cards"
    assert r["hands"] == 6 and r["form"] == "hearts4"
    with pytest.raises(cardgames.InputError, match="cutoff.jsonl"):
        learn.policy_data_report(fit_data / "cutoff.jsonl")
