// Soft inference (inference.hpp): worlds that fit what the other seats did weigh more.
#include "sampling/inference.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "cardgames/rules/game_runner.hpp"
#include "sampling/bot_registry.hpp"
#include "sampling/pimc.hpp"

namespace sampling {
namespace {

using namespace cardgames;

std::vector<std::unique_ptr<Player>> rule_players(int n) {
    std::vector<std::unique_ptr<Player>> out;
    for (int s = 0; s < n; ++s) out.push_back(make_player("rule", s));
    return out;
}

Deal world_of(const Game& game) {
    Deal d;
    d.players = game.rules().players;
    d.hands = game.play_state().hands;
    return d;
}

// Swaps card a (in hand x) with card b (in hand y).
Deal swapped(Deal d, int x, Card a, int y, Card b) {
    d.hands[x] = (d.hands[x] - a) | b;
    d.hands[y] = (d.hands[y] - b) | a;
    return d;
}

TEST(Inference, HeartsWorldsWhereThePasserKeptWorseCardsWeighLess) {
    const Rules rules = load_rules(preset_path("hearts4"), {});
    Game game(rules, 1);
    // North (seat 0) holds nothing worse than its top hearts, so it passes them to East (seat 1).
    game.set_deal(
        parse_deal("N:432.KQJ.432.5432 765.T98.T98.9876 JT98.765.765.AKQ AKQ.A432.AKQJ.JT"));
    auto players = rule_players(4);
    while (game.phase() == Phase::kPass) step_game(game, players);
    const InfoState east = game.info_state(1);
    ASSERT_EQ(east.received, CardSet(Card(Suit::kHearts, kKing)) | Card(Suit::kHearts, kQueen) |
                                 Card(Suit::kHearts, kJack));
    const Deal truth = world_of(game);
    EXPECT_DOUBLE_EQ(world_weight(east, truth), 1.0)
        << "what North received may be worse than what it passed";
    // North keeping the A♥ besides: one card worse than the J♥ more than it can have received.
    const int west = 3;
    const Card ace(Suit::kHearts, kAce);
    ASSERT_TRUE(truth.hands[west].contains(ace));
    const Card low = (truth.hands[0] & CardSet::whole_suit(Suit::kClubs)).lowest();
    EXPECT_DOUBLE_EQ(world_weight(east, swapped(truth, 0, low, west, ace)), std::exp(-1.0));
    // Without passing nothing is inferred.
    const Rules no_pass = load_rules(preset_path("hearts4"), {"no_passing=true"});
    Game plain(no_pass, 1);
    EXPECT_DOUBLE_EQ(world_weight(plain.info_state(1), world_of(plain)), 1.0);
}

TEST(Inference, SpadesWorldsThatExplainTheBidsWeighMore) {
    const Rules rules = load_rules(preset_path("spades-partnership"), {});
    int checked = 0;
    for (std::uint64_t seed = 1; seed <= 20; ++seed) {
        Game game(rules, seed);
        auto players = rule_players(4);
        while (game.phase() != Phase::kPlay) step_game(game, players);
        const InfoState me = game.info_state(0);
        const Deal truth = world_of(game);
        // The rule players bid the true hands, so the true world explains every bid exactly.
        EXPECT_DOUBLE_EQ(world_weight(me, truth), 1.0) << "seed " << seed;
        int strong = 1, weak = 1;
        for (int s = 1; s < 4; ++s) {
            if (me.bids[s].tricks > me.bids[strong].tricks) strong = s;
            if (me.bids[s].tricks < me.bids[weak].tricks) weak = s;
        }
        const CardSet spades = truth.hands[strong] & CardSet::whole_suit(Suit::kSpades);
        const CardSet weak_low = truth.hands[weak] - CardSet::whole_suit(Suit::kSpades);
        const Card ace(Suit::kSpades, kAce);
        if (strong == weak || !spades.contains(ace) || weak_low.empty() || me.bids[weak].blind ||
            me.bids[strong].blind)
            continue;
        // Moving the A♠ (a sure trick) from the strongest other bidder to the weakest: the bids no
        // longer fit.
        EXPECT_LT(world_weight(me, swapped(truth, strong, ace, weak, weak_low.lowest())), 1.0)
            << "seed " << seed;
        ++checked;
    }
    EXPECT_GE(checked, 3);
}

}  // namespace
}  // namespace sampling
