"""Bids and passes by network, end to end: a tiny bid network trained on spades-partnership self-play
and a tiny pass network on hearts4, exported, and played by the engine (pimc:bid=net,
pimc:pass=net) exactly as a forward pass over the trainer's features ranks the legal actions."""
import numpy as np
import pytest

torch = pytest.importorskip("torch")

import cardgames  # noqa: E402
from cardgames import learn_data, train  # noqa: E402


def trained(tmp_path, preset, task):
    """A network of `task` trained for one epoch on 8 hands of rule self-play; (data, path)."""
    cardgames.selfplay(out=tmp_path / "sp", preset=preset, hands=8, threads=1, quiet=True)
    data = learn_data.load(tmp_path / "sp")
    model, scale, _ = train.train(task, data, form=preset, seed=1, epochs=1, batch_size=64, threads=1,
                                  holdout=2, log=lambda s: None)
    path = tmp_path / f"{task}.net"
    train.export(model, path, task=task, form=preset, output_scale=scale, command="test", seeds="torch 1")
    return data, str(path)


def hand_of(data, rows):
    """The deciding seat's hand in the records `rows`, as 52 columns by card number."""
    hand = cardgames.Rules(data["meta"]["preset"]).information_state_layout["hand"]
    return data["features"][rows][:, hand]


def outputs(net, state, seat):
    x = np.zeros((1, cardgames.card_feature_count(net.form, net.card_version)), np.float32)
    x[0, cardgames.card_features(state, seat, net.card_version)] = 1
    return net.evaluate(x)[0]


def test_a_trained_bid_network_bids_its_highest_legal_output(tmp_path):
    data, path = trained(tmp_path, "spades-partnership", "bid")
    # The trainer's bid records hold the bidder's hand, no other card, and the contract of the
    # bids so far: what the engine reads at a bid (tests/sampling/bid_pass_net_test.cpp checks
    # the C++ side).
    bids = np.flatnonzero(data["phase"] == 1)
    assert len(bids) > 0
    features = data["card_features"][bids].astype(np.float32)
    cards = cardgames.card_feature_count("spades-partnership", 1)
    assert (features[:, 52:cards] == 0).all() and (features[:, :52] == hand_of(data, bids)).all()
    assert (features[:, :cards].sum(axis=1) == 13).all()
    contract = features[:, cards:].sum(axis=1)
    assert (contract <= 2 * 4).all() and (contract > 0).any()  # later bidders see earlier bids

    net = cardgames.load_network(path, "spades-partnership", "bid")
    assert net.outputs == cardgames.NUM_BIDS
    bot = cardgames.make_bot("pimc:bid=net,bid_net=" + path, seed=1)
    seen = 0
    for seed in range(1, 6):
        state = cardgames.new_game(cardgames.Rules("spades-partnership"), seed=seed, hands=1)
        while state.phase() in ("blind_nil", "bid"):
            if state.phase() == "bid":
                legal = state.legal_actions()
                out = outputs(net, state, state.current_player())
                want = max(legal, key=lambda a: (out[a - cardgames.BID_BASE], -a))
                got = bot.act(state)
                assert got == want, (seed, got, want)
                seen += 1
                state.apply_action(got)
            else:
                state.apply_action(bot.act(state))
    assert seen == 20
    r = cardgames.tournament(["pimc:worlds=4,rollouts=4,bid=net,bid_net=" + path, "rule", "rule", "rule"],
                             hands=2, preset="spades-partnership", threads=1, out=tmp_path / "t.jsonl", quiet=True)
    assert r.complete


def test_a_trained_pass_network_passes_its_highest_cards(tmp_path):
    data, path = trained(tmp_path, "hearts4", "pass")
    # A pass is recorded card by card, every card of a seat's pass with the same features (its hand,
    # the cards chosen included): the engine passes the top cards of one forward pass.
    passes = np.flatnonzero(data["phase"] == 2)
    assert len(passes) > 0
    features = data["card_features"][passes].astype(np.float32)
    assert (features[:, 52:] == 0).all() and (features[:, :52] == hand_of(data, passes)).all()
    for first in range(0, len(passes), 3):
        assert (features[first:first + 3] == features[first]).all()

    net = cardgames.load_network(path, "hearts4", "pass")
    bot = cardgames.make_bot("pimc:pass=net,pass_net=" + path, seed=1)
    seen = 0
    for seed in range(1, 6):
        state = cardgames.new_game(cardgames.Rules("hearts4"), seed=seed, hands=1)
        while state.phase() == "pass":
            seat = state.current_player()
            out = outputs(net, state, seat)
            hand = [a - cardgames.PASS_BASE for a in state.legal_actions()]
            want = set(sorted(hand, key=lambda c: (-out[c], c))[:3])
            got = set()
            while state.phase() == "pass" and state.current_player() == seat and len(got) < 3:
                a = bot.act(state)
                assert a in state.legal_actions()
                got.add(a - cardgames.PASS_BASE)
                state.apply_action(a)
            assert got == want, (seed, seat, got, want)
            seen += 1
    assert seen > 0
    r = cardgames.tournament(["pimc:worlds=4,pass=net,pass_net=" + path, "rule", "rule", "rule"],
                             hands=2, preset="hearts4", threads=1, out=tmp_path / "t.jsonl", quiet=True)
    assert r.complete
    # A network of another task is refused, naming the file and the field.
    with pytest.raises(ValueError, match="task"):
        cardgames.make_bot("pimc:bid=net,bid_net=" + path)



def test_a_bid_value_network_learns_the_margin_of_the_bid_taken(tmp_path):
    # Rule self-play whose seats bid as the bids data explores: some bids are not the rule player's.
    cardgames.selfplay(out=tmp_path / "sp", preset="spades-partnership", hands=12, threads=1, quiet=True,
                       explore_bids=True)
    data = learn_data.load(tmp_path / "sp", information_state=False, phases=["bid"])
    assert data["meta"]["runs"][0]["explore_bids"] is True
    assert any("--explore-bids" in c for c in train.data_commands(data["meta"], data["hand"]))
    # Around the bot's own bid: the header and the data command say so; other values are refused.
    cardgames.selfplay(out=tmp_path / "own", preset="spades-partnership", hands=2, threads=1, quiet=True,
                       explore_bids="own")
    own = learn_data.load(tmp_path / "own", information_state=False, phases=["bid"])
    assert own["meta"]["runs"][0]["explore_bids"] == "own"
    assert any("--explore-bids own" in c for c in train.data_commands(own["meta"], own["hand"]))
    for bad in ("mine", 1):
        with pytest.raises(ValueError, match="explore"):
            cardgames.selfplay(out=tmp_path / "bad", preset="spades-partnership", hands=1, explore_bids=bad)
        assert not (tmp_path / "bad").exists()
    # The target: the bidder's side's hand score less the other side's, the same from each seat.
    margin = train.bid_margin(data["result"], "spades-partnership")
    assert np.array_equal(margin, data["result"][:, 0] - data["result"][:, 1])
    assert np.array_equal(data["result"][:, 0], data["result"][:, 2])
    by_hand = {}
    for h, seat, m in zip(data["hand"], data["seat"], margin):
        by_hand.setdefault(int(h), {})[int(seat) % 2] = float(m)
    assert all(len(s) == 2 and s[0] == -s[1] for s in by_hand.values())
    cut3 = np.array([[30.0, -10.0, 20.0]], np.float32)
    assert train.bid_margin(cut3, "spades-cutthroat3")[0] == pytest.approx(25.0)

    # Only the output of the bid taken is fitted: the output rows of bids no record took stay as the
    # network started (train seeds torch before it makes the network).
    torch.manual_seed(1)
    start = train.make_net(data["card_features"].shape[1], cardgames.NUM_BIDS)
    model, scale, history = train.train("bid_value", data, form="spades-partnership", seed=1, epochs=3,
                                        batch_size=16, threads=1, holdout=3, log=lambda s: None)
    assert history["rmse"] > 0 and history["rmse_of_mean"] > 0
    trained_on = data["hand"] % 3 != 0
    taken = set((data["action"][trained_on] - cardgames.BID_BASE).tolist())
    untaken = [b for b in range(cardgames.NUM_BIDS) if b not in taken]
    assert untaken and len(taken) > 2
    for b in range(cardgames.NUM_BIDS):
        same = torch.equal(model.out.weight[b], start.out.weight[b]) and model.out.bias[b] == start.out.bias[b]
        assert same == (b in untaken), b
    path = tmp_path / "v.net"
    train.export(model, path, task="bid_value", form="spades-partnership", output_scale=scale, command="test",
                 seeds="torch 1")
    net = cardgames.load_network(str(path), "spades-partnership", "bid_value")
    assert net.outputs == cardgames.NUM_BIDS
    bot = cardgames.make_bot(f"pimc:bid=value,bid_value_net={path}", seed=1)
    state = cardgames.new_game(cardgames.Rules("spades-partnership"), seed=3, hands=1)
    while state.phase() in ("blind_nil", "bid"):
        state.apply_action(bot.act(state))
    assert state.phase() == "play"
    with pytest.raises(ValueError, match="task"):
        cardgames.make_bot(f"pimc:bid=net,bid_net={path}").act(
            cardgames.new_game(cardgames.Rules("spades-partnership"), seed=3, hands=1))
    with pytest.raises(ValueError, match="Spades"):
        train.train("bid_value", data, form="hearts4", epochs=1, threads=1, log=lambda s: None)


def test_a_bid_value_network_learns_paired_margins_relative_to_their_mean(tmp_path):
    # --explore-bids paired: one seat a hand values every bid it may choose by playing the hand on.
    cardgames.selfplay(out=tmp_path / "pb", preset="spades-partnership", hands=12, threads=1, quiet=True,
                       explore_bids="paired")
    data = learn_data.load(tmp_path / "pb", information_state=False, phases=["bid"])
    assert data["meta"]["runs"][0]["explore_bids"] == "paired"
    assert any("--explore-bids paired" in c for c in train.data_commands(data["meta"], data["hand"]))
    picked = train.paired_bid_targets(train.task_records("bid_value", data), 4)
    assert len(picked["hand"]) == 12 and np.array_equal(picked["hand"] % 4, picked["seat"])
    t = picked["paired_targets"]
    valued = np.isfinite(t)
    assert (valued.sum(axis=1) >= 2).all()  # the taken bid and at least one other
    assert np.allclose(np.nansum(t, axis=1), 0, atol=1e-3)  # each record's margins less their mean
    assert valued[np.arange(12), picked["action"]].all()
    # Every valued output is fitted, and only those: outputs no record values stay as they started.
    torch.manual_seed(1)
    start = train.make_net(data["card_features"].shape[1], cardgames.NUM_BIDS)
    model, scale, history = train.train("bid_value", data, form="spades-partnership", seed=1, epochs=2,
                                        batch_size=4, threads=1, holdout=3, log=lambda s: None)
    assert history["train_records"] + history["holdout_records"] == 12
    fitted = valued[picked["hand"] % 3 != 0].any(axis=0)
    assert fitted.sum() > 2
    for b in range(cardgames.NUM_BIDS):
        same = torch.equal(model.out.weight[b], start.out.weight[b]) and model.out.bias[b] == start.out.bias[b]
        assert same == (not fitted[b]), b
    assert history["choice_records"] == history["holdout_records"]
    # A network measured on paired data its own bidder made chooses the bids taken: no gain.
    path = tmp_path / "paired.net"
    train.export(model, path, task="bid_value", form="spades-partnership", output_scale=scale, command="test",
                 seeds="torch 1")
    bidder = f"pimc:worlds=1,bid=value,bid_value_net={path}"
    cardgames.selfplay(out=tmp_path / "own", preset="spades-partnership", hands=8, threads=1, quiet=True,
                       players=[bidder] * 4, seats=[0, 1, 2, 3], explore_bids="paired")
    own = learn_data.load(tmp_path / "own", information_state=False, phases=["bid"])
    _, _, again = train.train("bid_value", own, form="spades-partnership", epochs=0, threads=1, holdout=2,
                              init=str(path), log=lambda s: None)
    assert again["choice_records"] == 4 and again["choice_gain"] == 0
    # Paired margins are not fitted beside the margins of bids taken.
    cardgames.selfplay(out=tmp_path / "sp", preset="spades-partnership", hands=2, threads=1, quiet=True,
                       explore_bids=True)
    both = learn_data.load([tmp_path / "pb", tmp_path / "sp"], information_state=False, phases=["bid"])
    with pytest.raises(ValueError, match="paired"):
        train.train("bid_value", both, form="spades-partnership", epochs=1, threads=1, log=lambda s: None)
