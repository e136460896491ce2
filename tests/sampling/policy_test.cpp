// The learned play-out policy: model files (round trip, refusal of malformed ones), the features
// on hand-built positions, the conditional-logit fit recovering known weights, and the policy
// only ever playing legal cards.
#include "sampling/policy.hpp"

#include <gtest/gtest.h>

#include <boost/random/mersenne_twister.hpp>
#include <boost/random/uniform_real_distribution.hpp>
#include <cmath>
#include <filesystem>
#include <limits>
#include <vector>

#include "cardgames/cards/error.hpp"
#include "cardgames/models/model_file.hpp"
#include "cardgames/rules/game_runner.hpp"
#include "sampling/fit.hpp"
#include "sampling/model_file.hpp"
#include "tests/cardgames/test_helpers.hpp"

namespace sampling {
namespace {

using namespace cardgames;

using cardgames::testing::error_of;
using cardgames::testing::mid_play;
using cardgames::testing::pc;

CardSet cards(std::initializer_list<const char*> list) {
    CardSet out;
    for (const char* c : list) out |= parse_card(c);
    return out;
}

double feature(const DecisionFeatures& d, const char* card, std::string_view name) {
    PolicyFeatures f;
    d.of(parse_card(card), f);
    const auto& names = policy_feature_names();
    for (int i = 0; i < kPolicyFeatures; ++i)
        if (names[i] == name) return f[i];
    ADD_FAILURE() << "no feature " << name;
    return 0;
}

ModelFile sample_model() {
    ModelFile m;
    m.where = "model 'test'";
    m.kind = "playout-policy";
    m.comments = {"a model for the tests"};
    m.meta = {{"form", "hearts4"}, {"command", "cardgames learn fit --data x.jsonl --l2 1"}};
    for (std::string_view n : policy_feature_names()) m.names.emplace_back(n);
    for (int i = 0; i < kPolicyFeatures; ++i) m.weights.push_back(std::pow(-1.0, i) / (i + 3.0));
    return m;
}

TEST(ModelFile, RoundTripIsExact) {
    const ModelFile m = sample_model();
    const ModelFile back = parse_model_file(format_model_file(m), "model 'round'");
    EXPECT_EQ(back.kind, m.kind);
    EXPECT_EQ(back.meta, m.meta);
    EXPECT_EQ(back.names, m.names);
    EXPECT_EQ(back.weights, m.weights);  // bit for bit
    EXPECT_EQ(back.get("command"), "cardgames learn fit --data x.jsonl --l2 1");
    const std::filesystem::path path =
        std::filesystem::temp_directory_path() / "cardgames_policy_test_model.txt";
    write_model_file(path, m);
    EXPECT_EQ(read_model_file(path).weights, m.weights);
    const PolicyModel model(read_model_file(path));
    EXPECT_EQ(model.form(), "hearts4");
    EXPECT_EQ(model.weights()[1], m.weights[1]);
    std::filesystem::remove(path);
}

// The message of the InputError that parsing `text` throws ("" when it parses).
std::string parse_error(const std::string& text) {
    try {
        PolicyModel{parse_model_file(text, "model 'bad.txt'")};
    } catch (const InputError& e) {
        return e.what();
    }
    return "";
}

TEST(ModelFile, MalformedVersionOneFilesAreRefusedNamingTheLine) {
    const std::string good = format_text_model_file(sample_model());
    ASSERT_EQ(parse_error(good), "");
    auto replaced = [&](const std::string& from, const std::string& to) {
        std::string t = good;
        t.replace(t.find(from), from.size(), to);
        return t;
    };
    // Line 1 is the magic line, 2 the comment, 3 kind, 4 form, 5 command, 6 weights, 7 rule...
    EXPECT_EQ(parse_error("hello\n"),
              "model 'bad.txt' line 1: 'hello' is not a model file's first line "
              "('cardgames-model 2', or 'cardgames-model 1' for the old text format)");
    EXPECT_NE(parse_error(replaced("rule 0.3", "rule 0.3x")).find("line 7: '0.3x"),
              std::string::npos);
    EXPECT_NE(parse_error(replaced("rule 0.3", "rule nan")).find("line 7: 'nan333"),
              std::string::npos);
    EXPECT_NE(parse_error(replaced("rule 0.3", "rule inf #")).find("line 7: 'rule inf #"),
              std::string::npos);
    EXPECT_NE(parse_error(replaced("rule 0.3", "rules 0.3")).find("line 7: weight 1 is 'rules'"),
              std::string::npos);
    EXPECT_NE(parse_error(replaced("weights 29", "weights 28"))
                  .find("line 35: 'shortest_suit 0.032258064516129031': expected 'end' after 28"),
              std::string::npos);
    EXPECT_NE(parse_error(replaced("weights 29", "weights 30")).find("line 36: 'end' after 29"),
              std::string::npos);
    EXPECT_NE(
        parse_error(replaced("form hearts4", "command again")).find("line 5: 'command' given"),
        std::string::npos);
    EXPECT_NE(parse_error(good + "more\n").find("line 37: 'more' after the 'end' line"),
              std::string::npos);
    EXPECT_NE(parse_error(good.substr(0, good.size() - 4)).find("ends before its 'end' line"),
              std::string::npos);
    EXPECT_NE(parse_error(replaced("kind playout-policy", "kind bids")).find("a 'bids' model"),
              std::string::npos);
    EXPECT_NE(parse_error(replaced("form hearts4\n", "")).find("no 'form' line"),
              std::string::npos);
}

TEST(ModelFile, IsWrittenAsVersionTwoAndReadsAsVersionOneDid) {
    const ModelFile m = sample_model();
    const std::string v2 = format_model_file(m);
    ASSERT_TRUE(v2.starts_with("cardgames-model 2\n"));
    EXPECT_NE(v2.find("\nkind linear\ntask playout-policy\nfeatures playout-policy 1 29\n"),
              std::string::npos);
    EXPECT_NE(v2.find("\ntensor weight f64 29\n"), std::string::npos);
    const ModelFile v1 = parse_model_file(format_text_model_file(m), "model 'v1'");
    const ModelFile back = parse_model_file(v2, "model 'v2'");
    EXPECT_EQ(v1.version, 1);
    EXPECT_EQ(back.version, 2);
    EXPECT_EQ(back.comments, m.comments);
    EXPECT_EQ(back.meta, v1.meta);
    EXPECT_EQ(back.names, v1.names);
    EXPECT_EQ(back.weights, v1.weights);  // bit for bit
    EXPECT_EQ(PolicyModel(back).fingerprint(), PolicyModel(v1).fingerprint());
}

TEST(ModelFile, LyingVersionTwoFilesAreRefusedNamingFileAndField) {
    const std::string good = format_model_file(sample_model());
    ASSERT_EQ(parse_error(good), "");
    auto replaced = [&](const std::string& from, const std::string& to) {
        std::string t = good;
        t.replace(t.find(from), from.size(), to);
        return t;
    };
    // Altered bytes: a weight's, or a header field's.
    std::string flipped = good;
    flipped[flipped.size() - 3] ^= 0x10;
    EXPECT_NE(parse_error(flipped).find("model 'bad.txt': field 'checksum'"), std::string::npos);
    EXPECT_NE(parse_error(replaced("form hearts4", "form hearts5")).find("field 'checksum'"),
              std::string::npos);
    // Truncated in the payload and in the header.
    EXPECT_NE(parse_error(good.substr(0, good.size() - 8))
                  .find("model 'bad.txt': truncated: the payload has 224 of 232 bytes"),
              std::string::npos);
    EXPECT_NE(parse_error(good.substr(0, good.find("tensor weight")))
                  .find("model 'bad.txt': truncated: the header ends"),
              std::string::npos);
    // Well made, with a good checksum, but another kind, task, feature set, form or shape.
    auto remade = [&](auto change) {
        cardgames::models::ModelFile v2 =
            cardgames::models::parse_model_file(good, "model 'bad.txt'");
        change(v2);
        return cardgames::models::format_model_file(v2);
    };
    auto set = [](const std::string& key, const std::string& value) {
        return [=](cardgames::models::ModelFile& v2) {
            for (auto& [k, v] : v2.fields)
                if (k == key) v = value;
        };
    };
    EXPECT_EQ(parse_error(remade(set("kind", "network"))),
              "model 'bad.txt': field 'kind': a 'network' model, not a linear one");
    EXPECT_EQ(parse_error(remade(set("task", "cutoff-eval"))),
              "model 'bad.txt': a 'cutoff-eval' model, not a playout-policy");
    EXPECT_EQ(parse_error(remade(set("features", "playout-policy 2 29"))),
              "model 'bad.txt': field 'features': 'playout-policy 2 29', this program's are "
              "'playout-policy 1 29' (fit the model again on new data)");
    EXPECT_EQ(parse_error(remade([](cardgames::models::ModelFile& v2) {
                  auto& w = v2.tensors[0];
                  w.dtype = cardgames::models::DType::kF32;
                  w.f32.assign(w.f64.begin(), w.f64.end());
              })),
              "model 'bad.txt': tensor 'weight': f32 of 29, expected f64 of 29 (one per name in "
              "'names')");
    EXPECT_NE(parse_error(remade([](cardgames::models::ModelFile& v2) {
                  v2.tensors[0].f64[3] = std::numeric_limits<double>::quiet_NaN();
              })).find("tensor 'weight' element 3: not finite"),
              std::string::npos);
    const PolicyModel hearts5(parse_model_file(remade(set("form", "hearts5")), "model 'h5'"));
    EXPECT_EQ(error_of([&] { hearts5.check_form(load_rules(preset_path("hearts4"), {})); }),
              "model 'h5': made for hearts5, not for hearts4");
}

TEST(PolicyFeatures, HeartsTrickWithTheQueenOfSpades) {
    const Rules rules = load_rules(preset_path("hearts4"), {});
    // Seat 2 third to play to 5D QS: the king takes 13 points unless the ace is behind it.
    const InfoState third = mid_play(rules, cards({"KD", "3D", "9C"}), {pc(0, "5D"), pc(1, "QS")});
    const DecisionFeatures d(third);
    EXPECT_EQ(d.legal(), cards({"KD", "3D"}));
    EXPECT_EQ(feature(d, "KD", "beats_trick"), 1);
    EXPECT_EQ(feature(d, "KD", "beats_last"), 0);
    EXPECT_EQ(feature(d, "KD", "likely_wins"), 0);  // the ace is unseen, seat 3 not void
    EXPECT_EQ(feature(d, "KD", "points_if_beats"), 1);
    EXPECT_DOUBLE_EQ(feature(d, "KD", "follow_rank"), 11 / 12.0);
    EXPECT_EQ(feature(d, "KD", "duck_rank"), 0);
    EXPECT_EQ(feature(d, "3D", "beats_trick"), 0);
    EXPECT_DOUBLE_EQ(feature(d, "3D", "duck_rank"), 1 / 12.0);
    EXPECT_EQ(feature(d, "3D", "points_if_beats"), 0);
    EXPECT_EQ(feature(d, "3D", "lead_rank"), 0);
    // The rule indicator marks the rule player's card, and only it.
    EXPECT_EQ(d.rule_card(), RuleBot().play(third));
    EXPECT_EQ(feature(d, "3D", "rule") + feature(d, "KD", "rule"), 1);

    // Seat 3 last to play: the king is sure to win.
    const InfoState last =
        mid_play(rules, cards({"KD", "2D"}), {pc(0, "5D"), pc(1, "QS"), pc(2, "3D")});
    const DecisionFeatures l(last);
    EXPECT_EQ(feature(l, "KD", "beats_last"), 1);
    EXPECT_EQ(feature(l, "KD", "likely_wins"), 1);
    EXPECT_EQ(feature(l, "KD", "points_if_likely"), 1);

    // Leading: the A of spades is in danger while the Q is unseen; a heart lead is marked.
    InfoState lead = mid_play(rules, cards({"AS", "4H", "2C"}), {});
    lead.play.broken = true;
    const DecisionFeatures e(lead);
    EXPECT_EQ(feature(e, "AS", "queen_danger"), 1);
    EXPECT_EQ(feature(e, "AS", "lead_master"), 1);
    EXPECT_DOUBLE_EQ(feature(e, "AS", "lead_lower_unseen"), 12 / 13.0);  // 2..K unseen
    EXPECT_EQ(feature(e, "4H", "hearts_lead"), 1);
    EXPECT_EQ(feature(e, "4H", "queen_danger"), 0);
    EXPECT_EQ(feature(e, "2C", "shortest_suit"), 1);
}

TEST(PolicyFeatures, SpadesNilAndTrumps) {
    const Rules rules = load_rules(preset_path("spades-partnership"), {});
    std::array<Bid, kMaxPlayers> bids{};
    bids[0].tricks = 0;  // seat 0 (seat 2's partner) bid nil
    bids[1].tricks = 4;
    bids[2].tricks = 5;
    bids[3].tricks = 3;
    // The nil bidder's king is winning; seat 2 covers it with the ace or trumps it... no, it must
    // follow: AH covers, 3H leaves the partner winning.
    const InfoState cover =
        mid_play(rules, cards({"AH", "3H", "5S"}), {pc(0, "KH"), pc(1, "2H")}, bids);
    const DecisionFeatures d(cover);
    EXPECT_EQ(feature(d, "AH", "nil_partner_cover"), 1);
    EXPECT_EQ(feature(d, "AH", "beats_partner"), 1);
    EXPECT_EQ(feature(d, "3H", "nil_partner_cover"), 0);
    EXPECT_DOUBLE_EQ(feature(d, "AH", "need_likely"), 5 / 13.0);  // 5 tricks to take, 13 left
    EXPECT_EQ(feature(d, "AH", "points_if_beats"), 0);            // no points in Spades

    // Seat 3, void in hearts, may trump the trick that seat 1 (an opponent) is winning.
    const InfoState trump = mid_play(rules, cards({"5S", "2C"}), {pc(1, "KH"), pc(2, "3H")}, bids);
    const DecisionFeatures t(trump);
    EXPECT_EQ(t.legal(), cards({"5S", "2C"}));
    EXPECT_EQ(feature(t, "5S", "trump"), 1);
    EXPECT_EQ(feature(t, "5S", "beats_trick"), 1);
    EXPECT_EQ(feature(t, "2C", "trump"), 0);
    EXPECT_DOUBLE_EQ(feature(t, "2C", "discard_rank"), 0);
    EXPECT_DOUBLE_EQ(feature(t, "2C", "discard_suit_length"), 1 / 13.0);
}

TEST(Fit, ConditionalLogitRecoversKnownWeights) {
    const std::vector<double> truth = {1.5, -2.0, 0.5, 0.0};
    const int k = static_cast<int>(truth.size());
    boost::random::mt19937_64 rng(7);
    boost::random::uniform_real_distribution<double> u(-1, 1), pick(0, 1);
    std::vector<ChoiceGroup> groups;
    for (int g = 0; g < 4000; ++g) {
        ChoiceGroup group;
        group.rows = 2 + g % 5;
        for (int i = 0; i < group.rows * k; ++i) group.x.push_back(u(rng));
        group.target.assign(static_cast<std::size_t>(group.rows), 0.0);
        // Draw the choice from the true model.
        const std::vector<double> p = choice_probabilities(group, truth);
        double r = pick(rng);
        int chosen = group.rows - 1;
        for (int i = 0; i < group.rows; ++i) {
            r -= p[static_cast<std::size_t>(i)];
            if (r < 0) {
                chosen = i;
                break;
            }
        }
        group.target[static_cast<std::size_t>(chosen)] = 1;
        groups.push_back(group);
    }
    const FitResult fit = fit_conditional_logit(groups, k, 0.01);
    EXPECT_TRUE(fit.converged);
    for (int i = 0; i < k; ++i) EXPECT_NEAR(fit.weights[i], truth[i], 0.15) << "weight " << i;
    // The same data, the same weights.
    EXPECT_EQ(fit_conditional_logit(groups, k, 0.01).weights, fit.weights);
    // A strong penalty shrinks the weights towards zero.
    const FitResult shrunk = fit_conditional_logit(groups, k, 1e4);
    for (int i = 0; i < k; ++i) EXPECT_LT(std::abs(shrunk.weights[i]), 0.2);
}

TEST(PolicyBot, OnlyEverPlaysLegalCards) {
    // Random weights reach odd choices; every form, whole games.
    ModelFile file = sample_model();
    boost::random::mt19937_64 rng(11);
    boost::random::uniform_real_distribution<double> u(-3, 3);
    for (double& w : file.weights) w = u(rng);
    for (const char* preset : {"hearts3", "hearts4", "hearts5", "hearts6", "spades-partnership",
                               "spades-cutthroat3", "spades-cutthroat4"}) {
        const Rules rules = load_rules(preset_path(preset), {});
        file.meta[0].second = form_name(rules);
        const auto model = std::make_shared<const PolicyModel>(file);
        for (std::uint64_t seed = 1; seed <= 8; ++seed) {
            Game game(rules, seed);
            std::vector<std::unique_ptr<Player>> players;
            for (int s = 0; s < rules.players; ++s)
                players.push_back(std::make_unique<PolicyBot>(model));
            ASSERT_NO_THROW(run_game(game, players)) << preset << " seed " << seed;
            EXPECT_TRUE(game.over());
        }
    }
}

TEST(PolicyModel, RefusesAnotherFormsModel) {
    const PolicyModel model(sample_model());
    const Rules spades = load_rules(preset_path("spades-partnership"), {});
    try {
        model.check_form(spades);
        FAIL() << "a hearts4 model was accepted for partnership Spades";
    } catch (const InputError& e) {
        EXPECT_EQ(std::string(e.what()),
                  "model 'test': made for hearts4, not for spades-partnership");
    }
}

}  // namespace
}  // namespace sampling
