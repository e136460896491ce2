"""Networks end to end: the trainer's torch model against the engine's C++ forward pass, training
on a tiny data set, export, and the engine reading what the trainer wrote."""
import os

import numpy as np
import pytest

torch = pytest.importorskip("torch")

import cardgames  # noqa: E402
from cardgames import train  # noqa: E402

# The C++ forward pass (int16 accumulator, float32 layers) against torch's simulation of the same
# quantized network: the accumulator sums are exact in both, so the outputs differ only by float32
# rounding in the dense layers, in an order torch chooses.
TOLERANCE = 1e-4


def play_data(form="hearts4", games=40, seed=0):
    """A tiny data set in the shape cardgames.learn_data.load returns, from random play: every
    card decision of every seat of `games` one-hand games."""
    rules = cardgames.Rules(form)
    rng = np.random.default_rng(seed)
    feats, legal, action, result, seats, hand = [], [], [], [], [], []
    for g in range(games):
        state = cardgames.new_game(rules, seed=1000 + g, hands=1)
        start = len(feats)
        while not state.is_terminal():
            seat = state.current_player()
            actions = state.legal_actions()
            a = int(actions[rng.integers(len(actions))])
            if state.phase() == "play":
                x = np.zeros(cardgames.card_feature_count(form), np.float32)
                x[cardgames.card_features(state, seat)] = 1
                feats.append(x)
                legal.append(np.asarray(state.legal_actions_mask(), dtype=bool))
                action.append(a)
                seats.append(seat)
                hand.append(g)
            state.apply_action(a)
        returns = np.asarray(state.returns(), dtype=np.float32)
        for i in range(start, len(feats)):
            result.append(np.roll(returns, -seats[i]))
    n = len(feats)
    values = np.where(np.asarray(legal), 0.0, np.nan).astype(np.float32)
    return {"card_features": np.stack(feats), "legal": np.stack(legal), "values": values,
            "action": np.asarray(action, dtype=np.int64), "result": np.stack(result),
            "hand": np.asarray(hand, dtype=np.int64),
            "meta": {"preset": form, "feature_set": "cards 2"}, "n": n}


def random_inputs(form, rows, seed, version=cardgames.CARD_FEATURE_VERSION):
    """Random 0/1 card-feature rows, from none to the most that can be on at once."""
    rng = np.random.default_rng(seed)
    count = cardgames.card_feature_count(form, version)
    on = rng.integers(0, cardgames.max_active_card_features(form, version) + 1, size=(rows, 1))
    # Each row's `on` features: those whose random rank in the row is below it.
    ranks = rng.random((rows, count)).argsort(axis=1).argsort(axis=1)
    return (ranks < on).astype(np.float32)


@pytest.fixture(scope="module")
def tiny():
    return play_data(games=20)


def test_cpp_forward_pass_equals_torch_on_10000_random_inputs(tmp_path):
    torch.manual_seed(5)
    net = train.make_net(cardgames.card_feature_count("hearts4"), 4)
    # Wider than initialisation leaves them, so the clipped ReLUs clip on both sides.
    with torch.no_grad():
        net.ft.weight.uniform_(-0.3, 0.3)
        net.ft.bias.uniform_(-0.5, 1.0)
    train.clip_first_layer(net, "hearts4", cardgames.CARD_FEATURE_VERSION)
    path = tmp_path / "random.net"
    train.export(net, path, task="value", form="hearts4", output_scale=26.0,
                 command="test", seeds="torch 5")
    loaded = cardgames.load_network(str(path), "hearts4", "value")
    assert (loaded.inputs, loaded.outputs, loaded.accumulator_size) == (496, 4, 128)
    assert loaded.card_version == 2
    x = random_inputs("hearts4", 10000, seed=6)
    got = loaded.evaluate(x)
    want = train.quantized_forward(net, x, output_scale=26.0)
    err = np.abs(got - want) / np.maximum(1.0, np.abs(want))
    assert err.max() <= TOLERANCE, err.max()
    assert np.abs(want).max() > 1  # not a network that outputs only its biases
    # Against the float network it was quantized from: the error the quantization makes.
    with torch.no_grad():
        exact = net(torch.from_numpy(x)).numpy() * 26.0
    assert np.abs(got - exact).max() < 0.5, np.abs(got - exact).max()


def test_training_is_reproducible_and_the_engine_reads_the_same_network(tmp_path, monkeypatch, tiny):
    data = tiny
    argv = ["value", "--data", "tiny.shard", "--out", "value.net", "--epochs", "3",
            "--batch-size", "64", "--lr", "3e-3", "--seed", "3", "--threads", "1"]
    files = []
    for run in ("a", "b"):
        (tmp_path / run).mkdir()
        monkeypatch.chdir(tmp_path / run)
        assert train.main(argv, load=lambda paths: data) == 0
        assert os.path.getsize("value.loss.png") > 1000
        files.append((tmp_path / run / "value.net").read_bytes())
    assert files[0] == files[1]
    assert b"command python3 -m cardgames.train value --data tiny.shard --out value.net" in files[0]
    net = cardgames.load_network(str(tmp_path / "a" / "value.net"), "hearts4", "value")
    assert net.outputs == 4
    # The trainer's model from the same seed, quantized, gives what the engine computes from the
    # file: the file holds that model.
    model, scale, history = train.train("value", data, form="hearts4", seed=3, epochs=3,
                                        batch_size=64, lr=3e-3, threads=1, log=lambda s: None)
    assert history["train"][-1] < history["train"][0]
    x = data["card_features"]
    want = train.quantized_forward(model, x, output_scale=scale)
    assert np.abs(net.evaluate(x) - want).max() <= TOLERANCE * max(1.0, np.abs(want).max())


def test_the_held_out_records_are_whole_hands_by_the_one_rule(tiny):
    # The fits' hold-out rule (apps/learn/holdout.hpp): the hands whose index is a multiple of N.
    data = tiny
    for n in (2, 3, 5):
        held = train.held_out(data, data["n"], n)
        for g in np.unique(data["hand"]):
            assert held[data["hand"] == g].all() == (g % n == 0)
            assert held[data["hand"] == g].any() == (g % n == 0)
    _, _, history = train.train("policy", data, form="hearts4", seed=2, epochs=1, batch_size=64,
                                holdout=3, threads=1, log=lambda s: None)
    assert history["holdout_records"] == int((data["hand"] % 3 == 0).sum()) > 0
    assert history["train_records"] == data["n"] - history["holdout_records"]
    for bad in (0.1, 1, 0):
        with pytest.raises(ValueError, match="--holdout"):
            train.held_out(data, data["n"], bad)
    # The command refuses a bad --holdout before it reads any data.
    assert train.main(["value", "--data", "x", "--out", "x.net", "--holdout", "1"],
                      load=lambda paths: pytest.fail("the data was read")) == 2


def test_a_policy_network_trains_exports_and_runs(tmp_path, tiny):
    data = tiny
    model, scale, history = train.train("policy", data, form="hearts4", seed=2, epochs=2,
                                        batch_size=64, threads=1, log=lambda s: None)
    assert scale == 1.0 and 0.5 <= history["agreement"] <= 1.0
    path = tmp_path / "policy.net"
    train.export(model, path, task="policy", form="hearts4", output_scale=scale, command="test",
                 seeds="torch 2")
    net = cardgames.load_network(str(path), "hearts4", "policy")
    x = data["card_features"][:300]
    want = train.quantized_forward(model, x)
    got = net.evaluate(x)
    assert np.abs(got - want).max() <= TOLERANCE * max(1.0, np.abs(want).max())
    legal = data["legal"][:300, :52]
    assert (np.where(legal, got, -np.inf).argmax(1) == np.where(legal, want, -np.inf).argmax(1)).all()


def test_init_starts_from_a_file_and_zero_epochs_write_it_back(tmp_path, monkeypatch, tiny):
    """--init FILE: the network starts with the file's weights and shape, epoch 0 is its loss on
    the data, and with --epochs 0 the file written holds the same weights and plays the same."""
    data = tiny
    monkeypatch.chdir(tmp_path)
    base = ["policy", "--data", "tiny.shard", "--batch-size", "64", "--seed", "4", "--threads", "1"]
    assert train.main(base + ["--out", "gen1.net", "--epochs", "2", "--width", "24",
                              "--hidden", "8", "--layers", "1"], load=lambda p: data) == 0
    assert train.main(base + ["--out", "same.net", "--epochs", "0", "--init", "gen1.net"],
                      load=lambda p: data) == 0
    one, same = (cardgames.load_network(str(tmp_path / f), "hearts4", "policy")
                 for f in ("gen1.net", "same.net"))
    a, b = one.tensors(), same.tensors()
    assert sorted(a) == ["ft.bias", "ft.weight", "l1.bias", "l1.weight", "out.bias", "out.weight"]
    assert a["ft.weight"].dtype == np.int16 and a["ft.weight"].shape == (496, 24)
    for name in a:
        assert np.array_equal(a[name], b[name]), name
    text = (tmp_path / "same.net").read_bytes()
    assert b"training " in text and b" 0 epochs on 1 threads" in text
    assert b"init gen1.net sha256 " in text
    # Training on from it moves the weights, and the loss curve starts at the file's loss.
    model, scale, history = train.train("policy", data, form="hearts4", seed=4, epochs=1,
                                        batch_size=64, threads=1, init=str(tmp_path / "gen1.net"),
                                        log=lambda s: None)
    assert history["epoch"] == [0, 1] and model.ft.out_features == 24
    assert not np.array_equal(train.quantized_first_layer(model)[0], a["ft.weight"])


def test_init_refuses_another_task_or_a_shape_given_twice(tmp_path, monkeypatch, capsys, tiny):
    monkeypatch.chdir(tmp_path)
    base = ["value", "--data", "x", "--threads", "1", "--epochs", "1"]
    assert train.main(base + ["--out", "v.net"], load=lambda p: tiny) == 0
    assert train.main(["policy", "--data", "x", "--out", "p.net", "--init", "v.net"],
                      load=lambda p: tiny) == 2
    assert "field 'task'" in capsys.readouterr().err and not os.path.exists("p.net")
    assert train.main(base + ["--out", "w.net", "--init", "v.net", "--width", "64"],
                      load=lambda p: tiny) == 2
    assert "train: --width 64: the network of --init v.net fixes the shape" in capsys.readouterr().err
    assert train.main(base + ["--out", "w.net", "--init", "missing.net"], load=lambda p: tiny) == 2
    assert "missing.net" in capsys.readouterr().err and not os.path.exists("w.net")
    assert train.main(base + ["--out", "w.net", "--epochs", "0"], load=lambda p: tiny) == 2
    assert "train: --epochs 0: expected 1..1000000" in capsys.readouterr().err


def test_card_version_is_refused_for_the_cutoff_task(tmp_path, monkeypatch, capsys, tiny):
    monkeypatch.chdir(tmp_path)
    assert train.main(["cutoff", "--data", "x", "--out", "c.net", "--card-version", "1"],
                      load=lambda p: tiny) == 2
    assert "train: --card-version 1: the cutoff task reads deal features" in capsys.readouterr().err
    assert not os.path.exists("c.net")


@pytest.mark.parametrize("preset, task, outputs", [
    ("hearts4", "policy", 52), ("hearts4", "pass", 52), ("spades-partnership", "bid", cardgames.NUM_BIDS)])
def test_each_task_learns_its_phase_of_self_play_shards(tmp_path, preset, task, outputs):
    """Shards hold every phase; a task trains on its own phase's records, actions renumbered."""
    cardgames.selfplay(out=tmp_path / "sp", preset=preset, hands=4, threads=1, quiet=True)
    from cardgames import learn_data
    data = learn_data.load(tmp_path / "sp")
    picked = train.task_records(task, data)
    phase = train.TASK_PHASE[task]
    assert len(picked["action"]) == (data["phase"] == phase).sum() > 0
    assert picked["legal"].shape[1] == outputs
    assert picked["legal"][np.arange(len(picked["action"])), picked["action"]].all()
    model, _, history = train.train(task, data, form=preset, seed=1, epochs=1, batch_size=64, threads=1,
                                    holdout=2, log=lambda s: None)
    assert model.out.out_features == outputs and history["train_records"] + history["holdout_records"] == \
        len(picked["action"])


def test_the_file_names_the_command_that_made_its_data(tmp_path):
    """A run stopped early: the data command asks for the hands it holds, and writes them again."""
    players = ["rule", "pimc:worlds=2,rollouts=1", "rule", "rule"]
    cardgames.selfplay(out=tmp_path / "sp", preset="hearts4", players=players, seats=[1], hands=3, seed=1000021,
                       shard_hands=2, threads=1, quiet=True)
    out = tmp_path / "p.net"
    assert train.main(["policy", "--data", str(tmp_path / "sp"), "--out", str(out), "--epochs", "1",
                       "--threads", "1", "--holdout", "2"]) == 0
    fields = dict(line.split(" ", 1) for line in out.read_bytes().split(b"\ntensor")[0].decode().splitlines()[1:]
                  if not line.startswith("#"))
    assert fields["data-command"] == ("cardgames learn selfplay --preset hearts4 --players "
                                      "rule,pimc:worlds=2,rollouts=1,rule,rule --seats 1 --hands 3 --seed 1000021")
    assert fields["data"].endswith(" records from 2 shards")  # the folder's files, not the one folder


def test_data_of_two_runs_names_both_commands(tmp_path):
    """Generation k+1 trains on its own self-play beside generation k's: the file names both runs."""
    cardgames.selfplay(out=tmp_path / "a", preset="hearts4", hands=2, seed=1000031, threads=1, quiet=True)
    players = ["pimc:worlds=2,rollouts=1", "rule", "rule", "rule"]
    cardgames.selfplay(out=tmp_path / "b", preset="hearts4", players=players, seats=[0], hands=3,
                       seed=1000041, threads=1, quiet=True)
    out = tmp_path / "p.net"
    assert train.main(["policy", "--data", str(tmp_path / "a"), str(tmp_path / "b"), "--out", str(out),
                       "--epochs", "1", "--threads", "1", "--holdout", "2"]) == 0
    header = out.read_bytes().split(b"\ntensor")[0].decode().splitlines()
    assert [line.split(" ", 1)[1] for line in header if line.startswith("data-command ")] == [
        "cardgames learn selfplay --preset hearts4 --players rule,rule,rule,rule --hands 2 --seed 1000031",
        "cardgames learn selfplay --preset hearts4 --players pimc:worlds=2,rollouts=1,rule,rule,rule "
        "--seats 0 --hands 3 --seed 1000041"]


def test_soft_targets_share_the_mass_of_equal_values():
    legal = np.array([[1, 1, 1, 0], [1, 1, 0, 0], [1, 0, 0, 0]], bool)
    values = np.array([[-1, -1, -5, np.nan], [np.nan, 0, np.nan, np.nan], [np.nan] * 4], np.float32)
    action = np.array([0, 1, 0])
    hard = train.soft_targets(action, legal, values, 0.0)
    assert (hard == np.eye(4, dtype=np.float32)[action]).all()
    soft = train.soft_targets(action, legal, values, 0.5)
    assert soft[0, 0] == pytest.approx(soft[0, 1]) and soft[0, 2] < 1e-3 and soft[0, 3] == 0
    assert soft[0].sum() == pytest.approx(1)
    assert (soft[1:] == hard[1:]).all()  # a record not every legal card of which was valued


def test_choice_measures_count_the_value_lost(tiny):
    model = train.make_net(tiny["card_features"].shape[1], 52)
    x, legal = tiny["card_features"][:50], tiny["legal"][:50, :52]
    values = np.where(legal, 0.0, np.nan).astype(np.float32)
    out = train.float_outputs(model, x)
    m = train.choice_measures(out, tiny["action"][:50], legal, values)
    assert m["regret"] == 0 and m["valued"] == (legal.sum(1) > 1).sum() and 0 <= m["accuracy"] <= 1
    values[legal] = -1
    pick = np.where(legal, model(torch.from_numpy(x)).detach().numpy(), -np.inf).argmax(1)
    values[np.arange(50), pick] = -3  # the network's card loses 2 wherever it had a choice
    assert train.choice_measures(out, tiny["action"][:50], legal, values)["regret"] == pytest.approx(2)


def test_regret_weighs_a_costly_card_more(tiny):
    # A teacher that always plays its highest legal card, which loses 10 where it had a choice:
    # cross-entropy alone learns to copy it; with `regret` the network learns to avoid it.
    data = dict(tiny)
    legal = tiny["legal"][:, :52]
    highest = np.where(legal, np.arange(52), -1).argmax(1)
    values = np.where(legal, 0.0, np.nan).astype(np.float32)
    values[np.arange(len(highest)), highest] = -10
    data.update(action=highest, values=values)
    kw = dict(form="hearts4", seed=3, epochs=4, batch_size=64, threads=1, log=lambda s: None)
    _, _, plain = train.train("policy", data, **kw)
    _, _, weighed = train.train("policy", data, regret=2.0, **kw)
    assert plain["valued"] == weighed["valued"] > 0
    assert weighed["regret"] < plain["regret"] / 2
    lost = train.value_lost(legal[:3], values[:3])
    assert lost[0][legal[0]].max() == (10 if legal[0].sum() > 1 else 0) and (lost[0][~legal[0]] == 0).all()
    with pytest.raises(ValueError, match="--regret -1"):
        train.train("policy", data, regret=-1.0, **kw)


def test_bad_data_and_bad_files_are_refused(tmp_path, capsys):
    data = play_data(games=3)
    data["card_features"] = data["card_features"].copy()
    data["card_features"][2, 7] = 0.5
    out = tmp_path / "bad.net"
    assert train.main(["value", "--data", "x", "--out", str(out)], load=lambda p: data) == 2
    assert "train: data: card_features row 2 column 7: not 0 or 1" in capsys.readouterr().err
    assert not out.exists()

    good = play_data(games=3)
    assert train.main(["value", "--data", "x", "--out", str(out), "--form", "bridge4"],
                      load=lambda p: good) == 2
    assert "train: form: field 'form': 'bridge4' is not a form" in capsys.readouterr().err
    assert not out.exists()
    # Hearts' card features (version 2) are not Spades': their columns do not fit the form.
    assert train.main(["value", "--data", "x", "--out", str(out), "--form", "spades-partnership"],
                      load=lambda p: good) == 2
    assert ("train: data: card_features have 496 columns, card features for spades-partnership "
            "have 484 (version 1), 544 (version 2)") in capsys.readouterr().err
    assert not out.exists()
    good = play_data("spades-partnership", games=3)
    assert train.main(["value", "--data", "x", "--out", str(out), "--epochs", "1", "--threads", "1",
                       "--form", "spades-partnership"], load=lambda p: good) == 0
    with pytest.raises(ValueError, match=r"model file '.*bad.net': field 'form': made for "
                                         r"spades-partnership, not for hearts4"):
        cardgames.load_network(str(out), "hearts4")
    cut = tmp_path / "cut.net"
    cut.write_bytes(out.read_bytes()[:-10])
    with pytest.raises(ValueError, match=r"model file '.*cut.net': truncated: the payload has"):
        cardgames.load_network(str(cut))
    with pytest.raises(ValueError, match=r"features row 0 column 0: 2.0+, expected 0 or 1"):
        cardgames.load_network(str(out)).evaluate(np.full((1, 544), 2.0, np.float32))


def test_card_features_of_a_state():
    rules = cardgames.Rules("hearts4", no_passing=True)
    state = cardgames.new_game(rules, seed=1, hands=1)
    seat = state.current_player()
    on = cardgames.card_features(state, seat)
    assert len(on) == 13 and max(on) < 52  # the hand only
    card = state.legal_actions()[0]
    state.apply_action(card)
    on = cardgames.card_features(state, seat)
    assert 52 + card in on  # played by relative seat 0 ...
    assert 52 + 4 * 52 + card in on  # ... to the trick in progress
    assert card not in on
