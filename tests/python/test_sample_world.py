"""sample_world(seat, seed) deals a world the seat cannot tell from the real one: for every seat (not
only the one to act), in every phase (blind nil, bidding, passing, the blind-nil exchange, each
point of play) and in every form, the world's info_state(seat), tensors and current_player() are
the state's, over random play in all seven presets."""
import random

import numpy as np

import cardgames
from conftest import LONG, PRESETS

GAMES = 6 if LONG else 1  # whole games per form
MAX_HANDS = 4             # hands per game: every Hearts pass direction


def forms():
    for preset in PRESETS:
        yield preset, cardgames.Rules(preset)
    # blind_nil_deficit=0: blind nil, and its exchange, from the first hand.
    yield "spades-partnership blind nil", cardgames.Rules("spades-partnership", blind_nil_deficit=0)


def check_worlds(state, rng, where):
    for seat in range(state.rules.players):
        world = state.sample_world(seat, rng.randrange(1 << 62))
        at = f"{where}, seat {seat}, {state.phase()} after {len(state.history())} actions"
        assert world.current_player() == state.current_player(), at
        assert world.info_state(seat) == state.info_state(seat), at
        assert (world.information_state_tensor(seat) == state.information_state_tensor(seat)).all(), at
        assert world.legal_actions_mask().any(), at


def random_action(state, rng):
    legal = state.legal_actions()
    if cardgames.BLIND_NIL in legal and rng.random() < 0.5:
        return cardgames.BLIND_NIL
    return rng.choice(legal)


def test_every_seat_every_phase_every_form():
    rng = random.Random(44)
    phases = set()
    for name, rules in forms():
        for game in range(GAMES):
            state = cardgames.new_game(rules, 100 + game)
            while not state.is_terminal() and state.hand_number() < MAX_HANDS:
                phases.add(state.phase())
                check_worlds(state, rng, f"{name} game {game}")
                state.apply_action(random_action(state, rng))
    assert phases == {"blind_nil", "bid", "pass", "play"}


def test_hearts_first_lead_for_seats_not_on_lead():
    # The case: before the first lead, the seat on lead holds the first-lead card (2C; 3C in
    # 6-player Hearts), which every seat knows.
    for preset in ["hearts4", "hearts6"]:
        state = cardgames.new_game(cardgames.Rules(preset), 7)
        while state.phase() != "play":
            state.apply_action(state.legal_actions()[0])
        leader = state.current_player()
        for seat in range(state.rules.players):
            for seed in range(40):
                world = state.sample_world(seat, seed)
                assert world.current_player() == leader, (preset, seat, seed)
                assert world.legal_actions() == state.legal_actions() and len(world.legal_actions()) == 1
