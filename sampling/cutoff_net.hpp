#pragma once
// The network cut-off evaluation of `pimc:eval=search,cutoff=net`: a value network (task
// "cutoff", cardgames/models/network.hpp) that predicts, at a trick boundary of a searched world,
// what each seat takes in the rest of the hand (penalty points in Hearts, tricks in Spades). The
// search asks it at every horizon leaf through cardgames::CutoffEvaluator and keeps its answer
// inside the objective's bounds (cardgames::cutoff_shares), as it does the linear cut-off model's.
//
// It reads the deal features (cardgames/models/deal_features.hpp) of the perfect-information
// position, not a seat's information state: the search is perfect-information, and a transposition
// entry's value must not depend on the path to it, which the cards each seat has played and the
// voids it has shown do. The deal features read only what the objectives' keys cover.
//
// Each thread keeps the accumulator of the last leaf it evaluated and moves it to the next leaf by
// the features that differ (a few cards, between leaves next to each other in the tree); the
// integer accumulator makes that exactly a refresh, so the answer does not depend on the order in
// which leaves are evaluated or on the thread.

#include <array>
#include <filesystem>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "cardgames/models/card_features.hpp"
#include "cardgames/models/model_store.hpp"
#include "cardgames/rules/rules.hpp"
#include "cardgames/search/trick_objectives.hpp"

namespace sampling {

// The deal features of `g`, a position at a trick boundary (the bids of `context` in Spades),
// ascending.
void deal_features(const cardgames::TrickPlay& g, const cardgames::ScoreContext& context,
                   cardgames::models::ActiveFeatures& out);

// What a cut-off network learns from: a trick boundary's deal features and what each seat took
// in the rest of the hand (penalty points in Hearts, tricks in Spades).
struct CutoffNetSample {
    cardgames::models::ActiveFeatures features;
    std::array<int, cardgames::kMaxPlayers> rest{};
};

// The samples of a hand's play from `start`, a trick boundary, on: one per trick boundary of
// `plays`, the cards played from there to the end of the hand (legal ones: the caller checks).
std::vector<CutoffNetSample> cutoff_net_samples(const cardgames::TrickPlay& start,
                                                const cardgames::ScoreContext& context,
                                                std::span<const cardgames::Card> plays);

class CutoffNet : public cardgames::CutoffEvaluator {
  public:
    // Its default file: <data dir>/models/<form>-cutoff-net.net.
    static std::filesystem::path default_path(const cardgames::Rules& rules);

    // A network of task "cutoff" (an InputError naming the file otherwise).
    explicit CutoffNet(std::shared_ptr<const cardgames::models::Network> net);

    void predict(const cardgames::TrickPlay& g, const cardgames::ScoreContext& context,
                 std::array<double, cardgames::kMaxPlayers>& rest) const override;
    // The same, the accumulator computed from scratch: what predict() must equal.
    void predict_refreshed(const cardgames::TrickPlay& g, const cardgames::ScoreContext& context,
                           std::array<double, cardgames::kMaxPlayers>& rest) const;

    const cardgames::models::Network& network() const { return *net_; }
    // What the network plays by: its task, form and weights (not where it was read from).
    std::string fingerprint() const;

  private:
    std::shared_ptr<const cardgames::models::Network> net_;
};

// The cut-off network at `path`, or the form's default when `path` is empty, checked to be a
// cut-off network made for the form of `rules` (an InputError naming the file otherwise).
std::shared_ptr<const CutoffNet> cutoff_net_for(cardgames::models::ModelStore& store,
                                                const std::string& path,
                                                const cardgames::Rules& rules);

}  // namespace sampling
