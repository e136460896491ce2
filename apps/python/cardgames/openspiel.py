"""An OpenSpiel-shaped game over the native State, in OpenSpiel's names (no OpenSpiel needed).

    import cardgames
    game = cardgames.load_game("hearts4", pass_count=2)   # a preset, plus rule=value overrides
    state = game.new_initial_state()
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    print(state.returns())                                # utilities: higher is better

load_game(name, *, hands=1, seed=1, **rules) -> Game
    name is a preset ("hearts4", "spades-partnership", ...) or an .ini path; rules are the keys of
    `--rule key=value`. A game is `hands` boards, each one hand dealt from zero scores (the boards
    of `cardgames tournament --hands N`).

Utilities. returns() and rewards() are utilities, higher is better: in Spades a seat's unit's
score, in Hearts minus its penalty points (the native State.returns() gives the points). So
min_utility() and max_utility() bound every seat's return; partners share theirs.

Dealing. The deal is drawn by seed, not by chance nodes: no state is a chance node
(is_chance_node() is False, chance_outcomes() is empty). new_initial_state() deals the boards of
the next seed of the game's own sequence (seed, seed + 1, ... : `seed` is a game parameter), so a
loop of episodes sees new deals and the same game parameters give the same deals;
new_initial_state(seed=S) deals the boards of seed S, the deals of
`cardgames tournament --seed S --hands N`.

Players. current_player() is the seat to act, 0..n-1, and TERMINAL_PLAYER_ID (-4, as pyspiel's
kTerminalPlayerId) once the game is over. The native State is state.native (its own API is
unchanged, so the native bots act on it: make_bot("rule").act(state.native)).
"""

import json

import numpy as np

from . import InputError, NUM_ACTIONS, Rules, State, action_to_string, new_game

# pyspiel's special player ids.
CHANCE_PLAYER_ID = -1
SIMULTANEOUS_PLAYER_ID = -2
INVALID_PLAYER_ID = -3
TERMINAL_PLAYER_ID = -4

# The serialize() format: a version, then the native State's pickled fields, as JSON.
_SERIAL_VERSION = 1


def checked_action(action, where="action"):
    """An action as a Python int: ints and numpy integers pass; anything else (a float such as
    52.9, a string "52", a bool) is a ValueError naming it, never silently converted."""
    if type(action) is int and 0 <= action < NUM_ACTIONS:
        return action
    if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
        raise ValueError(f"{where} {action!r}: expected an integer action 0..{NUM_ACTIONS - 1}, "
                         f"not a {type(action).__name__}")
    action = int(action)
    if not 0 <= action < NUM_ACTIONS:
        raise ValueError(f"{where} {action}: expected an integer action 0..{NUM_ACTIONS - 1}")
    return action


def checked_seed(seed, where="seed"):
    """A seed as a Python int: a whole number 0..2**64-1 (a ValueError names any other)."""
    if isinstance(seed, (bool, np.bool_)) or not isinstance(seed, (int, np.integer)) or not 0 <= seed < 2**64:
        raise InputError(f"{where}={seed!r}: expected a whole number from 0 to 2**64 - 1")
    return int(seed)


class GameType:
    """What pyspiel's GameType says of these games: sequential, deal by seed (no explicit chance
    nodes), imperfect information, general sum, rewards at the end of each hand."""

    def __init__(self, short_name, long_name, max_num_players):
        self.short_name = short_name
        self.long_name = long_name
        self.dynamics = "sequential"
        self.chance_mode = "sampled_stochastic"
        self.information = "imperfect_information"
        self.utility = "general_sum"
        self.reward_model = "rewards"
        self.max_num_players = max_num_players
        self.min_num_players = max_num_players
        self.provides_information_state_string = True
        self.provides_information_state_tensor = True
        self.provides_observation_string = True
        self.provides_observation_tensor = True

    def __repr__(self):
        return f"GameType(short_name={self.short_name!r}, dynamics={self.dynamics!r}, information={self.information!r})"


def load_game(name, *, hands=1, seed=1, **rules):
    """The game of a preset with rule overrides, as OpenSpiel's pyspiel.load_game gives one."""
    return Game(name, hands=hands, seed=seed, **rules)


class Game:
    """One rule set and a number of boards; makes states. Its parameters: name, hands, seed and
    the rule overrides (get_parameters())."""

    def __init__(self, name, *, hands=1, seed=1, **rules):
        if isinstance(hands, bool) or not isinstance(hands, (int, np.integer)) or hands < 1:
            raise InputError(f"hands={hands!r}: expected a whole number of boards, 1 or more")
        self.seed = checked_seed(seed)
        self.rules = Rules(name, **rules)
        self.name = str(name)
        self.hands = int(hands)
        self._overrides = dict(rules)
        self._next_seed = self.seed
        self._options = self.rules.to_dict()

    # --- OpenSpiel's Game ---------------------------------------------------------------------
    def new_initial_state(self, seed=None):
        """The start of the boards of `seed`, or of the next seed of the game's sequence."""
        if seed is None:
            seed = self._next_seed
            self._next_seed = (self._next_seed + 1) % 2**64
        return GameState(self, new_game(self.rules, checked_seed(seed, "new_initial_state: seed"), hands=self.hands))

    def num_distinct_actions(self):
        return NUM_ACTIONS

    def num_players(self):
        return self.rules.players

    def max_chance_outcomes(self):
        return 0

    def max_game_length(self):
        """The most decisions the game can take: every card played, every bid and blind-nil
        choice, every card passed."""
        n, cards = self.rules.players, self.rules.cards_per_hand
        per_hand = n * cards
        if self.rules.game == "hearts":
            if self._options["no_passing"] != "true":
                per_hand += n * int(self._options["pass_count"])
        else:
            per_hand += n  # bids
            if self.rules.num_units < n and self._options["blind_nil"] == "true":
                per_hand += n + 2 * 2 * 2  # a blind-nil choice each, two cards each way per pair
        return self.hands * per_hand

    def min_utility(self):
        return self.hands * self._hand_utility_bounds()[0]

    def max_utility(self):
        return self.hands * self._hand_utility_bounds()[1]

    def utility_sum(self):
        """None: the utilities sum to no constant (general sum)."""
        return None

    def observation_tensor_shape(self):
        return list(self.rules.observation_shape)

    def observation_tensor_size(self):
        return self.rules.observation_shape[0]

    def information_state_tensor_shape(self):
        return list(self.rules.information_state_shape)

    def information_state_tensor_size(self):
        return self.rules.information_state_shape[0]

    def deserialize_state(self, text):
        """The state serialize() wrote, replayed; a ValueError names what is wrong."""
        try:
            data = json.loads(text)
            version, fields, before = data["version"], data["state"], data["before"]
        except (ValueError, TypeError, KeyError) as e:
            raise InputError(f"deserialize_state: not a serialized state ({e})") from None
        if version != _SERIAL_VERSION:
            raise InputError(f"deserialize_state: version {version!r}, expected {_SERIAL_VERSION}")
        native = State.__new__(State)
        try:
            native.__setstate__(tuple(fields))
        except (TypeError, RuntimeError, ValueError) as e:  # pybind11 cast errors, InputError
            raise InputError(f"deserialize_state: not a serialized state ({e})") from None
        if native.rules != self.rules or native.hands != self.hands:
            raise InputError("deserialize_state: a state of other rules or another number of boards")
        state = GameState(self, native)
        if not isinstance(before, list) or len(before) != self.rules.players \
                or not all(isinstance(x, int) and not isinstance(x, bool) for x in before):
            raise InputError(f"deserialize_state: \"before\": expected {self.rules.players} whole numbers")
        state._before = before
        return state

    def get_type(self):
        return GameType(self.name, f"cardgames {self.rules.game} ({self.name})", self.rules.players)

    def get_parameters(self):
        return {"name": self.name, "hands": self.hands, "seed": self.seed, **self._overrides}

    def __str__(self):
        return f"{self.name}({', '.join(f'{k}={v}' for k, v in self.get_parameters().items() if k != 'name')})"

    __repr__ = __str__

    # --- helpers -------------------------------------------------------------------------------
    def utilities(self, native_returns):
        """The native State's returns as utilities: Hearts points negated."""
        sign = -1.0 if self.rules.game == "hearts" else 1.0
        return [sign * float(r) + 0.0 for r in native_returns]

    def _hand_utility_bounds(self):
        o, cards = self._options, self.rules.cards_per_hand
        if self.rules.game == "hearts":
            # Points per hand run from -26 (moon_subtracts) - 10 (the jack of diamonds) to 26.
            best = (26 if o["moon_subtracts"] == "true" else 0) + (10 if o["jack_of_diamonds"] == "true" else 0)
            return -26.0, float(best)
        seats = self.rules.players // self.rules.num_units
        nil = 0 if o["nil"] != "true" else (200 if o["blind_nil"] == "true" and seats > 1 else 100)
        penalties = cards // max(1, int(o["bags_per_penalty"])) * abs(int(o["bag_penalty"]))
        most = seats * nil + 10 * cards + cards
        return -float(seats * nil + 10 * cards + penalties), float(most)


class GameState:
    """A state of a Game, in OpenSpiel's names, over a native cardgames.State."""

    def __init__(self, game, native):
        self._game = game
        self.native = native
        # The native returns before and after the last action: rewards() is their difference
        # (apply actions through this state, not its native one, for it to stay right).
        self._native_returns = native.returns()
        self._before = self._native_returns

    # --- who acts ------------------------------------------------------------------------------
    def current_player(self):
        return TERMINAL_PLAYER_ID if self.native.is_terminal() else self.native.current_player()

    def is_terminal(self):
        return self.native.is_terminal()

    def is_chance_node(self):
        return False

    def is_simultaneous_node(self):
        return False

    def is_player_node(self):
        return not self.native.is_terminal()

    def chance_outcomes(self):
        """Empty: the deal is drawn by seed (see the module's docstring), never by chance nodes."""
        return []

    # --- actions -------------------------------------------------------------------------------
    def legal_actions(self, player=None):
        """The legal actions of player (default: the one to act), ascending; empty for a player
        not to act."""
        if player is not None and player != self.current_player():
            self._check_player(player)
            return []
        return [] if self.native.is_terminal() else self.native.legal_actions()

    def legal_actions_mask(self, player=None):
        mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
        mask[self.legal_actions(player)] = 1
        return mask

    def apply_action(self, action):
        """Plays a legal action; a non-integer or illegal one is a ValueError saying why."""
        self.native.apply_action(checked_action(action))  # the native State refuses a finished game's
        self._before, self._native_returns = self._native_returns, self.native.returns()

    def child(self, action):
        """A new state: this one after action (this one is unchanged)."""
        out = self.clone()
        out.apply_action(action)
        return out

    def action_to_string(self, player_or_action, action=None):
        """OpenSpiel's action_to_string(player, action), or action_to_string(action)."""
        return action_to_string(checked_action(player_or_action if action is None else action))

    def history(self):
        return self.native.history()

    def move_number(self):
        """Decisions taken so far (every action is a move: there are no chance nodes)."""
        return len(self.native.history())

    # --- outcomes ------------------------------------------------------------------------------
    def returns(self):
        """Per seat, its utility so far (the final one when terminal): higher is better."""
        return self._game.utilities(self.native.returns())

    def rewards(self):
        """Per seat, the utility the last action brought (non-zero when a hand ended)."""
        return self._game.utilities([a - b for a, b in zip(self._native_returns, self._before)])

    def player_return(self, player):
        return self.returns()[self._check_player(player)]

    def player_reward(self, player):
        return self.rewards()[self._check_player(player)]

    # --- what a player sees --------------------------------------------------------------------
    def observation_tensor(self, player=None):
        return self.native.observation_tensor(self._seat(player))

    def information_state_tensor(self, player=None):
        return self.native.information_state_tensor(self._seat(player))

    def information_state_string(self, player=None):
        """Everything the player knows of the board so far, as text: equal for two states of a
        board exactly when the player cannot tell them apart (its own dealt, passed and received
        cards, every bid and card played in order, the scores). Earlier boards (hands > 1) are
        other deals from zero scores, which decide nothing on this one: the string names the
        board, not what happened on the earlier ones."""
        seat = self._seat(player)
        info = self.native.info_state(seat)
        return f"board {self.native.board} " + json.dumps(info, sort_keys=True, separators=(",", ":"))

    def observation_string(self, player=None):
        """What the player sees now, for people: its hand, the bids, the trick on the table, the
        tricks and points taken and the scores (not the order of earlier plays)."""
        info = self.native.info_state(self._seat(player))
        lines = [f"seat {info['seat']}, hand {info['hand_number']}, {info['phase']}",
                 f"hand: {' '.join(info['hand']) or '-'}"]
        if info.get("pass_chosen"):
            lines.append(f"passing: {' '.join(info['pass_chosen'])}")
        if info["received"]:
            lines.append(f"received: {' '.join(info['received'])}")
        if any(b is not None for b in info["bids"]):
            lines.append("bids: " + " ".join("-" if b is None else str(b) for b in info["bids"]))
        trick = " ".join(f"{seat}:{card}" for seat, card in info["trick"])
        lines.append(f"trick: {trick or '-'} (leader {info['leader']})")
        lines.append("tricks won: " + " ".join(map(str, info["tricks_won"])))
        if self._game.rules.game == "hearts":
            lines.append("points taken: " + " ".join(map(str, info["points_taken"])))
        lines.append("scores: " + " ".join(map(str, info["scores"])))
        return "\n".join(lines)

    # --- copies and text -----------------------------------------------------------------------
    def clone(self):
        out = GameState(self._game, self.native.clone())
        out._before = list(self._before)
        return out

    def __copy__(self):
        return self.clone()

    def __deepcopy__(self, memo):
        return self.clone()

    def serialize(self):
        """The state as text (JSON) that game.deserialize_state() turns back into it."""
        fields = self.native.__getstate__()
        return json.dumps({"version": _SERIAL_VERSION, "state": fields, "before": self._before},
                          separators=(",", ":"))

    def get_game(self):
        return self._game

    def num_players(self):
        return self._game.num_players()

    def num_distinct_actions(self):
        return NUM_ACTIONS

    def sample_world(self, player, seed):
        """A whole state consistent with what player knows (native sample_world), of this game."""
        world = GameState(self._game, self.native.sample_world(self._check_player(player), seed))
        world._before = list(self._before)
        return world

    def __str__(self):
        return str(self.native)

    # --- helpers -------------------------------------------------------------------------------
    def _check_player(self, player):
        if isinstance(player, bool) or not isinstance(player, (int, np.integer)) \
                or not 0 <= player < self._game.rules.players:
            raise ValueError(f"player {player!r}: expected a seat 0..{self._game.rules.players - 1}")
        return int(player)

    def _seat(self, player):
        if player is None:
            player = self.current_player()
            if player < 0:
                raise ValueError("the game is over: name the player to observe")
        return self._check_player(player)
