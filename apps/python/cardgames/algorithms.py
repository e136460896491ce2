"""Algorithms written against the OpenSpiel-shaped layer (cardgames.openspiel) only, as an
OpenSpiel user writes them: bots with step(state) -> action.

ISMCTSBot(game, player, iterations=100, exploration=0.7, seed=0, fallback="rule")
    Information-set Monte Carlo tree search (Cowling, Powley and Whitehouse's single-observer
    form, every seat's nodes keyed by its information_state_string, max^n backups): each
    iteration draws a world consistent with what the player knows (state.sample_world), walks
    the tree by UCB over the actions legal in that world, adds one node, and finishes the hand
    at random (RandomRolloutEvaluator). Cards only: bids and passes go to the fallback native
    bot. The same seed and states give the same actions.

RandomRolloutEvaluator(seed=0)
    evaluate(state): the utilities after random legal actions to the end of the current board.

NativeBot(spec, seed=0)
    A native bot (any spec of the command line) as an OpenSpiel-style bot.

play_game(game, bots, seed=None) -> returns
    One game from game.new_initial_state(seed), each seat's bot stepping in turn.
"""

import math
import random

from . import make_bot


class NativeBot:
    """A bot of the command line ("rule", "pimc:worlds=16", ...) with OpenSpiel's step()."""

    def __init__(self, spec, seed=0):
        self.bot = make_bot(spec, seed)

    def step(self, state):
        return self.bot.act(state.native)

    def restart(self):
        pass


class RandomRolloutEvaluator:
    """The utilities of a state after random legal actions to the end of its board."""

    def __init__(self, seed=0):
        self.rng = random.Random(seed)

    def evaluate(self, state):
        state = state.clone()
        board = state.native.board
        while not state.is_terminal() and state.native.board == board:
            state.apply_action(self.rng.choice(state.legal_actions()))
        return state.returns()


class _Node:
    """An information set of the seat to act: per action, its visits, its availability (the
    iterations whose world allowed it) and the sum of the acting seat's scaled utilities."""

    __slots__ = ("visits", "available", "total")

    def __init__(self):
        self.visits = {}
        self.available = {}
        self.total = {}


class ISMCTSBot:
    """Information-set MCTS for one seat's card play; see the module's docstring."""

    def __init__(self, game, player, *, iterations=100, exploration=0.7, seed=0, fallback="rule",
                 evaluator=None):
        if iterations < 1:
            raise ValueError(f"iterations={iterations}: expected 1 or more")
        self.game = game
        self.player = player
        self.iterations = iterations
        self.exploration = exploration
        self.rng = random.Random(seed)
        self.evaluator = evaluator or RandomRolloutEvaluator(seed)
        self.fallback = make_bot(fallback, seed)
        # Utilities scaled to [0, 1], so that one exploration constant fits every game.
        self.low = game.min_utility() / game.hands
        self.span = (game.max_utility() - game.min_utility()) / game.hands or 1.0

    def restart(self):
        pass

    def step(self, state):
        if state.current_player() != self.player:
            raise ValueError(f"ISMCTSBot: seat {state.current_player()} is to act, not seat {self.player}")
        if state.native.phase() != "play":
            return self.fallback.act(state.native)
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        tree = {}
        for _ in range(self.iterations):
            self._iterate(state, tree)
        root = tree[state.information_state_string(self.player)]
        return max(legal, key=lambda a: (root.visits.get(a, 0), -a))

    def _iterate(self, state, tree):
        world = state.sample_world(self.player, self.rng.getrandbits(63))
        board = world.native.board
        path = []
        while not world.is_terminal() and world.native.board == board and world.native.phase() == "play":
            mover = world.current_player()
            key = world.information_state_string(mover)
            node = tree.get(key)
            legal = world.legal_actions()
            if node is None:
                node = tree[key] = _Node()
                action = self.rng.choice(legal)
                for a in legal:
                    node.available[a] = node.available.get(a, 0) + 1
                path.append((node, action, mover))
                world.apply_action(action)
                break
            for a in legal:
                node.available[a] = node.available.get(a, 0) + 1
            untried = [a for a in legal if a not in node.visits]
            action = self.rng.choice(untried) if untried else max(legal, key=lambda a: self._ucb(node, a))
            path.append((node, action, mover))
            world.apply_action(action)
        utilities = self.evaluator.evaluate(world)
        for node, action, mover in path:
            node.visits[action] = node.visits.get(action, 0) + 1
            node.total[action] = node.total.get(action, 0.0) + (utilities[mover] - self.low) / self.span

    def _ucb(self, node, action):
        n = node.visits[action]
        return node.total[action] / n + self.exploration * math.sqrt(math.log(node.available[action]) / n)


def play_game(game, bots, seed=None):
    """Plays one game with bots[seat] for each seat; returns the utilities."""
    if len(bots) != game.num_players():
        raise ValueError(f"{len(bots)} bots for {game.num_players()} seats; give one per seat")
    state = game.new_initial_state(seed)
    while not state.is_terminal():
        state.apply_action(bots[state.current_player()].step(state))
    return state.returns()
