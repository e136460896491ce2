"""cardgames.env against PettingZoo's AEC API, by a test modelled on PettingZoo's api_test and
seed_test (written here: PettingZoo is not a dependency), plus strict steps and resets."""
import numpy as np
import pytest

import cardgames.env
from conftest import PRESETS


def assert_bookkeeping(env):
    """The per-agent tables hold exactly the live agents; the one selected is among them."""
    live = set(env.agents)
    for name in ("rewards", "terminations", "truncations", "infos", "_cumulative_rewards"):
        assert set(getattr(env, name)) == live, name
    assert env.num_agents == len(env.agents) and env.max_num_agents == len(env.possible_agents)
    if env.agents:
        assert env.agent_selection in live


def api_check(env, seed):
    """One game through agent_iter, checking every API call on the way (as api_test does); the
    actions come from each agent's action space, sampled under its mask."""
    env.reset(seed=seed)
    assert env.agents == env.possible_agents and len(env.possible_agents) >= 3
    assert all(isinstance(a, str) for a in env.possible_agents)
    for agent in env.possible_agents:
        # The same space objects every time, seeded from the run's seed.
        assert env.observation_space(agent) is env.observation_space(agent)
        assert env.action_space(agent) is env.action_space(agent)
        env.action_space(agent).seed(seed)
        space = env.action_space(agent)
        assert space.n == cardgames.NUM_ACTIONS and space.shape == () and space.dtype == np.int64
        obs_space = env.observation_space(agent)
        assert obs_space.shape == obs_space["observation"].shape and obs_space.dtype == np.float32
        assert obs_space.contains(obs_space.sample())
    assert_bookkeeping(env)
    assert env.state().shape == env.state_space.shape and env.state_space.contains(env.state())
    totals = {a: 0.0 for a in env.possible_agents}
    trajectory = []
    steps = 0
    for agent in env.agent_iter():
        observation, reward, termination, truncation, info = env.last()
        assert agent == env.agent_selection
        assert env.observation_space(agent).contains(observation)
        assert isinstance(reward, float) and isinstance(termination, bool) and isinstance(truncation, bool)
        assert isinstance(info, dict) and "seed" in info
        totals[agent] += reward
        # Every agent can be observed at any time; only the one to act has a mask.
        for other in env.agents:
            seen = env.observe(other)
            assert env.observation_space(other).contains(seen)
            if other != agent:
                assert not seen["action_mask"].any()
        if termination or truncation:
            assert not observation["action_mask"].any()
            env.step(None)
        else:
            action = env.action_space(agent).sample(observation["action_mask"])
            assert isinstance(action, np.integer) and observation["action_mask"][action] == 1
            trajectory.append((agent, int(action), observation["observation"].tobytes()))
            env.step(action)
            steps += 1
        assert_bookkeeping(env)
    assert env.agents == [] and env.num_agents == 0 and steps > 0
    return totals, trajectory


@pytest.mark.parametrize("preset", PRESETS)
def test_api(preset):
    env = cardgames.env.env(preset, hands=1)
    totals, _ = api_check(env, 3)
    sign = -1 if env.rules.game == "hearts" else 1
    assert [totals[a] for a in env.possible_agents] == [sign * r for r in env.state.returns()]
    text = env.render()
    assert isinstance(text, str) and "returns" in text
    env.close()
    with pytest.raises(ValueError, match="reset"):
        env.observe("player_0")


def test_seed_test():
    """Two environments, each reset with one seed and acting from seeded action spaces, play the
    same game (PettingZoo's seed_test)."""
    first = api_check(cardgames.env.env("spades-partnership", hands=1), 42)
    second = api_check(cardgames.env.env("spades-partnership", hands=1), 42)
    assert first == second
    other = api_check(cardgames.env.env("spades-partnership", hands=1), 43)
    assert other[1] != first[1]


def test_resets():
    """Seeded resets repeat; unseeded resets differ from each other; after reset(seed=S) the
    unseeded resets follow a sequence that S fixes; infos name the seed dealt."""
    env = cardgames.env.env("hearts4", hands=1)
    deals = []
    for _ in range(3):
        env.reset()
        deals.append(env.render())
    assert len(set(deals)) == 3
    env.reset(seed=5)
    dealt = env.render()
    assert env.infos["player_0"]["seed"] == 5
    assert str(env.game_state) == str(cardgames.new_game(env.rules, 5, hands=1))
    env.reset(seed=5)
    assert env.render() == dealt
    after = [env.reset() or env.render() for _ in range(2)]
    env.reset(seed=5)
    assert [env.reset() or env.render() for _ in range(2)] == after
    with pytest.raises(ValueError, match="seed=-1"):
        env.reset(seed=-1)
    with pytest.raises(ValueError, match="seed=1.5"):
        env.reset(seed=1.5)


def test_step_is_strict():
    """step refuses non-integers (52.9 was played as 52, "52" was accepted) and illegal actions,
    and changes nothing when it does; numpy integers are accepted."""
    env = cardgames.env.env("hearts4", hands=1)
    env.reset(seed=1)
    agent = env.agent_selection
    legal = np.flatnonzero(env.observe(agent)["action_mask"])
    before = env.state()
    for bad in (float(legal[0]) + 0.9, float(legal[0]), str(legal[0]), True, [legal[0]], None):
        with pytest.raises(ValueError):
            env.step(bad)
        assert env.agent_selection == agent and (env.state() == before).all()
    illegal = next(a for a in range(cardgames.NUM_ACTIONS) if a not in legal)
    with pytest.raises(ValueError):
        env.step(illegal)
    with pytest.raises(ValueError, match="124"):
        env.step(124)
    assert env.agent_selection == agent and (env.state() == before).all()
    env.step(np.int32(legal[0]))
    assert env.state.history() == [int(legal[0])]
    with pytest.raises(ValueError, match="player_9"):
        env.observe("player_9")


def test_the_state_keeps_the_native_api():
    """env.state() is the global state; env.state.X still reaches the native State."""
    env = cardgames.env.CardGameEnv(cardgames.Rules("spades-cutthroat3"), hands=1, information_state=True)
    env.reset(seed=2)
    assert env.observation_space("player_0").shape == cardgames.Rules("spades-cutthroat3").information_state_shape
    assert env.state.phase() == "bid" and not env.state.is_terminal()
    rules = env.rules
    full = env.state()
    size = rules.information_state_shape[0]
    for seat in range(rules.players):
        assert (full[seat * size:(seat + 1) * size] == env.game_state.information_state_tensor(seat)).all()
