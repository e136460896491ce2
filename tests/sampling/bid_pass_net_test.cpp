// Bids and passes by network (net_player.hpp; `pimc:bid=net`, `pimc:pass=net`, and the `net`
// bot's bid_model= and pass_model=): the bid is the legal bid of highest output of a direct forward
// pass over the bidder's card features, the pass the pass_count cards of highest output; never
// illegal; the same for any thread count; bad network files refused before play, naming the file
// and the field.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "cardgames/cards/error.hpp"
#include "cardgames/encoding/actions.hpp"
#include "cardgames/models/card_features.hpp"
#include "cardgames/models/model_file.hpp"
#include "cardgames/models/model_store.hpp"
#include "cardgames/models/network.hpp"
#include "cardgames/players/bot_spec.hpp"
#include "cardgames/rules/game.hpp"
#include "pimc_decisions.hpp"
#include "sampling/bot_registry.hpp"
#include "sampling/net_player.hpp"
#include "sampling/pimc.hpp"

namespace sampling {
namespace {

using namespace cardgames;

// The seat's card features (version 1) at a bid or a pass are its hand and nothing else: what the
// trainer's bid and pass records hold (tests/python/test_networks.py checks learn_data.load's
// side). Version 2 adds the contract of the bids so far, and no card.
void expect_hand_features(const InfoState& info) {
    models::ActiveFeatures active;
    models::card_features(info, 1, active);
    std::vector<int> hand;
    for (Card c : info.hand) hand.push_back(models::hand_feature(c));
    std::sort(hand.begin(), hand.end());
    EXPECT_EQ(std::vector<int>(active.view().begin(), active.view().end()), hand);
    models::card_features(info, 2, active);
    const int cards = models::card_feature_count(info.rules->game, info.players(), 1);
    std::vector<int> v2_cards;
    for (int f : active.view())
        if (f < cards) v2_cards.push_back(f);
    EXPECT_EQ(v2_cards, hand);
}

// The bot specs that bid (`bids`) or pass by the network `file`: pimc's, and the `net` bot's,
// which plays its cards by a random policy network of `form`.
std::vector<std::string> choosers(const std::string& form, const std::string& file, bool bids) {
    const std::string policy =
        choice_net_file(form, "policy", 52, "bidpass-policy-" + form + ".net");
    return {bids ? "pimc:bid=net,threads=1,bid_net=" + file
                 : "pimc:pass=net,threads=1,pass_net=" + file,
            "net:model=" + policy + (bids ? ",bid_model=" : ",pass_model=") + file};
}

// Every bid of hands 1..`seeds` of `rules`, each bidder's bid checked against the highest output
// among the legal bids, then made (the game refuses an illegal one).
void check_bids(const Rules& rules, const std::string& spec, const std::string& file,
                std::uint64_t seeds) {
    SCOPED_TRACE(spec);
    auto bot = make_player(spec, 1);
    bot->check(rules);
    auto rule = rule_players(rules.players);
    int bids = 0, distinct = 0, last = -1;
    for (std::uint64_t seed = 1; seed <= seeds; ++seed) {
        Game game(rules, seed);
        game.stop_after_hand();
        while (game.phase() != Phase::kPlay) {
            if (game.phase() != Phase::kBid) {
                step_game(game, rule);
                continue;
            }
            const InfoState info = game.info_state(game.to_act());
            expect_hand_features(info);
            const std::vector<float> out = direct_outputs(file, info);
            int want = -1;
            for (int b = rules.nil_allowed ? 0 : 1; b <= rules.cards_per_hand(); ++b)
                if (want < 0 ||
                    out[static_cast<std::size_t>(b)] > out[static_cast<std::size_t>(want)])
                    want = b;
            const int got = bot->bid(info);
            EXPECT_EQ(got, want) << "seed " << seed;
            EXPECT_EQ(game.choose_bid(got), "") << "seed " << seed;
            ++bids;
            distinct += got != last;
            last = got;
        }
    }
    EXPECT_GT(bids, 0);
    EXPECT_GT(distinct, 1) << "every bid the same: the test would not see a wrong feature";
}

TEST(BidPassNet, BidIsTheLegalBidOfHighestOutput) {
    const std::string partnership =
        choice_net_file("spades-partnership", "bid", encoding::kNumBids, "bid-net-partnership.net");
    for (const std::string& spec : choosers("spades-partnership", partnership, true)) {
        check_bids(load_rules(preset_path("spades-partnership"), {}), spec, partnership, 6);
        // Without nil the highest output may be nil's; the bid is then the best of the others.
        check_bids(load_rules(preset_path("spades-partnership"), {"nil=false"}), spec, partnership,
                   6);
    }
    const std::string cutthroat =
        choice_net_file("spades-cutthroat3", "bid", encoding::kNumBids, "bid-net-cutthroat3.net");
    for (const std::string& spec : choosers("spades-cutthroat3", cutthroat, true))
        check_bids(load_rules(preset_path("spades-cutthroat3"), {}), spec, cutthroat, 6);
}

// Every seat's pass in hands 1..8 of `rules`, checked against the cards of highest output.
void check_passes(const Rules& rules, const std::string& spec, const std::string& file) {
    SCOPED_TRACE(spec);
    auto bot = make_player(spec, 1);
    bot->check(rules);
    int differs_from_rule = 0;
    for (std::uint64_t seed = 1; seed <= 8; ++seed) {
        Game game(rules, seed);
        if (game.phase() != Phase::kPass) continue;  // a hold hand
        for (int seat = 0; seat < rules.players; ++seat) {
            const InfoState info = game.info_state(seat);
            expect_hand_features(info);
            const std::vector<float> out = direct_outputs(file, info);
            // Choose the best card, then the best of the rest, as the records pass.
            CardSet want;
            for (int k = 0; k < info.pass_count; ++k)
                want |= best_legal_card(out, info.hand - want);
            const CardSet got = bot->pass(info);
            EXPECT_EQ(got, want) << "seed " << seed << " seat " << seat;
            EXPECT_EQ(static_cast<int>(got.size()), info.pass_count);
            EXPECT_EQ(got - info.hand, CardSet());
            differs_from_rule += got != RuleBot().pass(info);
        }
    }
    EXPECT_GT(differs_from_rule, 0) << "the network passed as the rule player";
}

TEST(BidPassNet, PassIsTheCardsOfHighestOutput) {
    for (const char* form : {"hearts4", "hearts3"}) {
        const std::string file =
            choice_net_file(form, "pass", 52, std::string("pass-net-") + form + ".net");
        for (const std::string& spec : choosers(form, file, false))
            check_passes(load_rules(preset_path(form), {}), spec, file);
    }
}

// 4-player Hearts ships its pass network (data/models/hearts4-pass-net.net): `pass=net` reads it by
// default, it passes a bare Q♠ under A♠ K♠, and its passes share most of their cards with the rule
// player's (a network of random weights shares about 3 in 13).
TEST(BidPassNet, TheShippedPassNetworkPassesTheDangerousCards) {
    const Rules rules = load_rules(preset_path("hearts4"), {});
    models::ModelStore store;
    EXPECT_EQ(pass_net_for(store, "", rules)->form(), "hearts4");
    auto bot = make_player("pimc:pass=net", 1);
    EXPECT_NO_THROW(bot->check(rules));
    const Game queen =
        hearts4_at_pass("N:AKQ.A2.5432.5432 JT98.KQJT.AKQ.AK 765.9876.JT9.QJT 432.543.876.9876");
    const CardSet pass = bot->pass(queen.info_state(0));
    EXPECT_TRUE(pass.contains(Card(Suit::kSpades, kQueen))) << cards_to_string(pass);
    int shared = 0, passed = 0;
    for_each_hearts4_pass(40, [&](const InfoState& info) {
        const CardSet mine = bot->pass(info);
        shared += (mine & RuleBot().pass(info)).size();
        passed += mine.size();
    });
    EXPECT_GE(shared, passed * 6 / 10) << shared << " of " << passed;
}

// Called directly with a bid network of too few outputs (bid_net_for refuses one; a pass network
// always has 52), a bid is a logic error, never a read past the outputs.
TEST(BidPassNet, TooFewOutputsAreALogicError) {
    const Game spades(load_rules(preset_path("spades-partnership"), {}), 1);
    const models::Network narrow(models::random_network_file("spades-partnership", "bid", 5, 1));
    EXPECT_THROW(net_bid(narrow, spades.info_state(spades.to_act())), std::logic_error);
}

// The bids and passes, and every card, the same on 1 and 2 threads.
TEST(BidPassNet, SameDecisionsForOneAndTwoThreads) {
    const std::string bid =
        choice_net_file("spades-partnership", "bid", encoding::kNumBids, "bid-net-threads.net", 3);
    const std::string pass = choice_net_file("hearts4", "pass", 52, "pass-net-threads.net", 3);
    const std::string quick = "pimc:worlds=4,rollouts=4,budget=20000";
    for (std::uint64_t seed : {1, 2}) {
        const auto spades = [&](int threads) {
            return decisions(
                quick + ",bid=net,bid_net=" + bid + ",threads=" + std::to_string(threads),
                "spades-partnership", seed);
        };
        EXPECT_EQ(spades(1), spades(2));
        const auto hearts = [&](int threads) {
            return decisions(
                quick + ",pass=net,pass_net=" + pass + ",threads=" + std::to_string(threads),
                "hearts4", seed);
        };
        EXPECT_EQ(hearts(1), hearts(2));
    }
}

TEST(BidPassNet, SpecOptionsAndFilesRefused) {
    const auto o =
        PimcOptions::from_spec(parse_bot_spec("pimc:bid=net,bid_net=a.net,pass=net,pass_net=b"));
    EXPECT_EQ(o.bidding.bid, PimcOptions::Bid::kNet);
    EXPECT_EQ(o.bidding.bid_net_path, "a.net");
    EXPECT_TRUE(o.bidding.net_pass && !o.bidding.rule_pass);
    EXPECT_EQ(o.bidding.pass_net_path, "b");
    // bid=net decides blind nil as bid=auto does: by the bid model in partnership games.
    EXPECT_TRUE(o.blind_nil_by_model(load_rules(preset_path("spades-partnership"), {})));
    EXPECT_FALSE(o.blind_nil_by_model(load_rules(preset_path("spades-cutthroat3"), {})));
    for (const char* bad :
         {"pimc:bid_net=x.net", "pimc:bid=model,bid_net=x.net", "pimc:pass_net=x.net",
          "pimc:pass=rule,pass_net=x.net", "pimc:pass=nets"})
        EXPECT_THROW(make_player(bad, 1), InputError) << bad;
    const auto truncated = [](const std::string& form, const std::string& task, int outputs) {
        const std::string path =
            (std::filesystem::temp_directory_path() / (task + "-net-cut.net")).string();
        const std::string whole =
            models::format_model_file(models::random_network_file(form, task, outputs, 2));
        std::ofstream(path, std::ios::binary) << whole.substr(0, whole.size() / 2);
        return path;
    };
    const std::string spades = "spades-partnership";
    const std::string policy = choice_net_file(spades, "policy", 52, "bid-net-policy.net");
    const std::string hearts_bid =
        choice_net_file("hearts4", "bid", encoding::kNumBids, "bid-net-hearts.net");
    const std::string wide = choice_net_file(spades, "bid", 52, "bid-net-wide.net");
    const std::string bid = "pimc:bid=net,bid_net=";
    expect_spec_refused(bid + "/no/such/bid.net", spades, "/no/such/bid.net", "cannot open");
    expect_spec_refused(bid + policy, spades, policy, "task");
    expect_spec_refused(bid + hearts_bid, spades, hearts_bid, "form");
    expect_spec_refused(bid + wide, spades, wide, "out.weight");
    const std::string cut_bid = truncated(spades, "bid", encoding::kNumBids);
    expect_spec_refused(bid + cut_bid, spades, cut_bid, "");
    expect_spec_refused("pimc:bid=net", "spades-cutthroat4", "spades-cutthroat4-bid-net.net",
                        "cannot open");
    const std::string net_bid = "net:model=" + policy + ",bid_model=";
    expect_spec_refused(net_bid + "/no/such/bid.net", spades, "/no/such/bid.net", "cannot open");
    expect_spec_refused(net_bid + policy, spades, policy, "task");
    expect_spec_refused(net_bid + hearts_bid, spades, hearts_bid, "form");
    expect_spec_refused(net_bid + wide, spades, wide, "out.weight");

    const std::string hearts_policy = choice_net_file("hearts4", "policy", 52, "pass-policy.net");
    const std::string hearts5_pass = choice_net_file("hearts5", "pass", 52, "pass-hearts5.net");
    const std::string pass = "pimc:pass=net,pass_net=";
    expect_spec_refused(pass + "/no/such/pass.net", "hearts4", "/no/such/pass.net", "cannot open");
    expect_spec_refused(pass + hearts_policy, "hearts4", hearts_policy, "task");
    expect_spec_refused(pass + hearts5_pass, "hearts4", hearts5_pass, "form");
    const std::string cut_pass = truncated("hearts4", "pass", 52);
    expect_spec_refused(pass + cut_pass, "hearts4", cut_pass, "");
    expect_spec_refused("pimc:pass=net", "hearts6", "hearts6-pass-net.net", "cannot open");
    const std::string net_pass = "net:model=" + hearts_policy + ",pass_model=";
    expect_spec_refused(net_pass + "/no/such/pass.net", "hearts4", "/no/such/pass.net",
                        "cannot open");
    expect_spec_refused(net_pass + hearts_policy, "hearts4", hearts_policy, "task");
    expect_spec_refused(net_pass + hearts5_pass, "hearts4", hearts5_pass, "form");
}

}  // namespace
}  // namespace sampling
