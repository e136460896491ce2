#include <gtest/gtest.h>

#include "cardgames/players/random_bot.hpp"
#include "cardgames/rules/game_runner.hpp"

namespace cardgames {
namespace {

TEST(Smoke, RandomGamesFinishForEveryPreset) {
    for (const char* preset : {"hearts3", "hearts4", "hearts5", "hearts6", "spades-partnership",
                               "spades-cutthroat3", "spades-cutthroat4"}) {
        const Rules rules = load_rules(preset_path(preset), {});
        for (std::uint64_t seed = 1; seed <= 5; ++seed) {
            Game game(rules, seed);
            std::vector<std::unique_ptr<Player>> players;
            for (int s = 0; s < rules.players; ++s)
                players.push_back(std::make_unique<RandomBot>(mix_seed(seed, s)));
            run_game(game, players);
            EXPECT_TRUE(game.over()) << preset;
            EXPECT_FALSE(game.winners().empty()) << preset;
        }
    }
}

}  // namespace
}  // namespace cardgames
