#pragma once
// Soft inference: how likely a sampled world makes what the other seats did, as a weight on the
// world (never a hard rule). Spades: the bids seen, under the rule player's bidding as a model of
// the bidders (a bid off by k tricks from the model's bid has weight exp(-k)). Hearts: the cards
// received, taken as the passer's most dangerous (see pass_weight in inference.cpp). With
// `pimc:infer=play` also the cards the other seats played, under the play-out policy as a softmax
// (PlayLikelihood), the worlds then being drawn from a larger pool by their weights
// (systematic_resample; sampling/pimc.cpp); `pimc:infer=net` does the same with a policy network
// (task "policy", cardgames/models/network.hpp) as the model of the plays, read as `playout=net`
// reads its network (playout_net_for, net_player.hpp).

#include <memory>
#include <string>
#include <vector>

#include "cardgames/cards/deal.hpp"
#include "cardgames/models/network.hpp"
#include "cardgames/rules/info_state.hpp"
#include "sampling/parallel.hpp"
#include "sampling/playout.hpp"
#include "sampling/policy.hpp"

namespace sampling {

double world_weight(const cardgames::InfoState& info, const cardgames::Deal& world);

// Spades, `pimc:infer=bids`: the weight of a world by the bid model as the model of every other
// seat that bid seeing its cards: for a nil, the chance the model gives the hand of making it; for
// a bid of k, its chance of taking k tricks; the product over the seats. A bid the model calls
// impossible (under its sure tricks) is still made by players who bid otherwise: at least
// kLeastBidLikelihood.
struct SpadesBidModel;
inline constexpr double kLeastBidLikelihood = 1e-3;
double bid_model_weight(const SpadesBidModel& model, const cardgames::InfoState& info,
                        const cardgames::Deal& world);

// The weight of the `rule` feature in the policy that models the other seats' plays where the
// form has no play-out model file: the rule player's card is e^1.5 (about 4.5) times as likely as
// each other legal card, so with four legal cards it is played 60% of the time, about as often as
// the rule player agrees with `pimc` in 4-player Hearts (58%, data/models/hearts4-playout.txt).
inline constexpr double kRuleFallbackWeight = 1.5;

// The policy that models the other seats' card plays: the model file `path`, else the form's
// default play-out model (data/models/<form>-playout.txt) where there is one, else the rule
// player as a softmax (only the `rule` feature weighted, kRuleFallbackWeight). Files come from
// `store`.
std::shared_ptr<const PolicyModel> inference_policy(cardgames::models::ModelStore& store,
                                                    const std::string& path,
                                                    const cardgames::Rules& rules);

// One card another seat played this hand, with the public state just before it: what a model of
// the plays is asked about (PlayLikelihood, RuleFit).
struct OtherPlay {
    int seat = 0;
    cardgames::Card card;
    cardgames::CardSet from_here;  // the seat's cards played from this play on
    cardgames::PlayState before;   // public: no hand filled in
    SeatViews views;               // the public history before it
};
// Every card of `info`'s hand so far that a seat other than `info.seat` played.
std::vector<OtherPlay> other_plays(const cardgames::InfoState& info,
                                   const cardgames::PlayRules& rules);

// The log-likelihood of every card the other seats have played this hand, in a world (every
// seat's cards as they stand at `info`'s decision), under a model of the plays as a softmax over
// the legal cards: the linear `policy`, or a policy network's logits (its raw softmax, as
// cross-entropy trained it). Each such seat's information state at its play is rebuilt from the
// world (its hand then: its cards now and what it has played since) and the public history before
// the play, the way a play-out shows each seat its view (SeatViews); the network reads that view's
// card features (card_features.hpp). A play with a single legal card carries no information
// (log 1 = 0). Neither model reads passed or received cards, so the views need none (the world
// does not say what the other seats passed). Throws Contradiction when a play was not legal in the
// world (the sampler's constraints rule that out).
class PlayLikelihood {
  public:
    PlayLikelihood(const cardgames::InfoState& info, std::shared_ptr<const PolicyModel> policy);
    PlayLikelihood(const cardgames::InfoState& info,
                   std::shared_ptr<const cardgames::models::Network> net);

    double of(const cardgames::Deal& world) const;
    // The same for each of `worlds`, in order, farmed over `arena` by play. What all worlds share
    // (each play's public view) is built once, and a seat's hand at a play that several worlds
    // give it is scored once: late in a hand most worlds share them. The network is evaluated by
    // one Evaluator per thread of `arena`.
    std::vector<double> of(const std::vector<cardgames::Deal>& worlds, DecisionArena& arena) const;

  private:
    class Scorer;  // scores one play in world after world (inference.cpp)

    std::shared_ptr<const PolicyModel> policy_;  // one of these two is set
    std::shared_ptr<const cardgames::models::Network> net_;
    cardgames::PlayRules play_rules_;
    std::vector<OtherPlay> plays_;
};

// playout=fit: which other seats have played, this hand, some card with a choice that the rule
// player would not have played holding their cards in a world. The rule player is deterministic:
// one such card shows that a seat, in that world, is not playing as it does.
class RuleFit {
  public:
    explicit RuleFit(const cardgames::InfoState& info);
    // Bit s set: seat s played such a card in `world` (every seat's cards as they stand at the
    // decision).
    unsigned misfits(const cardgames::Deal& world) const;

  private:
    cardgames::PlayRules play_rules_;
    std::vector<OtherPlay> plays_;
};

// playout=fit, fit_weight: the factor each world's weight takes from `misfits` (by world, as
// RuleFit gives them): a seat other than `seat` whose cards fit the rule player in some world is
// taken for a rule player, and each world where they do not counts `fit_weight` times as much,
// once for each such seat. A seat caught in every world changes no weight; nor does anything when
// every world would weigh nothing.
std::vector<double> fit_factors(const std::vector<unsigned>& misfits, int seat, double fit_weight);

// Systematic resampling: how many of `count` draws fall on each item when items are drawn in
// proportion to `weights` (not all zero) with the one uniform draw `u` in [0, 1): the draws are
// at (u + k) / count of the cumulative weight, k = 0 .. count-1, so an item of weight share s gets
// floor or ceil of s x count.
std::vector<int> systematic_resample(const std::vector<double>& weights, int count, double u);

}  // namespace sampling
