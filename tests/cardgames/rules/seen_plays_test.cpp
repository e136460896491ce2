// SeenPlays: how much of a new play history the last one shared, as the rule player's memory and
// the network player's accumulators use it.

#include <gtest/gtest.h>

#include <stdexcept>
#include <vector>

#include "cardgames/rules/info_state.hpp"
#include "test_helpers.hpp"

namespace cardgames {
namespace {

using testing::C;

std::vector<PlayedCard> plays(std::initializer_list<const char*> cards) {
    std::vector<PlayedCard> out;
    for (const char* c : cards)
        out.push_back(PlayedCard{static_cast<std::int8_t>(out.size() % 4), C(c)});
    return out;
}

TEST(SeenPlays, FollowReturnsThePrefixTheLastHistoryShared) {
    SeenPlays seen;
    EXPECT_EQ(seen.follow(plays({})), 0);
    EXPECT_EQ(seen.follow(plays({"2C", "3C"})), 0);
    EXPECT_EQ(seen.follow(plays({"2C", "3C", "4C"})), 2);        // extends it
    EXPECT_EQ(seen.follow(plays({"2C", "3C", "4C"})), 3);        // the same
    EXPECT_EQ(seen.follow(plays({"2C", "5C", "4C", "6C"})), 1);  // parts after one card
    EXPECT_EQ(seen.follow(plays({"2C", "5C"})), 2);              // shorter
    EXPECT_EQ(seen.follow(plays({"2C", "5C", "4C"})), 2);        // not what it had forgotten
    std::vector<PlayedCard> other_seat = plays({"2C", "5C", "4C"});
    other_seat[1].seat = 3;
    EXPECT_EQ(seen.follow(other_seat), 1);
    seen.forget();
    EXPECT_EQ(seen.follow(other_seat), 0);
}

TEST(SeenPlays, MorePlaysThanADeckIsALogicError) {
    SeenPlays seen;
    const std::vector<PlayedCard> too_many(53, PlayedCard{0, C("2C")});
    EXPECT_THROW(seen.follow(too_many), std::logic_error);
    EXPECT_EQ(seen.follow(plays({"2C"})), 0);
}

}  // namespace
}  // namespace cardgames
