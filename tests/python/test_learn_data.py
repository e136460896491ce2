"""cardgames.learn_data (issue 42): shards of `cardgames learn selfplay` loaded for a trainer, the
features the module's own encoder gives for the same positions, and damaged or lying shards refused
with a ValueError naming the file and the field."""
import os
import shutil
import struct
import subprocess

import numpy as np
import pytest

import cardgames
from cardgames import learn_data

PIMC = "pimc:worlds=4,rollouts=4"
RANKS = "23456789TJQKA"


def selfplay(cardgames_bin, out, *args):
    subprocess.run([cardgames_bin, "learn", "selfplay", *args, "--out", str(out), "--threads", "2", "--quiet"],
                   check=True)


@pytest.fixture(scope="module")
def hearts(cardgames_bin, tmp_path_factory):
    out = tmp_path_factory.mktemp("sp") / "hearts"
    selfplay(cardgames_bin, out, "--game", "hearts", "--players", f"{PIMC},rule,rule,rule", "--seats", "0,2",
             "--hands", "3", "--seed", "1000051", "--shard-hands", "2")
    return out


def test_load_hearts(hearts):
    d = learn_data.load(hearts)
    rules = cardgames.Rules("hearts4")
    n = len(d["action"])
    assert n == 3 * 2 * (13 + 3)  # two seats, 3 passes and 13 plays each, 3 hands
    assert d["features"].shape == (n, int(np.prod(rules.information_state_shape)))
    assert d["features"].dtype == np.float32
    assert d["legal"].shape == (n, cardgames.NUM_ACTIONS) and d["legal"].dtype == bool
    assert d["values"].shape == (n, cardgames.NUM_ACTIONS) and d["action"].dtype == np.int64
    assert d["result"].shape == (n, 4) and d["result"].dtype == np.float32
    assert d["meta"]["preset"] == "hearts4"
    assert d["meta"]["feature_set"] == {"name": "information_state_tensor", "version": 1}
    assert set(d["seat"]) == {0, 2} and list(np.unique(d["hand"])) == [0, 1, 2]
    assert d["legal"][np.arange(n), d["action"]].all(), "the action taken is legal"
    assert np.isnan(d["values"][~d["legal"]]).all(), "no value where illegal"
    # Every hand's penalty points add up to 26 (or 78 when the moon is shot), whoever's view.
    assert set(d["result"].sum(axis=1)) <= {26.0, 78.0}
    # pimc's seat 0 plays a best-valued card (of those tied, perhaps the rule player's) wherever
    # it valued more than one.
    plays = (d["seat"] == 0) & (d["phase"] == 3) & (d["legal"].sum(axis=1) > 1)
    assert plays.any() and not np.isnan(d["values"][plays][d["legal"][plays]]).any()
    best = np.nanmax(d["values"][plays], axis=1)
    taken = d["values"][plays][np.arange(plays.sum()), d["action"][plays]]
    assert (taken == best).all()
    # The rule seat 2 is not valued (no --values).
    assert np.isnan(d["values"][d["seat"] == 2]).all()


def test_load_without_information_state_is_the_rest(hearts):
    """What the trainer reads: every array but the information-state tensors, the same."""
    full, lean = learn_data.load(hearts), learn_data.load(hearts, information_state=False)
    assert "features" not in lean and set(lean) == set(full) - {"features"}
    for key in set(lean) - {"meta"}:
        assert np.array_equal(lean[key], full[key], equal_nan=True), key
    assert lean["meta"] == full["meta"]


def test_load_phases_is_the_rest_filtered(hearts):
    """load(phases=...) reads only those records: the same rows as the whole load's of them."""
    full = learn_data.load(hearts, information_state=False)
    for phases, numbers in ((["pass"], [2]), ([3], [3]), (["play", "pass"], [2, 3])):
        part = learn_data.load(hearts, information_state=False, phases=phases)
        rows = np.isin(full["phase"], numbers)
        assert rows.sum() == len(part["action"]) > 0
        for key in set(full) - {"meta"}:
            assert np.array_equal(part[key], full[key][rows], equal_nan=True), key
    assert len(learn_data.load(hearts, phases=["bid"])["action"]) == 0
    with pytest.raises(ValueError, match="phase 'deal'"):
        learn_data.load(hearts, phases=["deal"])
    with pytest.raises(ValueError, match="phase 7"):
        learn_data.load(hearts, phases=[7])


def test_features_are_the_encoders(hearts):
    """The features of the first hand's records equal the module's own tensor on the same game."""
    d = learn_data.load(hearts)
    header, rec = learn_data.open_shard(os.path.join(hearts, "shard-00000.cgsp"))
    assert isinstance(rec, np.memmap) and header["options"]["seats"] == [0, 2]
    first = rec[rec["hand"] == 0]
    deal = unpack(first["deal"][:1], 3, 52)[0]
    state = cardgames.State.__new__(cardgames.State)
    state.__setstate__((header["options"]["rules"], 0, 1, [(0, 0, deal_text(deal, 4))], []))
    rows = 0
    while not state.is_terminal():
        k = np.flatnonzero(first["ply"] == len(state.history()))
        if k.size:
            seat = state.current_player()
            assert first["seat"][k[0]] == seat
            assert np.array_equal(d["features"][k[0]], state.information_state_tensor(seat))
            # ... and the networks' card features, what cardgames.train learns from.
            assert list(np.flatnonzero(d["card_features"][k[0]])) == cardgames.card_features(state, seat)
            rows += 1
            assert d["action"][k[0]] == _history_action(first, state)
        state.apply_action(_history_action(first, state))
    assert rows == len(first)
    assert np.array_equal(d["result"][0], state.returns())  # seat 0's view is the absolute one


def unpack(field, bits, count):
    """Little-endian bit strings of `field` (uint8 [N, bytes]) as [N, count] codes of `bits` bits."""
    flat = np.unpackbits(np.ascontiguousarray(field), axis=1, bitorder="little")[:, :bits * count]
    weights = (1 << np.arange(bits)).astype(np.int64)
    return flat.reshape(len(field), count, bits).astype(np.int64) @ weights


def deal_text(deal_codes, players):
    """The deal of a record (per card number, the seat dealt it) in the deal notation."""
    hands = []
    for seat in range(players):
        suits = []
        for suit in (3, 2, 1, 0):  # spades, hearts, diamonds, clubs
            ranks = [c % 13 for c in range(suit * 13, suit * 13 + 13) if deal_codes[c] == seat]
            suits.append("".join(RANKS[r] for r in sorted(ranks, reverse=True)))
        hands.append(".".join(suits))
    return ("N:" if players == 4 else f"{players}:") + " ".join(hands)


def _history_action(records, state):
    """The next action of the hand's history, as the record says it."""
    codes = unpack(records["history"][:1], 6, learn_data.MAX_HISTORY)[0]
    phase = ("blind_nil", "bid", "pass", "play").index(state.phase())
    return learn_data.PHASE_BASE[phase] + int(codes[len(state.history())])


def test_spades_results_relative(cardgames_bin, tmp_path):
    selfplay(cardgames_bin, tmp_path / "s", "--preset", "spades-partnership", "--hands", "1", "--seed", "1000052")
    d = learn_data.load([tmp_path / "s"])
    assert (d["phase"] == 1).sum() == 4  # every seat bids
    for i in range(len(d["action"])):
        # Partners share a score: relative seats 0 and 2 are the deciding side.
        assert d["result"][i, 0] == d["result"][i, 2] and d["result"][i, 1] == d["result"][i, 3]


def test_spades_bids_valued(cardgames_bin, tmp_path):
    # pimc seats record the value of every bid their bid model weighs (partnership: bid=model), and
    # bid the best; the cutthroat pimc seat (bid=search) values its candidates and bids one of them;
    # a rule seat without --values records none.
    selfplay(cardgames_bin, tmp_path / "p", "--preset", "spades-partnership", "--players", f"{PIMC},rule,{PIMC},rule",
             "--hands", "1", "--seed", "1000053")
    d = learn_data.load([tmp_path / "p"])
    bids = d["phase"] == 1
    for i in np.flatnonzero(bids):
        values = d["values"][i][d["legal"][i]]
        if d["seat"][i] % 2 == 0:
            assert not np.isnan(values).any(), "every bid valued"
            assert d["values"][i, d["action"][i]] >= np.nanmax(values) - 0.25  # half floats
        else:
            assert np.isnan(values).all()
    selfplay(cardgames_bin, tmp_path / "c", "--preset", "spades-cutthroat3", "--players", f"{PIMC},rule,rule",
             "--seats", "0", "--hands", "1", "--seed", "1000053")
    d = learn_data.load([tmp_path / "c"])
    i = np.flatnonzero(d["phase"] == 1)[0]
    valued = ~np.isnan(d["values"][i]) & d["legal"][i]
    assert 3 <= valued.sum() <= 6 and valued[d["action"][i]], "the candidates, the bid among them"


def damaged(src, dst, offset, change, recheck=True):
    shutil.copytree(src, dst)
    f = os.path.join(dst, "shard-00000.cgsp")
    data = bytearray(open(f, "rb").read())
    data[offset] = change(data[offset])
    if recheck:
        start = 4096 + (offset - 4096) // 136 * 136
        h = 0xCBF29CE484222325
        for b in data[start:start + 134]:
            h = ((h ^ b) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
        struct.pack_into("<H", data, start + 134, (h ^ h >> 16 ^ h >> 32 ^ h >> 48) & 0xFFFF)
    open(f, "wb").write(bytes(data))
    return f


@pytest.mark.parametrize("name,offset,change,recheck,field", [
    ("check", 4096 + 136 + 30, lambda b: b ^ 1, False, "record 1: field 'check'"),
    ("action", 4096 + 136 + 7, lambda b: (b + 1) % 52, True, "field 'action'"),
    ("result", 4096 + 136 + 12, lambda b: b ^ 4, True, "record 1: field 'result'"),
    ("value", 4096 + 136 + 98 + 2 * 17 + 1, lambda b: 0x3c, True, "record 1: field 'values'"),
    ("header", 5, lambda b: ord("X"), False, "field 'header'"),
])
def test_refused(hearts, tmp_path, name, offset, change, recheck, field):
    f = damaged(hearts, tmp_path / name, offset, change, recheck)
    with pytest.raises(ValueError, match=field) as e:
        learn_data.load(tmp_path / name)
    assert f in str(e.value)


def test_cut_shard_refused(hearts, tmp_path):
    shutil.copytree(hearts, tmp_path / "cut")
    f = os.path.join(tmp_path / "cut", "shard-00001.cgsp")
    os.truncate(f, os.path.getsize(f) - 50)
    with pytest.raises(ValueError, match="field 'records': cut short"):
        learn_data.load(tmp_path / "cut")
    os.truncate(f, 4096 + 136 * 5)  # whole records, but not its hand's last
    with pytest.raises(ValueError, match="cut short"):
        learn_data.load(tmp_path / "cut")


def test_missing_shard_refused(hearts, tmp_path):
    """A folder read as a run must hold all its shards: one missing is named, not skipped."""
    shutil.copytree(hearts, tmp_path / "gap")
    os.rename(tmp_path / "gap" / "shard-00001.cgsp", tmp_path / "gap" / "shard-00002.cgsp")
    with pytest.raises(ValueError, match="shard-00002.cgsp': a shard out of sequence"):
        learn_data.load(tmp_path / "gap")
    with pytest.raises(ValueError, match="no shards"):
        learn_data.load(tmp_path)


def test_selfplay_to_network(hearts, tmp_path):
    """The loop end to end, tiny: self-play shards, the trainer, a network file the engine reads."""
    from cardgames import train
    out = tmp_path / "value.net"
    assert train.main(["value", "--data", str(hearts), "--out", str(out), "--epochs", "2", "--width", "16",
                       "--hidden", "8", "--threads", "1", "--seed", "3"]) == 0
    net = cardgames.load_network(str(out), "hearts4", "value")
    d = learn_data.load(hearts)
    assert np.isfinite(net.evaluate(d["card_features"][:4].astype(np.float32))).all()


def test_load_cutoff(hearts, cardgames_bin, tmp_path):
    """A cut-off network's data: every trick boundary of every hand, the deal features of the
    position and what each seat took in the rest of the hand."""
    d = learn_data.load_cutoff(hearts)
    x, rest, hand = d["deal_features"], d["rest"], d["hand"]
    assert x.shape == (3 * 13, cardgames._cardgames.deal_feature_count("hearts4")) == (39, 217)
    assert rest.shape == (39, 4) and list(hand) == [h for h in range(3) for _ in range(13)]
    cards_in_hands = x[:, :4 * 52].sum(axis=1)
    assert list(cards_in_hands) == [52 - 4 * k for _ in range(3) for k in range(13)]
    assert (x[:, 4 * 52:4 * 53].sum(axis=1) == 1).all()  # one leader
    # From the first trick every penalty point is still to be taken; what is left only shrinks.
    assert (rest[hand != hand.min(), :].sum(axis=1) <= 26).all()
    assert list(rest[::13].sum(axis=1)) == [26, 26, 26]
    assert (np.diff(rest.reshape(3, 13, 4).sum(axis=2), axis=1) <= 0).all()
    # Spades: tricks.
    selfplay(cardgames_bin, tmp_path / "s", "--preset", "spades-partnership", "--hands", "1", "--seed", "1000052")
    s = learn_data.load_cutoff(tmp_path / "s")
    assert s["deal_features"].shape == (13, 68 * 4 + 1)
    assert list(s["rest"].sum(axis=1)) == list(range(13, 0, -1))


def test_selfplay_to_cutoff_network(hearts, cardgames_bin, tmp_path):
    """Self-play shards, the trainer's cutoff task, a network file pimc's horizon reads."""
    from cardgames import train
    out = tmp_path / "cutoff.net"
    assert train.main(["cutoff", "--data", str(hearts), "--out", str(out), "--epochs", "2", "--width", "16",
                       "--hidden", "8", "--threads", "1", "--seed", "3"]) == 0
    net = cardgames.load_network(str(out), "hearts4", "cutoff")
    assert (net.inputs, net.outputs) == (217, 4)
    d = learn_data.load_cutoff(hearts)
    assert np.isfinite(net.evaluate(d["deal_features"][:4].astype(np.float32))).all()
    with pytest.raises(ValueError, match="task"):
        cardgames.load_network(str(out), "hearts4", "value")
    result = subprocess.run(
        [cardgames_bin, "tournament", "--preset", "hearts4", "--hands", "1", "--seed", "5", "--quiet",
         "--out", str(tmp_path / "t.jsonl"),
         "--players", f"pimc:eval=search,cutoff=net,cutoff_net={out},worlds=4,nodes=200,rule,rule,rule"],
        capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
