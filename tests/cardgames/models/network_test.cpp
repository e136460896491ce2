// The card features and the network's accumulator: features from scratch against the tracker's
// card-by-card changes, and the incremental accumulator against a full recomputation, exactly,
// over whole hands of every form.
#include "cardgames/models/network.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <random>
#include <set>

#include "cardgames/models/card_features.hpp"
#include "cardgames/models/deal_features.hpp"
#include "test_helpers.hpp"

namespace cardgames::models {
namespace {

using testing::preset;

// Brings a new game to its first card: no blind nil, seat 1 bids nil and the others 3 (a nil
// and a contract for the contract features to follow), the lowest cards passed.
void to_play_phase(Game& game) {
    while (game.phase() != Phase::kPlay) {
        const InfoState info = game.info_state(game.to_act());
        std::string why;
        if (game.phase() == Phase::kBlindNil) why = game.choose_blind_nil(false);
        if (game.phase() == Phase::kBid) why = game.choose_bid(game.to_act() == 1 ? 0 : 3);
        if (game.phase() == Phase::kPass) {
            CardSet pass;
            CardSet hand = info.hand;
            for (int i = 0; i < info.pass_count; ++i) pass |= hand.pop_lowest();
            why = game.choose_pass(pass);
        }
        ASSERT_EQ(why, "");
    }
}

std::set<int> feature_set(const InfoState& info, int version = 1) {
    ActiveFeatures f;
    card_features(info, version, f);
    return {f.index.begin(), f.index.begin() + f.count};
}

// A sink that applies the tracker's changes to a set, checking each is a change, and to an
// evaluator's accumulator.
struct Sink {
    std::set<int>& on;
    Evaluator& evaluator;
    void add(int f) {
        EXPECT_TRUE(on.insert(f).second) << "feature " << f << " was on";
        evaluator.add(f);
    }
    void remove(int f) {
        EXPECT_EQ(on.erase(f), 1u) << "feature " << f << " was off";
        evaluator.remove(f);
    }
};

// Seat 1's view, holding AS KH 3D, before any play.
InfoState seat_one_view(const Rules& rules) {
    InfoState info;
    info.rules = &rules;
    info.seat = 1;
    info.hand = testing::cards("AS KH 3D");
    return info;
}

TEST(CardFeatures, KnownPositionInHearts) {
    const Rules rules = preset("hearts4");
    InfoState info = seat_one_view(rules);
    // Trick 1: seat 0 leads 2C, seat 1 plays 4C, seat 2 discards QS (void in clubs), seat 3 5C.
    // Trick 2 in progress: seat 2 led 7D.
    info.plays = {testing::pc(0, "2C"), testing::pc(1, "4C"), testing::pc(2, "QS"),
                  testing::pc(3, "5C"), testing::pc(2, "7D")};
    const std::set<int> got = feature_set(info);
    const std::set<int> want = {
        hand_feature(testing::C("AS")),        hand_feature(testing::C("KH")),
        hand_feature(testing::C("3D")),        played_feature(3, testing::C("2C")),
        played_feature(0, testing::C("4C")),   played_feature(1, testing::C("QS")),
        played_feature(2, testing::C("5C")),   played_feature(1, testing::C("7D")),
        trick_feature(4, 1, testing::C("7D")), void_feature(4, 1, Suit::kClubs)};
    EXPECT_EQ(got, want);
    EXPECT_EQ(card_feature_count(GameKind::kHearts, 4, 1), 484);
    EXPECT_EQ(void_feature(4, 3, Suit::kSpades), 483);

    // Version 2 adds who took what: seat 3's 5C won the first trick and the QS with it.
    std::set<int> v2 = want;
    v2.insert({contract_feature(4, kTookFact, 2), contract_feature(4, kQueenFact, 2),
               contract_feature(4, kMoonFact, 2)});
    EXPECT_EQ(feature_set(info, 2), v2);
    EXPECT_EQ(card_feature_count(GameKind::kHearts, 4, 2), 484 + 12);
}

TEST(CardFeatures, ContractInSpades) {
    const Rules rules = preset("spades-partnership");
    InfoState info = seat_one_view(rules);
    // Seat 0 bids 4, seat 1 (the viewer) nil, seat 2 2 and seat 3 5. Seat 1 takes the first
    // trick, seat 2 the second (a spade ruffs).
    info.bids = {Bid{4}, Bid{0}, Bid{2}, Bid{5}};
    info.plays = {testing::pc(0, "2C"), testing::pc(1, "AC"), testing::pc(2, "4C"),
                  testing::pc(3, "5C"), testing::pc(1, "7D"), testing::pc(2, "2S"),
                  testing::pc(3, "8D"), testing::pc(0, "9D")};
    std::set<int> want = feature_set(info, 1);
    // Sides: seats 0 and 2 (contract 6, took 1: need 5); seats 1 and 3 (contract 5: seat 1's
    // trick is a nil bidder's and does not count: need 5). Relative to seat 1: seat 1 is 0,
    // seat 2 is 1, seat 3 is 2, seat 0 is 3. Seat 1's nil is broken: no nil fact.
    for (int rel = 0; rel < 4; ++rel) want.insert(need_feature(4, rel, 5));
    EXPECT_EQ(feature_set(info, 2), want);
    EXPECT_EQ(card_feature_count(GameKind::kSpades, 4, 2), 484 + 60);

    // Seats 0 and 3 bid nil and have taken nothing; seats 1 and 3 bid 1 and made it with seat
    // 1's trick; seats 0 and 2 bid 3 and need 2 more.
    info.bids = {Bid{0}, Bid{1}, Bid{3}, Bid{0}};
    want = feature_set(info, 1);
    want.insert({contract_feature(4, kNilFact, 3), contract_feature(4, kNilFact, 2),
                 contract_feature(4, kMadeFact, 0), contract_feature(4, kMadeFact, 2),
                 need_feature(4, 1, 2), need_feature(4, 3, 2)});
    EXPECT_EQ(feature_set(info, 2), want);
}

// Plays whole hands at random; for every seat's view, the tracker's changes turn the features of
// the start of the play into exactly the features computed from scratch after each card, and an
// accumulator updated with them equals one recomputed, element for element.
TEST(CardFeatures, TrackerAndAccumulatorMatchRecomputation) {
    for (const int version : {1, 2})
        for (const char* form :
             {"hearts4", "spades-partnership", "hearts3", "hearts6", "spades-cutthroat3"}) {
            const Rules rules = preset(form);
            const ModelFile file =
                random_network_file(form_name(rules), "value", rules.players, 7, version);
            const Network net(file);
            ASSERT_EQ(net.card_version(), version);
            std::mt19937_64 rng(11);
            for (int g = 0; g < 6; ++g) {
                Game game(rules, 100 + g);
                to_play_phase(game);
                const int n = rules.players;
                std::vector<CardFeatureTracker> trackers;
                std::vector<std::set<int>> on;
                std::vector<Evaluator> incremental;
                for (int v = 0; v < n; ++v) {
                    const InfoState info = game.info_state(v);
                    trackers.emplace_back(info, version);
                    on.push_back(feature_set(info, version));
                    incremental.emplace_back(net);
                    ActiveFeatures f;
                    card_features(info, version, f);
                    incremental.back().refresh(f.view());
                }
                Evaluator full(net);
                for (int k = 0; k < rules.cards_per_hand() * n; ++k) {
                    const int seat = game.to_act();
                    const CardSet legal = game.play_state().legal_moves(game.play_rules());
                    std::vector<Card> choices(legal.begin(), legal.end());
                    const Card card = choices[rng() % choices.size()];
                    for (int v = 0; v < n; ++v) {
                        Sink sink{on[v], incremental[v]};
                        trackers[v].play(seat, card, sink);
                    }
                    ASSERT_EQ(game.choose_card(card), "");
                    if (k + 1 == rules.cards_per_hand() * n) break;  // the hand is scored and gone
                    for (int v = 0; v < n; ++v) {
                        const InfoState info = game.info_state(v);
                        ASSERT_EQ(on[v], feature_set(info, version))
                            << form << " version " << version << " game " << g << " card " << k;
                        ActiveFeatures f;
                        card_features(info, version, f);
                        ASSERT_LE(f.count, max_active_card_features(n, version));
                        full.refresh(f.view());
                        ASSERT_TRUE(
                            std::ranges::equal(incremental[v].accumulator(), full.accumulator()))
                            << form << " game " << g << " card " << k << " viewer " << v;
                        const std::vector<float> a(incremental[v].evaluate().begin(),
                                                   incremental[v].evaluate().end());
                        const std::span<const float> b = full.evaluate();
                        ASSERT_TRUE(std::ranges::equal(a, b));
                    }
                }
            }
        }
}

// Every instruction set a dense layer runs on gives the bits of the plain loop that sums each
// output's terms in input order: a decision does not depend on the machine.
TEST(Network, DenseLayersGiveTheSameBitsOnEveryInstructionSet) {
    std::mt19937 rng(11);
    std::uniform_real_distribution<float> weight(-1.0f, 1.0f);
    for (const auto& [in, out] : {std::pair{128, 32}, {32, 32}, {32, 52}, {7, 3}, {256, 13}}) {
        const auto n_in = static_cast<std::size_t>(in), n_out = static_cast<std::size_t>(out);
        std::vector<float> w(n_in * n_out), b(n_out), x(n_in);
        for (float& v : w) v = weight(rng);
        for (float& v : b) v = weight(rng);
        for (float& v : x) v = rng() % 3 == 0 ? 0.0f : (weight(rng) + 1.0f) / 2;
        std::vector<float> want(b);
        for (int i = 0; i < in; ++i) {
            if (x[std::size_t(i)] == 0.0f) continue;
            for (int o = 0; o < out; ++o) {
                const float term =
                    w[std::size_t(i) * std::size_t(out) + std::size_t(o)] * x[std::size_t(i)];
                want[std::size_t(o)] = want[std::size_t(o)] + term;
            }
        }
        int checked = 0;
        for (const DenseInstructions set : {DenseInstructions::kPlain, DenseInstructions::kAvx2}) {
            if (!has_dense_instructions(set)) continue;
            std::vector<float> got(std::size_t(out), -1.0f);
            dense_layer(set, w, b, x, got);
            for (int o = 0; o < out; ++o)
                ASSERT_EQ(std::bit_cast<std::uint32_t>(got[std::size_t(o)]),
                          std::bit_cast<std::uint32_t>(want[std::size_t(o)]))
                    << "instructions " << int(set) << ", layer " << in << " x " << out
                    << ", output " << o;
            ++checked;
        }
        EXPECT_GE(checked, 1);
    }
    EXPECT_TRUE(has_dense_instructions(DenseInstructions::kPlain));
    EXPECT_TRUE(has_dense_instructions(dense_instructions()));
}

// A cut-off network reads the deal features of its form's game and has an output per seat; one
// that claims the card features is refused naming the field.
TEST(Network, CutoffNetworksReadTheDealFeatures) {
    for (const char* form : {"hearts4", "spades-partnership", "spades-cutthroat3"}) {
        const int players = players_of_form(form, "test");
        const Network net(random_network_file(form, "cutoff", players, 3));
        EXPECT_EQ(net.task(), "cutoff");
        EXPECT_EQ(net.inputs(), deal_feature_count(game_of_form(form), players)) << form;
        EXPECT_EQ(net.outputs(), players);
    }
    EXPECT_EQ(deal_feature_count(GameKind::kHearts, 4), 54 * 4 + 1);
    EXPECT_EQ(deal_feature_count(GameKind::kSpades, 4), 68 * 4 + 1);
    ModelFile m = random_network_file("hearts4", "cutoff", 4, 3);
    for (auto& [key, value] : m.fields)
        if (key == "features") value = "cards 1 484";
    try {
        const Network net(m);
        ADD_FAILURE() << "a cut-off network of card features was read";
    } catch (const InputError& e) {
        EXPECT_NE(
            std::string(e.what()).find("field 'features': 'cards 1 484', expected 'deal 1 217'"),
            std::string::npos)
            << e.what();
    }
    EXPECT_THROW(Network(random_network_file("hearts4", "cutoff", 3, 3)), InputError);  // outputs
}

// A network reads the card features of the version its file names, any from 1 to the newest; a
// version or count that is none of them is refused naming the field and the newest.
TEST(Network, ReadsEveryCardFeatureVersion) {
    for (const int version : {1, 2}) {
        const Network net(random_network_file("spades-partnership", "policy", 52, 1, version));
        EXPECT_EQ(net.card_version(), version);
        EXPECT_EQ(net.inputs(), card_feature_count(GameKind::kSpades, 4, version));
    }
    for (const char* field : {"cards 3 544", "cards 1 544", "cards 2 484", "cards 2"}) {
        ModelFile m = random_network_file("spades-partnership", "policy", 52, 1);
        for (auto& [key, value] : m.fields)
            if (key == "features") value = field;
        try {
            const Network net(m);
            ADD_FAILURE() << field << " was read";
        } catch (const InputError& e) {
            EXPECT_NE(std::string(e.what()).find("field 'features': '" + std::string(field) +
                                                 "', expected 'cards 2 544'"),
                      std::string::npos)
                << e.what();
        }
    }
}

TEST(Network, EvaluatesByHandAsTheFileSays) {
    // One feature, width 2, one output, no hidden layer: out = w . clip(acc / scale) + b.
    ModelFile m = random_network_file("hearts4", "bid", 1, 1, 1);
    m.tensors.erase(m.tensors.begin() + 2, m.tensors.end());
    m.tensors[0].shape = {484, 2};
    m.tensors[0].i16.assign(484 * 2, 0);
    m.tensors[0].i16[5 * 2 + 0] = 100;  // feature 5 -> unit 0
    m.tensors[0].i16[5 * 2 + 1] = -50;  // feature 5 -> unit 1
    m.tensors[0].i16[9 * 2 + 1] = 300;  // feature 9 -> unit 1 (clipped at 127)
    m.tensors[1].shape = {2};
    m.tensors[1].i16 = {10, 0};
    m.tensors.push_back({"out.weight", DType::kF32, {1, 2}, {2.0f, -1.0f}, {}, {}});
    m.tensors.push_back({"out.bias", DType::kF32, {1}, {0.5f}, {}, {}});
    const Network net(parse_model_file(format_model_file(m), "test"));
    Evaluator e(net);
    EXPECT_FLOAT_EQ(e.evaluate()[0], 2.0f * 10 / 127 + 0.5f);
    const int both[] = {5, 9};
    e.refresh(both);
    EXPECT_FLOAT_EQ(e.evaluate()[0], 2.0f * 110 / 127 - 1.0f + 0.5f);
    e.remove(9);
    EXPECT_FLOAT_EQ(e.evaluate()[0], 2.0f * 110 / 127 + 0.5f);
}

}  // namespace
}  // namespace cardgames::models
