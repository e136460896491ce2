#pragma once
// The learned play-out policy (`cardgames learn data`, `cardgames learn fit`;
// docs/guide/learning.md):
//   data: self-play hands; at each card decision of a recorded seat (a pimc bot), the features of
//     every legal card, pimc's value of each and its choice. One JSON line per hand, the same file
//     for any number of threads and MPI ranks (seeds derive from the hand's index).
//   fit: a conditional logit over the features fitted to pimc's choices (sampling/fit.hpp),
//     measured on held-out hands (holdout.hpp), written as a model file (sampling/model_file.hpp).

#include <memory>
#include <stop_token>
#include <string>
#include <vector>

#include "apps/learn/data_files.hpp"
#include "apps/learn/holdout.hpp"
#include "cardgames/models/model_store.hpp"
#include "sampling/fit.hpp"
#include "sampling/model_file.hpp"

namespace apps {

// What the header of a `learn data` file is for: the header's command and its feature names.
inline constexpr const char* kPolicyDataHeader = "learn-data";
nlohmann::json policy_feature_names_json();

// Hand `index` of `plan` as one data line: the seats whose spec is pimc are recorded. Throws
// Interrupted when `stop` is set part-way; called concurrently by the batch runner.
std::string policy_data_hand(const SelfPlayPlan& plan, long index, const std::stop_token& stop,
                             const std::shared_ptr<cardgames::models::ModelStore>& store);

// An InputError naming --players when no seat of `plan` (its specs set) is a pimc bot.
void check_policy_data_plan(const SelfPlayPlan& plan, const std::string& players_text);

// What a `learn data` file holds (--report), every line read.
struct PolicyDataReport {
    std::string path, form;
    long hands = 0, decisions = 0, cards = 0;
    std::string text() const;
};
PolicyDataReport report_policy_data(const std::string& path);

// One recorded decision, as the fit and its measures use it.
struct PolicyDecision {
    sampling::ChoiceGroup group;
    int choice = 0, rule = 0;
    std::vector<double> values;
    bool held_out = false;
};

// The decisions of the data files, with their provenance.
struct PolicyData {
    std::vector<PolicyDecision> decisions;
    std::string form;
    std::vector<DataFileSource> sources;  // each file, with the command that makes its hands
    long hands = 0;
};

// Reads the data files, checking every field; the decisions of held-out hands are marked. The
// target of a decision is pimc's choice (temperature 0), or a softmax of pimc's values at that
// temperature.
PolicyData read_policy_data(const std::vector<std::string>& files, long holdout,
                            double temperature);

// Agreement with pimc's choice and the pimc value lost by a chooser, over some decisions.
struct ChoiceMeasure {
    long decisions = 0, agree = 0;
    double regret = 0;
    std::string text() const;
};

struct PolicyFit {
    sampling::FitResult fit;
    long train_decisions = 0;
    ChoiceMeasure model_train, model_held, rule_held;
};

// Fits on the decisions not held out and measures the model (and the rule player) on both sides.
PolicyFit fit_policy(const PolicyData& data, double l2);

// `cardgames learn fit`'s options: the data files, the model file, the hold-out rule's N, the
// fit's L2 penalty and target temperature, and the command line that made the model (its header
// names it).
struct PolicyFitOptions {
    std::vector<std::string> data;
    std::string out;
    long holdout = kDefaultHoldout;
    double l2 = 1.0, temperature = 0;
    std::string made_by;

    // An InputError naming the option at fault.
    void check() const;
};

// The model file of a fit: its comments say what it is and how it measured.
sampling::ModelFile policy_model_file(const PolicyFitOptions& options, const PolicyData& data,
                                      const PolicyFit& fit);

struct PolicyFitReport {
    long decisions = 0, hands = 0;
    PolicyFit fit;
    std::string out;
    std::string text() const;  // what `cardgames learn fit` prints
};

// Checks the options, reads the data, fits, and writes the model file.
PolicyFitReport learn_policy_fit(const PolicyFitOptions& options);

}  // namespace apps
