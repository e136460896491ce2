// Choosing a candidate by play-out values on shared deals (race.hpp): the margin a challenger
// needs, and the race that gives the closest candidates the most deals.
#include "sampling/race.hpp"

#include <gtest/gtest.h>

#include <cstdint>

namespace sampling {
namespace {

// A noisy value with mean `mean` on deal r: a fixed pseudo-random draw per (candidate, deal), so
// that a deal gives a candidate the same value whichever round asks for it. The deal's own luck
// (shared by every candidate, as a sampled deal is) is larger than each candidate's own noise.
double noisy(std::size_t c, int r, double mean) {
    auto unit = [](std::uint64_t x) {
        x += 0x9e3779b97f4a7c15ULL;
        x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
        x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
        x ^= x >> 31;
        return static_cast<double>(x >> 11) * 0x1.0p-53 - 0.5;  // uniform in [-0.5, 0.5)
    };
    const double deal_luck = 20 * unit(static_cast<std::uint64_t>(r));
    const double own =
        8 * unit((static_cast<std::uint64_t>(c) << 32) ^ static_cast<std::uint64_t>(r));
    return mean + deal_luck + own;
}

// Values candidates of known means and counts the deals each one was valued on.
struct Valuer {
    std::vector<double> means;
    std::vector<int> deals;
    explicit Valuer(std::vector<double> m) : means(std::move(m)), deals(means.size()) {}
    DealValuer fn() {
        return [this](const std::vector<std::size_t>& which, int first, int count,
                      CandidateValues& values) {
            for (std::size_t c : which) {
                EXPECT_EQ(static_cast<int>(values[c].size()), first + count);
                deals[c] += count;
                for (int r = first; r < first + count; ++r)
                    values[c][static_cast<std::size_t>(r)] = noisy(c, r, means[c]);
            }
        };
    }
};

TEST(Race, WithoutRoomEveryCandidateGetsTheFirstRoundOnly) {
    Valuer v({0, 0.1, 3, -1, 0.2});
    // Candidate 2 leads candidate 0 by 3 with a standard error near 0.35 over 48 deals.
    EXPECT_EQ(race(5, 48, 48, v.fn()), 2u);
    EXPECT_EQ(v.deals, std::vector<int>(5, 48));
    Valuer w({0, 0.1, 3, -1, 0.2});
    EXPECT_EQ(race(5, 48, 10, w.fn()), 2u);  // a cap below the first round is no race either
    EXPECT_EQ(w.deals, std::vector<int>(5, 48));
}

TEST(Race, FindsTheBestOfManyCloseCandidatesAndSpendsTheDealsOnThem) {
    // Twenty candidates within a point of the first, one of them 0.6 better: over 48 deals the
    // noise (about 0.5 a mean) hides it, over 768 it does not.
    std::vector<double> means(20);
    for (std::size_t c = 1; c < means.size(); ++c) means[c] = -0.5 + 0.04 * static_cast<double>(c);
    means[7] = 0.6;
    Valuer v(means);
    EXPECT_EQ(race(means.size(), 48, 768, v.fn()), 7u);
    EXPECT_EQ(v.deals[0], 768);  // the first candidate is the reference to the end
    EXPECT_EQ(v.deals[7], 768);
    int first_round_only = 0, total = 0;
    for (int d : v.deals) {
        first_round_only += d == 48 ? 1 : 0;
        total += d;
    }
    EXPECT_GE(first_round_only, 9);  // the worse half went no further
    // Far fewer play-outs than valuing all twenty on 768 deals each.
    EXPECT_LT(total, 20 * 768 / 3);
    // Valuing every candidate on the first round alone does not find it.
    Valuer once(means);
    EXPECT_NE(race(means.size(), 48, 48, once.fn()), 7u);
}

TEST(Race, AChallengerNeedsTwoStandardErrors) {
    CandidateValues values = {{0, 0, 0, 0}, {1, -1, 1, 1}, {2, 2, 2, 2}, {1, 3, 1, 3}};
    // Candidate 1 gains 0.5 with a standard error of 0.5: not enough. Candidates 2 and 3 both
    // gain 2 (3 with a spread); 2 is certain, 3 gains 2 with a standard error of about 0.58.
    EXPECT_EQ(gain_over_first(values, 1).mean, 0.5);
    EXPECT_EQ(best_of(values, {0, 1}), 0u);
    EXPECT_EQ(best_of(values, {0, 1, 2, 3}), 2u);  // equal gains: the earlier
    EXPECT_EQ(best_of(values, {0, 1, 3}), 3u);
    EXPECT_EQ(best_of(values, {0}), 0u);
    // A smaller margin lets candidate 1 through (0.5 > 0.9 x 0.5), a larger one stops 3 (2 < 4 x
    // 0.58) but not the certain 2.
    EXPECT_EQ(best_of(values, {0, 1}, 0.9), 1u);
    EXPECT_EQ(best_of(values, {0, 1, 3}, 4), 0u);
    EXPECT_EQ(best_of(values, {0, 2, 3}, 4), 2u);
}

}  // namespace
}  // namespace sampling
