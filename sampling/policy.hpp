#pragma once
// The learned play-out policy: a linear card scorer over features of a seat's view and a candidate
// card. It is a conditional logit, p(card) proportional to exp(w . phi(view, card)) over the legal
// cards, fitted to `pimc`'s choices (`cardgames learn`, docs/guide/learning.md); a player plays its
// highest-scoring card. One of the features is "the rule player would play this card", so a model
// is the rule player plus learned corrections. `pimc:playout=model` plays its worlds out with it
// in every seat; `policy` plays it on its own. Features are computed from the rule player's table
// view (no allocation); the weights come from a model file under data/models/, read through the
// caller's ModelStore and shared read-only by every bot and thread.

#include <array>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>

#include "cardgames/players/rule_bot.hpp"
#include "cardgames/rules/player.hpp"
#include "sampling/model_file.hpp"

namespace sampling {

inline constexpr int kPolicyFeatures = 29;
using PolicyFeatures = std::array<double, kPolicyFeatures>;

// The features' names, in the order of PolicyFeatures (and of a model file's weights).
const std::array<std::string_view, kPolicyFeatures>& policy_feature_names();

// What a card decision's features share: the table view and the rule player's card.
class DecisionFeatures {
  public:
    explicit DecisionFeatures(const cardgames::InfoState& info);
    cardgames::CardSet legal() const { return view_.legal; }
    cardgames::Card rule_card() const { return rule_card_; }
    // The features of playing `card` (a legal card) now.
    void of(cardgames::Card card, PolicyFeatures& out) const;

  private:
    cardgames::heuristics::TableView view_;
    cardgames::Card rule_card_ = cardgames::kNoCard;
    int partner_ = -1;
    int trick_points_ = 0;        // Hearts: penalty points in the trick so far
    double need_ = 0;             // Spades: tricks the seat's side still needs per trick left
    bool contract_made_ = false;  // Spades: the side has its bid (more tricks are bags)
    bool self_nil_ = false;       // Spades: this seat bid nil
    bool partner_nil_ = false;    // Spades: its partner bid nil
    bool opponent_nil_winning_ = false;  // Spades: a nil bidder of the other side wins the trick
    double progress_ = 0;                // tricks played / tricks per hand
    int shortest_ = 0;                   // the shortest non-empty suit length in hand
};

class PolicyModel : public LinearModel<kPolicyFeatures> {
  public:
    // Its default file: <data dir>/models/<form>-playout.txt (load_model, model_for).
    static constexpr const char* kSuffix = "playout";
    // Checks the file's kind ("playout-policy") and that its weights are this program's features.
    explicit PolicyModel(const ModelFile& file);
    // The legal card of highest score; ties go to the lowest card index.
    cardgames::Card choose(const cardgames::InfoState& info) const;
};

// `policy`: plays the model's highest-scoring card; bids, blind nil and passes as the rule player.
class PolicyBot : public cardgames::RuleBidder {
  public:
    // The model file `model_path` (empty: the default model of the form of each decision), asked
    // of `store` at every decision, so that a file rewritten between two decisions is played.
    PolicyBot(std::string model_path, std::shared_ptr<cardgames::models::ModelStore> store)
        : path_(std::move(model_path)), store_(std::move(store)) {}
    // A model already loaded (the play-outs').
    explicit PolicyBot(std::shared_ptr<const PolicyModel> model) : model_(std::move(model)) {}
    std::string name() const override { return "policy"; }
    cardgames::Card play(const cardgames::InfoState& info) override;
    std::string check(const cardgames::Rules& rules) const override;

  private:
    std::string path_;
    std::shared_ptr<cardgames::models::ModelStore> store_;  // null with a model already loaded
    std::shared_ptr<const PolicyModel> model_;
};

}  // namespace sampling
