#!/usr/bin/env python3
"""`cardgames bot` given a table that makes no sense (issue 18): each case feeds it a session whose
one bad line once made it spin, hang, abort or overflow, and checks that it now says which line is
wrong, once, on stderr, and exits with status 2. A hang fails the case (subprocess timeout).

usage: bad_table.py CARDGAMES CASE
"""
import subprocess
import sys

BIN = sys.argv[1]
TIMEOUT = 60

HEARTS = """cardgames-protocol 1
game hearts players=4 seat=2 seed=12345
rules game=hearts players=4 pass_count=3
hand 0 dealer=3 pass=left scores=0,0,0,0
cards AS KS QS 5H 4H 9D 8D 7D KC 9C 5C 4C 3C
"""
PASS_ASK = "ask pass count=3 to=3 AS KS QS 5H 4H 9D 8D 7D KC 9C 5C 4C 3C\n"
AFTER_PASS = """passed 3 AS KS QS
received 1 2C JC TD
"""
SPADES = """cardgames-protocol 1
game spades players=4 seat=1 seed=7
rules game=spades players=4 partnership=true
hand 0 dealer=3 scores=0,0 bags=0,0
cards AS KS 5S 2S AH QH 9H 4H 8D 7D KC 9C 5C
"""
BID_ASK = "ask bid 0 1 2 3 4 5 6 7 8 9 10 11 12 13\n"


def expect_bad(spec, session, line, *fragments):
    """The bot reads `session` up to its bad line `line` (1-based) and refuses it."""
    p = subprocess.run([BIN, "bot", "--spec", spec], input=session, capture_output=True, text=True, timeout=TIMEOUT)
    err = p.stderr
    assert p.returncode == 2, f"exit {p.returncode}, want 2\nstdout: {p.stdout}\nstderr: {err}"
    lines = err.splitlines()
    assert len(lines) == 1, f"want one line on stderr:\n{err}"
    bad_text = session.splitlines()[line - 1]
    assert f"table line {line}: '{bad_text[:80]}" in err, f"line {line} '{bad_text}' not named:\n{err}"
    for f in fragments:
        assert f in err, f"'{f}' not in the error:\n{err}"
    for word in ("terminate", "Sanitizer", "runtime error", "internal error"):
        assert word not in err, err


def lines(text):
    return len(text.splitlines())


def case_negative_pass_count():
    # Was a shift by 255 in the rule bot's pass: 100% CPU forever.
    for spec in ("rule", "pimc:worlds=4"):
        session = HEARTS + "ask pass count=-1 to=3 AS KS QS 5H 4H 9D 8D 7D KC 9C 5C 4C 3C\n"
        expect_bad(spec, session, lines(session), "count -1 is out of range")


def case_pass_of_13():
    # pimc played out passes Game refused: it never answered.
    session = HEARTS + "ask pass count=13 to=3 AS KS QS 5H 4H 9D 8D 7D KC 9C 5C 4C 3C\n"
    expect_bad("pimc:worlds=4", session, lines(session), "the pass is count=3 to=3")
    expect_bad("rule", session, lines(session), "the pass is count=3 to=3")


def case_ask_before_deal():
    # The sampler found 52 unseen cards for 39 places: an uncaught Contradiction.
    session = HEARTS.replace("cards AS KS QS 5H 4H 9D 8D 7D KC 9C 5C 4C 3C\n", "") + "ask pass count=3 to=3 AS KS QS\n"
    expect_bad("pimc:worlds=4", session, lines(session), "before this seat's cards were dealt")
    session = HEARTS.replace("pass=left", "pass=hold").replace("hand 0", "hand 3").replace(
        "cards AS KS QS 5H 4H 9D 8D 7D KC 9C 5C 4C 3C\n", "") + "ask play 2C\n"
    expect_bad("pimc:worlds=4", session, lines(session), "before this seat's cards were dealt")


def case_duplicate_cards():
    session = HEARTS.replace("cards AS KS QS", "cards AS AS QS")
    expect_bad("pimc:worlds=4", session + PASS_ASK, 5, "AS is named twice")
    session = HEARTS + PASS_ASK + "passed 3 AS KS QS\nreceived 1 KC 9C 5C\n"
    expect_bad("pimc:worlds=4", session, lines(session), "this seat was dealt KC 9C 5C")
    session = HEARTS + PASS_ASK + AFTER_PASS + "card 2 2C\ncard 3 7C\ncard 0 7C\n"
    expect_bad("pimc:worlds=4", session, lines(session), "7C was already played")


def case_card_out_of_turn():
    # Another seat plays a card this seat holds, or one it showed it cannot hold: the sampler's
    # Contradiction at the next decision.
    start = HEARTS + PASS_ASK + AFTER_PASS + "card 2 2C\n"
    session = start + "card 3 KC\n"
    expect_bad("pimc:worlds=4", session, lines(session), "KC is in this seat's hand")
    session = start + "card 3 AD\ncard 0 8C\ncard 1 QC\ntrick 1\ncard 1 AC\ncard 2 KC\ncard 3 6C\n"
    expect_bad("pimc:worlds=4", session, lines(session), "seat 3 cannot hold 6C")
    session = start + "card 0 3D\n"
    expect_bad("pimc:worlds=4", session, lines(session), "seat 3 is due to play")
    session = start + "card 3 7C\ncard 0 8C\ncard 1 QC\ncard 1 AC\n"
    expect_bad("pimc:worlds=4", session, lines(session), "'trick' line")
    # Passed cards are with the receiver until it plays them.
    session = start + "card 3 7C\ncard 0 8C\ncard 1 QC\ntrick 1\ncard 1 AS\n"
    expect_bad("pimc:worlds=4", session, lines(session), "AS is seat 3's")


def case_huge_bid():
    # Bids of 2147483647 overflowed the scoring of play-outs (and pimc play-outs looped on them).
    session = SPADES + "bid 0 2147483647\n" + BID_ASK
    expect_bad("pimc:worlds=4,rollouts=4,bid=search", session, 6, "tricks 2147483647 is out of range 0..13")
    session = SPADES + "bid 0 99999999999999999999\n" + BID_ASK
    expect_bad("rule", session, 6, "is not a whole number")


def case_huge_scores():
    session = SPADES.replace("scores=0,0", "scores=2147483647,-2147483648") + "bid 0 4\n" + BID_ASK
    expect_bad("rule", session, 4, "scores 2147483647 is out of range")
    session = SPADES.replace("bags=0,0", "bags=2147483647,0") + "bid 0 4\n" + BID_ASK
    expect_bad("rule", session, 4, "bags 2147483647 is out of range")
    session = SPADES.replace("partnership=true", "partnership=true bag_penalty=2147483647") + "bid 0 4\n" + BID_ASK
    expect_bad("rule", session, 3, "bag_penalty=2147483647: must be 0 to 100000")


def case_negative_hand_number():
    # hand -1 read the pass direction table at index -1.
    session = HEARTS.replace("hand 0", "hand -1") + PASS_ASK
    expect_bad("rule", session, 4, "hand number -1 is out of range")


def case_choices_not_legal():
    # The table lists a card the bot may not play: by its own account the choices differ.
    session = HEARTS + PASS_ASK + AFTER_PASS + "card 2 2C\ncard 3 7C\ncard 0 8C\ncard 1 QC\ntrick 1\ncard 1 AC\nask play KC JC 5H\n"
    expect_bad("rule", session, lines(session), "by this bot's account the choices are KC JC 9C 5C 4C 3C")
    session = SPADES + "bid 0 4\nask bid 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14\n"
    expect_bad("rule", session, lines(session), "by this bot's account the choices are 0 1 2")


def case_order_of_events():
    expect_bad("rule", "game hearts players=4 seat=2\n", 1, "the first line must be")
    expect_bad("rule", HEARTS + "hand 1 dealer=0 pass=right scores=0,0,0,0\n", 6, "no 'handover' yet")
    session = SPADES + "bid 2 4\n"
    expect_bad("rule", session, 6, "seat 0 bids next")
    session = HEARTS + PASS_ASK + AFTER_PASS + "handover tricks=0,0,13,0 points=0,0,0,0 moon=-1 delta=0,0,0,0 scores=0,0,0,0\n"
    expect_bad("rule", session, lines(session), "the hand is not over")
    # A line too long to be a table's.
    expect_bad("rule", "cardgames-protocol 1\nx" + "y" * 70000 + "\n", 2, "longer than 64 KiB")


CASES = {name[5:]: f for name, f in globals().items() if name.startswith("case_")}

if __name__ == "__main__":
    CASES[sys.argv[2]]()
    print("1 passed, 0 failed")
