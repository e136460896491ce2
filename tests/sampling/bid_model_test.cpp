// The learned Spades bid model: its file round-trips and a malformed one is refused with its line;
// the bid it chooses on hand-built hands and models (13 sure tricks bid 13, nil only where the
// nil model says it is made, bags weighed); the fit recovers known parameters on synthetic data.
#include "sampling/bid_model.hpp"

#include <gtest/gtest.h>

#include <boost/random/mersenne_twister.hpp>
#include <boost/random/normal_distribution.hpp>
#include <boost/random/uniform_real_distribution.hpp>
#include <cmath>
#include <sstream>

#include "cardgames/cards/error.hpp"
#include "cardgames/rules/game_runner.hpp"
#include "sampling/bid_fit.hpp"
#include "sampling/bot_registry.hpp"
#include "sampling/model_file.hpp"
#include "sampling/pimc.hpp"
#include "tests/cardgames/test_helpers.hpp"

namespace sampling {
namespace {

using namespace cardgames;
using cardgames::testing::error_of;

// "AKQ.2.." : spades, hearts, diamonds, clubs.
CardSet hand_of(const std::string& text) {
    CardSet out;
    const char suits[] = {'S', 'H', 'D', 'C'};
    int suit = 0;
    for (char c : text) {
        if (c == '.')
            ++suit;
        else
            out |= parse_card(std::string{c, suits[suit]});
    }
    return out;
}

std::size_t feature(const std::string& name) {
    const auto& names = bid_feature_names();
    return static_cast<std::size_t>(std::find(names.begin(), names.end(), name) - names.begin());
}

// A model whose tricks follow the rule player's estimate closely and whose nil is made with
// probability sigmoid(nil_bias - 2 * estimate).
SpadesBidModel sharp_model(const Rules& rules, double nil_bias) {
    SpadesBidModel m;
    m.players = rules.players;
    m.cards = rules.cards_per_hand();
    m.partnership = rules.is_partnership();
    const std::size_t nf = bid_feature_names().size();
    m.trick_weights.assign(nf, 0.0);
    m.trick_weights[feature("rule_estimate")] = 4;
    for (int k = 1; k <= m.cards; ++k) m.trick_intercepts.push_back(-4 * (k - 0.5));
    m.nil_weights.assign(nf, 0.0);
    m.nil_weights[feature("rule_estimate")] = -2;
    m.nil_intercept = nil_bias;
    m.partner_residual.assign(2 * static_cast<std::size_t>(m.cards) + 1, 0.0);
    m.partner_residual[static_cast<std::size_t>(m.cards)] = 0.6;
    m.partner_residual[static_cast<std::size_t>(m.cards) - 1] = 0.2;
    m.partner_residual[static_cast<std::size_t>(m.cards) + 1] = 0.2;
    m.blind_nil_made = 0.3;
    m.provenance = {"made by: hand, for a test"};
    return m;
}

BidSituation situation(const Rules& rules, int seat, const std::string& hand) {
    BidSituation s;
    s.rules = &rules;
    s.seat = seat;
    s.hand = hand_of(hand);
    return s;
}

TEST(BidModel, FileRoundTripsExactly) {
    const Rules rules = load_rules(preset_path("spades-partnership"), {});
    SpadesBidModel m = sharp_model(rules, 3);
    m.trick_weights[3] = 0.1 + 1e-17;  // not a short decimal: must still come back bit for bit
    m.nil_intercept = -1.0 / 3;
    std::ostringstream out;
    write_bid_model(m, out);
    const SpadesBidModel back = parse_bid_model(out.str(), "test");
    EXPECT_EQ(back.players, 4);
    EXPECT_EQ(back.cards, 13);
    EXPECT_TRUE(back.partnership);
    EXPECT_EQ(back.trick_weights, m.trick_weights);
    EXPECT_EQ(back.trick_intercepts, m.trick_intercepts);
    EXPECT_EQ(back.nil_weights, m.nil_weights);
    EXPECT_EQ(back.nil_intercept, m.nil_intercept);
    EXPECT_EQ(back.partner_residual, m.partner_residual);
    EXPECT_EQ(back.blind_nil_made, m.blind_nil_made);
    // The file says what it is and what made it, and keeps it when read.
    EXPECT_NE(out.str().find("# made by: hand, for a test"), std::string::npos);
    EXPECT_NE(out.str().find("\nkind bids\nfeatures spades-bids 1 29\nnames rule_estimate "),
              std::string::npos);
    EXPECT_EQ(back.provenance, m.provenance);
    EXPECT_EQ(back.fingerprint(), m.fingerprint());
    // The old text format reads as the same model, its comments kept.
    std::ostringstream text;
    write_text_bid_model(m, text);
    const SpadesBidModel old = parse_bid_model(text.str(), "old");
    EXPECT_EQ(old.fingerprint(), m.fingerprint());
    EXPECT_EQ(old.provenance, m.provenance);
    EXPECT_TRUE(is_bid_model_file(text.str()));
    EXPECT_TRUE(is_bid_model_file(out.str()));
}

TEST(BidModel, LyingVersionTwoFilesAreRefusedNamingFileAndField) {
    const Rules rules = load_rules(preset_path("spades-partnership"), {});
    const models::ModelFile good = bid_model_file(sharp_model(rules, 3));
    auto refused = [](const std::string& bytes) {
        return error_of([&] { parse_bid_model(bytes, "bid model 'm.txt'"); });
    };
    const std::string bytes = models::format_model_file(good);
    EXPECT_EQ(refused(bytes), "(no error)");
    std::string flipped = bytes;
    flipped[flipped.size() - 1] ^= 1;
    EXPECT_NE(refused(flipped).find("bid model 'm.txt': field 'checksum'"), std::string::npos);
    EXPECT_NE(refused(bytes.substr(0, bytes.size() - 8)).find("bid model 'm.txt': truncated"),
              std::string::npos);
    auto with = [&](const std::string& key, const std::string& value) {
        models::ModelFile m = good;
        for (auto& [k, v] : m.fields)
            if (k == key) v = value;
        return refused(models::format_model_file(m));
    };
    EXPECT_EQ(with("kind", "linear"),
              "bid model 'm.txt': field 'kind': a 'linear' model, not a bid model");
    EXPECT_NE(with("features", "spades-bids 2 29").find("field 'features': 'spades-bids 2 29'"),
              std::string::npos);
    EXPECT_NE(with("names", "spades").find("field 'names': feature 1 is 'spades'"),
              std::string::npos);
    EXPECT_NE(with("rules", "players 4 cards 99 partnership true").find("field 'rules'"),
              std::string::npos);
    models::ModelFile shape = good;
    shape.tensors[1].shape = {28};
    shape.tensors[1].f64.pop_back();
    EXPECT_EQ(refused(models::format_model_file(shape)),
              "bid model 'm.txt': tensor 'trick_weights': f64 of 28, expected f64 of 29");
    // A linear model's file is no bid model, nor a bid model's a linear model.
    EXPECT_FALSE(is_bid_model_file("cardgames-model 2\nkind linear\n"));
    EXPECT_NE(error_of([&] {
                  parse_model_file(bytes, "model 'm.txt'");
              }).find("field 'kind': a 'bids' model, not a linear one"),
              std::string::npos);
}

// The message of parsing `text`, which must be refused.
std::string refusal(const std::string& text) {
    try {
        parse_bid_model(text, "bid model 'm.txt'");
    } catch (const InputError& e) {
        return e.what();
    }
    ADD_FAILURE() << "accepted:\n" << text;
    return "";
}

TEST(BidModel, MalformedTextFilesAreRefusedWithTheirLine) {
    const Rules rules = load_rules(preset_path("spades-partnership"), {});
    std::ostringstream out;
    write_text_bid_model(sharp_model(rules, 3), out);
    const std::string good = out.str();
    std::vector<std::string> lines;
    std::istringstream in(good);
    for (std::string l; std::getline(in, l);) lines.push_back(l);
    auto line_of = [&](const std::string& key) {
        for (std::size_t i = 0; i < lines.size(); ++i)
            if (lines[i].rfind(key + " ", 0) == 0 || lines[i] == key) return i;
        ADD_FAILURE() << "no line " << key;
        return std::size_t{0};
    };
    auto with = [&](std::size_t i, const std::string& replacement) {
        std::string t;
        for (std::size_t j = 0; j < lines.size(); ++j)
            t += (j == i ? replacement : lines[j]) + "\n";
        return t;
    };
    auto at = [](std::size_t i) { return "bid model 'm.txt' line " + std::to_string(i + 1) + ":"; };

    const std::size_t weights = line_of("trick_weights");
    const std::size_t features = line_of("features");
    const std::size_t rules_line = line_of("rules");
    const std::size_t end = line_of("end");
    struct Case {
        std::string text, where, says;
    };
    const std::vector<Case> cases = {
        {with(weights, lines[weights] + " 1"), at(weights), "says 29 values and gives 30"},
        {with(weights, "trick_weights 28 1 2"), at(weights), "28 values where 29 are expected"},
        {with(weights, "trick_weights 29" + std::string(28 * 2, ' ') + " x"), at(weights), "gives"},
        {with(line_of("nil_intercept"), "nil_intercept nan"), at(line_of("nil_intercept")),
         "'nan' is not a finite number"},
        {with(line_of("nil_intercept"), "nil_intercept 1e999"), at(line_of("nil_intercept")),
         "not a finite number"},
        {with(features,
              "features 29 spades" + lines[features].substr(lines[features].find(' ', 12))),
         at(features), "feature 1 is 'spades'"},
        {with(rules_line, "rules players 4 cards 99 partnership true"), at(rules_line),
         "'99' is not a count"},
        {with(line_of("blind_nil_made"), "blind_nil_made 1.5"), at(line_of("blind_nil_made")),
         "not a probability"},
        {with(end, "trick_weights 1 0"), at(end),
         "'trick_weights' again (first on line " + std::to_string(weights + 1) + ")"},
        {with(end, "# no end"), "bid model 'm.txt' line " + std::to_string(lines.size()),
         "no 'end' line"},
        {with(end, "end\nformat 1"), "line " + std::to_string(end + 2), "text after 'end'"},
        {with(rules_line, "colour blue"), at(rules_line), "unknown key 'colour'"},
    };
    for (const Case& c : cases) {
        const std::string msg = refusal(c.text);
        EXPECT_NE(msg.find(c.where), std::string::npos) << msg << "\nwant: " << c.where;
        EXPECT_NE(msg.find(c.says), std::string::npos) << msg << "\nwant: " << c.says;
    }
    EXPECT_NE(refusal("").find("no 'format' line"), std::string::npos);
}

TEST(BidModel, ThirteenSureTricksBidThirteen) {
    const Rules cutthroat = load_rules(preset_path("spades-cutthroat4"), {});
    const SpadesBidModel m = sharp_model(cutthroat, 3);
    EXPECT_EQ(model_bid(m, situation(cutthroat, 1, "AKQJT98765432...")), 13);
    // In partnership too, once the partner has bid nil (else his bid of one or more makes 14).
    const Rules partners = load_rules(preset_path("spades-partnership"), {});
    const SpadesBidModel pm = sharp_model(partners, 3);
    BidSituation s = situation(partners, 2, "AKQJT98765432...");
    s.bids[0] = Bid{0, false};
    EXPECT_EQ(model_bid(pm, s), 13);
    EXPECT_EQ(pm.tricks(s)[13], 1.0);
}

TEST(BidModel, NilOnlyWhereTheNilModelSaysItIsMade) {
    const Rules rules = load_rules(preset_path("spades-partnership"), {});
    const std::string low = "432.5432.5432.32";  // no card above a five
    BidSituation s = situation(rules, 0, low);
    s.bids[3] = Bid{3, false};
    const SpadesBidModel likely = sharp_model(rules, 3);  // P(made) about 0.9 on this hand
    ASSERT_GT(likely.nil_made(s), 0.8);
    EXPECT_EQ(model_bid(likely, s), 0);
    const SpadesBidModel unlikely = sharp_model(rules, -3);  // about 0.04
    ASSERT_LT(unlikely.nil_made(s), 0.1);
    EXPECT_NE(model_bid(unlikely, s), 0);
    // The values are hand scores: nil is worth 100 * (2p - 1) plus the partner's own contract.
    const auto values = value_bids(likely, s);
    EXPECT_EQ(values.front().bid, 0);
    EXPECT_GT(values.front().expected, 60);
}

TEST(BidModel, BagsAreWeighed) {
    // Three or four tricks, even odds: with no bags, bid three and risk an overtrick; one bag
    // short of the penalty, bid four.
    const Rules rules = load_rules(preset_path("spades-cutthroat4"), {});
    SpadesBidModel m = sharp_model(rules, -10);
    m.trick_weights.assign(m.trick_weights.size(), 0.0);
    for (int k = 1; k <= m.cards; ++k) m.trick_intercepts[k - 1] = k <= 3 ? 50 : k == 4 ? 0 : -50;
    BidSituation s = situation(rules, 0, "A32.A32.A432.432");
    const auto p = m.tricks(s);
    ASSERT_NEAR(p[3], 0.5, 1e-9);
    ASSERT_NEAR(p[4], 0.5, 1e-9);
    EXPECT_EQ(model_bid(m, s), 3);
    EXPECT_NEAR(value_bids(m, s).front().expected, 30.5, 1e-6);
    // Paid for as they are taken, the overtrick costs 10 points on top of its one: bid three is
    // worth 0.5 x 30 + 0.5 x (31 - 10) whatever bags are held.
    EXPECT_EQ(model_bid(m, s, BagValue::kAmortized), 3);
    EXPECT_NEAR(value_bids(m, s, BagValue::kAmortized).front().expected, 25.5, 1e-6);
    s.scores.bags[0] = rules.bags_per_penalty - 1;
    EXPECT_EQ(model_bid(m, s), 4);
    EXPECT_EQ(model_bid(m, s, BagValue::kAmortized), 3);
    EXPECT_NEAR(value_bids(m, s, BagValue::kAmortized).front().expected, 25.5, 1e-6);
}

TEST(BidModel, TheShippedModelsLoadAndBidSensibly) {
    const Rules rules = load_rules(preset_path("spades-partnership"), {});
    models::ModelStore store;
    const auto model = load_bid_model(store, default_bid_model_path(rules));
    ASSERT_TRUE(model->fits(rules));
    EXPECT_EQ(load_bid_model(store, default_bid_model_path(rules)), model);  // shared
    BidSituation s = situation(rules, 2, "AKQJT98765432...");
    s.bids[0] = Bid{0, false};
    EXPECT_EQ(model_bid(*model, s), 13);
    // A middling hand: a bid near the tricks the model expects, never nil.
    const BidSituation mid = situation(rules, 0, "AQ5.K84.QJ92.K63");
    const auto p = model->tricks(mid);
    double mean = 0;
    for (std::size_t k = 0; k < p.size(); ++k) mean += static_cast<double>(k) * p[k];
    const int bid = model_bid(*model, mid);
    EXPECT_GE(bid, 1);
    EXPECT_LE(std::abs(bid - mean), 1.5) << mean;
    const Rules three = load_rules(preset_path("spades-cutthroat3"), {});
    EXPECT_TRUE(load_bid_model(store, default_bid_model_path(three))->fits(three));
    EXPECT_FALSE(model->fits(three));
}

TEST(BidModel, PimcTakesTheModelBySpec) {
    EXPECT_NO_THROW(make_player("pimc:bid=model", 1));
    EXPECT_THROW(make_player("pimc:model=x.txt", 1), InputError);  // model= needs bid=model
    EXPECT_THROW(make_player("pimc:bid=model,bid_model=/nonexistent/m.txt", 1), InputError);
    // It bids through the model in a real game.
    const Rules rules = load_rules(preset_path("spades-partnership"), {});
    Game game(rules, 5);
    game.stop_after_hand();
    std::vector<std::unique_ptr<Player>> players;
    for (int seat = 0; seat < 4; ++seat)
        players.push_back(make_player(seat % 2 ? "rule" : "pimc:bid=model,worlds=2,rollouts=2",
                                      mix_seed(5, static_cast<std::uint64_t>(seat))));
    run_game(game, players);
    ASSERT_EQ(game.finished_hands().size(), 1u);
    const HandRecord& h = game.finished_hands().front();
    models::ModelStore store;
    for (int seat : {0, 2}) {
        BidSituation b;
        b.rules = &rules;
        b.seat = seat;
        b.dealer = h.dealer;
        b.hand = h.deal.hands[seat];
        for (int t = 0; t < 4; ++t)  // the bids made before this seat's, in bidding order
            if ((t - h.dealer - 1 + 8) % 4 < (seat - h.dealer - 1 + 8) % 4) b.bids[t] = h.bids[t];
        EXPECT_EQ(h.bids[seat].tricks,
                  model_bid(*load_bid_model(store, default_bid_model_path(rules)), b))
            << seat;
    }
}

// analyze_bid gives the bid that bid() makes and the values it chose by: by the model, every bid
// (1..13 and nil) with the chosen one best; by play-outs, the candidates, the chosen among them.
TEST(BidModel, PimcShowsTheValuesItBidsBy) {
    for (const char* preset : {"spades-partnership", "spades-cutthroat3"}) {
        SCOPED_TRACE(preset);
        const Rules rules = load_rules(preset_path(preset), {});
        const bool model = rules.is_partnership();
        for (std::uint64_t seed = 1; seed <= 4; ++seed) {
            Game game(rules, seed);
            if (game.phase() == Phase::kBlindNil) game.choose_blind_nil(false);
            ASSERT_EQ(game.phase(), Phase::kBid);
            const InfoState info = game.info_state(game.to_act());
            PimcBot bot(PimcOptions::from_spec(parse_bot_spec("pimc:rollouts=8")), seed);
            const BidAnalysis a = bot.analyze_bid(info);
            EXPECT_EQ(a.bid, PimcBot(bot.options(), seed).bid(info));
            double chosen = std::nan(""), best = -1e9;
            for (const BidValue& v : a.values) {
                EXPECT_TRUE(std::isfinite(v.expected)) << v.bid;
                best = std::max(best, v.expected);
                if (v.bid == a.bid) chosen = v.expected;
            }
            ASSERT_FALSE(std::isnan(chosen)) << "the bid made is not among those valued";
            if (model) {
                EXPECT_EQ(a.values.size(), 14u);
                EXPECT_EQ(chosen, best);
            } else {
                EXPECT_GE(a.values.size(), 3u);
            }
        }
    }
}

// pimc:bags=amortized bids by the model's values with bags paid for as they are taken.
TEST(BidModel, PimcValuesBidsWithTheBagsItIsGiven) {
    const Rules rules = load_rules(preset_path("spades-partnership"), {});
    models::ModelStore store;
    const auto model = load_bid_model(store, default_bid_model_path(rules));
    int differ = 0;
    for (std::uint64_t seed = 1; seed <= 6; ++seed) {
        Game game(rules, seed);
        if (game.phase() == Phase::kBlindNil) game.choose_blind_nil(false);
        const InfoState info = game.info_state(game.to_act());
        const BidSituation s = BidSituation::from(info);
        for (const BagValue bags : {BagValue::kHand, BagValue::kAmortized}) {
            const char* spec = bags == BagValue::kHand ? "pimc:bags=hand" : "pimc:bags=amortized";
            PimcBot bot(PimcOptions::from_spec(parse_bot_spec(spec)), seed);
            const BidAnalysis a = bot.analyze_bid(info);
            EXPECT_EQ(a.bid, model_bid(*model, s, bags)) << spec;
            const auto want = value_bids(*model, s, bags);
            ASSERT_EQ(a.values.size(), want.size());
            for (std::size_t i = 0; i < want.size(); ++i)
                EXPECT_EQ(a.values[i].expected, want[i].expected) << spec << " " << i;
        }
        differ += value_bids(*model, s, BagValue::kHand).front().expected !=
                  value_bids(*model, s, BagValue::kAmortized).front().expected;
        // Unset, bags are paid for as taken, but in the game's last hand (a tournament by hands).
        PimcBot bot(PimcOptions::from_spec(parse_bot_spec("pimc")), seed);
        EXPECT_EQ(bot.analyze_bid(info).values.front().expected,
                  value_bids(*model, s, BagValue::kAmortized).front().expected);
        Game one(rules, seed);
        one.stop_after_hand();
        if (one.phase() == Phase::kBlindNil) one.choose_blind_nil(false);
        EXPECT_EQ(bot.analyze_bid(one.info_state(one.to_act())).values.front().expected,
                  value_bids(*model, s, BagValue::kHand).front().expected);
    }
    EXPECT_GT(differ, 0);
}

TEST(BidModelFit, LogisticRecoversKnownWeights) {
    boost::random::mt19937_64 rng(5);
    boost::random::normal_distribution<double> normal;
    boost::random::uniform_real_distribution<double> uniform(0, 1);
    const std::vector<double> truth = {1.0, -2.0, 0.0};
    const double bias = 0.5;
    std::vector<std::vector<double>> x;
    std::vector<int> y;
    for (int i = 0; i < 20000; ++i) {
        std::vector<double> row = {normal(rng), 3 + 2 * normal(rng), normal(rng)};
        double z = bias;
        for (std::size_t j = 0; j < row.size(); ++j) z += truth[j] * row[j];
        y.push_back(uniform(rng) < 1 / (1 + std::exp(-z)) ? 1 : 0);
        x.push_back(row);
    }
    const LogisticFit fit = fit_logistic(x, y, 0.0);
    EXPECT_NEAR(fit.intercept, bias, 0.15);
    for (std::size_t j = 0; j < truth.size(); ++j) EXPECT_NEAR(fit.weights[j], truth[j], 0.08) << j;
}

TEST(BidModelFit, TricksModelRecoversKnownSlopesAndIntercepts) {
    const Rules rules = load_rules(preset_path("spades-partnership"), {});
    const std::size_t nf = bid_feature_names().size();
    std::vector<double> slopes(nf, 0.0);
    slopes[0] = 1.2;
    slopes[4] = -0.7;
    slopes[10] = 0.5;
    std::vector<double> intercepts;
    for (int k = 1; k <= 13; ++k) intercepts.push_back(3 - 1.1 * k);
    const double nil_bias = -0.4;
    boost::random::mt19937_64 rng(9);
    boost::random::normal_distribution<double> normal;
    boost::random::uniform_real_distribution<double> uniform(0, 1);
    std::vector<BidSample> samples;
    for (int i = 0; i < 6000; ++i) {
        BidSample s;
        for (std::size_t j = 0; j < nf; ++j) s.x.push_back(normal(rng));
        double z = 0;
        for (std::size_t j = 0; j < nf; ++j) z += slopes[j] * s.x[j];
        const double u = uniform(rng);
        s.bid = i % 5 == 0 ? 0 : 3;
        if (s.bid == 0) {
            s.tricks = u < 1 / (1 + std::exp(-(nil_bias + s.x[0]))) ? 0 : 1;
        } else {
            s.tricks = 0;
            for (int k = 1; k <= 13; ++k)
                if (u < 1 / (1 + std::exp(-(z + intercepts[k - 1])))) s.tricks = k;
        }
        samples.push_back(std::move(s));
    }
    const SpadesBidModel m = fit_bid_model(samples, rules, 0.0);
    for (std::size_t j = 0; j < nf; ++j) EXPECT_NEAR(m.trick_weights[j], slopes[j], 0.1) << j;
    for (int k = 1; k <= 6; ++k)  // where the data has tricks to learn from
        EXPECT_NEAR(m.trick_intercepts[k - 1], intercepts[k - 1], 0.2) << k;
    EXPECT_NEAR(m.nil_intercept, nil_bias, 0.2);
    EXPECT_NEAR(m.nil_weights[0], 1.0, 0.2);
    // Held-out figures of the true-shaped model beat a constant guess.
    const BidFitFigures f = bid_fit_figures(m, samples);
    EXPECT_LT(f.nil_log_loss, std::log(2.0));
}

}  // namespace
}  // namespace sampling
