// The tournament and eval statistics against values worked out by hand (t quantiles from the
// printed table: t(0.975; 1) = 12.7062, t(0.975; 3) = 3.1824, t(0.975; 4) = 2.7764; z = 1.95996).
#include "apps/experiments/stats.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
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

TournamentSummary tally_of(const std::vector<GameResult>& results, int rotations) {
    TournamentTally tally(rotations);
    for (const GameResult& g : results) tally.add(g);
    return tally.summary();
}

TEST(Stats, SummaryOfSmallFixedFile) {
    // Two boards of partnership duplicate, A and B always partnered with themselves, so each line
    // is one game per spec. A's unit scores per hand: 100 20 | 60 | -20 | 0, B's: -50 30 | 10 | 40
    // | 50.
    const std::vector<GameResult> results = small_file();
    ASSERT_EQ(results.size(), 4u);
    const TournamentSummary s = tally_of(results, 2);
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
    const TournamentSummary s = tally_of(results, 2);
    EXPECT_EQ(s.boards, 1);
    EXPECT_EQ(s.pairs[0].difference.n, 1);
    EXPECT_NEAR(s.pairs[0].difference.estimate, 63.3333, kTol);
}

// The summary as it was computed before the tally, from the whole list of results: per spec every
// score per hand, per board and spec the sum and count of its scores.
TournamentSummary summary_from_list(const std::vector<GameResult>& results, int rotations) {
    TournamentSummary out;
    std::vector<std::string> order;
    std::map<std::string, std::vector<double>> scores;
    std::map<std::string, long> games, wins;
    std::map<long, int> board_lines;
    std::map<long, std::map<std::string, std::pair<double, long>>> board_scores;
    for (const GameResult& g : results) {
        ++board_lines[g.board];
        std::vector<std::pair<std::string, int>> seen;
        for (const SeatResult& s : g.seats) {
            if (std::find(seen.begin(), seen.end(), std::pair(s.spec, s.unit)) != seen.end())
                continue;
            seen.emplace_back(s.spec, s.unit);
            if (!games.count(s.spec)) order.push_back(s.spec);
            ++games[s.spec];
            wins[s.spec] += s.won ? 1 : 0;
            for (double x : s.hand_scores) {
                scores[s.spec].push_back(x);
                board_scores[g.board][s.spec].first += x;
                ++board_scores[g.board][s.spec].second;
            }
        }
    }
    for (const std::string& spec : order)
        out.specs.push_back({spec, games[spec], wins[spec],
                             wilson_interval(wins[spec], games[spec]),
                             mean_interval(scores[spec])});
    if (rotations <= 1) return out;
    for (const auto& [board, lines] : board_lines) out.boards += lines == rotations ? 1 : 0;
    for (std::size_t i = 0; i < order.size(); ++i)
        for (std::size_t k = i + 1; k < order.size(); ++k) {
            std::vector<double> diffs;
            for (const auto& [board, per_spec] : board_scores) {
                const auto a = per_spec.find(order[i]), b = per_spec.find(order[k]);
                if (board_lines[board] != rotations || a == per_spec.end() || b == per_spec.end())
                    continue;
                diffs.push_back(a->second.first / a->second.second -
                                b->second.first / b->second.second);
            }
            out.pairs.push_back({order[i], order[k], mean_interval(diffs)});
        }
    return out;
}

void expect_same(const Interval& a, const Interval& b) {
    EXPECT_EQ(a.n, b.n);
    EXPECT_NEAR(a.estimate, b.estimate, 1e-9);
    EXPECT_EQ(std::isnan(a.low), std::isnan(b.low));
    if (!std::isnan(a.low)) {
        EXPECT_NEAR(a.low, b.low, 1e-9 * (1 + std::abs(a.low)));
        EXPECT_NEAR(a.high, b.high, 1e-9 * (1 + std::abs(a.high)));
    }
}

// Three specs in cutthroat duplicate (4 rotations), boards of made-up scores, the last one cut.
std::vector<GameResult> many_results(long boards) {
    const std::vector<std::string> entries = {"X", "Y", "Z", "X"};
    std::vector<GameResult> out;
    for (long b = 0; b < boards; ++b)
        for (int r = 0; r < 4 && !(b == boards - 1 && r == 3); ++r) {
            GameResult g{b, r, {}};
            for (int s = 0; s < 4; ++s) {
                const double x = static_cast<double>((b * 37 + r * 11 + s * 5) % 26) - 3.5;
                g.seats.push_back({entries[(s + 4 - r) % 4], s, (b + r + s) % 3 == 0, {x, x / 2}});
            }
            out.push_back(std::move(g));
        }
    return out;
}

TEST(Stats, TallyGivesTheSummaryOfTheWholeList) {
    for (const auto& [results, rotations] :
         {std::pair(small_file(), 2), std::pair(many_results(50), 4),
          std::pair(many_results(7), 1)}) {
        const TournamentSummary want = summary_from_list(results, rotations);
        const TournamentSummary got = tally_of(results, rotations);
        EXPECT_EQ(got.boards, want.boards);
        ASSERT_EQ(got.specs.size(), want.specs.size());
        for (std::size_t i = 0; i < want.specs.size(); ++i) {
            EXPECT_EQ(got.specs[i].spec, want.specs[i].spec);
            EXPECT_EQ(got.specs[i].games, want.specs[i].games);
            EXPECT_EQ(got.specs[i].wins, want.specs[i].wins);
            expect_same(got.specs[i].win_rate, want.specs[i].win_rate);
            expect_same(got.specs[i].score_per_hand, want.specs[i].score_per_hand);
        }
        ASSERT_EQ(got.pairs.size(), want.pairs.size());
        for (std::size_t i = 0; i < want.pairs.size(); ++i) {
            EXPECT_EQ(got.pairs[i].a, want.pairs[i].a);
            EXPECT_EQ(got.pairs[i].b, want.pairs[i].b);
            expect_same(got.pairs[i].difference, want.pairs[i].difference);
        }
        EXPECT_EQ(format_summary(got, false), format_summary(want, false));
    }
}

TEST(Stats, TallyHoldsNoMoreForMoreResults) {
    TournamentTally small(4), large(4);
    for (const GameResult& g : many_results(10)) small.add(g);
    for (const GameResult& g : many_results(5000)) large.add(g);
    EXPECT_EQ(large.results(), 5000 * 4 - 1);
    EXPECT_EQ(small.stored_values(), large.stored_values());
    EvalTally few({"a", "b"}), many({"a", "b"});
    few.add({0.0, 1.0});
    for (int i = 0; i < 100000; ++i) many.add({0.0, 0.5 * (i % 3)});
    EXPECT_EQ(few.stored_values(), many.stored_values());
    EXPECT_EQ(many.summary()[1].loss.n, 100000);
}

TEST(Stats, PolicySummaryCountsZeroLossAsBest) {
    EvalTally tally({"p"});
    for (double loss : {0.0, 2.0, 0.0, 4.0}) tally.add({loss});
    const auto rows = tally.summary();
    EXPECT_EQ(rows[0].best_rate.estimate, 0.5);
    EXPECT_NEAR(rows[0].loss.estimate, 1.5, 1e-12);
    EXPECT_EQ(tally.results(), 4);
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
