// The Monte-Carlo player's worlds run on several threads: the decisions are the same for any
// thread count. This executable also runs under ThreadSanitizer (label "parallel").
#include <gtest/gtest.h>

#include "cardgames/game_runner.hpp"
#include "sampling/pimc.hpp"

namespace sampling {
namespace {

using namespace cardgames;

constexpr const char* kQuick = "pimc:worlds=6,nodes=3000,rollouts=6";

// Plays a hand with pimc in every seat and returns every decision as text.
std::string decisions(const std::string& spec, const char* preset, std::uint64_t seed) {
    const Rules rules = load_rules(preset_path(preset), {});
    Game game(rules, seed);
    game.stop_after_hand();
    std::vector<std::unique_ptr<Player>> players;
    for (int s = 0; s < rules.players; ++s) players.push_back(make_player(spec, mix_seed(seed, s)));
    std::string out;
    game.set_observer([&](const Game& g, const GameEvent& e) {
        if (e.kind == GameEvent::Kind::kCard) out += to_string(e.card) + " ";
        if (e.kind == GameEvent::Kind::kBid) out += "b" + std::to_string(e.value) + " ";
        if (e.kind == GameEvent::Kind::kPassesDone)
            for (int s = 0; s < g.rules().players; ++s) out += "p" + cards_to_string(g.hand().passed[s]) + " ";
    });
    run_game(game, players);
    return out;
}

TEST(Pimc, SameDecisionsForAnyThreadCount) {
    for (const char* preset : {"hearts4", "spades-partnership"}) {
        const std::string one = decisions(std::string(kQuick) + ",threads=1", preset, 5);
        EXPECT_EQ(one, decisions(std::string(kQuick) + ",threads=2", preset, 5)) << preset;
        EXPECT_EQ(one, decisions(std::string(kQuick) + ",threads=3", preset, 5)) << preset;
    }
}

}  // namespace
}  // namespace sampling
