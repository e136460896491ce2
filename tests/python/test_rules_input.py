"""Rules from Python keywords are values, never rules-file text (issue 45, finding 5): a value
with a line break, '#' or ';' is a ValueError naming it, as `--rule` is at the command line; and a
tournament refused for a model of another form leaves no results file (finding 1)."""
import os

import pytest

import cardgames

MODELS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "data", "models")


@pytest.mark.parametrize("value, what", [
    ("5\nplayers=3", "a line break"),
    ("12#abc", "'#'"),
    ("12;abc", "';'"),
    ("12\r", "a line break"),
    ("12\x00", "a control character"),
])
def test_a_value_that_a_rules_file_would_reinterpret_is_refused(value, what):
    with pytest.raises(ValueError) as e:
        cardgames.Rules("hearts4", end_score=value)
    assert "end_score=" in str(e.value) and what in str(e.value)


def test_a_value_with_text_after_the_number_is_refused():
    with pytest.raises(ValueError, match="end_score=12abc: expected a whole number"):
        cardgames.Rules("hearts4", end_score="12abc")


def test_legal_values_still_set_the_rule():
    rules = cardgames.Rules("hearts4", end_score="50", pass_count=2, jack_of_diamonds=True)
    pairs = rules.to_dict()
    assert pairs["end_score"] == "50" and pairs["players"] == "4"
    assert pairs["pass_count"] == "2" and pairs["jack_of_diamonds"] == "true"
    assert cardgames.Rules("hearts4", end_score=" 50 ").to_dict() == pairs | {"pass_count": "3",
                                                                             "jack_of_diamonds": "false"}


def test_a_tournament_refused_for_its_model_leaves_no_file(tmp_path):
    out = tmp_path / "t.jsonl"
    spec = "policy:model=" + os.path.join(MODELS, "hearts4-playout.txt")
    for _ in range(2):  # the same call again: refused for the same reason, not "the file exists"
        with pytest.raises(ValueError, match="made for hearts4, not for spades-partnership"):
            cardgames.tournament([spec, "rule", "rule", "rule"], game="spades", hands=1, out=out, quiet=True)
        assert not out.exists()
