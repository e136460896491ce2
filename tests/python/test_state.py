"""State driven only through its Python interface, over random games in all seven presets: the
mask is legal_actions(), every legal action applies, illegal ones raise ValueError and change
nothing, tensors keep their shape and finite values, clones and pickles are equal and independent,
and returns() are the record's scores."""
import copy
import pickle
import random

import numpy as np
import pytest

import cardgames
from conftest import LONG, PRESETS

HANDS = 3000 if LONG else 250  # one-hand games per preset
GAMES = 40 if LONG else 3      # whole games per preset


def check_step(state, rules, rng, thorough):
    legal = state.legal_actions()
    mask = state.legal_actions_mask()
    assert mask.dtype == np.int8 and mask.shape == (rules.num_actions,)
    assert list(np.flatnonzero(mask)) == legal
    assert legal, "a live state has a legal action"
    illegal = [a for a in range(rules.num_actions) if not mask[a]]
    tried_legal = legal if thorough else [rng.choice(legal)]
    tried_illegal = illegal if thorough else rng.sample(illegal, min(2, len(illegal)))
    before = state.history()
    for a in tried_legal:
        c = state.clone()
        c.apply_action(a)
        assert c.history() == before + [a]
    for a in tried_illegal + ([-1, rules.num_actions] if thorough else []):
        with pytest.raises(ValueError):
            state.apply_action(a)
    assert state.history() == before
    seat = state.current_player()
    for s in ([seat] if not thorough else range(rules.players)):
        obs = state.observation_tensor(s)
        info = state.information_state_tensor(s)
        assert obs.dtype == np.float32 and obs.shape == rules.observation_shape
        assert info.dtype == np.float32 and info.shape == rules.information_state_shape
        assert np.isfinite(obs).all() and np.isfinite(info).all()
        assert (info[: obs.shape[0]] == obs).all()


def check_copies(state, rng):
    c = state.clone()
    p = pickle.loads(pickle.dumps(state))
    d = copy.deepcopy(state)
    for other in (c, p, d):
        assert other.history() == state.history()
        assert other.record() == state.record()
        assert other.current_player() == state.current_player()
        assert (other.observation_tensor(0) == state.observation_tensor(0)).all()
        assert other.legal_actions() == state.legal_actions()
    if not state.is_terminal():
        # Independent: playing on the clone leaves the original as it was.
        history = state.history()
        c.apply_action(rng.choice(c.legal_actions()))
        assert state.history() == history
        assert p.history() == history


def play(rules, seed, hands, rng, thorough=False):
    state = cardgames.new_game(rules, seed, hands=hands)
    steps = 0
    while not state.is_terminal():
        check_step(state, rules, rng, thorough or steps % 31 == 0)
        if steps % 23 == 0:
            check_copies(state, rng)
        state.apply_action(rng.choice(state.legal_actions()))
        steps += 1
    assert state.current_player() == -1 and state.phase() == "over"
    assert state.legal_actions() == [] and not state.legal_actions_mask().any()
    check_copies(state, rng)
    return state


def units(rules):
    """Each seat's scoring unit: its side in partnership Spades, else itself."""
    return [s % 2 if rules.num_units == 2 else s for s in range(rules.players)]


def record_returns(rules, records):
    """Per seat: the sum of its unit's hand scores over the records' hands."""
    return [sum(h["hand_score"][u] for r in records for h in r["hands"]) for u in units(rules)]


@pytest.mark.parametrize("preset", PRESETS + ["spades-partnership:blind_nil_deficit=0"])
def test_random_hands(preset):
    name, _, override = preset.partition(":")
    rules = cardgames.Rules(name, **dict([override.split("=")]) if override else {})
    rng = random.Random(preset)
    for i in range(HANDS):
        state = play(rules, 1000 + i, 1, rng, thorough=i < 2)
        records = state.records()
        assert len(records) == 1 and len(records[0]["hands"]) == 1
        assert state.returns() == record_returns(rules, records)


@pytest.mark.parametrize("preset", PRESETS)
def test_random_whole_games(preset):
    rules = cardgames.Rules(preset)
    rng = random.Random("whole " + preset)
    for i in range(GAMES):
        state = play(rules, 50 + i, None, rng)
        record = state.record()
        assert record["complete"]
        assert state.returns() == [record["final_scores"][u] for u in units(rules)]


def test_several_boards():
    rules = cardgames.Rules("spades-partnership")
    rng = random.Random(5)
    state = play(rules, 9, 3, rng)
    records = state.records()
    assert len(records) == 3
    assert [r["seed"] for r in records] == [cardgames.tournament_game_seed(9, b) for b in range(3)]
    assert state.returns() == record_returns(rules, records)


def test_rules_and_errors():
    rules = cardgames.Rules("hearts4", pass_count=2, jack_of_diamonds=True)
    assert rules.players == 4 and rules.game == "hearts" and rules.num_actions == cardgames.NUM_ACTIONS
    assert rules.to_dict()["pass_count"] == "2" and rules.to_dict()["jack_of_diamonds"] == "true"
    assert cardgames.Rules(game="spades").to_dict() == cardgames.Rules("spades-partnership").to_dict()
    assert pickle.loads(pickle.dumps(rules)) == rules
    with pytest.raises(cardgames.InputError, match="unknown rule 'pass_cout'"):
        cardgames.Rules("hearts4", pass_cout=2)
    with pytest.raises(ValueError, match="--game hearts disagrees with --preset spades-partnership"):
        cardgames.Rules("spades-partnership", game="hearts")
    with pytest.raises(cardgames.InputError, match="unknown bot 'nobot'"):
        cardgames.make_bot("nobot")
    layout = rules.observation_layout
    assert list(layout) == ["phase", "hand", "pass_chosen", "passed", "received", "pass_to", "dealer", "to_move",
                            "leader", "trick", "played", "tricks_won", "points_taken", "bids", "blind_nil", "scores",
                            "bags", "broken"]
    assert sum(s.stop - s.start for s in layout.values()) == rules.observation_shape[0]
    info = rules.information_state_layout
    assert info["trick_history"].stop == rules.information_state_shape[0]
    assert rules.slice_shapes["trick_history"] == (13, 4, 52)


def test_actions_and_reasons():
    assert issubclass(cardgames.InputError, ValueError) and issubclass(cardgames.IllegalActionError, ValueError)
    assert cardgames.card_action("2C") == 0 and cardgames.card_action("QS") == 49
    assert cardgames.action_card(51) == "AS"
    assert cardgames.action_to_string(cardgames.PASS_BASE + 49) == "pass QS"
    assert cardgames.action_to_string(cardgames.BID_BASE) == "bid nil"
    assert cardgames.action_to_string(cardgames.BID_BASE + 4) == "bid 4"
    assert cardgames.action_to_string(cardgames.BLIND_NIL) == "blind nil"
    state = cardgames.new_game(cardgames.Rules("hearts4"), 1)
    assert state.phase() == "pass"
    hand = state.info_state(0)["hand"]
    not_held = next(c for c in ["2C", "3C", "4C", "5C", "6C"] if c not in hand)
    with pytest.raises(cardgames.IllegalActionError, match=f"you do not hold {not_held}"):
        state.apply_action(cardgames.PASS_BASE + cardgames.card_action(not_held))
    with pytest.raises(ValueError, match="no card is due now"):
        state.apply_action(cardgames.card_action(hand[0]))
    # Three passes, one card at a time; the third sends them.
    for k in range(3):
        state.apply_action(cardgames.PASS_BASE + cardgames.card_action(hand[k]))
        if k < 2:
            assert state.info_state(0)["pass_chosen"] == hand[: k + 1]
    assert state.current_player() == 1
    while state.phase() == "pass":
        state.apply_action(state.legal_actions()[0])
    leader = state.current_player()
    assert state.legal_actions() == [cardgames.card_action("2C")]
    other = next(c for c in state.info_state(leader)["hand"] if c != "2C")
    with pytest.raises(ValueError, match="2C"):
        state.apply_action(cardgames.card_action(other))


def test_sample_world_is_consistent():
    rng = random.Random(11)
    # blind_nil_deficit=0: blind nil (and its exchange) from the first hand.
    for rules in [cardgames.Rules(p) for p in PRESETS] + [cardgames.Rules("spades-partnership", blind_nil_deficit=0)]:
        for seed in range(6 if not LONG else 60):
            state = cardgames.new_game(rules, seed, hands=1)
            while not state.is_terminal():
                seat = state.current_player()
                if rng.random() < 0.25:
                    world = state.sample_world(seat, rng.randrange(1 << 30))
                    again = pickle.loads(pickle.dumps(world))
                    assert again.history() == world.history() and again.records() == world.records()
                    # The same for the seat: its view, its tensors, what it may do.
                    assert world.info_state(seat) == state.info_state(seat)
                    assert (world.information_state_tensor(seat) == state.information_state_tensor(seat)).all()
                    assert world.legal_actions() == state.legal_actions()
                    # And a whole game that goes on.
                    while not world.is_terminal():
                        world.apply_action(rng.choice(world.legal_actions()))
                legal = state.legal_actions()
                blind = cardgames.BLIND_NIL in legal and rng.random() < 0.5
                state.apply_action(cardgames.BLIND_NIL if blind else rng.choice(legal))


def test_sample_world_varies_hidden_hands():
    state = cardgames.new_game(cardgames.Rules("spades-partnership"), 4, hands=1)
    while state.phase() != "play":
        state.apply_action(state.legal_actions()[-1] if state.phase() == "bid" else state.legal_actions()[0])
    hands = {tuple(state.sample_world(0, k).info_state(1)["hand"]) for k in range(5)}
    assert len(hands) > 1
    assert all(state.sample_world(0, k).info_state(0)["hand"] == state.info_state(0)["hand"] for k in range(5))
