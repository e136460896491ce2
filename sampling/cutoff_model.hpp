#pragma once
// The learned cut-off evaluation of `pimc:eval=search,cutoff=model`: a linear model of what each
// seat takes in the rest of the hand (penalty points in Hearts, tricks in Spades), from features of
// a perfect-information position at a trick boundary (every hand known, as in a searched world).
// The search asks it at every horizon leaf through cardgames::CutoffEvaluator and makes its answer
// consistent with the bounds (cardgames::cutoff_shares). Fitted by ridge least squares to the rule
// player's self-play (`cardgames learn cutoff-data` / `cutoff-fit`, docs/guide/learning.md); the
// weights come from a model file (kind cutoff-eval) under data/models/, read through the caller's
// ModelStore and shared read-only. Both games have kCutoffFeatures features, named differently.

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
using CutoffNames = std::array<std::string_view, kCutoffFeatures>;

// The features' names in a game, in the order of CutoffFeatures (and of a model file's weights).
const CutoffNames& cutoff_feature_names(cardgames::GameKind game);

// The features of `seat` in `g`, a position at a trick boundary of the game of `g` (the bids of
// `context` in Spades). They read only what the game's score objective's hash key covers (the
// hands, the leader, broken spades, the tricks won in Spades, and in Hearts the points taken only
// while the moon is possible), and the bids, fixed for a search, so that a transposition entry's
// value does not depend on the path to it.
void cutoff_features(const cardgames::TrickPlay& g, const cardgames::ScoreContext& context,
                     int seat, CutoffFeatures& out);

// What is still to be taken in `g`: penalty points in hands or on the table (Hearts), or tricks
// (Spades).
int cutoff_left(const cardgames::TrickPlay& g);

class CutoffModel : public cardgames::CutoffEvaluator, public LinearModel<kCutoffFeatures> {
  public:
    // Its default file: <data dir>/models/<form>-cutoff.txt (load_model, model_for).
    static constexpr const char* kSuffix = "cutoff";
    // Checks the file's kind ("cutoff-eval") and that its weights are this program's features for
    // the game of the file's form.
    explicit CutoffModel(const ModelFile& file);
    // What a seat of features `f` takes in the rest of the hand.
    double predict_seat(const CutoffFeatures& f) const { return score(f); }
    void predict(const cardgames::TrickPlay& g, const cardgames::ScoreContext& context,
                 std::array<double, cardgames::kMaxPlayers>& rest) const override;
};

}  // namespace sampling
