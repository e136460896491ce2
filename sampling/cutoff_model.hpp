#pragma once
// The learned cut-off evaluation of `pimc:eval=search,cutoff=model` (Hearts): a linear model of
// the penalty points each seat takes in the rest of the hand, from features of a perfect-
// information position at a trick boundary (every hand known, as in a searched world). The search
// asks it at every horizon leaf through cardgames::CutoffEvaluator and makes its answer consistent
// with the bounds (cardgames::cutoff_shares). Fitted by ridge least squares to the rule player's
// self-play (`cardgames learn cutoff-data` / `cutoff-fit`, README "Learning"); the weights come
// from a model file (kind cutoff-eval) under data/models/, read once per path and shared read-only.

#include <array>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>

#include "cardgames/rules/rules.hpp"
#include "cardgames/search/trick_objectives.hpp"
#include "sampling/model_file.hpp"

namespace sampling {

inline constexpr int kCutoffFeatures = 20;
using CutoffFeatures = std::array<double, kCutoffFeatures>;

// The features' names, in the order of CutoffFeatures (and of a model file's weights).
const std::array<std::string_view, kCutoffFeatures>& cutoff_feature_names();

// The features of `seat` in `g`, a Hearts position at a trick boundary. They read only what the
// Hearts objective's hash key covers (the hands, the leader, and the points taken only while the
// moon is possible), so that a transposition entry's value does not depend on the path to it.
void cutoff_features(const cardgames::TrickPlay& g, int seat, CutoffFeatures& out);

// Penalty points still in play (in hands or on the table) in `g`.
int cutoff_points_left(const cardgames::TrickPlay& g);

class CutoffModel : public cardgames::CutoffEvaluator, public LinearModel<kCutoffFeatures> {
  public:
    // Checks the file's kind ("cutoff-eval") and that its weights are this program's features.
    explicit CutoffModel(const ModelFile& file);
    // The penalty points a seat of features `f` takes in the rest of the hand.
    double predict_seat(const CutoffFeatures& f) const { return score(f); }
    void predict(const cardgames::TrickPlay& g,
                 std::array<double, cardgames::kMaxPlayers>& rest) const override;
};

// The model file at `path`, read and checked once per path, then shared (thread-safe).
std::shared_ptr<const CutoffModel> load_cutoff_model(const std::filesystem::path& path);
// Where the model of a form lives by default: <data dir>/models/<form>-cutoff.txt.
std::filesystem::path default_cutoff_model(const cardgames::Rules& rules);
// The model of `path`, or (empty path) the default model of the rules' form; checked against the
// form. Hearts only (it predicts penalty points): other games are an InputError.
std::shared_ptr<const CutoffModel> cutoff_model_for(const std::string& path,
                                                    const cardgames::Rules& rules);

}  // namespace sampling
