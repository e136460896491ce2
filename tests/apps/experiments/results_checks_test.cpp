// The readers of result lines check what a line says against the rules and its own values
// (issue 24): a tournament line's game is replayed and its seat fields and deals compared, an eval
// line's losses follow from its values and its item is the input's item of its index.
#include <gtest/gtest.h>

#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "apps/experiments/eval_results.hpp"
#include "apps/experiments/tournament_results.hpp"
#include "cardgames/cards/error.hpp"
#include "cardgames/cards/seeds.hpp"
#include "cardgames/rules/dealing.hpp"
#include "cardgames/rules/game_runner.hpp"
#include "cardgames/rules/rules.hpp"
#include "sampling/bot_registry.hpp"
#include "tests/cardgames/test_helpers.hpp"

namespace apps {
namespace {

using nlohmann::json;

using cardgames::testing::error_of;

TournamentPlan spades_plan() {
    TournamentPlan plan;
    plan.rules = cardgames::load_rules(cardgames::preset_path("spades-partnership"), {});
    plan.specs = {"random", "random", "random", "random"};
    plan.by_hands = true;
    plan.count = 3;
    plan.seed = 5;
    return plan;
}

// The result line of board `board` as a run writes it.
json played_line(const TournamentPlan& plan, long board) {
    const std::uint64_t seed = cardgames::seeds::tournament_game(plan.seed, board);
    std::vector<std::unique_ptr<cardgames::Player>> players;
    for (int s = 0; s < plan.rules.players; ++s)
        players.push_back(sampling::make_player("random", seed + static_cast<std::uint64_t>(s)));
    cardgames::Game game(plan.rules, seed);
    game.stop_after_hand();
    while (!game.over()) cardgames::step_game(game, players);
    return json::parse(tournament_result_line(plan, board, game, players));
}

TEST(TournamentResultCheck, AcceptsWhatARunWrites) {
    const TournamentPlan plan = spades_plan();
    for (long b = 0; b < plan.count; ++b)
        EXPECT_EQ(error_of([&] { tournament_result_from_json(played_line(plan, b), plan); }),
                  "(no error)");
}

TEST(TournamentResultCheck, RefusesSeatFieldsTheReplayDoesNotGive) {
    const TournamentPlan plan = spades_plan();
    json line = played_line(plan, 0);
    line["seat_win"][1] = 1 - line["seat_win"][1].get<int>();
    EXPECT_NE(
        error_of([&] { tournament_result_from_json(line, plan); }).find("key \"seat_win[1]\""),
        std::string::npos);
    line = played_line(plan, 0);
    line["seat_hand_scores"][3][0] = line["seat_hand_scores"][3][0].get<int>() - 10;
    EXPECT_NE(error_of([&] {
                  tournament_result_from_json(line, plan);
              }).find("key \"seat_hand_scores[3][0]\""),
              std::string::npos);
}

TEST(TournamentResultCheck, RefusesAnotherBoardsGame) {
    const TournamentPlan plan = spades_plan();
    json line = played_line(plan, 1);
    const json board0 = played_line(plan, 0);
    for (const char* key : {"index", "board", "rotation", "seed"}) line[key] = board0[key];
    const std::string why = error_of([&] { tournament_result_from_json(line, plan); });
    EXPECT_NE(why.find("key \"hands[0].deal\""), std::string::npos) << why;
    EXPECT_NE(why.find("not the deal of board 0"), std::string::npos) << why;
}

EvalPlan bid_plan() {
    EvalPlan plan;
    plan.bid_mode = true;
    plan.policies = {"a", "b"};
    plan.rules = cardgames::load_rules(cardgames::preset_path("spades-partnership"), {});
    plan.seats = "1";
    plan.count = 2;
    return plan;
}

// Item `index` of a one-seat bid run: values 0..13, the best bid 13, the policies' bids 4 and 13.
json bid_line(long index, const cardgames::Deal& deal) {
    std::vector<double> values;
    for (int b = 0; b <= 13; ++b) values.push_back(b);
    return json::parse(eval_bid_line(index, index, deal, 1, values, 0, 13, {4, 13}, {9.0, 0.0}));
}

TEST(EvalResultCheck, LossesFollowFromTheValues) {
    const EvalPlan plan = bid_plan();
    const cardgames::Deal deal = cardgames::deal_from_seed(plan.rules, 1, 0);
    json line = bid_line(0, deal);
    EXPECT_EQ(eval_result_from_json(line, plan), (std::vector<double>{9.0, 0.0}));
    line["loss"][0] = 8.0;
    EXPECT_NE(error_of([&] { eval_result_from_json(line, plan); }).find("key \"loss[0]\""),
              std::string::npos);
    line = bid_line(0, deal);
    line["best_bid"] = 12;
    EXPECT_NE(error_of([&] { eval_result_from_json(line, plan); }).find("key \"best_bid\""),
              std::string::npos);
}

TEST(EvalResultCheck, ItemsAreTheInputsAndNoMoreThanTheCount) {
    const EvalPlan plan = bid_plan();
    const cardgames::Deal mine = cardgames::deal_from_seed(plan.rules, 1, 0);
    const cardgames::Deal other = cardgames::deal_from_seed(plan.rules, 2, 0);
    EvalItems items;
    items.total = 2;
    items.identity = [&](long index) { return eval_bid_identity(index, mine, 1); };
    EXPECT_EQ(error_of([&] { eval_result_from_json(bid_line(1, mine), plan, &items); }),
              "(no error)");
    EXPECT_NE(error_of([&] {
                  eval_result_from_json(bid_line(1, other), plan, &items);
              }).find("key \"deal\""),
              std::string::npos);
    // Two deals of one seat: a third item is more than the header's count.
    EXPECT_NE(
        error_of([&] { eval_result_from_json(bid_line(2, mine), plan); }).find("key \"index\""),
        std::string::npos);
}

}  // namespace
}  // namespace apps
