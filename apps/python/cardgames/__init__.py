"""cardgames: the Spades and Hearts engine (github project `cardgames`) for Python.

Names follow OpenSpiel where it has one. A quick tour::

    import cardgames
    rules = cardgames.Rules("hearts4")            # a preset, plus rule=value overrides
    state = cardgames.new_game(rules, seed=1)     # the game `cardgames tournament --seed 1` plays
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    print(state.returns())                        # per seat: its final score (Hearts: points)

Rules(preset=None, game=None, **overrides)
    A preset under data/rules ("hearts4", "spades-partnership", ...) or an .ini path, or the
    default preset of `game` ("hearts" or "spades"); overrides are the keys of `--rule key=value`
    (Rules("hearts4", pass_count=2, jack_of_diamonds=True)). Properties: players, game,
    cards_per_hand, num_units, num_actions, observation_shape, information_state_shape,
    observation_layout and information_state_layout (name -> slice of the flat tensor),
    slice_shapes (name -> shape of the slice); to_dict().

new_game(rules, seed, hands=None) -> State
    hands=None: one whole game to the target, the game of board 0 of `cardgames tournament --games 1
    --seed SEED`. hands=N: the N boards of `cardgames tournament --hands N --seed SEED`, one after
    the other, each a single hand from zero scores.

State
    current_player() (-1 when over), phase() ("blind_nil", "bid", "pass", "play", "over"),
    legal_actions(), legal_actions_mask() (int8 array of num_actions), apply_action(a) (an illegal
    action raises IllegalActionError, a ValueError, saying why as the terminal table does), is_terminal(), returns()
    (per seat, the score of its side or its own: the game's final scores; with hands=N the sum of
    its hands' scores; Hearts penalty points), clone(), pickling, action_to_string(a), history(),
    record(players=None) (the game record as a dict, the JSON of `play --record`; records() every
    board's), info_state(seat) (what the seat knows, as a dict), observation_tensor(seat) and
    information_state_tensor(seat) (float32, see below), sample_world(seat, seed) (a whole State
    consistent with what the seat knows: hidden hands dealt by the exact deal sampler).

Actions (one numbering in every game; num_actions = 124)
    0-51     play a card: suit * 13 + rank - 2, suits clubs, diamonds, hearts, spades
             (2C = 0, AC = 12, 2D = 13, 2H = 26, QS = 49, AS = 51)
    52-103   pass a card (52 + card number): Hearts passes and the blind-nil exchange are chosen
             one card at a time; the pass goes when the last card is chosen
    104-121  bid 0-17 tricks (104 + tricks; 104 is nil)
    122      no blind nil
    123      blind nil

Tensors (seats relative to the observer: relative seat r is r places to its left; n players)
    observation_tensor: phase[5] hand[52] pass_chosen[52] passed[52] received[52] pass_to[n]
    dealer[n] to_move[n] leader[n] trick[n,52] played[52] tricks_won[n] (/cards per hand)
    points_taken[n] (/26) bids[n,19] (0: no bid yet, 1+t: bid t) blind_nil[n] scores[n]
    (/target or end score) bags[n] (/bags per penalty) broken[1].
    information_state_tensor: the same, then trick_history[cards per hand, n, 52]: who played
    what in each trick of the hand so far. rules.observation_layout names every slice.

make_bot(spec, seed=0) -> Bot
    Any bot spec of the command line ("rule", "random", "pimc:worlds=32"): act(state) is the action
    it takes for the player to move; analyze(state) (pimc) every legal card's expected value, as
    `hint` shows. The GIL is released while it thinks.

load_network(path, form="", task="") -> Network, card_features(state, seat, version=2),
card_feature_count(form, version=2)
    A network file read and run by the engine's C++ (Network.evaluate(features) -> outputs), and
    the card features it reads (of its Network.card_version); `python3 -m cardgames.train` trains
    and exports one, written by cardgames.model_file (docs/guide/networks.md).

solve(deal=..., game=, preset=, rules=, leader=, trick=, broken=, algorithm=, leaf_tables=,
      no_tt=, utility=, bids=, depth=, nodes=)
    The request and the answer (a dict) of `cardgames solve --format json`.

tournament(players, games=/hands=, ...), evaluate(mode=, policies=, ...), read_results(path)
    `cardgames tournament` and `cardgames eval` with their options as keyword arguments; a player
    or policy is a bot spec or any object with act(observation) -> action. They return Results
    (records, summary(), to_pandas()); see cardgames.runs.

selfplay(out=, hands=, ...), selfplay_report(folder)
    `cardgames learn selfplay` (and its --report) with its options as keyword arguments: the same
    shards, byte for byte; see cardgames.learn.

fit_policy(data=, out=, ...), fit_cutoff(...), fit_bids(...)
    `cardgames learn fit`, `cutoff-fit` and `bids-fit`: the same model file, byte for byte; the
    figures the command prints, as a dict; see cardgames.learn.

convert_model(path, out), policy_data_report(path)
    `cardgames learn convert` and `learn data --report`, as dicts; see cardgames.learn.

policy_data(out=, hands=, ...), cutoff_data(...), bids_data(...)
    `cardgames learn data`, `cutoff-data` and `bids-data`: the same data file, byte for byte.

InputError
    Bad input (a preset, a rule, a deal, a bot spec): a ValueError with the command line's message.

load_game(name, *, hands=1, seed=1, **rules) -> openspiel.Game
    The game in OpenSpiel's names (new_initial_state(), num_distinct_actions(), ...; states with
    current_player() -4 when over, returns() as utilities: Hearts points negated); see
    cardgames.openspiel and docs/guide/openspiel.md.

Submodules: cardgames.openspiel (the OpenSpiel-shaped game), cardgames.algorithms (IS-MCTS and a
random-rollout evaluator over it), cardgames.env (an environment with PettingZoo's AEC API),
cardgames.plots (matplotlib figures of results files, for papers), cardgames.report
(`python3 -m cardgames.report RESULTS -o report.pdf`).
"""

from ._cardgames import (  # noqa: F401
    BID_BASE,
    BLIND_NIL,
    NO_BLIND_NIL,
    NUM_ACTIONS,
    NUM_BIDS,
    NUM_CARDS,
    PASS_BASE,
    Bot,
    IllegalActionError,
    InputError,
    Rules,
    State,
    action_card,
    action_to_string,
    card_action,
    make_bot,
    new_game,
    tournament_bot_seed,
    tournament_game_seed,
)
from ._cardgames import solve as _solve
from ._cardgames import (  # noqa: F401
    CARD_FEATURE_SET,
    CARD_FEATURE_VERSION,
    Network,
    card_feature_count,
    card_features,
    load_network,
    max_active_card_features,
    players_of_form,
)
from .runs import Results, evaluate, read_results, tournament  # noqa: F401
from .learn import (bids_data, convert_model, cutoff_data, fit_bids, fit_cutoff, fit_policy,  # noqa: F401
                    policy_data, policy_data_report, selfplay, selfplay_report)
from .openspiel import load_game  # noqa: F401, E402

PHASES = ("blind_nil", "bid", "pass", "play", "over")


def solve(deal, *, rules=None, **options):
    """The answer of `cardgames solve --format json` as a dict.

    Keyword arguments mirror the command's options: game, preset, rules (`--rule` overrides, a
    dict {key: value} or a list of "key=value"), deal, leader (a seat number or N/E/S/W), trick,
    broken (True/False), algorithm, leaf_tables, no_tt, utility, bids ("3,4,nil,2" or a list),
    depth, nodes.
    """
    if isinstance(rules, dict):
        rules = [f"{k}={str(v).lower() if isinstance(v, bool) else v}" for k, v in rules.items()]
    if options.get("leader") is not None:
        options["leader"] = str(options["leader"])
    if isinstance(options.get("bids"), (list, tuple)):
        options["bids"] = ",".join(str(b) for b in options["bids"])
    return _solve(deal=deal, rules=rules, **options)


__all__ = [
    "Bot", "InputError", "IllegalActionError", "Rules", "State", "PHASES", "NUM_ACTIONS",
    "NUM_CARDS", "PASS_BASE", "BID_BASE", "NUM_BIDS", "NO_BLIND_NIL", "BLIND_NIL", "action_card",
    "action_to_string", "card_action", "make_bot", "new_game", "solve", "tournament_bot_seed",
    "tournament_game_seed", "tournament", "evaluate", "read_results", "Results", "load_game",
    "selfplay", "selfplay_report", "fit_policy", "fit_cutoff", "fit_bids", "policy_data",
    "cutoff_data", "bids_data", "convert_model", "policy_data_report",
]
