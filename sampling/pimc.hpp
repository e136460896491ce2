#pragma once
// The Monte-Carlo player `pimc` (perfect-information Monte Carlo, as in the bridge program GIB).
// For a card decision it deals W worlds consistent with what its seat knows (DealSampler), values
// every legal card in each world and plays the card with the best mean utility (or the most votes
// as an optimal card). Once few tricks are left (5 with four players) the engine solves each world
// exactly; before that, by default, each card is valued by playing the world out with the rule
// player in every seat, the engine solving the last tricks (playout.hpp; `eval=search` searches
// the world to a depth instead). Worlds are farmed over oneTBB (parallel.hpp); each world draws its
// randomness from (bot seed, decision, world index) and results are reduced in world order, so a
// decision is identical for any thread count. Passes, and bids outside partnership Spades, are
// chosen by expected score over sampled deals played out by the rule player (or the learned policy,
// rollout_playout; pimc_bidding.cpp);
// partnership bids by the learned bid model (bid_model.hpp).

#include <algorithm>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cardgames/cards/seeds.hpp"
#include "cardgames/models/model_store.hpp"
#include "cardgames/rules/player.hpp"
#include "cardgames/search/trick_game.hpp"
#include "engine/types.hpp"
#include "sampling/bid_model.hpp"
#include "sampling/pimc_options.hpp"

namespace sampling {

class DecisionArena;
struct SpadesBidModel;

// The options of a search of one world: to the end of the hand (`to_the_end`: the exact endgame,
// with leaf-value tables if `options.tables`) or to a depth (eval=search); `two_sided`: by
// alphabeta (partnership Spades searched by its margin), else by `options`' max^n search.
engine::SearchOptions world_search_options(const PimcOptions& options, bool to_the_end,
                                           bool two_sided = false);

// The value of one legal card at a decision: mean utility over the worlds and votes.
struct CardValue {
    cardgames::Card card;
    double mean = 0;      // mean utility for the deciding seat (its side's in partnership;
                          // minus the other sides', `others`, with objective=margin)
    double expected = 0;  // the same as a player reads it: hand score change (Spades score),
                          // tricks from here (tricks), penalty points for the hand (Hearts)
    double others = 0;    // the other sides' mean, read alike (0 with utility=tricks)
    int votes = 0;        // worlds in which this card was among the optimal ones
};

struct PimcAnalysis {
    std::vector<CardValue> cards;  // every legal card, in card order
    cardgames::Card best = cardgames::kNoCard;
    int worlds = 0;
    std::uint64_t expansions = 0;
    int over_budget = 0;   // worlds whose share of the node budget ran out (valued by later solves)
    int played_alone = 0;  // of those, the worlds whose later solves ran out too (by play-outs)
    int threads_used = 0;  // distinct TBB threads that searched the worlds
    bool searched = false;  // false: a single legal card, nothing to search
};

// A Spades bid and the values it was chosen by: the expected hand score of every bid the model
// values (bid=model: 1..cards and nil), or of the candidates played out (bid=search, each its
// mean over the deals it was valued on); none for bid=rule.
struct BidAnalysis {
    int bid = 0;  // 0: nil
    std::vector<BidValue> values;
};

class PimcBot : public cardgames::Player {
  public:
    // The models come from `store`, shared with the other players of a run (null: the bot's own).
    PimcBot(const PimcOptions& options, std::uint64_t seed,
            std::shared_ptr<cardgames::models::ModelStore> store = nullptr);
    ~PimcBot() override;
    std::string name() const override { return "pimc"; }
    bool blind_nil(const cardgames::InfoState& info) override;
    int bid(const cardgames::InfoState& info) override;
    cardgames::CardSet pass(const cardgames::InfoState& info) override;
    cardgames::Card play(const cardgames::InfoState& info) override;
    // Reads every model file these options use at a table of these rules (the play-out policy,
    // the cut-off model, the bid model) and checks that each was made for the rules' form.
    std::string check(const cardgames::Rules& rules) const override;

    // What bid() decides, with the values it decides by.
    BidAnalysis analyze_bid(const cardgames::InfoState& info);
    // The full analysis of a card decision: what `hint` shows.
    PimcAnalysis analyze(const cardgames::InfoState& info);
    // What play() decides by: analyze, or no search where the legal cards are one run of
    // equivalent cards in every world (all would be valued alike; the first is played).
    PimcAnalysis decide(const cardgames::InfoState& info);
    const PimcOptions& options() const { return options_; }
    cardgames::models::ModelStore& store() const { return *store_; }

  private:
    std::uint64_t decision_seed(const cardgames::InfoState& info,
                                cardgames::seeds::DecisionKind kind) const;

    // The bid model for these rules (bid=model), as the store has it now.
    std::shared_ptr<const SpadesBidModel> bid_model(const cardgames::Rules& rules) const;

    PimcOptions options_;
    std::uint64_t seed_;
    std::shared_ptr<cardgames::models::ModelStore> store_;  // never null
    std::unique_ptr<DecisionArena> arena_;  // where the worlds and play-outs run (parallel.hpp)
};

// The values of the legal cards of `info`'s decision in the one world `world` (every seat's cards
// as they stand at the decision), exactly as PimcBot values each of its sampled worlds (the same
// options: eval, exact, algo, tables, depth, nodes, utility); the `oracle` plays by it in the true
// world. Deterministic: the play-outs' rule player draws no randomness. Models come from `store`.
PimcAnalysis analyze_world(const PimcOptions& options, const cardgames::InfoState& info,
                           const cardgames::Deal& world, cardgames::models::ModelStore& store);

// Cards each seat has won in tricks this hand, from the public plays.
std::array<cardgames::CardSet, cardgames::kMaxPlayers> taken_cards(
    const cardgames::InfoState& info);

}  // namespace sampling
