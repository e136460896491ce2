// The linear fits of apps/learn (policy_fit, cutoff_fit, bids_fit): the one hold-out rule splits
// the data by hand, each fit writes a model file that names its data and command and reads back
// as the model it fitted, and bad options and data are refused naming what is wrong.
#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <string>

#include "apps/experiments/results_file.hpp"
#include "apps/learn/bids_fit.hpp"
#include "apps/learn/cutoff_fit.hpp"
#include "apps/learn/policy_fit.hpp"
#include "cardgames/cards/error.hpp"
#include "cardgames/rules/rules.hpp"
#include "sampling/model_file.hpp"
#include "tests/cardgames/test_helpers.hpp"

namespace apps {
namespace {

using cardgames::testing::error_of;

cardgames::Rules preset(const std::string& name) {
    return cardgames::load_rules(cardgames::preset_path(name), {});
}

// A data file of `hands` hands made by `hand` (one line each), as the data commands write it.
template <class Hand>
std::string write_data(const std::filesystem::path& path, const std::string& command,
                       const nlohmann::json& options, long hands, Hand hand) {
    std::ofstream out(path);
    out << results_header(command, options).dump() << "\n";
    for (long i = 0; i < hands; ++i) out << hand(i) << "\n";
    return path.string();
}

class LearnFits : public cardgames::testing::TempFolderTest {
  protected:
    std::shared_ptr<cardgames::models::ModelStore> store_ =
        std::make_shared<cardgames::models::ModelStore>();

    SelfPlayPlan plan(const std::string& form, const std::string& spec, long hands) const {
        SelfPlayPlan p;
        p.rules = preset(form);
        p.specs.assign(static_cast<std::size_t>(p.rules.players), spec);
        p.hands = hands;
        p.seed = 1'000'123;
        return p;
    }

    std::string cutoff_data(const std::string& form, long hands) {
        const SelfPlayPlan p = plan(form, "rule", hands);
        return write_data(dir_ / (form + "-cutoff.jsonl"), kCutoffDataCommand,
                          p.options(cutoff_feature_names_json(form)), hands, [&](long i) {
                              return cutoff_data_hand(p, i, std::stop_token(), store_);
                          });
    }
};

TEST_F(LearnFits, CutoffHoldsOutWholeHandsByIndex) {
    const std::string file = cutoff_data("hearts4", 6);
    const CutoffData every_third = read_cutoff_data({file}, 3);
    ASSERT_EQ(every_third.hands, 6);
    // 4 seats at each of 13 trick boundaries, hands 0 and 3 held out.
    ASSERT_EQ(every_third.samples.size(), 6u * 13 * 4);
    std::set<long> held;
    for (const CutoffSample& s : every_third.samples) {
        const long hand = s.position / 13;
        EXPECT_EQ(s.held_out, hand % 3 == 0) << "position " << s.position;
        if (s.held_out) held.insert(hand);
    }
    EXPECT_EQ(held, (std::set<long>{0, 3}));
    const CutoffFit fit = fit_cutoff(every_third, 1e-3);
    EXPECT_EQ(fit.train_seats, 4 * 13 * 4);
    EXPECT_EQ(fit.held_out.seats, 2 * 13 * 4);
}

TEST_F(LearnFits, CutoffFitWritesTheModelItFitted) {
    CutoffFitOptions o;
    o.data = {cutoff_data("spades-partnership", 4)};
    o.out = (dir_ / "m.txt").string();
    o.holdout = 2;
    o.made_by = "cardgames learn cutoff-fit --data x";
    const CutoffFitReport r = learn_cutoff_fit(o);
    EXPECT_EQ(r.hands, 4);
    EXPECT_EQ(r.positions, 4 * 13);
    const sampling::ModelFile m = sampling::read_model_file(o.out);
    EXPECT_EQ(m.kind, "cutoff-eval");
    EXPECT_EQ(m.get("form"), "spades-partnership");
    EXPECT_EQ(m.get("command"), o.made_by);
    EXPECT_NE(m.get("data_command").find("learn cutoff-data --preset spades-partnership"),
              std::string::npos);
    EXPECT_EQ(m.weights, r.fit.weights);
    EXPECT_NE(r.text().find("wrote " + o.out), std::string::npos);
}

TEST_F(LearnFits, CutoffDataOfTwoFormsIsRefused) {
    const std::string hearts = cutoff_data("hearts4", 2),
                      spades = cutoff_data("spades-partnership", 2);
    EXPECT_NE(error_of([&] {
                  read_cutoff_data({hearts, spades}, 5);
              }).find("'spades-partnership' data beside 'hearts4' data"),
              std::string::npos);
}

TEST_F(LearnFits, OptionsAreCheckedBeforeAnyFileIsRead) {
    const std::string data = cutoff_data("hearts4", 1);
    PolicyFitOptions p;
    p.data = {data};
    p.out = (dir_ / "p.txt").string();
    p.l2 = -1;
    EXPECT_EQ(error_of([&] { learn_policy_fit(p); }), "--l2 must be a number >= 0");
    p.l2 = 1;
    p.holdout = 1;
    EXPECT_EQ(error_of([&] { learn_policy_fit(p); }), "--holdout 1: at least 2");
    p.holdout = 5;
    p.out = data;
    EXPECT_NE(error_of([&] { learn_policy_fit(p); }).find("the same file as the input"),
              std::string::npos);
    CutoffFitOptions c;
    c.out = (dir_ / "c.txt").string();
    EXPECT_EQ(error_of([&] { learn_cutoff_fit(c); }),
              "--data is required: a `learn cutoff-data` file");
    c.data = {data};
    c.ridge = 1000;
    EXPECT_NE(error_of([&] { learn_cutoff_fit(c); }).find("--ridge"), std::string::npos);
    BidsFitOptions b;
    b.data = {data};
    EXPECT_EQ(error_of([&] { learn_bids_fit(b); }), "--out is required: the model file");
    EXPECT_FALSE(std::filesystem::exists(dir_ / "p.txt"));
    EXPECT_FALSE(std::filesystem::exists(dir_ / "c.txt"));
}

TEST_F(LearnFits, PolicyDataRecordsThePimcSeatsAndFits) {
    SelfPlayPlan p = plan("hearts4", "rule", 3);
    EXPECT_NE(error_of([&] {
                  check_policy_data_plan(p, "rule,rule,rule,rule");
              }).find("no pimc seat to record"),
              std::string::npos);
    p.specs[1] = "pimc:worlds=2";
    check_policy_data_plan(p, "");
    const std::string file = write_data(
        dir_ / "d.jsonl", kPolicyDataHeader, p.options(policy_feature_names_json()), p.hands,
        [&](long i) { return policy_data_hand(p, i, std::stop_token(), store_); });
    const PolicyDataReport report = report_policy_data(file);
    EXPECT_EQ(report.hands, 3);
    EXPECT_EQ(report.form, "hearts4");
    EXPECT_GT(report.decisions, 0);
    const PolicyData data = read_policy_data({file}, 2, 0.0);
    EXPECT_EQ(static_cast<long>(data.decisions.size()), report.decisions);
    PolicyFitOptions o;
    o.data = {file};
    o.out = (dir_ / "policy.txt").string();
    o.holdout = 2;
    o.made_by = "cardgames learn fit --data d.jsonl";
    const PolicyFitReport r = learn_policy_fit(o);
    EXPECT_EQ(r.fit.model_train.decisions + r.fit.model_held.decisions, report.decisions);
    EXPECT_EQ(r.fit.model_held.decisions, r.fit.rule_held.decisions);
    const sampling::ModelFile m = sampling::read_model_file(o.out);
    EXPECT_EQ(m.kind, "playout-policy");
    EXPECT_EQ(m.weights, r.fit.fit.weights);
}

TEST_F(LearnFits, BidsFitHoldsOutByIndexAndRefusesABrokenLine) {
    BidsDataPlan p;
    p.rules = preset("spades-partnership");
    p.bot = "rule";
    p.hands = 40;
    p.preset = "spades-partnership";
    p.check();
    const std::string file =
        write_data(dir_ / "bids.jsonl", kBidsDataCommand, p.options(), p.hands,
                   [&](long i) { return bids_data_hand(p, i, std::stop_token(), store_); });
    const BidsData every_fourth = read_bids_data({file}, {}, 4);
    EXPECT_EQ(every_fourth.all.size(), every_fourth.train.size() + every_fourth.test.size());
    // Hands 0, 4, ..., 36 held out: 10 of 40, every seat of each that bid in sight.
    EXPECT_LE(every_fourth.test.size(), 10u * 4);
    EXPECT_GT(every_fourth.test.size(), 10u * 4 - 4);
    const BidsData tested = read_bids_data({file}, {file}, 4);
    EXPECT_EQ(tested.train.size(), tested.all.size());
    EXPECT_EQ(tested.test.size(), tested.all.size());

    BidsFitOptions o;
    o.data = {file};
    o.out = (dir_ / "bids.txt").string();
    o.made_by = "cardgames learn bids-fit --data bids.jsonl";
    const BidsFitReport r = learn_bids_fit(o);
    EXPECT_EQ(r.figures.rfind("held-out: ", 0), 0u);
    std::ifstream in(o.out);
    const std::string text((std::istreambuf_iterator<char>(in)), {});
    EXPECT_NE(text.find("made by: " + o.made_by), std::string::npos);

    std::string broken = nlohmann::json::parse(bids_data_hand(p, 0, {}, store_)).dump();
    nlohmann::json line = nlohmann::json::parse(broken);
    line["seats"][2].erase("tricks");
    EXPECT_NE(error_of([&] { bid_samples_of(line, p.rules); }).find("tricks"), std::string::npos);
    p.seed = 5;
    EXPECT_NE(error_of([&] { p.check(); }).find("not a training seed"), std::string::npos);
}

}  // namespace
}  // namespace apps
