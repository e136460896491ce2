// Hand scoring and the end of the game, called directly: Spades contracts, sets, bags, nil and
// blind nil, cutthroat; Hearts points, the moon both ways, the J of diamonds; game_winners.

#include "cardgames/rules/scoring.hpp"

#include <gtest/gtest.h>

#include <algorithm>

#include "test_helpers.hpp"

namespace cardgames {
namespace {

using testing::C;
using testing::cards;
using testing::preset;

std::array<Bid, kMaxPlayers> bids(std::initializer_list<int> b, int blind_seat = -1) {
    std::array<Bid, kMaxPlayers> out{};
    int i = 0;
    for (int t : b) {
        out[i] = Bid{t, i == blind_seat};
        ++i;
    }
    return out;
}

std::array<int, kMaxPlayers> tricks(std::initializer_list<int> t) {
    std::array<int, kMaxPlayers> out{};
    int i = 0;
    for (int v : t) out[i++] = v;
    return out;
}

TEST(SpadesScoring, MadeWithBagsAndSet) {
    const Rules r = preset("spades-partnership");
    ScoreBoard b;
    HandScore hs = score_spades_hand(r, bids({3, 4, 2, 3}), tricks({4, 3, 2, 4}), b);
    EXPECT_EQ(hs.delta[0], 51);  // bid 5, took 6
    EXPECT_EQ(hs.delta[1], 70);  // bid 7, took 7
    EXPECT_EQ(hs.bags_added[0], 1);
    EXPECT_EQ(b.score[0], 51);
    EXPECT_EQ(b.score[1], 70);
    EXPECT_EQ(b.bags[0], 1);
    EXPECT_EQ(b.bags[1], 0);
    // Set: -10 per trick bid, no bags.
    hs = score_spades_hand(r, bids({5, 2, 4, 1}), tricks({4, 3, 4, 2}), b);
    EXPECT_EQ(hs.delta[0], -90);
    EXPECT_EQ(hs.delta[1], 32);
    EXPECT_EQ(b.score[0], -39);
    EXPECT_EQ(b.score[1], 102);
    EXPECT_EQ(b.bags[0], 1);
    EXPECT_EQ(b.bags[1], 2);
}

// The parts the table prints add up to the change: contract, overtricks, nil, bag penalty.
TEST(SpadesScoring, PartsAddUpToTheChange) {
    const Rules r = preset("spades-partnership");
    ScoreBoard b;
    b.bags[0] = 9;
    // N nil fails (1 trick), S bid 4 took 5 (a 10th bag), E-W bid 6 took 7 with E blind nil made.
    const HandScore hs = score_spades_hand(r, bids({0, 0, 4, 6}, 1), tricks({1, 0, 5, 7}), b);
    EXPECT_EQ(hs.nil[0], -100);
    EXPECT_EQ(hs.contract[0], 40);
    EXPECT_EQ(hs.bags_added[0], 1);
    EXPECT_EQ(hs.bag_penalties[0], 1);
    EXPECT_EQ(hs.nil[1], 200);
    EXPECT_EQ(hs.contract[1], 60);
    for (int u = 0; u < 2; ++u)
        EXPECT_EQ(hs.delta[u], hs.contract[u] + hs.bags_added[u] + hs.nil[u] -
                                   hs.bag_penalties[u] * r.bag_penalty);
    // A set contract: the contract part is negative and no bags are counted.
    ScoreBoard c;
    const HandScore set = score_spades_hand(r, bids({5, 2, 4, 1}), tricks({4, 3, 4, 2}), c);
    EXPECT_EQ(set.contract[0], -90);
    EXPECT_EQ(set.bags_added[0], 0);
    EXPECT_EQ(set.delta[0], -90);
}

TEST(SpadesScoring, NilMadeAndFailed) {
    const Rules r = preset("spades-partnership");
    ScoreBoard b;
    // N nil takes nothing, S bid 4 takes 5: +100 +41.
    HandScore hs = score_spades_hand(r, bids({0, 4, 4, 4}), tricks({0, 4, 5, 4}), b);
    EXPECT_EQ(hs.delta[0], 141);
    EXPECT_EQ(hs.delta[1], 80);
    EXPECT_EQ(b.bags[0], 1);
    // N nil takes 2: -100; S bid 4 took 3, N's tricks don't help: set -40.
    b = {};
    hs = score_spades_hand(r, bids({0, 4, 4, 4}), tricks({2, 4, 3, 4}), b);
    EXPECT_EQ(hs.delta[0], -140);
    EXPECT_EQ(b.bags[0], 0);
    // ... and with S making 4 on its own: -100 +40.
    b = {};
    hs = score_spades_hand(r, bids({0, 4, 4, 4}), tricks({2, 3, 4, 4}), b);
    EXPECT_EQ(hs.delta[0], -60);
    // nil_tricks_count_for_partner: N's 2 tricks count: 5 of 4, one bag.
    const Rules counts = preset("spades-partnership", {"nil_tricks_count_for_partner=true"});
    b = {};
    hs = score_spades_hand(counts, bids({0, 4, 4, 4}), tricks({2, 4, 3, 4}), b);
    EXPECT_EQ(hs.delta[0], -100 + 41);
    EXPECT_EQ(b.bags[0], 1);
    // Both partners nil: no contract, no bags.
    b = {};
    hs = score_spades_hand(r, bids({0, 4, 0, 4}), tricks({0, 6, 1, 6}), b);
    EXPECT_EQ(hs.delta[0], 0);  // +100 -100
    EXPECT_EQ(hs.delta[1], 84);
    EXPECT_EQ(b.bags[0], 0);
}

TEST(SpadesScoring, BlindNil) {
    const Rules r = preset("spades-partnership");
    ScoreBoard b;
    HandScore hs =
        score_spades_hand(r, bids({0, 4, 4, 4}, /*blind_seat=*/0), tricks({0, 4, 5, 4}), b);
    EXPECT_EQ(hs.delta[0], 200 + 41);
    b = {};
    hs = score_spades_hand(r, bids({4, 4, 0, 4}, /*blind_seat=*/2), tricks({4, 4, 1, 4}), b);
    EXPECT_EQ(hs.delta[0], -200 + 40);
}

TEST(SpadesScoring, BagRollover) {
    const Rules r = preset("spades-partnership");
    ScoreBoard b;
    b.bags[0] = 8;
    b.score[0] = 200;
    HandScore hs = score_spades_hand(r, bids({3, 3, 3, 1}), tricks({5, 2, 4, 2}), b);
    // Bid 6, took 9: +63, 3 bags: 8 + 3 = 11 -> -100 and 1 bag left.
    EXPECT_EQ(hs.delta[0], 63 - 100);
    EXPECT_EQ(hs.bags_added[0], 3);
    EXPECT_EQ(hs.bag_penalties[0], 1);
    EXPECT_EQ(b.bags[0], 1);
    EXPECT_EQ(b.score[0], 163);
    // Exactly 10 bags: penalty and 0 left.
    b = {};
    b.bags[1] = 7;
    hs = score_spades_hand(r, bids({3, 3, 3, 1}), tricks({3, 5, 3, 2}), b);
    EXPECT_EQ(hs.delta[1], 43 - 100);
    EXPECT_EQ(b.bags[1], 0);
    // A smaller bags_per_penalty may cost twice in one hand.
    const Rules five = preset("spades-partnership", {"bags_per_penalty=5", "bag_penalty=50"});
    b = {};
    b.bags[0] = 4;
    hs = score_spades_hand(five, bids({1, 0, 1, 0}), tricks({6, 0, 7, 0}), b);
    // bid 2 took 13: +31, bags 4 + 11 = 15 -> three penalties, 0 left.
    EXPECT_EQ(hs.bag_penalties[0], 3);
    EXPECT_EQ(hs.delta[0], 31 - 150);
    EXPECT_EQ(b.bags[0], 0);
}

// Bags paid for as they are taken: each costs bag_penalty / bags_per_penalty on top of its point,
// and a penalty that falls is given back, so the value does not depend on the bags held before.
TEST(SpadesScoring, AmortizedBagsCostTheirShareOfThePenalty) {
    const Rules r = preset("spades-partnership");
    for (int held = 0; held < 10; ++held) {
        ScoreBoard b;
        b.bags[0] = held;
        // Side 0 bid 6 and took 9 (3 bags); side 1 bid 4 and took 4.
        const HandScore hs = score_spades_hand(r, bids({3, 3, 3, 1}), tricks({5, 3, 4, 1}), b);
        EXPECT_EQ(valued_delta(r, hs, 0, BagValue::kAmortized), 63 - 30) << held;
        EXPECT_EQ(valued_delta(r, hs, 0, BagValue::kHand), held >= 7 ? 63 - 100 : 63) << held;
        EXPECT_EQ(valued_delta(r, hs, 1, BagValue::kAmortized), 40) << held;
    }
    // Nil and sets carry no bags, and are valued as the hand scores them.
    ScoreBoard b;
    const HandScore set = score_spades_hand(r, bids({0, 4, 5, 4}), tricks({1, 4, 4, 4}), b);
    EXPECT_EQ(valued_delta(r, set, 0, BagValue::kAmortized), -100 - 50);
    // Rounded to the nearest point: 3 bags at 25 / 4 a bag cost 19.
    const Rules odd = preset("spades-partnership", {"bags_per_penalty=4", "bag_penalty=25"});
    b = {};
    b.bags[0] = 2;
    const HandScore hs = score_spades_hand(odd, bids({3, 3, 3, 1}), tricks({5, 3, 4, 1}), b);
    EXPECT_EQ(hs.bag_penalties[0], 1);
    EXPECT_EQ(valued_delta(odd, hs, 0, BagValue::kAmortized), 63 - 19);
}

TEST(SpadesScoring, CutthroatScoresPerPlayer) {
    const Rules r4 = preset("spades-cutthroat4");
    ScoreBoard b;
    HandScore hs = score_spades_hand(r4, bids({3, 4, 0, 3}), tricks({4, 3, 0, 6}), b);
    EXPECT_EQ(hs.delta[0], 31);
    EXPECT_EQ(hs.delta[1], -40);
    EXPECT_EQ(hs.delta[2], 100);
    EXPECT_EQ(hs.delta[3], 33);
    EXPECT_EQ(b.bags[0], 1);
    EXPECT_EQ(b.bags[3], 3);
    const Rules r3 = preset("spades-cutthroat3");
    b = {};
    hs = score_spades_hand(r3, bids({5, 6, 0}), tricks({8, 6, 3}), b);
    EXPECT_EQ(hs.delta[0], 53);
    EXPECT_EQ(hs.delta[1], 60);
    EXPECT_EQ(hs.delta[2], -100);
    EXPECT_EQ(b.score[2], -100);
}

TEST(BlindNil, OfferedOnlyToASideTrailingBy100) {
    const Rules r = preset("spades-partnership");
    ScoreBoard b;
    b.score[0] = 50;
    b.score[1] = 150;
    EXPECT_TRUE(blind_nil_allowed(r, b, 0));
    EXPECT_TRUE(blind_nil_allowed(r, b, 2));
    EXPECT_FALSE(blind_nil_allowed(r, b, 1));
    EXPECT_FALSE(blind_nil_allowed(r, b, 3));
    b.score[1] = 149;
    EXPECT_FALSE(blind_nil_allowed(r, b, 0));
    b.score[1] = 150;
    EXPECT_FALSE(blind_nil_allowed(preset("spades-partnership", {"blind_nil=false"}), b, 0));
    EXPECT_FALSE(blind_nil_allowed(preset("spades-partnership", {"nil=false"}), b, 0));
    EXPECT_TRUE(blind_nil_allowed(preset("spades-partnership", {"blind_nil_deficit=50"}), b, 0));
    // Cutthroat has no partner to exchange with.
    ScoreBoard c;
    c.score[1] = 300;
    EXPECT_FALSE(blind_nil_allowed(preset("spades-cutthroat4", {"blind_nil=true"}), c, 0));
}

TEST(HeartsScoring, PointsMoonAndJack) {
    const Rules r = preset("hearts4");
    std::array<CardSet, kMaxPlayers> taken{};
    taken[0] = cards("2H 3H 4H KC");
    taken[1] = cards("QS 5H");
    taken[2] = (CardSet::whole_suit(Suit::kHearts) - cards("2H 3H 4H 5H")) | cards("JD");
    ScoreBoard b;
    HandScore hs = score_hearts_hand(r, taken, b);
    EXPECT_EQ(hs.points[0], 3);
    EXPECT_EQ(hs.points[1], 14);
    EXPECT_EQ(hs.points[2], 9);
    EXPECT_EQ(hs.points[3], 0);
    EXPECT_EQ(hs.moon_shooter, -1);
    EXPECT_EQ(b.score[0] + b.score[1] + b.score[2] + b.score[3], 26);
    // The J of diamonds: -10 to whoever took it.
    const Rules jd = preset("hearts4", {"jack_of_diamonds=true"});
    b = {};
    hs = score_hearts_hand(jd, taken, b);
    EXPECT_EQ(hs.points[2], -1);
    EXPECT_EQ(b.score[2], -1);

    // The moon: N takes every heart and the queen.
    std::array<CardSet, kMaxPlayers> moon{};
    moon[0] = CardSet::whole_suit(Suit::kHearts) | cards("QS AC");
    moon[1] = cards("JD 2C");
    b = {};
    hs = score_hearts_hand(r, moon, b);
    EXPECT_EQ(hs.moon_shooter, 0);
    EXPECT_EQ(hs.points[0], 26);
    EXPECT_EQ(b.score[0], 0);
    EXPECT_EQ(b.score[1], 26);
    EXPECT_EQ(b.score[2], 26);
    EXPECT_EQ(b.score[3], 26);
    b = {};
    score_hearts_hand(preset("hearts4", {"moon_subtracts=true"}), moon, b);
    EXPECT_EQ(b.score[0], -26);
    EXPECT_EQ(b.score[1], 0);
    EXPECT_EQ(b.score[3], 0);
    // The moon with the J of diamonds taken by another player: the jack still counts for them.
    b = {};
    score_hearts_hand(jd, moon, b);
    EXPECT_EQ(b.score[0], 0);
    EXPECT_EQ(b.score[1], 16);
    EXPECT_EQ(b.score[2], 26);
    // 25 points is not the moon.
    std::array<CardSet, kMaxPlayers> almost = moon;
    almost[0] -= C("2H");
    almost[3] = cards("2H");
    b = {};
    hs = score_hearts_hand(r, almost, b);
    EXPECT_EQ(hs.moon_shooter, -1);
    EXPECT_EQ(b.score[0], 25);
    EXPECT_EQ(b.score[3], 1);
}

TEST(HeartsScoring, MoonWithFivePlayers) {
    const Rules r = preset("hearts5");
    std::array<CardSet, kMaxPlayers> moon{};
    moon[3] = CardSet::whole_suit(Suit::kHearts) | cards("QS");
    ScoreBoard b;
    score_hearts_hand(r, moon, b);
    EXPECT_EQ((std::vector<int>(b.score.begin(), b.score.begin() + 5)),
              (std::vector<int>{26, 26, 26, 0, 26}));
}

// A T whose per-unit array `field` holds `values`, zero beyond them.
template <class T, class Array>
T with_units(Array T::*field, std::initializer_list<int> values) {
    T out{};
    std::copy(values.begin(), values.end(), (out.*field).begin());
    return out;
}

ScoreBoard board(std::initializer_list<int> scores) {
    return with_units(&ScoreBoard::score, scores);
}

TEST(GameEnd, Spades) {
    const Rules r = preset("spades-partnership");
    EXPECT_TRUE(game_winners(r, board({499, 300})).empty());
    EXPECT_EQ(game_winners(r, board({500, 300})), std::vector<int>{0});
    EXPECT_EQ(game_winners(r, board({510, 520})), std::vector<int>{1});   // both over: higher wins
    EXPECT_TRUE(game_winners(r, board({520, 520})).empty());              // tie: another hand
    EXPECT_EQ(game_winners(r, board({-200, 100})), std::vector<int>{1});  // loss threshold
    EXPECT_TRUE(game_winners(r, board({-199, 100})).empty());
    EXPECT_EQ(game_winners(r, board({-250, -300})), std::vector<int>{0});
    const Rules t300 = preset("spades-partnership", {"target=300"});
    EXPECT_EQ(game_winners(t300, board({300, 200})), std::vector<int>{0});
    const Rules c4 = preset("spades-cutthroat4");
    EXPECT_EQ(game_winners(c4, board({100, -200, 50, 20})), std::vector<int>{0});
    EXPECT_TRUE(game_winners(c4, board({100, 100, -200, 20})).empty());
    EXPECT_EQ(game_winners(c4, board({100, 505, 90, 20})), std::vector<int>{1});
    EXPECT_TRUE(game_winners(c4, board({100, 499, 90, 20})).empty());
}

TEST(GameEnd, Hearts) {
    const Rules r = preset("hearts4");
    EXPECT_TRUE(game_winners(r, board({99, 50, 20, 10})).empty());
    EXPECT_EQ(game_winners(r, board({100, 50, 20, 10})), std::vector<int>{3});
    EXPECT_EQ(game_winners(r, board({130, 10, 10, 50})),
              (std::vector<int>{1, 2}));  // ties share the win
    EXPECT_EQ(game_winners(preset("hearts4", {"end_score=50"}), board({50, 0, 20, 10})),
              std::vector<int>{1});
    const Rules r6 = preset("hearts6");
    EXPECT_EQ(game_winners(r6, board({1, 2, 3, 4, 5, 100})), std::vector<int>{0});
}

HandScore deltas(std::initializer_list<int> d) {
    return with_units(&HandScore::delta, d);
}

TEST(HandWinners, FewestPointsInHeartsHighestScoreInSpades) {
    const Rules hearts = preset("hearts4");
    EXPECT_TRUE(lower_score_wins(hearts));
    EXPECT_EQ(hand_winners(hearts, deltas({13, 5, 0, 8})), std::vector<int>{2});
    EXPECT_EQ(hand_winners(hearts, deltas({0, 26, 0, 0})), (std::vector<int>{0, 2, 3}));
    const Rules spades = preset("spades-partnership");
    EXPECT_FALSE(lower_score_wins(spades));
    EXPECT_EQ(hand_winners(spades, deltas({-40, 61})), std::vector<int>{1});
    // Only the two sides count, not the zeros in the entries past them.
    EXPECT_EQ(hand_winners(spades, deltas({-40, -50})), std::vector<int>{0});
    EXPECT_EQ(hand_winners(spades, deltas({70, 70})), (std::vector<int>{0, 1}));
    const Rules cutthroat = preset("spades-cutthroat3");
    EXPECT_EQ(hand_winners(cutthroat, deltas({-30, 40, 40})), (std::vector<int>{1, 2}));
}

}  // namespace
}  // namespace cardgames
