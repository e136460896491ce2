// Play-outs (rollout.hpp) must be what the rule players really do: from any point of a real game
// of rule players, the play-out of the card the rule player chose ends exactly as the game did,
// and with the engine taking over it ends as the exact solve of the position where it took over.
#include "sampling/rollout.hpp"

#include <gtest/gtest.h>

#include "cardgames/players/rule_bot.hpp"
#include "cardgames/rules/game_runner.hpp"
#include "sampling/bot_registry.hpp"
#include "sampling/pimc.hpp"

namespace sampling {
namespace {

using namespace cardgames;

TrickGame world_of(const Game& game, const InfoState& info) {
    const Rules& rules = game.rules();
    ScoreContext context;
    context.bids = info.bids;
    for (int s = 0; s < rules.players; ++s)
        context.bags[rules.unit_of(s)] = info.scores.bags[rules.unit_of(s)];
    return TrickGame(rules, game.play_state(),
                     rules.game == GameKind::kHearts ? Utility::kPoints : Utility::kScore,
                     taken_cards(info), context);
}

engine::Searcher<TrickGame> exact_solver() {
    engine::SearchOptions so;
    so.outcome_tables = true;
    so.tt_entries = std::size_t{1} << 12;
    return engine::Searcher<TrickGame>(so);
}

TEST(Rollout, EndsAsTheRulePlayersEndTheHand) {
    for (const char* preset : {"hearts4", "hearts3", "spades-partnership", "spades-cutthroat3"}) {
        for (std::uint64_t seed = 1; seed <= 4; ++seed) {
            const Rules rules = load_rules(preset_path(preset), {});
            for (int cards_before = 0; cards_before < 3 * rules.players;
                 cards_before += rules.players + 1) {
                Game game(rules, seed);
                game.stop_after_hand();
                std::vector<std::unique_ptr<Player>> players;
                for (int s = 0; s < rules.players; ++s) players.push_back(make_player("rule", s));
                while (game.phase() != Phase::kPlay ||
                       static_cast<int>(game.hand().plays.size()) < cards_before)
                    step_game(game, players);
                const InfoState info = game.info_state(game.to_act());
                TrickGame world = world_of(game, info);
                const std::uint64_t key = world.hash_key();
                const Card first = RuleBot().play(info);
                auto solver = exact_solver();
                std::uint64_t expansions = 0;
                const engine::Tuple value = rollout(info, world, first, 0, solver, expansions);
                EXPECT_EQ(world.hash_key(), key) << "the world is left as it was found";
                EXPECT_EQ(expansions, 0u);
                run_game(game, players);
                const std::vector<int> reported = world.report(value);
                const HandRecord& hand = game.finished_hands().back();
                for (int u = 0; u < rules.num_units(); ++u)
                    EXPECT_EQ(reported[static_cast<std::size_t>(u)],
                              hand.score.delta[static_cast<std::size_t>(u)])
                        << preset << " seed " << seed << " after " << cards_before
                        << " cards, unit " << u;
            }
        }
    }
}

TEST(Rollout, HandsTheLastTricksToTheExactSearch) {
    const Rules rules = load_rules(preset_path("hearts4"), {});
    for (std::uint64_t seed = 1; seed <= 6; ++seed) {
        Game game(rules, seed);
        game.stop_after_hand();
        std::vector<std::unique_ptr<Player>> players;
        for (int s = 0; s < 4; ++s) players.push_back(make_player("rule", s));
        while (game.phase() != Phase::kPlay || game.hand().plays.size() < 28)
            step_game(game, players);
        const InfoState info = game.info_state(game.to_act());
        TrickGame world = world_of(game, info);
        const Card first = RuleBot().play(info);
        auto solver = exact_solver();
        std::uint64_t expansions = 0;
        const engine::Tuple value = rollout(info, world, first, 5, solver, expansions);
        EXPECT_GT(expansions, 0u);
        // The same play by hand up to five tricks left, then a fresh exact solve.
        while (game.hand().plays.size() % 4 != 0 ||
               game.play_state().hands[game.to_act()].size() > 5)
            step_game(game, players);
        const InfoState later = game.info_state(game.to_act());
        TrickGame rest = world_of(game, later);
        auto fresh = exact_solver();
        EXPECT_EQ(value, fresh.search(rest).value) << "seed " << seed;
    }
}

}  // namespace
}  // namespace sampling
