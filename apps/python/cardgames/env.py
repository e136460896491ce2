"""An environment with PettingZoo's AEC API over State, in plain Python (no PettingZoo needed).

    import cardgames.env
    env = cardgames.env.env("hearts4", hands=1)          # a preset, plus rule=value overrides
    env.reset(seed=1)
    for agent in env.agent_iter():
        observation, reward, termination, truncation, info = env.last()
        action = None if termination or truncation else policy(observation)
        env.step(action)

env(preset, *, hands=None, information_state=False, render_mode="ansi", **rules) -> CardGameEnv
    hands=None: one whole game to the target; hands=N: N boards, each a single hand from zero
    scores (as cardgames.new_game). rules are the keys of `--rule key=value`.

Agents are "player_0" .. "player_{n-1}" (the seats). An observation is a dict: "observation"
(the seat's observation_tensor, float32), "action_mask" (int8, 1 for each legal action; all 0
when the agent is not to act); with information_state=True the tensor is
information_state_tensor. Rewards come when a hand ends: each seat's score change for that hand
(Hearts: minus its penalty points, so that more is better). When the game is over every agent is
visited once more with termination True and must step None, as PettingZoo's AEC environments do.

reset(seed=None): a seed deals the game of `cardgames tournament --seed SEED` and seeds the
environment's generator, so that later unseeded resets follow a fixed sequence; an unseeded reset
of a never-seeded environment draws a fresh seed from the operating system. infos[agent]["seed"]
is the seed dealt. step(action): an int or a numpy integer; anything else (52.9, "52", True) or an
illegal action raises ValueError and changes nothing.
"""

import numpy as np

from . import Rules, new_game
from .openspiel import checked_action, checked_seed


class Discrete:
    """The actions 0..n-1 (gymnasium's Discrete): n, shape (), dtype int64, sample(mask=None),
    contains(x), seed(s)."""

    def __init__(self, n, seed=None):
        self.n = int(n)
        self.shape = ()
        self.dtype = np.dtype(np.int64)
        self.np_random = np.random.default_rng(seed)

    def seed(self, seed=None):
        self.np_random = np.random.default_rng(seed)
        return [seed]

    def sample(self, mask=None):
        """A uniform action, among those the int8 mask marks 1 when it is given."""
        if mask is None:
            return np.int64(self.np_random.integers(self.n))
        legal = np.flatnonzero(np.asarray(mask))
        if len(legal) == 0:
            raise ValueError("sample: the mask allows no action")
        return np.int64(self.np_random.choice(legal))

    def contains(self, x):
        return isinstance(x, (int, np.integer)) and not isinstance(x, (bool, np.bool_)) and 0 <= x < self.n

    __contains__ = contains

    def __eq__(self, other):
        return isinstance(other, Discrete) and other.n == self.n

    def __repr__(self):
        return f"Discrete({self.n})"


class Box:
    """Arrays of a shape and dtype between low and high (gymnasium's Box): shape, dtype, low,
    high, sample(), contains(x), seed(s)."""

    def __init__(self, low, high, shape, dtype, seed=None):
        self.shape = tuple(shape)
        self.dtype = np.dtype(dtype)
        self.low = np.broadcast_to(np.asarray(low, dtype=self.dtype), self.shape).copy()
        self.high = np.broadcast_to(np.asarray(high, dtype=self.dtype), self.shape).copy()
        self.np_random = np.random.default_rng(seed)

    def seed(self, seed=None):
        self.np_random = np.random.default_rng(seed)
        return [seed]

    def sample(self):
        """Uniform where both bounds are finite, standard normal where they are not."""
        if np.issubdtype(self.dtype, np.integer):
            return self.np_random.integers(self.low, self.high, endpoint=True, dtype=self.dtype)
        bounded = np.isfinite(self.low) & np.isfinite(self.high)
        out = self.np_random.standard_normal(self.shape)
        out[bounded] = self.np_random.uniform(self.low[bounded], self.high[bounded])
        return out.astype(self.dtype)

    def contains(self, x):
        x = np.asarray(x)
        return x.shape == self.shape and x.dtype == self.dtype and bool(((x >= self.low) & (x <= self.high)).all())

    __contains__ = contains

    def __repr__(self):
        return f"Box({self.low.flat[0]}, {self.high.flat[0]}, {self.shape}, {self.dtype})"


class Dict:
    """A dict of spaces (gymnasium's Dict): spaces, space[key], sample(), contains(x), seed(s);
    shape and dtype are those of its "observation" entry (the tensor a network reads)."""

    def __init__(self, spaces):
        self.spaces = dict(spaces)
        self.shape = self.spaces["observation"].shape
        self.dtype = self.spaces["observation"].dtype

    def __getitem__(self, key):
        return self.spaces[key]

    def keys(self):
        return self.spaces.keys()

    def seed(self, seed=None):
        for i, space in enumerate(self.spaces.values()):
            space.seed(None if seed is None else seed + i)
        return [seed]

    def sample(self):
        return {k: space.sample() for k, space in self.spaces.items()}

    def contains(self, x):
        return isinstance(x, dict) and x.keys() == self.spaces.keys() and all(
            self.spaces[k].contains(v) for k, v in x.items())

    __contains__ = contains

    def __repr__(self):
        return f"Dict({self.spaces!r})"


def env(preset=None, *, hands=None, information_state=False, render_mode="ansi", game=None, **rules):
    """The environment of a preset (or the default preset of game) with rule overrides."""
    return CardGameEnv(Rules(preset, game=game, **rules), hands=hands, information_state=information_state,
                       render_mode=render_mode)


class _StateAccess:
    """env.state() is PettingZoo's global state (a tensor); env.state.X is the native State's X
    (env.state.is_terminal(), env.state.returns()), as code written before state() uses it."""

    def __init__(self, owner):
        self._owner = owner

    def __call__(self):
        return self._owner._global_state()

    def __getattr__(self, name):
        native = self._owner.game_state
        if native is None:
            raise AttributeError(f"{name}: the environment has no game before reset()")
        return getattr(native, name)


class CardGameEnv:
    """Whole games (or hands=N boards) of one rule set, as an AEC environment; see the module."""

    metadata = {"name": "cardgames_v1", "is_parallelizable": False, "render_modes": ["ansi"]}

    def __init__(self, rules, hands=None, information_state=False, render_mode="ansi"):
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode={render_mode!r}: expected \"ansi\" (text) or None")
        self.rules = rules
        self.hands = hands
        self.information_state = information_state
        self.render_mode = render_mode
        self.possible_agents = [f"player_{i}" for i in range(rules.players)]
        self.agents = []
        self.game_state = None
        self.state = _StateAccess(self)
        self._rng = None  # seeded by reset(seed); from the operating system until then
        shape = rules.information_state_shape if information_state else rules.observation_shape
        # Every entry is in [0, 1] but the scores (a score over the target: negative, or past 1).
        low, high = np.zeros(shape, np.float32), np.ones(shape, np.float32)
        low[rules.observation_layout["scores"]], high[rules.observation_layout["scores"]] = -np.inf, np.inf
        self._observation_spaces = {
            a: Dict({"observation": Box(low, high, shape, np.float32),
                     "action_mask": Box(0, 1, (rules.num_actions,), np.int8)})
            for a in self.possible_agents}
        self._action_spaces = {a: Discrete(rules.num_actions) for a in self.possible_agents}
        info_low, info_high = np.zeros(rules.information_state_shape, np.float32), np.ones(rules.information_state_shape, np.float32)
        info_low[rules.observation_layout["scores"]], info_high[rules.observation_layout["scores"]] = -np.inf, np.inf
        self.state_space = Box(np.tile(info_low, rules.players), np.tile(info_high, rules.players),
                               (rules.players * rules.information_state_shape[0],), np.float32)
        self.rewards, self._cumulative_rewards, self.terminations, self.truncations, self.infos = {}, {}, {}, {}, {}
        self.agent_selection = None

    # --- PettingZoo's AEC interface --------------------------------------------------------------
    @property
    def num_agents(self):
        return len(self.agents)

    @property
    def max_num_agents(self):
        return len(self.possible_agents)

    @property
    def unwrapped(self):
        return self

    def reset(self, seed=None, options=None):
        if seed is not None:
            seed = checked_seed(seed, "reset: seed")
            self._rng = np.random.default_rng(seed)
            deal_seed = seed
        else:
            if self._rng is None:
                self._rng = np.random.default_rng()
            deal_seed = int(self._rng.integers(2**63))
        self.game_state = new_game(self.rules, deal_seed, hands=self.hands)
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {"seed": deal_seed} for a in self.agents}
        self._raw_returns = self.game_state.returns()
        self._returns = [0.0] * self.rules.players
        self._finishing = []
        self.agent_selection = self._agent(self.game_state.current_player())

    def observation_space(self, agent):
        return self._observation_spaces[self._check_agent(agent)]

    def action_space(self, agent):
        return self._action_spaces[self._check_agent(agent)]

    def observe(self, agent):
        seat = self.possible_agents.index(self._check_agent(agent))
        state = self._game()
        tensor = (state.information_state_tensor(seat) if self.information_state
                  else state.observation_tensor(seat))
        mask = (state.legal_actions_mask() if state.current_player() == seat
                else np.zeros(self.rules.num_actions, dtype=np.int8))
        return {"observation": tensor, "action_mask": mask}

    def last(self, observe=True):
        agent = self.agent_selection
        if agent is None:
            raise ValueError("last: no agent is to act (call reset())")
        return (self.observe(agent) if observe else None, self._cumulative_rewards[agent],
                self.terminations[agent], self.truncations[agent], self.infos[agent])

    def agent_iter(self, max_iter=2**63):
        for _ in range(max_iter):
            if not self.agents:
                return
            yield self.agent_selection

    def step(self, action):
        agent = self.agent_selection
        if agent is None:
            raise ValueError("step: no agent is to act (call reset())")
        if self.terminations[agent] or self.truncations[agent]:
            if action is not None:
                raise ValueError(f"{agent} is done: step(None), not step({action!r})")
            self.agents.remove(agent)
            self._finishing.remove(agent)
            for table in (self.rewards, self._cumulative_rewards, self.terminations, self.truncations, self.infos):
                del table[agent]
            self.agent_selection = self._finishing[0] if self._finishing else None
            return
        if action is None:
            raise ValueError(f"{agent} is to act: step(None) is only for an agent that is done")
        action = checked_action(action, f"{agent}: action")
        self.game_state.apply_action(action)  # an illegal action raises before anything changes
        self._cumulative_rewards[agent] = 0.0
        self._reward()
        if self.game_state.is_terminal():
            for a in self.agents:
                self.terminations[a] = True
            self._finishing = list(self.agents)
            self.agent_selection = self._finishing[0]
        else:
            self.agent_selection = self._agent(self.game_state.current_player())

    def render(self):
        """The table as text: hand, phase, each seat's cards, the trick, the scores so far."""
        if self.render_mode is None:
            return None
        state = self._game()
        lines = [str(state)]
        if not state.is_terminal():
            info = state.info_state(state.current_player())
            trick = " ".join(f"{seat}:{card}" for seat, card in info["trick"])
            lines.append(f"  to act: {self._agent(state.current_player())}; trick: {trick or '-'}")
        lines.append("  returns: " + " ".join(str(r) for r in state.returns()) +
                     (" (penalty points)" if self.rules.game == "hearts" else ""))
        return "\n".join(lines)

    def close(self):
        self.game_state = None
        self.agents = []
        self.agent_selection = None

    # --- helpers ---------------------------------------------------------------------------------
    def _global_state(self):
        """Every seat's information state tensor, seat 0 first: all that the table knows."""
        state = self._game()
        return np.concatenate([state.information_state_tensor(s) for s in range(self.rules.players)])

    def _game(self):
        if self.game_state is None:
            raise ValueError("the environment has no game: call reset()")
        return self.game_state

    def _check_agent(self, agent):
        if agent not in self.possible_agents:
            raise ValueError(f"agent {agent!r}: expected one of {', '.join(self.possible_agents)}")
        return agent

    def _agent(self, seat):
        return self.possible_agents[seat]

    def _reward(self):
        raw = self.game_state.returns()
        if raw == self._raw_returns:  # most steps: no hand ended, nothing changes
            for a in self.possible_agents:
                self.rewards[a] = 0.0
            return
        self._raw_returns = raw
        sign = -1.0 if self.rules.game == "hearts" else 1.0
        for i, a in enumerate(self.possible_agents):
            delta = sign * raw[i] - self._returns[i] + 0.0
            self._returns[i] = sign * raw[i]
            self.rewards[a] = delta
            self._cumulative_rewards[a] += delta
