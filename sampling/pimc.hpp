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
#include "cardgames/players/bot_spec.hpp"
#include "cardgames/rules/player.hpp"
#include "cardgames/search/trick_game.hpp"
#include "engine/types.hpp"

namespace sampling {

class DecisionArena;
struct SpadesBidModel;

inline constexpr int kMaxBotThreads = 1024;  // threads=N of a spec

struct PimcOptions {
    int worlds = 64;
    engine::Algorithm algorithm = engine::Algorithm::kSpeculative;
    bool tables = true;  // leaf-value tables when a world is searched to the end
    int depth = 0;       // eval=search: tricks; 0: iterative deepening within the budget
    // Before the exact endgame, how a world values each card: by play-outs of the rest of the hand
    // by the rule player in every seat (playout.hpp), or (false) by a depth-limited search whose
    // horizon shares what is left evenly (or as the cut-off model predicts: cutoff_model).
    bool rollout = true;
    // playout=model: the play-outs' seats play the learned policy (policy.hpp) instead of the rule
    // player; `model_path` empty: the form's default model (data/models/<form>-playout.txt).
    bool model_playout = false;
    std::string model_path;
    // How the deciding seat plays its own later cards in the play-outs: as every other seat does
    // (`playout`), by the rule player, by the learned policy, or (switch) both ways, each card
    // taking the better mean over the worlds (policy switching; it did not win at equal time,
    // README). `model_path` names the policy for these too.
    enum class Self { kSame, kRule, kModel, kSwitch };
    Self self = Self::kSame;
    // Hearts, moon=on: the seat may shoot the moon (moon.hpp). A hand holding the ace of hearts
    // also values passes played out with the seat shooting; while it could still take every point
    // (moon_open), each card is also played out with the seat shooting, and takes that mean where
    // it clearly leads. Unset (moon=auto): on in 4-player Hearts, where it won (README), off in
    // the other forms, where it is not measured.
    std::optional<bool> moon;
    bool moon_for(const cardgames::Rules& rules) const {
        return moon.value_or(rules.game == cardgames::GameKind::kHearts && rules.players == 4);
    }
    // Bids and passes: the play-outs valuing each candidate are played by the learned policy in
    // every seat (rollout_playout=model) instead of the rule player, and hand over to the exact
    // search at `rollout_exact` tricks left (0: they play to the last card).
    bool rollout_model_playout = false;
    int rollout_exact = 0;
    // Whether some seat of the card decisions' play-outs plays the learned policy.
    bool card_playouts_use_policy() const {
        return model_playout || self == Self::kModel || self == Self::kSwitch;
    }
    // Whether some seat of some play-out (cards, bids or passes) plays the learned policy.
    bool uses_policy() const { return card_playouts_use_policy() || rollout_model_playout; }
    std::uint64_t nodes = 30000;  // eval=search: expansions per world and decision
    // eval=search, cutoff=model (utility=score in Spades): the horizon shares what is left
    // (penalty points, or tricks) as the learned cut-off model predicts (cutoff_model.hpp) instead
    // of evenly; `cutoff_path` empty: the form's default model (data/models/<form>-cutoff.txt).
    bool cutoff_model = false;
    std::string cutoff_path;
    int exact_tricks = 0;  // search to the end when this few tricks are left (0: by player count)
    // 0: the cores of the run it plays in (all of them at the top level, the tournament's or eval's
    // --threads inside one); N: an arena of N threads of its own. The decision is the same for any.
    int threads = 0;
    bool vote = false;  // aggregate by votes for each world's optimal cards
    // Cards of equal mean (or votes and mean): the first in card order, or (tie=rule) the rule
    // player's card where it is one of them.
    bool tie_rule = false;
    bool score_utility = true;  // Spades: score (bids, nil, bags) rather than raw tricks
    // Spades score and Hearts points: a world values a card by the seat's side's hand score (own),
    // or by that minus the other sides' mean (margin), so that setting another side's contract or
    // nil counts, and in Hearts the points a moon gives the others. Each seat's search plays for
    // its own side either way; this is how the deciding seat compares its cards. Auto: margin in
    // partnership games, where it won (README), else own (in Hearts margin did not win).
    enum class Objective { kAuto, kOwn, kMargin };
    Objective objective = Objective::kAuto;
    bool margin(const cardgames::Rules& rules) const {
        return objective == Objective::kMargin ||
               (objective == Objective::kAuto && rules.is_partnership());
    }
    // Sampled deals per candidate bid or pass; 0 (the default): by form (rollouts_for).
    int rollouts = 0;
    // `rollouts`, or by default 192 for the passes of 4- and 5-player Hearts, where they played
    // better than 48 at the same median decision time (README), and 48 elsewhere (in 3- and
    // 6-player Hearts 192 was not clearly better).
    int rollouts_for(const cardgames::Rules& rules) const {
        if (rollouts > 0) return rollouts;
        const bool hearts = rules.game == cardgames::GameKind::kHearts;
        return hearts && (rules.players == 4 || rules.players == 5) ? 192 : 48;
    }
    // Hearts passes: the most deals a candidate is valued on; the closest candidates get more
    // deals than rollouts_for until they have this many (race.hpp). At or below rollouts_for (0,
    // the default, counts as rollouts_for): every candidate gets rollouts_for deals and no more.
    int pass_rollouts = 0;
    int pass_deals(const cardgames::Rules& rules) const {
        return pass_rollouts > 0 ? pass_rollouts : rollouts_for(rules);
    }
    bool rule_pass = false;  // Hearts: pass as the rule player does (no candidate search)
    // Hearts: how many of the passes the rule player rates best (by its danger measure) join the
    // candidates, beside those drawn from the most dangerous cards.
    int pass_ranked = 0;
    // Hearts: another pass replaces the rule player's only when it leads it by this many standard
    // errors of their paired difference (race.hpp); bids keep kClearMargin.
    double pass_margin = 2;
    // Spades: bid as the rule player does (no candidate search). Unset (bid=auto): partnership
    // games bid by the learned model, where it beat the rule player's bids and play-out bidding
    // did not (README); other forms search.
    std::optional<bool> rule_bid;
    // Spades, bid=model (and bid=auto in partnership): bid and decide on blind nil by the learned
    // bid model (bid_model.hpp) from `bid_model_path`, or the default model file for the rules.
    bool model_bid = false;
    std::string bid_model_path;
    bool infer = false;  // weight worlds by how likely the bids seen are (soft inference)
    // infer=play (infer is set too): also by how likely the other seats' card plays are under the
    // play-out policy as a softmax (inference.hpp), drawing the worlds from a larger pool by
    // weight.
    bool infer_play = false;
    int ms = 0;  // wall-clock limit per decision (0: none; breaks reproducibility)
    // budget=: the most expansions the exact searches of one card decision spend (0: no limit),
    // shared evenly by its worlds; a world whose share runs out is valued by its play-outs alone
    // (world_budget, pimc.cpp). A count of nodes, not time, so decisions stay the same for any
    // thread count. The default bounds the worst decision of every form (docs/guide/bench.md).
    std::uint64_t budget = kDefaultBudget;
    static constexpr std::uint64_t kDefaultBudget = 1'000'000;
    // One world's share of `budget` among `worlds` valued worlds (0: no limit).
    std::uint64_t world_budget(int worlds) const {
        if (budget == 0) return 0;
        return std::max<std::uint64_t>(1, budget / static_cast<std::uint64_t>(std::max(1, worlds)));
    }

    static PimcOptions from_spec(const cardgames::BotSpec& spec);
};

// The options of a search of one world: to the end of the hand (`to_the_end`: the exact endgame,
// with leaf-value tables if `options.tables`) or to a depth (eval=search).
engine::SearchOptions world_search_options(const PimcOptions& options, bool to_the_end);

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
    int over_budget = 0;    // worlds whose share of the node budget ran out (valued by play-outs)
    int threads_used = 0;   // distinct TBB threads that searched the worlds
    bool searched = false;  // false: a single legal card, nothing to search
};

class PimcBot : public cardgames::Player {
  public:
    PimcBot(const PimcOptions& options, std::uint64_t seed);
    ~PimcBot() override;
    std::string name() const override { return "pimc"; }
    bool blind_nil(const cardgames::InfoState& info) override;
    int bid(const cardgames::InfoState& info) override;
    cardgames::CardSet pass(const cardgames::InfoState& info) override;
    cardgames::Card play(const cardgames::InfoState& info) override;

    // The full analysis of a card decision: what `hint` shows.
    PimcAnalysis analyze(const cardgames::InfoState& info);
    // What play() decides by: analyze, or no search where the legal cards are one run of
    // equivalent cards in every world (all would be valued alike; the first is played).
    PimcAnalysis decide(const cardgames::InfoState& info);
    const PimcOptions& options() const { return options_; }

  private:
    std::uint64_t decision_seed(const cardgames::InfoState& info,
                                cardgames::seeds::DecisionKind kind) const;

    // The bid model for these rules (bid=model), read once per file and process.
    const SpadesBidModel& bid_model(const cardgames::Rules& rules) const;

    PimcOptions options_;
    std::uint64_t seed_;
    std::unique_ptr<DecisionArena> arena_;  // where the worlds and play-outs run (parallel.hpp)
};

// The values of the legal cards of `info`'s decision in the one world `world` (every seat's cards
// as they stand at the decision), exactly as PimcBot values each of its sampled worlds (the same
// options: eval, exact, algo, tables, depth, nodes, utility); the `oracle` plays by it in the true
// world. Deterministic: the play-outs' rule player draws no randomness.
PimcAnalysis analyze_world(const PimcOptions& options, const cardgames::InfoState& info,
                           const cardgames::Deal& world);

// Cards each seat has won in tricks this hand, from the public plays.
std::array<cardgames::CardSet, cardgames::kMaxPlayers> taken_cards(
    const cardgames::InfoState& info);

}  // namespace sampling
