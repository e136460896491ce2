"""A PettingZoo-style multi-agent environment over State, in plain Python (no PettingZoo needed).

    from cardgames.env import CardGameEnv
    env = CardGameEnv(cardgames.Rules("hearts4"), hands=1)
    env.reset(seed=1)
    for agent in env.agent_iter():
        observation, reward, termination, truncation, info = env.last()
        action = None if termination or truncation else policy(observation)
        env.step(action)

Agents are "player_0" .. "player_{n-1}" (the seats). An observation is a dict: "observation"
(the seat's observation_tensor, float32), "action_mask" (int8, 1 for each legal action); with
information_state=True the tensor is information_state_tensor. Rewards come when a hand ends: each
seat's score change for that hand (Hearts: minus its penalty points, so that more is better).
When the game is over every agent is visited once more with termination True and must step None,
as PettingZoo's AEC environments do.
"""

import numpy as np

from . import new_game


class CardGameEnv:
    metadata = {"name": "cardgames_v0", "is_parallelizable": False}

    def __init__(self, rules, hands=None, information_state=False):
        self.rules = rules
        self.hands = hands
        self.information_state = information_state
        self.possible_agents = [f"player_{i}" for i in range(rules.players)]
        self.state = None

    # The PettingZoo interface.
    def reset(self, seed=None, options=None):
        self.state = new_game(self.rules, 0 if seed is None else seed, hands=self.hands)
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self._returns = np.zeros(self.rules.players)
        self._finishing = []
        self.agent_selection = self._agent(self.state.current_player())

    def observation_space(self, agent):
        shape = self.rules.information_state_shape if self.information_state else self.rules.observation_shape
        return {"observation": shape, "action_mask": (self.rules.num_actions,)}

    def action_space(self, agent):
        return self.rules.num_actions

    def observe(self, agent):
        seat = self.possible_agents.index(agent)
        tensor = (self.state.information_state_tensor(seat) if self.information_state
                  else self.state.observation_tensor(seat))
        mask = (self.state.legal_actions_mask() if self.state.current_player() == seat
                else np.zeros(self.rules.num_actions, dtype=np.int8))
        return {"observation": tensor, "action_mask": mask}

    def last(self, observe=True):
        agent = self.agent_selection
        return (self.observe(agent) if observe else None, self._cumulative_rewards[agent],
                self.terminations[agent], self.truncations[agent], self.infos[agent])

    def agent_iter(self, max_iter=2**63):
        for _ in range(max_iter):
            if not self.agents:
                return
            yield self.agent_selection

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            if action is not None:
                raise ValueError(f"{agent} is done: step(None), not step({action})")
            self.agents.remove(agent)
            self._finishing.remove(agent)
            self._cumulative_rewards[agent] = 0.0
            self.agent_selection = self._finishing[0] if self._finishing else None
            return
        self._cumulative_rewards[agent] = 0.0
        self.state.apply_action(int(action))
        self._reward()
        if self.state.is_terminal():
            for a in self.agents:
                self.terminations[a] = True
            self._finishing = list(self.agents)
            self.agent_selection = self._finishing[0]
        else:
            self.agent_selection = self._agent(self.state.current_player())

    # Helpers.
    def _agent(self, seat):
        return self.possible_agents[seat]

    def _reward(self):
        returns = np.array(self.state.returns(), dtype=float)
        if self.rules.game == "hearts":
            returns = -returns
        delta = returns - self._returns
        self._returns = returns
        for i, a in enumerate(self.possible_agents):
            self.rewards[a] = float(delta[i])
            self._cumulative_rewards[a] += float(delta[i])
