// Bounded decisions: a card decision's searches keep within pimc's node budget, a world over its
// share is valued by later solves or its play-outs alone, positions no card can change are valued
// without a search, and ms= bounds passes and bids as it bounds cards (issue 45).
#include <gtest/gtest.h>

#include <chrono>
#include <string>

#include "cardgames/rules/game_runner.hpp"
#include "pimc_decisions.hpp"
#include "position_helpers.hpp"
#include "sampling/pimc.hpp"

namespace sampling {
namespace {

using namespace cardgames;

constexpr const char* kQuick = "pimc:worlds=6,rollouts=6";

PimcAnalysis analyze(const InfoState& info, const std::string& options) {
    const std::string spec = std::string(kQuick) + (options.empty() ? "" : ",") + options;
    return PimcBot(PimcOptions::from_spec(parse_bot_spec(spec)), 1).analyze(info);
}

// Plays `game` (4-player Hearts, no passing) by the rule player to the first decision with
// `tricks_left` tricks left and a choice of two cards or more.
InfoState decision_at(Game& game, int tricks_left) {
    auto rule = rule_players(4);
    const std::size_t plays = static_cast<std::size_t>(13 - tricks_left) * 4;
    while (game.phase() != Phase::kPlay || game.hand().plays.size() < plays ||
           game.play_state().legal_moves(game.play_rules()).size() < 2)
        step_game(game, rule);
    return game.info_state(game.to_act());
}

const Rules& hearts4() {
    static const Rules rules = load_rules(preset_path("hearts4"), {"no_passing=true"});
    return rules;
}

// Five tricks left: each world's cards by the exact search; nine: by play-outs whose last five
// tricks the search solves, with the moon continuation where the seat could still shoot.
TEST(PimcBudget, ADecisionSearchesNoMoreNodesThanItsBudget) {
    int over = 0;
    bool binding = false;
    for (const int tricks_left : {5, 9})
        for (std::uint64_t seed = 1; seed <= 3; ++seed) {
            Game game(hearts4(), seed);
            const InfoState info = decision_at(game, tricks_left);
            SCOPED_TRACE("seed " + std::to_string(seed) + ", " + std::to_string(tricks_left) +
                         " tricks left");
            const PimcAnalysis bounded = analyze(info, "budget=3000");
            EXPECT_LE(bounded.expansions, 3000u);
            over += bounded.over_budget;
            binding = binding || analyze(info, "budget=0").expansions > 3000;
        }
    EXPECT_GT(over, 0) << "no world ran out of its share";
    EXPECT_TRUE(binding) << "no decision searches more than the budget without it";
}

// The decision `info` with `budget` (4-player Hearts at `tricks_left` of game `seed`): each of its
// six worlds over its share, `alone` of them valued by play-outs alone, and every card valued as
// `same_as` values it.
PimcAnalysis expect_cut_like(int tricks_left, int seed, const std::string& budget,
                             const std::string& same_as, int alone) {
    Game game(hearts4(), static_cast<std::uint64_t>(seed));
    const InfoState info = decision_at(game, tricks_left);
    SCOPED_TRACE(std::to_string(tricks_left) + " tricks left, seed " + std::to_string(seed));
    const PimcAnalysis cut = analyze(info, budget);
    EXPECT_EQ(cut.over_budget, 6);
    EXPECT_EQ(cut.played_alone, alone);
    const PimcAnalysis same = analyze(info, same_as);
    EXPECT_EQ(same.over_budget, 0);
    expect_same_analysis(cut, same);
    return cut;
}

// budget=1: every world's share runs out at its first search (the exact one with five tricks
// left, a play-out's with nine), leaving nothing for later solves, so every world values its cards
// by play-outs to the last card, as exact=1 does (its only solve is the last trick, which is
// forced).
TEST(PimcBudget, AWorldOverItsShareIsValuedByItsPlayOuts) {
    int differ_at = 0;  // decisions where the solves the budget cut short value some card
                        // otherwise
    for (const auto& [tricks_left, seed] : {std::pair{5, 1}, {5, 2}, {5, 3}, {9, 4}}) {
        const PimcAnalysis cut =
            expect_cut_like(tricks_left, seed, "budget=1", "budget=0,exact=1", 6);
        Game game(hearts4(), static_cast<std::uint64_t>(seed));
        const PimcAnalysis solved = analyze(decision_at(game, tricks_left), "budget=0");
        for (std::size_t i = 0; i < cut.cards.size(); ++i)
            if (solved.cards[i].mean != cut.cards[i].mean) {
                ++differ_at;
                break;
            }
    }
    EXPECT_GE(differ_at, 2);
}

// A world whose exact searches run out of three quarters of its share is valued by play-outs that
// the search solves from two tricks later, within the rest of it: with every world over and every
// later solve done in time, the decision is that of exact=3 (five tricks left: instead of the
// exact search; nine: instead of play-outs solved from five).
TEST(PimcBudget, AWorldOverItsShareIsValuedBySolvesTwoTricksLater) {
    // 800 nodes a world: its exact searches stop at 600 (13,386 and 10,278 a decision unbounded),
    // its solves from three tricks left of the rule player's play-outs take 100 to 200.
    for (const auto& [tricks_left, seed] : {std::pair{5, 6}, {9, 4}})
        expect_cut_like(tricks_left, seed, "playout=rule,budget=4800",
                        "playout=rule,budget=0,exact=3", 0);
}

// pilot=2: the first two worlds run over their share, so the other four skip the exact searches
// and go straight to the later solves, with their whole share: the decision is the same as when
// every world runs over (those solves fit in a quarter of the share as in the whole), for fewer
// nodes.
TEST(PimcBudget, APilotOverItsShareSendsTheOtherWorldsToLaterSolves) {
    for (const auto& [tricks_left, seed] : {std::pair{5, 6}, {9, 4}}) {
        const PimcAnalysis piloted =
            expect_cut_like(tricks_left, seed, "playout=rule,budget=4800,pilot=2",
                            "playout=rule,budget=0,exact=3", 0);
        Game game(hearts4(), static_cast<std::uint64_t>(seed));
        const InfoState info = decision_at(game, tricks_left);
        EXPECT_LT(piloted.expansions, analyze(info, "playout=rule,budget=4800").expansions);
    }
}

// A pilot within its share changes nothing: every world is searched as without it.
TEST(PimcBudget, APilotWithinItsShareChangesNothing) {
    for (const auto& [tricks_left, seed] : {std::pair{5, 1}, {9, 2}}) {
        Game game(hearts4(), static_cast<std::uint64_t>(seed));
        const InfoState info = decision_at(game, tricks_left);
        SCOPED_TRACE(std::to_string(tricks_left) + " tricks left, seed " + std::to_string(seed));
        const PimcAnalysis plain = analyze(info, "");
        const PimcAnalysis piloted = analyze(info, "pilot=2");
        EXPECT_EQ(piloted.over_budget, 0);
        EXPECT_EQ(piloted.expansions, plain.expansions);
        expect_same_analysis(piloted, plain);
    }
    EXPECT_THROW(PimcOptions::from_spec(parse_bot_spec("pimc:pilot=-1")), InputError);
    EXPECT_THROW(PimcOptions::from_spec(parse_bot_spec("pimc:eval=ismcts,pilot=4")), InputError);
    EXPECT_THROW(PimcOptions::from_spec(parse_bot_spec("oracle:pilot=4")), InputError);
}

TEST(PimcBudget, BudgetIsAPimcOption) {
    EXPECT_EQ(PimcOptions::from_spec(parse_bot_spec("pimc")).search.budget, 500000u);
    EXPECT_EQ(PimcOptions::from_spec(parse_bot_spec("pimc:budget=0")).search.budget, 0u);
    EXPECT_EQ(PimcOptions::from_spec(parse_bot_spec("pimc:budget=0")).search.world_budget(64), 0u);
    EXPECT_EQ(PimcOptions::from_spec(parse_bot_spec("pimc:budget=6400")).search.world_budget(64),
              100u);
    EXPECT_EQ(PimcOptions::from_spec(parse_bot_spec("pimc:budget=10")).search.world_budget(64), 1u);
    EXPECT_THROW(PimcOptions::from_spec(parse_bot_spec("pimc:budget=-1")), InputError);
    EXPECT_THROW(PimcOptions::from_spec(parse_bot_spec("pimc:budget=lots")), InputError);
}

// Seat 0 has taken all 13 hearts and the Q♠ in four tricks: the moon is made whatever is played
// in the nine tricks left, so every card is worth the same and no world needs a search (such an
// endgame, where another seat had shot, took 4.97 million nodes in one decision).
TEST(PimcBudget, AMoonAlreadyMadeIsValuedWithoutASearch) {
    const Rules rules = load_rules(preset_path("hearts4"), {});
    const InfoState info =
        mid_play(rules, cards("AS KS JS TS AD KD QD JD TD"),
                 {pc(0, "AH"), pc(1, "2H"), pc(2, "3H"), pc(3, "4H"), pc(0, "KH"), pc(1, "5H"),
                  pc(2, "6H"), pc(3, "7H"), pc(0, "QH"), pc(1, "8H"), pc(2, "9H"), pc(3, "TH"),
                  pc(0, "JH"), pc(1, "QS"), pc(2, "2C"), pc(3, "3C")});
    ASSERT_EQ(info.seat, 0);
    const PimcAnalysis a = analyze(info, "");
    EXPECT_TRUE(a.searched);
    EXPECT_EQ(a.worlds, 6);
    EXPECT_EQ(a.expansions, 0u);
    for (const CardValue& cv : a.cards) EXPECT_EQ(cv.expected, 0) << to_string(cv.card);
}

// Following clubs with 9♣ 8♣ 7♣: the three are one run in every world (no club between them is
// out), so the decision is the first of them, with no world dealt or searched; with 9♣ 7♣ and the
// 8♣ out they differ and the worlds are searched.
TEST(PimcBudget, OneRunOfEquivalentCardsIsNotSearched) {
    const Rules rules = load_rules(preset_path("hearts4"), {});
    const InfoState run =
        mid_play(rules, cards("9C 8C 7C AS KS QH JH TH 9H 8H AD KD QD"), {pc(0, "2C")});
    PimcBot bot(PimcOptions::from_spec(parse_bot_spec(kQuick)), 1);
    const PimcAnalysis a = bot.decide(run);
    EXPECT_FALSE(a.searched);
    EXPECT_EQ(bot.play(run), C("9C"));
    // hint's full analysis still values every card: alike.
    const PimcAnalysis full = bot.analyze(run);
    EXPECT_TRUE(full.searched);
    for (const CardValue& cv : full.cards) EXPECT_EQ(cv.mean, full.cards.front().mean);
    EXPECT_EQ(a.best, C("9C"));
    EXPECT_EQ(a.cards.size(), 3u);
    const InfoState gap =
        mid_play(rules, cards("9C 7C 6C AS KS QH JH TH 9H 8H AD KD QD"), {pc(0, "2C")});
    EXPECT_TRUE(bot.decide(gap).searched);
}

// The case: 20,000 deals a candidate would take seconds; ms=50 stops starting deals after
// 50 ms (a generous bound here, not a timing test).
TEST(PimcMs, BoundsPassesAndBids) {
    const std::string spec = "pimc:rollouts=20000,ms=50,worlds=4";
    auto seconds = [](auto&& decide) {
        const auto start = std::chrono::steady_clock::now();
        decide();
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    };
    {
        Game game(load_rules(preset_path("hearts4"), {}), 3);
        ASSERT_EQ(game.phase(), Phase::kPass);
        PimcBot bot(PimcOptions::from_spec(parse_bot_spec(spec)), 1);
        const InfoState info = game.info_state(game.to_act());
        CardSet pass;
        EXPECT_LT(seconds([&] { pass = bot.pass(info); }), 1.0);
        EXPECT_EQ(pass.size(), 3);
        EXPECT_TRUE(info.hand.contains_all(pass));
    }
    {
        Game game(load_rules(preset_path("spades-cutthroat3"), {}), 3);
        auto rule = rule_players(3);
        while (game.phase() != Phase::kBid) step_game(game, rule);
        PimcBot bot(PimcOptions::from_spec(parse_bot_spec(spec)), 1);
        const InfoState info = game.info_state(game.to_act());
        int bid = -1;
        EXPECT_LT(seconds([&] { bid = bot.bid(info); }), 1.0);
        EXPECT_GE(bid, 0);
    }
    {
        // Blind nil by the bid model: 100,000 hands dealt would take seconds.
        Game game(load_rules(preset_path("spades-partnership"), {}), 3);
        auto rule = rule_players(4);
        while (game.phase() != Phase::kBid) step_game(game, rule);
        PimcBot bot(PimcOptions::from_spec(parse_bot_spec("pimc:bid=model,rollouts=100000,ms=50")),
                    1);
        const InfoState info = game.info_state(game.to_act());
        EXPECT_LT(seconds([&] { bot.blind_nil(info); }), 1.0);
    }
}

}  // namespace
}  // namespace sampling
