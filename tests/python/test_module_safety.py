"""The module's C++ edges (issues 44 and 45): a bot analyzing positions of many games, pickling at
every protocol, objects made without their state, first use of numpy and one bot from two threads,
conversions that fail, seeds out of range, and Python policies that seed from their observation.
What could kill or hang the interpreter runs in a child interpreter with a time limit."""
import copyreg
import os
import pickle
import subprocess
import sys
import textwrap

import pytest

import cardgames

TIMEOUT = 60


def run_child(code):
    """Runs `code` in a fresh interpreter (the module's first use of numpy happens there)."""
    env = dict(os.environ)
    try:
        return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True,
                              timeout=TIMEOUT, env=env)
    except subprocess.TimeoutExpired:
        pytest.fail(f"the child interpreter hung for {TIMEOUT} s")


def expect_child_ok(code):
    p = run_child(code)
    assert p.returncode == 0, f"exit {p.returncode}\n{p.stdout}\n{p.stderr}"
    return p.stdout


def play_until_card(state, rng_seed=0):
    import random
    rng = random.Random(rng_seed)
    while state.phase() != "play":
        state.apply_action(rng.choice(state.legal_actions()))
    return state


# --- analyze across games (issue 44) ----------------------------------------------------------

def test_one_bot_analyzes_positions_of_many_games_in_any_order():
    bot = cardgames.make_bot("pimc:worlds=4,rollouts=2", seed=3)
    rules = cardgames.Rules("hearts4")
    states = [play_until_card(cardgames.new_game(rules, seed)) for seed in (1, 2, 3)]
    # Deeper positions of the first game, then back to another game's start, and so on.
    deeper = states[0].clone()
    for _ in range(9):
        deeper.apply_action(deeper.legal_actions()[0])
    for s in [states[0], states[1], deeper, states[2], states[0], deeper, states[1]] * 2:
        a = bot.analyze(s)
        assert a["best"] in s.legal_actions()
        assert sorted(c["action"] for c in a["cards"]) == s.legal_actions()


# --- pickling at every protocol (issue 45, 7) ---------------------------------------------------

def test_pickling_at_protocols_0_and_1():
    out = expect_child_ok("""
        import pickle, cardgames
        rules = cardgames.Rules("hearts4")
        state = cardgames.new_game(rules, 5)
        for a in range(6):
            state.apply_action(state.legal_actions()[0])
        bot = cardgames.make_bot("rule")
        for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
            again = pickle.loads(pickle.dumps(state, protocol=protocol))
            assert again.history() == state.history() and again.record() == state.record(), protocol
            assert pickle.loads(pickle.dumps(rules, protocol=protocol)) == rules, protocol
            try:
                pickle.dumps(bot, protocol=protocol)
            except TypeError as e:
                assert "make_bot" in str(e)
            else:
                raise AssertionError("a Bot pickled")
        print("ok")
    """)
    assert out.strip() == "ok"


# --- objects without their state (issue 45, 8) --------------------------------------------------

def test_a_state_without_its_value_is_refused_on_use():
    out = expect_child_ok("""
        import pickle, cardgames
        # NEWOBJ without BUILD: a State that never got its state.
        crafted = b"\\x80\\x02ccardgames._cardgames\\nState\\nq\\x00)\\x81q\\x01."
        for s in [cardgames.State.__new__(cardgames.State), pickle.loads(crafted)]:
            for call in [s.returns, s.history, s.clone, s.current_player, s.legal_actions,
                         lambda: s.observation_tensor(0), lambda: s.apply_action(0), lambda: pickle.dumps(s)]:
                try:
                    call()
                except ValueError as e:
                    assert "never initialised" in str(e), e
                else:
                    raise AssertionError("used")
        bot = cardgames.Bot.__new__(cardgames.Bot)
        try:
            bot.name
        except ValueError as e:
            assert "Bot" in str(e)
        print("ok")
    """)
    assert out.strip() == "ok"


# --- threads (issue 45, 9 and 10) -----------------------------------------------------------------

def test_two_threads_first_use_of_numpy():
    out = expect_child_ok("""
        import threading, cardgames
        states = [cardgames.new_game(cardgames.Rules("hearts4"), k) for k in range(2)]
        barrier = threading.Barrier(2)
        def first_use(s):
            barrier.wait()
            s.observation_tensor(0)
            s.legal_actions_mask()
        threads = [threading.Thread(target=first_use, args=(s,)) for s in states]
        for t in threads: t.start()
        for t in threads: t.join()
        print("ok")
    """)
    assert out.strip() == "ok"


def test_one_pimc_bot_from_two_threads():
    out = expect_child_ok("""
        import random, threading, cardgames
        bot = cardgames.make_bot("pimc:worlds=4,rollouts=2", seed=1)
        errors = []
        def play(seed):
            try:
                rng = random.Random(seed)
                state = cardgames.new_game(cardgames.Rules("hearts4"), seed, hands=1)
                while not state.is_terminal():
                    if state.current_player() == 0:
                        state.apply_action(bot.act(state))
                    else:
                        state.apply_action(rng.choice(state.legal_actions()))
            except Exception as e:
                errors.append(repr(e))
        threads = [threading.Thread(target=play, args=(k,)) for k in (1, 2)]
        for t in threads: t.start()
        for t in threads: t.join()
        print("ok" if not errors else errors)
    """)
    assert out.strip() == "ok"


# --- failed conversions and seeds (issue 45, 11; issue 44, 6) -------------------------------------

class Huge:
    name = "huge"

    def act(self, observation):
        return 2 ** 70


def test_a_policy_returning_a_huge_number_is_named(tmp_path):
    with pytest.raises(cardgames.InputError, match=r"python player 'huge' at seat 0: act returned 1180591620717411303424"):
        cardgames.tournament([Huge(), "rule", "rule", "rule"], preset="hearts4", hands=1, threads=1, quiet=True,
                             out=tmp_path / "t.jsonl")


def pickled_fields(**change):
    state = cardgames.new_game(cardgames.Rules("hearts4"), 5)
    state.apply_action(state.legal_actions()[0])
    fields = list(state.__getstate__())
    names = ["rules", "seed", "hands", "deals", "history"]
    for k, v in change.items():
        fields[names.index(k)] = v
    return tuple(fields)


class Reduced:
    def __init__(self, fields):
        self.fields = fields

    def __reduce__(self):
        return copyreg.__newobj__, (cardgames.State,), self.fields


@pytest.mark.parametrize("change,message", [
    ({"seed": -1}, "pickled State: seed -1: expected a whole number from 0 to 18446744073709551615"),
    ({"hands": 2 ** 40}, "pickled State: hands 1099511627776: expected a whole number"),
    ({"history": ["x"]}, "pickled State: action 0 of the history 'x': expected a whole number from 0 to 123"),
    ({"history": [2 ** 70]}, "pickled State: action 0 of the history 1180591620717411303424"),
    ({"deals": [(0, 0, 7)]}, "pickled State: deal .*expected \\(board, hand, deal text\\)"),
])
def test_a_bad_pickled_state_names_the_field(change, message):
    fields = pickled_fields(**change)
    with pytest.raises(ValueError, match=message):
        pickle.loads(pickle.dumps(Reduced(fields), protocol=1))
    with pytest.raises(ValueError, match=message):
        cardgames.State.__new__(cardgames.State).__setstate__(fields)


@pytest.mark.parametrize("call", [
    lambda: cardgames.new_game(cardgames.Rules("hearts4"), -1),
    lambda: cardgames.new_game(cardgames.Rules("hearts4"), 2 ** 64),
    lambda: cardgames.make_bot("rule", seed=-1),
    lambda: cardgames.new_game(cardgames.Rules("hearts4"), 1).sample_world(0, -1),
    lambda: cardgames.tournament_game_seed(-1),
    lambda: cardgames.tournament(["rule"] * 4, preset="hearts4", hands=1, seed=-1, out="never-written.jsonl"),
])
def test_a_seed_out_of_range_names_the_argument(call):
    with pytest.raises(ValueError, match=r"seed -1|seed 18446744073709551616"):
        call()
    assert not os.path.exists("never-written.jsonl")


# --- reproducible Python policies (issue 44, 5) ---------------------------------------------------

class SeededRandom:
    """A stochastic policy that draws from its observation's game seed, board, seat and decision
    index only."""
    name = "seeded"

    def act(self, observation):
        import random
        assert observation["game_seed"] == cardgames.tournament_game_seed(3, observation["board"])
        assert cardgames.tournament_bot_seed(observation["game_seed"], 0) in (observation["seed"],) or \
            cardgames.tournament_bot_seed(observation["game_seed"], 2) == observation["seed"]
        rng = random.Random(f"{observation['game_seed']} {observation['board']} {observation['seat']} "
                            f"{observation['decision']}")
        return rng.choice(observation["legal_actions"])


def test_a_policy_seeding_from_its_observation_writes_the_same_file_at_any_threads(tmp_path):
    files = []
    for threads in (1, 2):
        out = tmp_path / f"t{threads}.jsonl"
        cardgames.tournament([SeededRandom(), "pimc:worlds=2,rollouts=2", SeededRandom(), "rule"], preset="hearts4",
                             hands=6, seed=3, threads=threads, quiet=True, out=out)
        files.append(out.read_bytes())
    assert files[0] == files[1]
