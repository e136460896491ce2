// The tournament and eval statistics against values worked out by hand (t quantiles from the
// printed table: t(0.975; 1) = 12.7062, t(0.975; 3) = 3.1824, t(0.975; 4) = 2.7764; z = 1.95996).
#include "apps/experiments/stats.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <string>

#include "apps/experiments/tournament_results.hpp"
#include "cardgames/cards/error.hpp"

namespace apps {
namespace {

constexpr double kTol = 1e-3;

TEST(Stats, MeanIntervalIsStudentT) {
    // mean 2.5, sd sqrt(5/3) = 1.29099, half width 3.18245 * 1.29099 / 2 = 2.05426.
    const Interval iv = mean_interval({1, 2, 3, 4});
    EXPECT_EQ(iv.n, 4);
    EXPECT_NEAR(iv.estimate, 2.5, 1e-12);
    EXPECT_NEAR(iv.low, 0.44574, kTol);
    EXPECT_NEAR(iv.high, 4.55426, kTol);
}

TEST(Stats, MeanIntervalNeedsTwoValues) {
    const Interval iv = mean_interval({7});
    EXPECT_EQ(iv.estimate, 7);
    EXPECT_TRUE(std::isnan(iv.low));
    EXPECT_EQ(format_interval(iv, 1), "7.0 [-, -]");
}

TEST(Stats, WilsonInterval) {
    // 3 of 10: the textbook Wilson interval [0.1078, 0.6032].
    const Interval iv = wilson_interval(3, 10);
    EXPECT_NEAR(iv.estimate, 0.3, 1e-12);
    EXPECT_NEAR(iv.low, 0.10779, kTol);
    EXPECT_NEAR(iv.high, 0.60322, kTol);
    const Interval all = wilson_interval(5, 5);  // stays inside [0, 1]
    EXPECT_LE(all.high, 1.0 + 1e-12);
    EXPECT_GT(all.low, 0.4);
}

std::vector<GameResult> small_file() {
    std::ifstream in(std::string(CARDGAMES_TEST_DATA) + "/small_results.jsonl");
    std::vector<GameResult> out;
    std::string line;
    std::getline(in, line);  // header
    while (std::getline(in, line))
        out.push_back(game_result_from_json(nlohmann::json::parse(line)));
    return out;
}

TEST(Stats, SummaryOfSmallFixedFile) {
    // Two boards of partnership duplicate, A and B always partnered with themselves, so each line
    // is one game per spec. A's unit scores per hand: 100 20 | 60 | -20 | 0, B's: -50 30 | 10 | 40
    // | 50.
    const std::vector<GameResult> results = small_file();
    ASSERT_EQ(results.size(), 4u);
    const TournamentSummary s = summarize(results, 2);
    ASSERT_EQ(s.specs.size(), 2u);
    const SpecSummary& a = s.specs[0];
    EXPECT_EQ(a.spec, "A");
    EXPECT_EQ(a.games, 4);
    EXPECT_EQ(a.wins, 2);
    EXPECT_NEAR(a.win_rate.low, 0.15004, kTol);  // Wilson 2 of 4
    EXPECT_NEAR(a.win_rate.high, 0.84996, kTol);
    EXPECT_EQ(a.score_per_hand.n, 5);
    EXPECT_NEAR(a.score_per_hand.estimate, 32.0, 1e-9);
    // sd sqrt(9280 / 4) = 48.166, half width 2.77645 * 48.166 / sqrt(5) = 59.806.
    EXPECT_NEAR(a.score_per_hand.low, -27.806, kTol);
    EXPECT_NEAR(a.score_per_hand.high, 91.806, kTol);
    const SpecSummary& b = s.specs[1];
    EXPECT_EQ(b.spec, "B");
    EXPECT_EQ(b.wins, 2);
    EXPECT_NEAR(b.score_per_hand.estimate, 16.0, 1e-9);
    EXPECT_NEAR(b.score_per_hand.low, -33.355, kTol);
    // Per board A minus B: (180/3) - (-10/3) = 63.333, then -10 - 45 = -55; mean 4.1667,
    // sd 83.675, half width 12.7062 * 83.675 / sqrt(2) = 751.78.
    EXPECT_EQ(s.boards, 2);
    ASSERT_EQ(s.pairs.size(), 1u);
    EXPECT_EQ(s.pairs[0].a, "A");
    EXPECT_NEAR(s.pairs[0].difference.estimate, 4.16667, kTol);
    EXPECT_NEAR(s.pairs[0].difference.low, -747.617, 0.01);
    EXPECT_NEAR(s.pairs[0].difference.high, 755.950, 0.01);
}

TEST(Stats, IncompleteBoardsStayOutOfThePairs) {
    std::vector<GameResult> results = small_file();
    results.pop_back();  // board 1 lacks its second rotation
    const TournamentSummary s = summarize(results, 2);
    EXPECT_EQ(s.boards, 1);
    EXPECT_EQ(s.pairs[0].difference.n, 1);
    EXPECT_NEAR(s.pairs[0].difference.estimate, 63.3333, kTol);
}

TEST(Stats, PolicySummaryCountsZeroLossAsBest) {
    const auto rows = summarize_policies({"p"}, {{0.0, 2.0, 0.0, 4.0}});
    EXPECT_EQ(rows[0].best_rate.estimate, 0.5);
    EXPECT_NEAR(rows[0].loss.estimate, 1.5, 1e-12);
}

TEST(Stats, MissingFieldIsNamed) {
    const auto line =
        nlohmann::json::parse(R"({"board":0,"rotation":0,"players":["A"],"seat_win":[1]})");
    try {
        game_result_from_json(line);
        FAIL();
    } catch (const cardgames::InputError& e) {
        EXPECT_NE(std::string(e.what()).find("seat_unit"), std::string::npos) << e.what();
    }
}

}  // namespace
}  // namespace apps
