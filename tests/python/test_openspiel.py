"""cardgames.load_game: the OpenSpiel-shaped game, checked as OpenSpiel's shared battery checks a
game (random simulations of every preset with every state method on the way), and the IS-MCTS
bot written against it."""
import copy
import random

import numpy as np
import pytest

import cardgames
from cardgames import openspiel
from cardgames.algorithms import ISMCTSBot, NativeBot, RandomRolloutEvaluator, play_game
from conftest import PRESETS


def simulate(game, seed, check):
    """One game of random legal actions; check(state, parent, action) after each."""
    rng = random.Random(seed)
    state = game.new_initial_state(seed)
    length = 0
    while not state.is_terminal():
        parent = state.clone()
        action = rng.choice(state.legal_actions())
        state.apply_action(action)
        length += 1
        check(state, parent, action)
    return state, length


@pytest.mark.parametrize("preset", PRESETS)
def test_random_simulation_battery(preset):
    game = cardgames.load_game(preset, hands=2)
    n = game.num_players()
    assert n == cardgames.Rules(preset).players and game.num_distinct_actions() == cardgames.NUM_ACTIONS
    assert game.observation_tensor_shape() == list(cardgames.Rules(preset).observation_shape)
    assert game.information_state_tensor_shape() == list(cardgames.Rules(preset).information_state_shape)
    sign = -1 if cardgames.Rules(preset).game == "hearts" else 1
    totals = [0.0] * n

    def check(state, parent, action):
        assert state.move_number() == parent.move_number() + 1
        assert state.history() == parent.history() + [action]
        # child() leaves its parent as it was and gives the same state as apply_action.
        before = parent.serialize()
        child = parent.child(action)
        assert parent.serialize() == before and child.serialize() == state.serialize()
        # serialize / deserialize_state round trip, rewards and returns included.
        back = game.deserialize_state(state.serialize())
        assert back.history() == state.history() and back.returns() == state.returns()
        assert back.rewards() == state.rewards() and back.current_player() == state.current_player()
        rewards = state.rewards()
        for p in range(n):
            totals[p] += rewards[p]
        assert state.returns() == [sign * r for r in state.native.returns()]
        assert not state.is_chance_node() and state.chance_outcomes() == []
        if state.is_terminal():
            assert state.current_player() == openspiel.TERMINAL_PLAYER_ID == -4
            assert all(state.legal_actions(p) == [] for p in range(n))
            return
        player = state.current_player()
        assert 0 <= player < n and state.legal_actions() == state.legal_actions(player) == state.native.legal_actions()
        assert all(state.legal_actions(p) == [] for p in range(n) if p != player)
        assert (np.flatnonzero(state.legal_actions_mask(player)) == state.legal_actions()).all()
        for p in range(n):
            assert state.observation_tensor(p).shape == tuple(game.observation_tensor_shape())
            assert state.information_state_tensor(p).shape == tuple(game.information_state_tensor_shape())
            assert isinstance(state.observation_string(p), str)
        # The information state string is the seat's own: another seat's view of the same
        # history differs, and it never shows the other hands.
        text = state.information_state_string(player)
        assert text == state.clone().information_state_string(player)
        other = (player + 1) % n
        assert text != state.information_state_string(other)

    for seed in (1, 2):
        state, length = simulate(game, seed, check)
        assert length <= game.max_game_length()
        assert all(game.min_utility() <= r <= game.max_utility() for r in state.returns())
        assert state.returns() == pytest.approx(totals)
        totals[:] = [0.0] * n


def test_utilities_are_higher_is_better():
    """Hearts returns are minus the penalty points; a seat that takes fewer points has more."""
    game = cardgames.load_game("hearts4")
    state = game.new_initial_state(5)
    rule = cardgames.make_bot("rule")
    while not state.is_terminal():
        state.apply_action(rule.act(state.native))
    points = state.native.returns()
    assert state.returns() == [-float(p) for p in points]
    assert sum(points) in (26, 78) and game.min_utility() == -26 and game.max_utility() == 0
    best = max(range(4), key=lambda s: state.returns()[s])
    assert points[best] == min(points)
    assert cardgames.load_game("hearts4", jack_of_diamonds=True, moon_subtracts=True).max_utility() == 36


def test_dealing_by_seed():
    """new_initial_state() goes through the game's seeds; new_initial_state(seed) is the deal of
    `cardgames tournament --seed S --hands N`; the same game parameters repeat the sequence."""
    game = cardgames.load_game("spades-partnership", seed=7)
    first, second = game.new_initial_state(), game.new_initial_state()
    assert str(first) != str(second)
    assert str(first) == str(game.new_initial_state(7)) == str(cardgames.new_game(game.rules, 7, hands=1))
    again = cardgames.load_game("spades-partnership", seed=7)
    assert str(again.new_initial_state()) == str(first)
    assert game.get_parameters() == {"name": "spades-partnership", "hands": 1, "seed": 7}
    assert game.get_type().information == "imperfect_information"


def test_bad_input_is_a_value_error():
    game = cardgames.load_game("hearts4", pass_count=2)
    state = game.new_initial_state()
    legal = state.legal_actions()
    for bad in (float(legal[0]) + 0.9, str(legal[0]), True, None, -1, 124):
        with pytest.raises(ValueError):
            state.apply_action(bad)
    assert state.move_number() == 0
    state.apply_action(np.int64(legal[0]))
    with pytest.raises(ValueError, match="passed|pass|illegal|not"):
        state.apply_action(legal[0])  # chosen already
    text = state.serialize()
    for bad in ("{not json", "[]", text.replace('"before":[0,0,0,0]', '"before":[0]'),
                text.replace('"state":[{', '"state":[7,{')):
        with pytest.raises(ValueError, match="deserialize_state"):
            game.deserialize_state(bad)
    with pytest.raises(ValueError, match="other rules"):
        game.deserialize_state(cardgames.load_game("hearts4").new_initial_state().serialize())
    with pytest.raises(ValueError, match="new_initial_state: seed=-1"):
        game.new_initial_state(-1)
    with pytest.raises(ValueError, match="seed=2.5"):
        cardgames.load_game("hearts4", seed=2.5)
    with pytest.raises(ValueError, match="hands=0"):
        cardgames.load_game("hearts4", hands=0)
    with pytest.raises(ValueError, match="player 4"):
        state.information_state_string(4)
    with pytest.raises(ValueError):
        cardgames.load_game("hearts4", no_such_rule=1)
    assert copy.deepcopy(state).serialize() == state.serialize()


def test_ismcts_plays_legal_cards_deterministically_and_beats_random():
    """IS-MCTS over sample_world: its worlds are the state as its seat sees it; the same seed gives
    the same game; it takes fewer points than a random player on the same deals."""
    game = cardgames.load_game("hearts4")
    state = game.new_initial_state(3)
    rule = NativeBot("rule")
    while state.native.phase() != "play" or state.current_player() != 0:
        state.apply_action(rule.step(state))
    for seed in range(5):
        world = state.sample_world(0, seed)
        assert world.information_state_string(0) == state.information_state_string(0)
        assert world.current_player() == 0

    def match(bot_for_seat0, seed):
        return play_game(game, [bot_for_seat0, NativeBot("rule"), NativeBot("rule"), NativeBot("rule")], seed)

    first = match(ISMCTSBot(game, 0, iterations=40, seed=1), 11)
    assert match(ISMCTSBot(game, 0, iterations=40, seed=1), 11) == first

    class RandomBot:
        def __init__(self):
            self.rng = random.Random(0)

        def step(self, state):
            return self.rng.choice(state.legal_actions())

    ismcts = sum(match(ISMCTSBot(game, 0, iterations=40, seed=s), 20 + s)[0] for s in range(4))
    rnd = sum(match(RandomBot(), 20 + s)[0] for s in range(4))
    assert ismcts > rnd


def test_rollout_evaluator_ends_the_board():
    game = cardgames.load_game("spades-cutthroat3", hands=2)
    state = game.new_initial_state(4)
    values = RandomRolloutEvaluator(seed=1).evaluate(state)
    assert state.move_number() == 0 and len(values) == 3
    assert game.min_utility() / 2 <= min(values) and max(values) <= game.max_utility() / 2
