// Bids by a bid value network (`pimc:bid=value`, net_player.hpp) and the bids training data
// explores (bid_exploration.hpp): the explored bids are exactly those the data draws; the bid is
// the explored bid of highest output, never another; bad files and options refused.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "cardgames/encoding/actions.hpp"
#include "cardgames/players/bot_spec.hpp"
#include "cardgames/players/heuristics.hpp"
#include "cardgames/rules/game.hpp"
#include "pimc_decisions.hpp"
#include "sampling/bid_exploration.hpp"
#include "sampling/bot_registry.hpp"
#include "sampling/net_player.hpp"
#include "sampling/pimc.hpp"

namespace sampling {
namespace {

using namespace cardgames;

// Calls `at_bid(info)` at every bid of hands 1..`hands` of the preset, the bids made by the rule
// player.
template <class F>
void each_bid(const char* preset, std::uint64_t hands, F at_bid) {
    const Rules rules = load_rules(preset_path(preset), {});
    for (std::uint64_t seed = 1; seed <= hands; ++seed) {
        Game game(rules, seed);
        game.stop_after_hand();
        auto rule = rule_players(rules.players);
        while (game.phase() != Phase::kPlay) {
            if (game.phase() == Phase::kBid) at_bid(game.info_state(game.to_act()));
            step_game(game, rule);
        }
    }
}

TEST(BidExploration, ExploredBidsAreTheBidsTheDataDraws) {
    for (const char* preset : {"spades-partnership", "spades-cutthroat3"}) {
        int weak_nils = 0, without_nil = 0;
        each_bid(preset, 40, [&](const InfoState& info) {
            const int rule = heuristics::spades_bid(info);
            const std::vector<int> explored = explored_bids(info, rule);
            std::set<int> drawn;
            for (std::uint64_t seed = 0; seed < 200; ++seed)
                drawn.insert(explore_bid(info, rule, seed));
            EXPECT_EQ(std::vector<int>(drawn.begin(), drawn.end()), explored)
                << preset << " rule bid " << rule;
            const bool nil = explored.front() == 0;
            const int partner = info.partner();
            if (partner >= 0 && info.bids[partner].is_nil()) {
                EXPECT_FALSE(nil && rule != 0);
            }
            weak_nils += nil && rule != 0;
            without_nil += !nil;
        });
        EXPECT_GT(weak_nils, 0) << preset << ": no weak hand explored nil";
        EXPECT_GT(without_nil, 0) << preset << ": every hand explored nil";
    }
}

// The draws around another bid (`--explore-bids own`) are the draws around the rule player's bid,
// but for those that keep the rule player's bid, which keep the other bid.
TEST(BidExploration, DrawsAroundTheOwnBidKeepItWhereTheyKeepTheRulePlayers) {
    int varied = 0, changed = 0;
    each_bid("spades-partnership", 40, [&](const InfoState& info) {
        const int rule = heuristics::spades_bid(info);
        const int own = rule == 4 ? 6 : 4;
        for (std::uint64_t seed = 0; seed < 50; ++seed) {
            const int around_rule = explore_bid(info, rule, seed);
            const int around_own = explore_bid(info, rule, seed, own);
            if (around_own == around_rule) {
                ++varied;
                continue;
            }
            EXPECT_EQ(around_rule, rule) << "seed " << seed;
            EXPECT_EQ(around_own, own) << "seed " << seed;
            ++changed;
        }
    });
    EXPECT_GT(changed, 0);
    EXPECT_GT(varied, 0);
}

std::string value_net_file(const std::string& form, const std::string& name) {
    return choice_net_file(form, "bid_value", encoding::kNumBids, name);
}

// The bid is the explored bid of highest output (ties to the lower), its values the outputs; at
// some bids another bid has a higher output, so a bid among all the legal ones would differ.
TEST(BidValueNet, BidIsTheExploredBidOfHighestOutput) {
    for (const char* preset : {"spades-partnership", "spades-cutthroat3"}) {
        const std::string file =
            value_net_file(preset, std::string("bid-value-") + preset + ".net");
        PimcBot bot(PimcOptions::from_spec(parse_bot_spec("pimc:bid=value,bid_value_net=" + file)),
                    1);
        int bids = 0, outside = 0;
        each_bid(preset, 30, [&](const InfoState& info) {
            const std::vector<float> out = direct_outputs(file, info);
            const std::vector<int> explored = explored_bids(info, heuristics::spades_bid(info));
            int want = explored.front(), best_legal = 0;
            for (int b : explored)
                if (out[static_cast<std::size_t>(b)] > out[static_cast<std::size_t>(want)])
                    want = b;
            for (int b = 0; b <= info.rules->cards_per_hand(); ++b)
                if (out[static_cast<std::size_t>(b)] > out[static_cast<std::size_t>(best_legal)])
                    best_legal = b;
            const BidAnalysis a = bot.analyze_bid(info);
            EXPECT_EQ(a.bid, want);
            ASSERT_EQ(a.values.size(), explored.size());
            for (std::size_t k = 0; k < explored.size(); ++k) {
                EXPECT_EQ(a.values[k].bid, explored[k]);
                EXPECT_EQ(a.values[k].expected, out[static_cast<std::size_t>(explored[k])]);
            }
            ++bids;
            outside += best_legal != want;
        });
        EXPECT_GT(bids, 0);
        EXPECT_GT(outside, 0) << preset << ": the test would not see a bid outside the explored";
    }
}

// The shipped partnership network is the default: read, of its task and form, and its bids are
// explored ones; not every bid is the rule player's.
TEST(BidValueNet, TheShippedPartnershipNetworkIsTheDefault) {
    PimcBot bot(PimcOptions::from_spec(parse_bot_spec("pimc:bid=value")), 1);
    const Rules rules = load_rules(preset_path("spades-partnership"), {});
    bot.check(rules);
    int bids = 0, not_rule = 0;
    each_bid("spades-partnership", 20, [&](const InfoState& info) {
        const int rule = heuristics::spades_bid(info);
        const std::vector<int> explored = explored_bids(info, rule);
        const int bid = bot.bid(info);
        EXPECT_NE(std::find(explored.begin(), explored.end(), bid), explored.end());
        ++bids;
        not_rule += bid != rule;
    });
    EXPECT_EQ(bids, 80);
    EXPECT_GT(not_rule, 0);
}

TEST(BidValueNet, SpecOptionsAndFilesRefused) {
    const auto o = PimcOptions::from_spec(parse_bot_spec("pimc:bid=value,bid_value_net=v.net"));
    EXPECT_EQ(o.bidding.bid, PimcOptions::Bid::kValue);
    EXPECT_EQ(o.bidding.bid_value_net_path, "v.net");
    // Blind nil as bid=auto decides it: by the bid model in partnership games.
    EXPECT_TRUE(o.blind_nil_by_model(load_rules(preset_path("spades-partnership"), {})));
    EXPECT_FALSE(o.blind_nil_by_model(load_rules(preset_path("spades-cutthroat3"), {})));
    for (const char* bad :
         {"pimc:bid_value_net=x.net", "pimc:bid=net,bid_value_net=x.net", "pimc:bid=values"})
        EXPECT_THROW(make_player(bad, 1), InputError) << bad;
    const std::string spades = "spades-partnership";
    const std::string bid_net =
        choice_net_file(spades, "bid", encoding::kNumBids, "bid-value-as-bid.net", 3);
    const std::string hearts = value_net_file("hearts4", "bid-value-hearts.net");
    const std::string narrow = choice_net_file(spades, "bid_value", 5, "bid-value-narrow.net", 3);
    const std::string spec = "pimc:bid=value,bid_value_net=";
    expect_spec_refused(spec + "/no/such/v.net", spades, "/no/such/v.net", "cannot open");
    expect_spec_refused(spec + bid_net, spades, bid_net, "task");
    expect_spec_refused(spec + hearts, spades, hearts, "form");
    expect_spec_refused(spec + narrow, spades, narrow, "out.weight");
    expect_spec_refused("pimc:bid=value", "spades-cutthroat4",
                        "spades-cutthroat4-bid_value-net.net", "cannot open");
}

}  // namespace
}  // namespace sampling
