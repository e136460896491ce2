// The Monte-Carlo player's worlds run on several threads: the decisions are the same for any
// thread count. This executable also runs under ThreadSanitizer (label "parallel").
#include <gtest/gtest.h>

#include "cardgames/game_runner.hpp"
#include "sampling/pimc.hpp"

#include "pimc_decisions.hpp"

namespace sampling {
namespace {

using namespace cardgames;

constexpr const char* kQuick = "pimc:worlds=6,nodes=3000,rollouts=6";

TEST(Pimc, SameDecisionsForAnyThreadCount) {
    for (const char* preset : {"hearts4", "spades-partnership"}) {
        const std::string one = decisions(std::string(kQuick) + ",threads=1", preset, 5);
        EXPECT_EQ(one, decisions(std::string(kQuick) + ",threads=2", preset, 5)) << preset;
        EXPECT_EQ(one, decisions(std::string(kQuick) + ",threads=3", preset, 5)) << preset;
    }
}

}  // namespace
}  // namespace sampling
