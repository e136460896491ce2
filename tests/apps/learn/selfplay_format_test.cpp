// The self-play record format (apps/learn/selfplay_format.hpp): half floats as numpy reads them,
// a record's fields back as written at every bit position, and a record of a played hand that
// replays; damage named by its field.
#include "apps/learn/selfplay_format.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "apps/learn/selfplay.hpp"
#include "cardgames/cards/error.hpp"
#include "cardgames/players/heuristics.hpp"
#include "cardgames/rules/rules.hpp"
#include "sampling/bid_exploration.hpp"
#include "tests/cardgames/test_helpers.hpp"

namespace apps {
namespace {

cardgames::Rules hearts4() {
    return cardgames::parse_rules("game = hearts\nplayers = 4\n", "test", {});
}

using cardgames::testing::error_of;

TEST(SelfplayFormat, HalfFloatsRoundTripEveryHalf) {
    for (unsigned h = 0; h < 0x10000; ++h) {
        const float f = float_of_half(static_cast<std::uint16_t>(h));
        if (std::isnan(f)) {
            EXPECT_TRUE(std::isnan(float_of_half(half_of(f))));
            continue;
        }
        EXPECT_EQ(half_of(f), h) << h;
    }
}

TEST(SelfplayFormat, HalfFloatsRoundToNearestEven) {
    EXPECT_EQ(float_of_half(half_of(1.0f)), 1.0f);
    EXPECT_EQ(float_of_half(half_of(-2.5f)), -2.5f);
    EXPECT_EQ(float_of_half(half_of(1.0f + 1.0f / 2048)), 1.0f);  // a tie: to the even 1.0
    EXPECT_EQ(float_of_half(half_of(1.0f + 3.0f / 2048)), 1.0f + 2.0f / 1024);  // a tie: up
    EXPECT_EQ(float_of_half(half_of(23.255f)), 23.25f);  // steps of 1/64 here
    EXPECT_EQ(float_of_half(half_of(65504.0f)), 65504.0f);
    EXPECT_TRUE(std::isinf(float_of_half(half_of(70000.0f))));
    EXPECT_EQ(float_of_half(half_of(1e-8f)), 0.0f);
    EXPECT_EQ(float_of_half(half_of(6e-8f)), std::ldexp(1.0f, -24));  // the least subnormal
}

TEST(SelfplayFormat, RecordsOfAPlayedHandReplayAndRoundTrip) {
    SelfplayPlan plan;
    plan.rules = hearts4();
    plan.specs = {"rule", "rule", "rule", "rule"};
    plan.seats = {1, 3};
    plan.hands = 1;
    plan.seed = 1'000'007;
    const std::string bytes = selfplay_hand(plan, 5, std::stop_token(),
                                            std::make_shared<cardgames::models::ModelStore>());
    ASSERT_EQ(bytes.size() % kRecordSize, 0u);
    const std::size_t n = bytes.size() / kRecordSize;
    EXPECT_EQ(n, 2u * (3 + 13));
    const auto* b = reinterpret_cast<const unsigned char*>(bytes.data());
    std::vector<DecisionRecord> records;
    for (std::size_t i = 0; i < n; ++i) {
        const DecisionRecord r = decode_record(b + i * kRecordSize, plan.rules, "test");
        EXPECT_EQ(r.hand, 5u);
        EXPECT_TRUE(r.seat == 1 || r.seat == 3);
        EXPECT_EQ(r.index, static_cast<int>(i));
        EXPECT_EQ(r.count, static_cast<int>(n));
        EXPECT_EQ(r.history_size, 12 + 52);
        EXPECT_EQ(encode_record(r), bytes.substr(i * kRecordSize, kRecordSize));
        for (float v : r.values) EXPECT_TRUE(std::isnan(v));  // the rule player values nothing
        records.push_back(r);
    }
    // The hand replays, each decision met at its ply with the recorded seat to act; the play
    // starts after the 12 passed cards.
    const std::vector<std::string> wheres(n, "test");
    std::size_t met = 0, plays = 0;
    SelfplayVisitor visitor;
    visitor.phases = 1u << static_cast<unsigned>(cardgames::Phase::kPass);
    visitor.decision = [&](const ReplayedDecision& d) {
        EXPECT_EQ(d.state.current_player(), d.record.seat);
        EXPECT_EQ(d.record.phase, cardgames::Phase::kPass);
        EXPECT_EQ(static_cast<int>(d.legal.size()), d.record.legal);
        ++met;
    };
    visitor.play = [&](const ReplayedPlay& p) {
        EXPECT_EQ(p.state.history().size(), 12u);
        plays = p.plays.size();
    };
    EXPECT_NO_THROW(replay_selfplay_hand(records, wheres, plan.rules, visitor));
    EXPECT_EQ(met, 2u * 3);
    EXPECT_EQ(plays, 52u);
    // A record whose action is not the history's is refused, named by its field.
    records[4].action = (records[4].action + 1) % 52;
    EXPECT_NE(error_of([&] {
                  replay_selfplay_hand(records, wheres, plan.rules, {});
              }).find("field 'action'"),
              std::string::npos);
}

// The bids of a partnership Spades run of `bot` in every seat with `explore` for `seats`, each
// at its ply: (seat, bid, the explored bids there, the rule player's bid there), with its hand's
// index, the record's values and the hand's margin for the seat's side.
struct RecordedBid {
    int seat, bid, rule;
    std::vector<int> explored;
    long hand = 0;
    std::array<float, kMaxValues> values{};
    int margin = 0;
};
std::vector<RecordedBid> recorded_bids(SelfplayPlan::ExploreBids explore, std::vector<int> seats,
                                       long hands, const std::string& bot = "rule") {
    SelfplayPlan plan;
    plan.rules = cardgames::load_rules(cardgames::preset_path("spades-partnership"), {});
    plan.specs = {bot, bot, bot, bot};
    plan.seats = std::move(seats);
    plan.hands = hands;
    plan.seed = 1'000'011;
    plan.explore_bids = explore;
    plan.check();
    std::vector<RecordedBid> out;
    SelfplayVisitor visitor;
    visitor.phases = 1u << static_cast<unsigned>(cardgames::Phase::kBid);
    visitor.decision = [&](const ReplayedDecision& d) {
        const cardgames::InfoState info = d.state.info_state(d.record.seat);
        const int rule = cardgames::heuristics::spades_bid(info);
        const int seat = d.record.seat;
        out.push_back({seat, d.record.action - kBidActionBase, rule,
                       sampling::explored_bids(info, rule), static_cast<long>(d.record.hand),
                       d.record.values, d.record.result[seat] - d.record.result[(seat + 1) % 4]});
    };
    for (long index = 0; index < hands; ++index) {
        const std::string bytes = selfplay_hand(plan, index, std::stop_token(),
                                                std::make_shared<cardgames::models::ModelStore>());
        std::vector<DecisionRecord> records;
        for (std::size_t at = 0; at < bytes.size(); at += kRecordSize)
            records.push_back(decode_record(
                reinterpret_cast<const unsigned char*>(bytes.data() + at), plan.rules, "test"));
        replay_selfplay_hand(records, std::vector<std::string>(records.size(), "test"), plan.rules,
                             visitor);
    }
    return out;
}

// With --explore-bids every recorded seat bids one of the bids the data explores, not always the
// rule player's; without it, the bot's own bid. Hearts has no bids to explore.
TEST(SelfplayFormat, ExploredBidsAreTheRecordedSeatsOnly) {
    using Explore = SelfplayPlan::ExploreBids;
    int varied = 0, weak_nil = 0;
    for (const RecordedBid& b : recorded_bids(Explore::kRule, {0, 1, 2, 3}, 40)) {
        EXPECT_NE(std::find(b.explored.begin(), b.explored.end(), b.bid), b.explored.end())
            << "bid " << b.bid << " at seat " << b.seat;
        varied += b.bid != b.rule;
        weak_nil += b.bid == 0 && b.rule != 0;
    }
    EXPECT_GT(varied, 0);
    EXPECT_GT(weak_nil, 0);
    for (const RecordedBid& b : recorded_bids(Explore::kNone, {0, 1, 2, 3}, 10))
        EXPECT_EQ(b.bid, b.rule);
    // Only the recorded seats explore.
    const std::vector<RecordedBid> one = recorded_bids(Explore::kRule, {0}, 10);
    EXPECT_EQ(one.size(), 10u);
    for (const RecordedBid& b : one) EXPECT_EQ(b.seat, 0);

    SelfplayPlan hearts;
    hearts.rules = hearts4();
    hearts.specs = {"rule", "rule", "rule", "rule"};
    hearts.seats = {0};
    hearts.hands = 1;
    hearts.seed = 1'000'011;
    hearts.explore_bids = Explore::kRule;
    EXPECT_NE(error_of([&] { hearts.check(); }).find("--explore-bids"), std::string::npos);
    hearts.explore_bids = Explore::kNone;  // the header of a run without it is what it was before
    EXPECT_FALSE(hearts.options().contains("explore_bids"));
    EXPECT_NE(error_of([] { explore_bids_named("mine"); }).find("--explore-bids 'mine'"),
              std::string::npos);
}

// With --explore-bids own, the draws that would keep the rule player's bid keep the bot's own:
// a random bidder's bids outside the explored ones reach the records.
TEST(SelfplayFormat, ExploringAroundTheOwnBidKeepsTheBotsBid) {
    using Explore = SelfplayPlan::ExploreBids;
    int own = 0, explored = 0;
    for (const RecordedBid& b : recorded_bids(Explore::kOwn, {0, 1, 2, 3}, 40, "random")) {
        const bool drawn =
            std::find(b.explored.begin(), b.explored.end(), b.bid) != b.explored.end();
        (drawn ? explored : own) += 1;
    }
    EXPECT_GT(own, 0);
    EXPECT_GT(explored, 0);
    for (const RecordedBid& b : recorded_bids(Explore::kRule, {0, 1, 2, 3}, 40, "random"))
        EXPECT_NE(std::find(b.explored.begin(), b.explored.end(), b.bid), b.explored.end());
    SelfplayPlan plan;
    plan.explore_bids = Explore::kOwn;
    EXPECT_EQ(plan.options()["explore_bids"], "own");
}

// With --explore-bids paired, one seat a hand (its index modulo 4) bids its own bid, and its
// record values each explored bid and its own by the hand played out after it. The rule players
// play alike whatever their seeds, so the own bid's value is the hand the record is of. The other
// bid records have no values (rule players, no --values).
TEST(SelfplayFormat, PairedBidsValueEachExploredBidByTheHandPlayedOut) {
    using Explore = SelfplayPlan::ExploreBids;
    int paired = 0, bid_changes_margin = 0;
    for (const RecordedBid& b : recorded_bids(Explore::kPaired, {0, 1, 2, 3}, 24)) {
        EXPECT_EQ(b.bid, b.rule) << "seat " << b.seat << " of hand " << b.hand;
        std::vector<int> valued;
        for (int k = 0; k < kMaxValues; ++k)
            if (!std::isnan(b.values[static_cast<std::size_t>(k)])) valued.push_back(k);
        if (b.seat != b.hand % 4) {
            EXPECT_TRUE(valued.empty()) << "seat " << b.seat << " of hand " << b.hand;
            continue;
        }
        ++paired;
        EXPECT_EQ(valued, b.explored) << "hand " << b.hand;  // nil is slot 0 (nil allowed)
        EXPECT_EQ(b.values[static_cast<std::size_t>(b.bid)], static_cast<float>(b.margin))
            << "hand " << b.hand;
        for (int k : valued)
            bid_changes_margin += b.values[static_cast<std::size_t>(k)] != b.margin ? 1 : 0;
    }
    EXPECT_EQ(paired, 24);
    EXPECT_GT(bid_changes_margin, 0);
    SelfplayPlan plan;
    plan.explore_bids = Explore::kPaired;
    EXPECT_EQ(plan.options()["explore_bids"], "paired");
    EXPECT_EQ(explore_bids_named("paired"), Explore::kPaired);
    EXPECT_NE(error_of([] { explore_bids_named("mine"); }).find("rule, own or paired"),
              std::string::npos);
}

TEST(SelfplayFormat, EveryBitOfTheHistoryAndDealComesBack) {
    DecisionRecord r;
    r.history_size = kMaxHistory;
    for (int i = 0; i < kMaxHistory; ++i) r.history[i] = static_cast<std::uint8_t>((i * 37) % 64);
    for (int c = 0; c < kDeckCards; ++c) r.deal[c] = static_cast<std::uint8_t>(c % 4);
    r.deal[7] = kNotDealt;
    r.legal = 13;
    r.values.fill(std::numeric_limits<float>::quiet_NaN());
    r.values[12] = -3.5f;
    r.result = {-26, 0, 26, 3, 0, 0};
    r.count = 1;
    r.ply = kMaxHistory - 1;
    const std::string bytes = encode_record(r);
    const DecisionRecord back =
        decode_record(reinterpret_cast<const unsigned char*>(bytes.data()), hearts4(), "test");
    EXPECT_EQ(back.history, r.history);
    EXPECT_EQ(back.deal, r.deal);
    EXPECT_EQ(back.result, r.result);
    EXPECT_EQ(back.values[12], -3.5f);
}

TEST(SelfplayFormat, DamageIsNamedByItsField) {
    DecisionRecord r;
    r.history_size = 1;
    r.legal = 1;
    r.count = 1;
    r.values.fill(std::numeric_limits<float>::quiet_NaN());
    std::string bytes = encode_record(r);
    bytes[20] = static_cast<char>(bytes[20] ^ 1);
    EXPECT_NE(error_of([&] {
                  decode_record(reinterpret_cast<const unsigned char*>(bytes.data()), hearts4(),
                                "'f' record 3");
              }).find("'f' record 3: field 'check'"),
              std::string::npos);
    r.values[1] = 2.0f;  // a value past the one legal action
    bytes = encode_record(r);
    EXPECT_NE(error_of([&] {
                  decode_record(reinterpret_cast<const unsigned char*>(bytes.data()), hearts4(),
                                "f");
              }).find("field 'values'"),
              std::string::npos);
}

// A header whose options lack what the readers name a run by, or give it as another type, is
// refused naming the key, not read as if it were there.
TEST(SelfplayFormat, AHeaderMissingAnOptionIsNamed) {
    SelfplayPlan plan;
    plan.rules = hearts4();
    plan.specs = {"rule", "rule", "rule", "rule"};
    plan.hands = 3;
    ShardHeader h;
    h.options = plan.options();
    EXPECT_EQ(parse_shard_header(h.bytes(), "f").hands, 3);
    for (const char* key : {"hands", "form", "seed", "players", "features"}) {
        ShardHeader lying = h;
        lying.options.erase(key);
        EXPECT_NE(error_of([&] {
                      parse_shard_header(lying.bytes(), "f");
                  }).find("'f': field 'header': key \"options." + std::string(key) + "\""),
                  std::string::npos)
            << key;
    }
    ShardHeader lying = h;
    lying.options["players"] = {"rule", "rule"};
    EXPECT_NE(error_of([&] { parse_shard_header(lying.bytes(), "f"); }).find("options.players"),
              std::string::npos);
}

using ShardWriterTest = cardgames::testing::TempFolderTest;

// A refused opening (shards there, no resume) lets go of the folder's lock: a process that goes on,
// as Python does, can then resume the folder.
TEST_F(ShardWriterTest, ARefusedOpeningReleasesTheFolder) {
    SelfplayPlan plan;
    plan.rules = hearts4();
    plan.specs = {"rule", "rule", "rule", "rule"};
    plan.seats = {0};
    plan.hands = 2;
    const std::string folder = (dir_ / "sp").string();
    const auto store = std::make_shared<cardgames::models::ModelStore>();
    {
        ShardWriter out(folder, plan.options(), false);
        out.append(selfplay_hand(plan, 0, std::stop_token(), store));
    }
    EXPECT_NE(error_of([&] {
                  ShardWriter again(folder, plan.options(), false);
              }).find("the folder holds shards"),
              std::string::npos);
    ShardWriter resumed(folder, plan.options(), true);
    EXPECT_EQ(resumed.done(), 1);
}

}  // namespace
}  // namespace apps
