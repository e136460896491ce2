// Card play on small constructed positions: following suit, trick winners, the first lead, the
// first-trick point ban, hearts/spades breaking and their options, and the messages for each.

#include "cardgames/rules/play_state.hpp"

#include <gtest/gtest.h>

#include "cardgames/rules/dealing.hpp"
#include "test_helpers.hpp"

namespace cardgames {
namespace {

using testing::C;
using testing::cards;
using testing::preset;

PlayState start(const char* deal, int leader, int tricks_played = 0) {
    PlayState s = PlayState::start(parse_deal(deal), leader);
    s.tricks_played = static_cast<std::int8_t>(tricks_played);
    return s;
}

void play_ok(PlayState& s, const PlayRules& r, const char* card) {
    ASSERT_EQ(s.why_illegal(r, C(card)), "") << card;
    s.play(r, C(card));
}

// The play rules of a preset with overrides.
PlayRules play_rules(const std::string& name, const std::vector<std::string>& overrides = {}) {
    return PlayRules::from(preset(name, overrides));
}

TEST(PlayState, HeartsMiniHand) {
    const PlayRules r = play_rules("hearts4");
    // N: AH 3D 2C; E: QS 5H KC; S: 8S 9H 4D; W: 2H 6D 7C.
    PlayState s = start("N:.A.3.2 Q.5..K 8.9.4. .2.6.7", 0);
    EXPECT_EQ(s.cards_left(), 12);
    // The first trick must be opened with the 2C.
    EXPECT_EQ(s.legal_moves(r), cards("2C"));
    EXPECT_EQ(s.why_illegal(r, C("AH")), "the first trick must be opened with 2C");
    EXPECT_EQ(s.why_illegal(r, C("KC")), "KC is not in your hand");
    play_ok(s, r, "2C");
    EXPECT_EQ(s.to_move, 1);
    // E must follow suit.
    EXPECT_EQ(s.legal_moves(r), cards("KC"));
    EXPECT_EQ(s.why_illegal(r, C("QS")), "you must follow suit: you hold KC");
    play_ok(s, r, "KC");
    // S is void in clubs: no heart on the first trick while holding something else.
    EXPECT_EQ(s.legal_moves(r), cards("8S 4D"));
    EXPECT_EQ(s.why_illegal(r, C("9H")),
              "no hearts or Q\u2660 on the first trick while you hold another card");
    play_ok(s, r, "8S");
    EXPECT_EQ(s.current_winner(), 1);
    EXPECT_EQ(s.play(r, C("7C")), 1);  // E wins with KC
    EXPECT_EQ(s.tricks_played, 1);
    EXPECT_EQ(s.tricks_won[1], 1);
    EXPECT_EQ(s.points[1], 0);
    EXPECT_FALSE(s.broken);
    EXPECT_EQ(s.to_move, 1);
    EXPECT_EQ(s.leader, 1);
    // E may not lead hearts before they are broken: QS it is.
    EXPECT_EQ(s.legal_moves(r), cards("QS"));
    EXPECT_EQ(s.why_illegal(r, C("5H")),
              "hearts are not broken yet: you may lead them only when you hold nothing else");
    play_ok(s, r, "QS");
    EXPECT_FALSE(s.broken);  // the queen does not break hearts by default
    // S is void in spades, no longer on the first trick: anything goes, and a heart breaks hearts.
    EXPECT_EQ(s.legal_moves(r), cards("9H 4D"));
    play_ok(s, r, "9H");
    EXPECT_TRUE(s.broken);
    play_ok(s, r, "6D");
    EXPECT_EQ(s.play(r, C("3D")), 1);
    EXPECT_EQ(s.points[1], 14);
    // Hearts are broken: E leads its last card, a heart; N wins it with AH.
    play_ok(s, r, "5H");
    play_ok(s, r, "4D");
    play_ok(s, r, "2H");
    EXPECT_EQ(s.play(r, C("AH")), 0);
    EXPECT_EQ(s.points[0], 3);  // 5H 2H AH
    EXPECT_TRUE(s.hand_over());
    EXPECT_EQ(s.cards_left(), 0);
    EXPECT_EQ(s.played, parse_deal("N:.A.3.2 Q.5..K 8.9.4. .2.6.7").all_cards());
}

TEST(PlayState, HeartsOnlyHeartsMayLeadThem) {
    const PlayRules r = play_rules("hearts4");
    PlayState s = start("N:.AK.. ..2.3 ..4.5 ..6.7", 0, 1);
    EXPECT_EQ(s.legal_moves(r), cards("AH KH"));
    // With the queen too, the queen must be led (it is not a heart).
    PlayState q = start("N:Q.AK.. ..2.3 ..4.5 ..6.7", 0, 1);
    EXPECT_EQ(q.legal_moves(r), cards("QS"));
}

TEST(PlayState, FirstTrickForcedPointsAndOption) {
    const PlayRules r = play_rules("hearts4");
    // E holds only penalty cards: anything goes on the first trick.
    PlayState s = start("N:..2.2 Q.AK.. ..3.3 ..4.4", 0);
    play_ok(s, r, "2C");
    EXPECT_EQ(s.legal_moves(r), cards("QS AH KH"));
    // E holds a penalty card and a diamond: the diamond.
    PlayState t = start("N:..2.2 Q..A. ..3.3 ..4.4", 0);
    play_ok(t, r, "2C");
    EXPECT_EQ(t.legal_moves(r), cards("AD"));
    EXPECT_EQ(t.why_illegal(r, C("QS")),
              "no hearts or Q\u2660 on the first trick while you hold another card");
    // first_trick_points_allowed: the queen may go.
    const PlayRules allowed = play_rules("hearts4", {"first_trick_points_allowed=true"});
    PlayState u = start("N:..2.2 Q..A. ..3.3 ..4.4", 0);
    play_ok(u, allowed, "2C");
    EXPECT_EQ(u.legal_moves(allowed), cards("QS AD"));
    // After the first trick the ban is gone.
    PlayState v = start("N:..2.2 Q..A. ..3.3 ..4.4", 0, 1);
    play_ok(v, r, "2C");
    EXPECT_EQ(v.legal_moves(r), cards("QS AD"));
    // The J of diamonds is never barred.
    const PlayRules jd = play_rules("hearts4", {"jack_of_diamonds=true"});
    PlayState w = start("N:..2.2 Q..J. ..3.3 ..4.4", 0);
    play_ok(w, jd, "2C");
    EXPECT_EQ(w.legal_moves(jd), cards("JD"));
}

TEST(PlayState, QueenBreaksHeartsOption) {
    // The QS discarded on a diamond trick: hearts broken only with queen_breaks_hearts.
    for (bool option : {false, true}) {
        const PlayRules r = PlayRules::from(
            preset("hearts4", {std::string("queen_breaks_hearts=") + (option ? "true" : "false")}));
        PlayState s = start("N:..A2. Q...3 ..3.4 ..4.5", 0, 1);
        play_ok(s, r, "2D");
        play_ok(s, r, "QS");
        EXPECT_EQ(s.broken, option);
        play_ok(s, r, "3D");
        play_ok(s, r, "4D");
        // W's 4D wins the trick and the queen.
        EXPECT_EQ(s.points[3], 13);
        EXPECT_EQ(s.to_move, 3);
    }
    // A led hearts-only hand with queen_breaks_hearts off, QS discarded: still not broken.
    const PlayRules r = play_rules("hearts4");
    PlayState s = start("N:.A.2.2 Q...3 ..3.4 ..4.5", 0, 1);
    play_ok(s, r, "2D");
    play_ok(s, r, "QS");
    EXPECT_FALSE(s.broken);
}

TEST(PlayState, HeartsBreakingOff) {
    const PlayRules r = play_rules("hearts4", {"hearts_breaking=false"});
    PlayState s = start("N:.A.2. ..3.3 ..4.4 ..5.5", 0, 1);
    EXPECT_EQ(s.legal_moves(r), cards("AH 2D"));
    // The first trick's 2C lead is still forced.
    PlayState t = start("N:.A..2 ..3.3 ..4.4 ..5.5", 0);
    EXPECT_EQ(t.legal_moves(r), cards("2C"));
}

TEST(PlayState, HeartsTrickWinnerNoTrump) {
    const PlayRules r = play_rules("hearts4");
    PlayState s = start("N:..2. A... ..K. ..3.", 0, 1);
    play_ok(s, r, "2D");
    play_ok(s, r, "AS");  // a discard, not a trump
    play_ok(s, r, "KD");
    EXPECT_EQ(s.play(r, C("3D")), 2);
}

TEST(PlayState, SpadesTrumpsAndBreaking) {
    const PlayRules r = play_rules("spades-partnership");
    // N: AS 2D 3C; E: KD 3H 4C; S: 2S 5D 6D; W: AD 7H 8C. No first-lead card in default Spades.
    PlayState s = start("N:A..2.3 .3.K.4 2..65. .7.A.8", 0);
    EXPECT_EQ(s.legal_moves(r), cards("2D 3C"));
    EXPECT_EQ(s.why_illegal(r, C("AS")),
              "spades are not broken yet: you may lead them only when you hold nothing else");
    play_ok(s, r, "2D");
    play_ok(s, r, "KD");
    // S follows suit, it may not trump.
    EXPECT_EQ(s.legal_moves(r), cards("5D 6D"));
    EXPECT_EQ(s.why_illegal(r, C("2S")), "you must follow suit: you hold 6D 5D");
    play_ok(s, r, "5D");
    EXPECT_EQ(s.play(r, C("AD")), 3);
    // W leads a heart; N is void and trumps with AS, which breaks spades... S over-trumps? S has 2S
    // only.
    play_ok(s, r, "7H");
    EXPECT_EQ(s.legal_moves(r), cards("AS 3C"));
    play_ok(s, r, "AS");
    EXPECT_TRUE(s.broken);
    play_ok(s, r, "3H");
    EXPECT_EQ(s.legal_moves(r), cards("2S 6D"));
    EXPECT_EQ(s.play(r, C("2S")), 0);  // AS beats 2S: the highest spade wins
    // N leads; spades are broken now (N has no spade left anyway).
    play_ok(s, r, "3C");
    play_ok(s, r, "4C");
    play_ok(s, r, "6D");
    EXPECT_EQ(s.play(r, C("8C")), 3);
    EXPECT_EQ(s.tricks_won[0], 1);
    EXPECT_EQ(s.tricks_won[3], 2);
    EXPECT_EQ(s.points[0] + s.points[3], 0);  // no points in Spades
    EXPECT_TRUE(s.hand_over());
}

TEST(PlayState, SpadesLowTrumpBeatsHighLedCard) {
    const PlayRules r = play_rules("spades-partnership");
    PlayState s = start("N:..A. 2... ..K. ..Q.", 0, 1);
    play_ok(s, r, "AD");
    play_ok(s, r, "2S");
    play_ok(s, r, "KD");
    EXPECT_EQ(s.play(r, C("QD")), 1);
}

TEST(PlayState, SpadesOnlySpadesMayBeLedAndLeadAnytime) {
    const PlayRules r = play_rules("spades-partnership");
    EXPECT_EQ(start("N:AK... .2.. .3.. .4..", 0).legal_moves(r), cards("AS KS"));
    const PlayRules anytime = play_rules("spades-partnership", {"spades_lead_anytime=true"});
    PlayState s = start("N:A..2. .2.. .3.. .4..", 0);
    EXPECT_EQ(s.legal_moves(anytime), cards("AS 2D"));
    EXPECT_EQ(s.why_illegal(anytime, C("AS")), "");
}

TEST(PlayState, SpadesFirstLeadTwoClubs) {
    const PlayRules r = play_rules("spades-partnership", {"first_lead_two_clubs=true"});
    PlayState s = start("N:A...2 .2.. .3.. .4..", 0);
    EXPECT_EQ(s.legal_moves(r), cards("2C"));
    EXPECT_EQ(s.why_illegal(r, C("AS")), "the first trick must be opened with 2C");
    // 3-player cutthroat has no 2C: the 3C opens.
    const PlayRules r3 = play_rules("spades-cutthroat3", {"first_lead_two_clubs=true"});
    PlayState t = start("3:A..2.3 .2.. .3..", 0);
    EXPECT_EQ(t.legal_moves(r3), cards("3C"));
    EXPECT_EQ(t.why_illegal(r3, C("2D")), "the first trick must be opened with 3C");
}

TEST(PlayState, LowestClubLeadsSmallerHeartsDecks) {
    EXPECT_EQ(play_rules("hearts3").first_lead, C("2C"));
    EXPECT_EQ(play_rules("hearts5").first_lead, C("3C"));
    EXPECT_EQ(play_rules("hearts6").first_lead, C("4C"));
    const PlayRules r6 = play_rules("hearts6");
    PlayState s = start("6:..A.4 ..K.5 ..Q.6 ..J.7 ..T.8 ..9.9", 0);
    EXPECT_EQ(s.legal_moves(r6), cards("4C"));
    play_ok(s, r6, "4C");
    play_ok(s, r6, "5C");
    play_ok(s, r6, "6C");
    play_ok(s, r6, "7C");
    play_ok(s, r6, "8C");
    EXPECT_EQ(s.play(r6, C("9C")), 5);
}

TEST(PlayState, PointsPerCardOnlyInHearts) {
    const PlayRules h = play_rules("hearts4", {"jack_of_diamonds=true"});
    EXPECT_EQ(h.points[C("QS").index()], 13);
    EXPECT_EQ(h.points[C("7H").index()], 1);
    EXPECT_EQ(h.points[C("JD").index()], -10);
    EXPECT_EQ(h.points[C("AS").index()], 0);
    const PlayRules s = play_rules("spades-partnership");
    for (Card c : CardSet::full_deck()) EXPECT_EQ(s.points[c.index()], 0);
}

TEST(PlayState, BeatsGoesByTrumpThenLedSuitRank) {
    const PlayRules spades = play_rules("spades-partnership");
    EXPECT_TRUE(beats(spades, C("2S"), C("AH")));   // a trump beats the led suit
    EXPECT_FALSE(beats(spades, C("AH"), C("2S")));  // and nothing else beats a trump
    EXPECT_TRUE(beats(spades, C("3S"), C("2S")));
    EXPECT_TRUE(beats(spades, C("KH"), C("QH")));
    EXPECT_FALSE(beats(spades, C("AD"), C("2H")));  // a discard never wins
    const PlayRules hearts = play_rules("hearts4");
    EXPECT_FALSE(beats(hearts, C("2S"), C("AH")));  // no trumps in Hearts
    EXPECT_TRUE(beats(hearts, C("AH"), C("KH")));
}

TEST(PlayState, InPlayIsTheHandsAndTheTrick) {
    const PlayRules r = play_rules("hearts4");
    PlayState s = start("N:.A.3.2 Q.5..K 8.9.4. .2.6.7", 0, 1);
    EXPECT_EQ(s.in_play(), s.hands[0] | s.hands[1] | s.hands[2] | s.hands[3]);
    s.play(r, C("2C"));
    EXPECT_TRUE(s.in_play().contains(C("2C")));  // on the table, still in play
    EXPECT_EQ(s.in_play().size(), 12);
    s.play(r, C("KC"));
    s.play(r, C("4D"));
    s.play(r, C("7C"));  // the trick is complete: its cards are out of play
    EXPECT_EQ(s.in_play().size(), 8);
    EXPECT_FALSE(s.in_play().contains(C("2C")));
}

// The winner kept as cards are played is the trick's winner as its cards say, at every card of
// random hands of every form, between tricks too (the first card wins a new trick).
TEST(PlayState, TheWinnerKeptIsTheTricksWinner) {
    for (const char* name : {"hearts4", "hearts6", "spades-partnership", "spades-cutthroat3"}) {
        const Rules rules = preset(name);
        const PlayRules r = PlayRules::from(rules);
        for (std::uint64_t seed = 1; seed <= 20; ++seed) {
            PlayState s = PlayState::start(deal_from_seed(rules, seed, 0), 0);
            std::uint64_t pick = seed;
            while (!s.hand_over()) {
                const CardSet legal = s.legal_moves(r);
                pick = pick * 6364136223846793005ull + 1442695040888963407ull;
                int k = static_cast<int>((pick >> 33) % static_cast<std::uint64_t>(legal.size()));
                Card c = kNoCard;
                for (Card x : legal)
                    if (k-- == 0) c = x;
                s.play(r, c);
                if (s.trick_size == 0) {
                    EXPECT_EQ(s.winning, 0);
                    continue;
                }
                int best = 0;
                for (int i = 1; i < s.trick_size; ++i)
                    if (beats(r, s.trick[i], s.trick[best])) best = i;
                EXPECT_EQ(s.winning, best) << name << " seed " << seed;
                EXPECT_EQ(s.current_winner(), (s.leader + best) % s.players);
            }
        }
    }
}

}  // namespace
}  // namespace cardgames
