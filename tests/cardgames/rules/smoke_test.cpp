#include <gtest/gtest.h>

#include "cardgames/players/random_bot.hpp"
#include "cardgames/rules/game_runner.hpp"
#include "test_helpers.hpp"

namespace cardgames {
namespace {

TEST(Smoke, RandomGamesFinishForEveryPreset) {
    for (const char* preset : testing::kEveryForm) {
        const Rules rules = load_rules(preset_path(preset), {});
        for (std::uint64_t seed = 1; seed <= 5; ++seed) {
            Game game(rules, seed);
            testing::play_seated(
                game, [&](int s) { return std::make_unique<RandomBot>(mix_seed(seed, s)); });
            EXPECT_TRUE(game.over()) << preset;
            EXPECT_FALSE(game.winners().empty()) << preset;
        }
    }
}

}  // namespace
}  // namespace cardgames
