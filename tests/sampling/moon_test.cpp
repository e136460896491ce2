// The moon continuation (pimc:moon=on, Hearts): the shooter's cards on hand-built positions, when a
// seat could still shoot, and what the continuation adds to pimc's card values.
#include "sampling/moon.hpp"

#include <gtest/gtest.h>

#include "cardgames/cards/error.hpp"
#include "cardgames/rules/game.hpp"
#include "pimc_decisions.hpp"
#include "position_helpers.hpp"
#include "sampling/bot_registry.hpp"
#include "sampling/pimc.hpp"
#include "tests/cardgames/test_helpers.hpp"

namespace sampling {
namespace {

using namespace cardgames;
using cardgames::testing::preset;

// The first trick, clubs, won by seat 1 with no points in it.
std::vector<PlayedCard> first_trick() {
    return {pc(0, "2C"), pc(1, "AC"), pc(2, "3C"), pc(3, "4C")};
}

// Trick 2 led by seat 1 with `lead`, then seats 2 and 3 play `second` and `third`.
std::vector<PlayedCard> trick_two(const char* lead, const char* second, const char* third) {
    std::vector<PlayedCard> plays = first_trick();
    plays.insert(plays.end(), {pc(1, lead), pc(2, second), pc(3, third)});
    return plays;
}

TEST(MoonShooter, LeadsAMasterOfItsLongestSuit) {
    const Rules rules = preset("hearts4");
    // Seat 1 leads trick 2. KC is the top club left (AC is played), AD the top diamond; clubs are
    // the longer suit.
    const InfoState lead = mid_play(rules, cards("KC 9C 5C AD 3D 7S"), first_trick());
    ASSERT_EQ(lead.seat, 1);
    EXPECT_EQ(MoonShooter().play(lead), C("KC"));
}

TEST(MoonShooter, FollowsHighToWinAndLowWhenItCannot) {
    const Rules rules = preset("hearts4");
    const InfoState can_win = mid_play(rules, cards("KD 2D 4S"), trick_two("5D", "9D", "3D"));
    ASSERT_EQ(can_win.seat, 0);
    EXPECT_EQ(MoonShooter().play(can_win), C("KD"));
    const InfoState cannot = mid_play(rules, cards("TD 2D 4S"), trick_two("5D", "QD", "3D"));
    EXPECT_EQ(MoonShooter().play(cannot), C("2D"));
}

TEST(MoonShooter, DiscardsItsLowestCardWithoutPoints) {
    const Rules rules = preset("hearts4");
    // Void in diamonds: the trick is lost, so no points go on it and the high cards stay.
    const InfoState void_ = mid_play(rules, cards("QS 9H 4S KC"), trick_two("5D", "9D", "3D"));
    EXPECT_EQ(MoonShooter().play(void_), C("4S"));
}

TEST(MoonOpen, WhileNoOtherSeatHasPointsAndTheSeatHoldsTheTopHeartAndAQueenCatcher) {
    const Rules rules = preset("hearts4");
    auto open = [&](const char* hand, const std::vector<PlayedCard>& plays) {
        const InfoState info = mid_play(rules, cards(hand), plays);
        return moon_open(info, taken_cards(info));
    };
    EXPECT_TRUE(open("AH 2H QS 3D", first_trick()));
    EXPECT_TRUE(open("AH 2H KS 3D", first_trick()));   // the king can catch the queen
    EXPECT_FALSE(open("AH 2H JS 3D", first_trick()));  // nothing takes the queen
    EXPECT_FALSE(open("KH 2H QS 3D", first_trick()));  // the ace of hearts is out
    // Seat 1 took 2H on trick 2 (seat 2 was void in diamonds): only seat 1 can still shoot.
    std::vector<PlayedCard> plays = trick_two("5D", "2H", "3D");
    plays.push_back(pc(0, "4D"));
    EXPECT_TRUE(open("AH 3H QS 6D", plays));
    plays.push_back(pc(1, "6D"));
    EXPECT_FALSE(open("AH 3H QS 7S", plays));  // seat 2
    const Rules spades = preset("spades-partnership");
    const InfoState info = mid_play(spades, cards("AH 2H QS 3D"), {});
    EXPECT_FALSE(moon_open(info, taken_cards(info)));
}

// Seat 1 leads trick 2 with a hand that takes every trick if it plays to: each card is worth at
// least as much with the moon continuation as without it (the rule player's continuation is the
// same play-outs of the same worlds), and the shooter's line is worth more for some card. Where
// the seat cannot shoot, moon=on values every card as the default does.
TEST(MoonContinuation, TakesTheBetterOfTheTwoWaysToPlayOn) {
    const Rules rules = preset("hearts4");
    auto analyze = [](const std::string& spec, const InfoState& info) {
        return PimcBot(PimcOptions::from_spec(parse_bot_spec(spec)), 1).analyze(info);
    };
    const std::string off = "pimc:worlds=6,nodes=3000,rollouts=6,playout=rule,moon=off";
    const std::string on = "pimc:worlds=6,nodes=3000,rollouts=6,playout=rule,moon=on";
    const InfoState strong =
        mid_play(rules, cards("AH KH QH JH TH 2H AS KS QS AD KD QD"), first_trick());
    ASSERT_TRUE(moon_open(strong, taken_cards(strong)));
    const PimcAnalysis duck = analyze(off, strong), shoot = analyze(on, strong);
    bool better = false;
    for (std::size_t i = 0; i < duck.cards.size(); ++i) {
        EXPECT_GE(shoot.cards[i].mean, duck.cards[i].mean) << to_string(duck.cards[i].card);
        better = better || shoot.cards[i].mean > duck.cards[i].mean;
    }
    EXPECT_TRUE(better) << "the shooter should take every point in some world";

    const InfoState weak =
        mid_play(rules, cards("KH QH JH TH 9H 8H 7H AS KS QS AD KD"), first_trick());
    ASSERT_FALSE(moon_open(weak, taken_cards(weak)));
    expect_same_analysis(analyze(off, weak), analyze(on, weak));
}

// At the pass, moon=on values two more passes with the seat shooting: its lowest cards, and the
// rule player's pass. North holds the top six hearts and the top spades and diamonds: shooting
// with them pays, so it keeps them and passes its lowest cards, where the default passes the
// rule player's way (the dangerous high spades). A hand without the ace of hearts passes as the
// default does.
TEST(MoonContinuation, PassesToShootWithAHandThatCan) {
    const Game game =
        hearts4_at_pass("N:AKQ.AKQJT9.AK.32 JT98.8765.QJT.AK 765.432.9876.QJT 432..5432.987654");
    const InfoState strong = game.info_state(0);
    const CardSet by_default = make_player("pimc:rollouts=48,moon=off", 1)->pass(strong);
    const CardSet shooting = make_player("pimc:rollouts=48,moon=on", 1)->pass(strong);
    EXPECT_EQ(shooting, cards("3C 2C 9H")) << cards_to_string(shooting);
    EXPECT_NE(by_default, shooting) << cards_to_string(by_default);
    const InfoState weak = game.info_state(1);
    EXPECT_EQ(make_player("pimc:rollouts=48,moon=on", 1)->pass(weak),
              make_player("pimc:rollouts=48,moon=off", 1)->pass(weak));
}

TEST(MoonContinuation, IsAnOptionOfPimcAndTheOracle) {
    auto moon = [](const char* spec, const char* form) {
        return PimcOptions::from_spec(parse_bot_spec(spec)).moon_for(preset(form));
    };
    // By default on in 4-player Hearts only, where it won.
    EXPECT_TRUE(moon("pimc", "hearts4"));
    EXPECT_FALSE(moon("pimc", "hearts5"));
    EXPECT_FALSE(moon("pimc:moon=off", "hearts4"));
    EXPECT_TRUE(moon("pimc:moon=on", "hearts3"));
    EXPECT_NO_THROW(make_player("oracle:moon=on", 1));
    EXPECT_NE(cardgames::testing::error_of([] { make_player("pimc:moon=maybe", 1); }).find("moon"),
              std::string::npos);
}

}  // namespace
}  // namespace sampling
