// A seat's information state holds only what that seat saw: two deals that agree on the seat's
// own cards and on every card played give the same state, field by field.
#include <gtest/gtest.h>

#include "cardgames/rules/game.hpp"
#include "pimc_decisions.hpp"
#include "sampling/constraints.hpp"
#include "sampling/deal_sampler.hpp"

namespace sampling {
namespace {

using namespace cardgames;

void expect_same(const InfoState& a, const InfoState& b) {
    expect_same_public(a, b);
    EXPECT_EQ(a.dealt, b.dealt);
    EXPECT_EQ(a.passed, b.passed);
    EXPECT_EQ(a.received, b.received);
    const Constraints ca = constraints_from(a), cb = constraints_from(b);
    EXPECT_EQ(ca.unseen, cb.unseen);
    EXPECT_EQ(ca.need, cb.need);
    EXPECT_EQ(ca.excluded, cb.excluded);
    EXPECT_EQ(ca.known, cb.known);
}

TEST(InfoState, NothingLeaksFromTheHiddenHands) {
    const Rules rules = parse_rules("game=spades\nplayers=4\npartnership=true\n", "test", {});
    // Seats 1 and 3 swap two low diamonds that nobody plays in the first tricks below.
    const Deal a =
        parse_deal("N:AKQJ.AKQ.AKQ.AKQ T98.T98.JT9.JT98 765.765.876.7654 432.J432.5432.32");
    const Deal b =
        parse_deal("N:AKQJ.AKQ.AKQ.AKQ T98.T98.JT2.JT98 765.765.876.7654 432.J432.9543.32");
    Game ga(rules, 1), gb(rules, 1);
    ga.set_deal(a);
    gb.set_deal(b);
    for (int s = 0; s < 4; ++s) {
        ASSERT_EQ(ga.choose_bid(s == 0 ? 12 : 1), "");
        ASSERT_EQ(gb.choose_bid(s == 0 ? 12 : 1), "");
    }
    // Seat 0 leads three rounds of clubs; everyone follows with cards both deals share.
    for (const char* card : {"AC", "JC", "7C", "3C", "KC", "TC", "6C", "2C"}) {
        ASSERT_EQ(ga.choose_card(parse_card(card)), "") << card;
        ASSERT_EQ(gb.choose_card(parse_card(card)), "") << card;
        for (int seat : {0, 2}) expect_same(ga.info_state(seat), gb.info_state(seat));
    }
}

// Before the hand's first card every seat knows who holds 2C: the seat on lead. Worlds dealt for a
// seat not on lead keep it there (issue 44: they put it in another hand, so another seat led).
TEST(InfoState, TheSeatOnLeadHoldsTheFirstLeadCard) {
    const Rules rules = parse_rules("game=hearts\nplayers=4\nno_passing=true\n", "test", {});
    Game game(rules, 5);
    ASSERT_EQ(game.phase(), Phase::kPlay);
    const int leader = game.to_act();
    const Card two_clubs = parse_card("2C");
    for (int seat = 0; seat < 4; ++seat) {
        if (seat == leader) continue;
        const InfoState info = game.info_state(seat);
        const Constraints c = constraints_from(info);
        EXPECT_TRUE(c.known[leader].contains(two_clubs)) << "seat " << seat;
        const DealSampler sampler(c);
        boost::random::mt19937_64 rng(seat);
        for (int k = 0; k < 50; ++k)
            EXPECT_TRUE(sampler.sample(rng, info.hand).hands[leader].contains(two_clubs));
    }
}

}  // namespace
}  // namespace sampling
