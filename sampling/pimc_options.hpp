#pragma once
// The settings of the Monte-Carlo player `pimc` (pimc.hpp), in four groups: how it samples worlds,
// how a world values a card, how it bids and passes, and how a world is searched. Every option of
// a `pimc:` (or `oracle:`) spec is declared once, in pimc_option_table() (pimc_options.cpp): its
// name, group, values, default and help; the spec parser, `cardgames help pimc`, the option table
// in docs/guide/bots.md and Python's make_bot help are all made from it. A default-constructed
// PimcOptions is the spec "pimc" (a test holds them equal).

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>

#include "cardgames/players/bot_options.hpp"
#include "cardgames/players/bot_spec.hpp"
#include "cardgames/rules/rules.hpp"
#include "cardgames/search/trick_objectives.hpp"
#include "engine/types.hpp"

namespace sampling {

inline constexpr int kMaxBotThreads = 1024;  // threads=N of a spec

struct PimcOptions {
    // infer=: off; on, worlds weighted by how likely the bids and passes seen are; play, by those
    // and the other seats' card plays too (inference.hpp); net, the plays under a policy network.
    enum class Infer { kOff, kOn, kPlay, kNet, kBids };
    // eval=: before the exact endgame a world values each card by play-outs of the rest of the
    // hand (rollout), or by a depth-limited search whose horizon shares what is left evenly (or as
    // the cut-off model predicts: cutoff); or (ismcts) the decision is one information-set tree
    // search over as many play-outs as the worlds would play, each in a world of its own
    // (ismcts.hpp).
    enum class Eval { kPlayout, kSearch, kIsmcts };
    // Who plays the cards of a play-out: the rule player, the learned policy (policy.hpp), the
    // policy network (net_player.hpp), or (fit, card play-outs only) in each world each other seat
    // the rule player if it has played every card so far as the rule player would have from its
    // cards there (RuleFit, inference.hpp), else the network, as the deciding seat. Card
    // play-outs unset (playout=auto): fit in 4-player Hearts, where it beat the rule player's
    // play-outs at equal time and was level against rule players
    // (docs/results/2026-11-29-playout-fit.md), the rule player in the forms with no network.
    enum class Playout { kRule, kModel, kNet, kFit };
    // How the deciding seat plays its own later cards in the play-outs: as every other seat does
    // (`playout`), by the rule player, by the learned policy, by the policy network, or (switch)
    // both the rule player's way and the policy's, each card taking the better mean over the
    // worlds (policy switching; it did not win at equal time,
    // docs/results/2026-11-26-policy-switching.md).
    enum class Self { kSame, kRule, kModel, kNet, kSwitch };
    // Spades score and Hearts points: a world values a card by the seat's side's hand score (own),
    // or by that minus the other sides' mean (margin), so that setting another side's contract or
    // nil counts, and in Hearts the points a moon gives the others. Each seat's search plays for
    // its own side either way; this is how the deciding seat compares its cards. Auto: margin in
    // partnership games, where it won, else own (in Hearts margin did not win; both in
    // docs/results/2026-11-26-objective-margin.md).
    enum class Objective { kAuto, kOwn, kMargin };
    // Spades bids: by play-outs of candidates (search), as the rule player, or by the learned bid
    // model (bid_model.hpp). Auto: partnership games bid by the model, where it beat the rule
    // player's bids and play-out bidding did not
    // (docs/results/2026-11-25-learned-spades-bids.md); other forms search. Net: the bid
    // network's bid (net_player.hpp).
    enum class Bid { kAuto, kSearch, kRule, kModel, kNet, kValue };

    // How the worlds of a card decision are drawn and their values combined.
    struct Sampling {
        int worlds = 64;
        // While the best card does not lead the next clearly, more rounds of `worlds` worlds, up
        // to this many in all (0: one round).
        int worlds_max = 0;
        // Spades: worlds per card decision while the seat's own nil or its partner's still
        // stands (0: `worlds`).
        int nil_worlds = 0;
        // Worlds dealt as a sampled deal and its turns among the seats nothing tells apart
        // (HandRotation, deal_sampler.hpp), not each on its own.
        bool rotate = false;
        Infer infer = Infer::kOff;
        // infer=net: the policy network's file; empty: data/models/<form>-playout-net.net.
        std::string infer_net_path;
        bool vote = false;  // aggregate by votes for each world's optimal cards
        // Cards of equal mean (or votes and mean): the first in card order, or (tie=rule) the rule
        // player's card where it is one of them.
        bool tie_rule = false;
        // 0: the cores of the run it plays in (all of them at the top level, the tournament's or
        // eval's --threads inside one); N: an arena of N threads of its own. The decision is the
        // same for any.
        int threads = 0;
        int ms = 0;  // wall-clock limit per decision (0: none; breaks reproducibility)
        // Whether the worlds are weighted by the other seats' card plays too (play or net) and
        // drawn from a larger pool.
        bool infers_from_plays() const { return infer == Infer::kPlay || infer == Infer::kNet; }
        bool operator==(const Sampling&) const = default;
    };

    // How one world values a card.
    struct CardValuation {
        Eval eval = Eval::kPlayout;
        std::optional<Playout> playout;  // unset: auto (playout_for)
        // playout=fit: how much a world counts in which the cards of another seat that fits the
        // rule player in some world do not fit it, once for each such seat (1: as any world).
        double fit_weight = 1;
        Self self = Self::kSame;
        // The policy of playout=model, self=model or switch and rollout_playout=model; empty: the
        // form's default model (data/models/<form>-playout.txt).
        std::string playout_model_path;
        // The network of playout=net and rollout_playout=net; empty: the form's default
        // (data/models/<form>-playout-net.net).
        std::string playout_net_path;
        // Hearts, moon=on: the seat may shoot the moon (moon.hpp). A hand holding the ace of
        // hearts also values passes played out with the seat shooting; while it could still take
        // every point (moon_open), each card is also played out with the seat shooting, and takes
        // that mean where it clearly leads. Unset (moon=auto): on in 4-player Hearts, where it won
        // (docs/results/2026-11-27-moon.md), off in the other forms, where it is not measured.
        std::optional<bool> moon;
        // Spades: what a world's searches play for: the hand score (bids, nil, bags), the tricks,
        // or (partnership) each side's score less the other's (constant-sum: a two-sided game,
        // which alphabeta searches). Unset (auto): the margin in partnership games, where it
        // was as strong and far cheaper (docs/results/2026-11-28-margin-alphabeta.md), else the
        // score.
        std::optional<cardgames::Utility> spades_utility;
        // Spades, utility score or margin, bid play-outs and the bid model's expected scores: bags
        // valued as the hand scores them, or paid for as they are taken (BagValue, scoring.hpp).
        // Unset (auto): paid for as taken in partnership games but in the game's last hand, where
        // that won whole games (docs/results/2026-11-30-amortized-bags.md); else as the hand
        // scores them.
        std::optional<cardgames::BagValue> bags;
        Objective objective = Objective::kAuto;
        // eval=search, cutoff=model (utility=score in Spades): the horizon shares what is left
        // (penalty points, or tricks) as the learned cut-off model predicts (cutoff_model.hpp)
        // instead of evenly; `cutoff_path` empty: the form's default model
        // (data/models/<form>-cutoff.txt).
        bool cutoff_model = false;
        std::string cutoff_path;
        // cutoff=net: the same from a value network of the perfect-information position
        // (cutoff_net.hpp); `cutoff_net_path` empty: data/models/<form>-cutoff-net.net.
        bool cutoff_net = false;
        std::string cutoff_net_path;
        bool operator==(const CardValuation&) const = default;
    };

    // How a world is searched.
    struct Search {
        engine::Algorithm algorithm = engine::Algorithm::kSpeculative;
        bool tables = true;    // leaf-value tables when a world is searched to the end
        int exact_tricks = 0;  // search to the end when this few tricks are left (0: by players)
        // Spades: while a nil stands, the card play-outs play to the last card instead of
        // handing over to the exact search (the root's own exact endgame stays).
        bool nil_playouts_to_end = false;
        // Spades: in this seat's searches another seat's standing nil plays as the rule player's
        // nil does, from its own hand and the cards played, not seeing every hand.
        bool nil_bidder_rule = false;
        int depth = 0;                // eval=search: tricks; 0: iterative deepening within `nodes`
        std::uint64_t nodes = 30000;  // eval=search: expansions per world and decision
        // budget=: the most expansions the searches of one card decision spend (0: no limit),
        // shared evenly by its worlds; a world whose exact searches use three quarters of its
        // share is valued by play-outs solved two tricks later within the rest, or else by its
        // play-outs alone (pimc.cpp). A count of nodes, not time, so decisions stay the same for
        // any thread count (docs/guide/bench.md). 500,000 keeps every form's decisions within
        // the time targets at no measured loss of strength
        // (docs/results/2026-11-28-bounded-default.md, 2026-11-28-margin-alphabeta.md).
        std::uint64_t budget = 500000;
        // pilot=: the decision's first this many worlds are valued first; when more than half of
        // them run over their share of `budget`, the other worlds skip the exact searches and
        // go straight to the later solves, with their whole share (0: off).
        int pilot = 0;
        // One world's share of `budget` among `worlds` valued worlds (0: no limit).
        std::uint64_t world_budget(int worlds) const {
            if (budget == 0) return 0;
            return std::max<std::uint64_t>(
                1, budget / static_cast<std::uint64_t>(std::max(1, worlds)));
        }
        bool operator==(const Search&) const = default;
    };

    // Bids, blind nil and passes: candidates valued by the expected score over sampled deals
    // (pimc_bidding.cpp), or the rule player's choice, or (Spades bids) the learned bid model.
    struct BidsAndPasses {
        Bid bid = Bid::kAuto;
        std::string bid_model_path;  // bid=model: empty, the default model file for the rules
        std::string bid_net_path;    // bid=net: empty, data/models/<form>-bid-net.net
        // bid=value: empty, data/models/<form>-bid_value-net.net
        std::string bid_value_net_path;
        bool rule_pass = false;     // Hearts: pass as the rule player does (no candidate search)
        bool net_pass = false;      // Hearts: pass the pass network's cards (net_player.hpp)
        std::string pass_net_path;  // pass=net: empty, data/models/<form>-pass-net.net
        // Sampled deals per candidate bid or pass; 0 (the default): by form (rollouts_for).
        int rollouts = 0;
        // Hearts passes: the most deals a candidate is valued on; the closest candidates get more
        // deals than rollouts_for until they have this many (race.hpp). At or below rollouts_for
        // (0, the default, counts as rollouts_for): every candidate gets rollouts_for deals.
        int pass_rollouts = 0;
        // Hearts: how many of the passes the rule player rates best (by its danger measure) join
        // the candidates, beside those drawn from the most dangerous cards.
        int pass_ranked = 0;
        // Hearts: another pass replaces the rule player's only when it leads it by this many
        // standard errors of their paired difference (race.hpp); bids keep kClearMargin.
        double pass_margin = 2;
        // Who plays the deals' cards (rollout_playout), and at how many tricks left they hand
        // over to the exact search (rollout_exact; 0: they play to the last card).
        Playout playout = Playout::kRule;
        int exact = 0;
        bool operator==(const BidsAndPasses&) const = default;
    };

    Sampling sampling;
    CardValuation valuation;
    BidsAndPasses bidding;
    Search search;

    bool moon_for(const cardgames::Rules& rules) const {
        return valuation.moon.value_or(rules.game == cardgames::GameKind::kHearts &&
                                       rules.players == 4);
    }
    // Who plays the card decisions' play-outs in `rules`.
    Playout playout_for(const cardgames::Rules& rules) const {
        return valuation.playout.value_or(
            rules.game == cardgames::GameKind::kHearts && rules.players == 4 ? Playout::kFit
                                                                             : Playout::kRule);
    }
    // Whether some seat of the card decisions' play-outs plays the learned policy (auto never
    // does).
    bool card_playouts_use_policy() const {
        return valuation.playout == Playout::kModel || valuation.self == Self::kModel ||
               valuation.self == Self::kSwitch;
    }
    // Whether some seat of some play-out (cards, bids or passes) plays the learned policy.
    bool uses_policy() const {
        return card_playouts_use_policy() || bidding.playout == Playout::kModel;
    }
    // Whether some seat of the card decisions' play-outs in `rules` plays the policy network.
    bool card_playouts_use_net(const cardgames::Rules& rules) const {
        const Playout p = playout_for(rules);
        return p == Playout::kNet || p == Playout::kFit || valuation.self == Self::kNet;
    }
    // Whether some seat of some play-out (cards, bids or passes) in `rules` plays the policy
    // network.
    bool uses_net(const cardgames::Rules& rules) const {
        return card_playouts_use_net(rules) || bidding.playout == Playout::kNet;
    }
    // Whether some seat of some play-out may play the policy network, in some form (auto plays it
    // in 4-player Hearts).
    bool may_use_net() const {
        return !valuation.playout || valuation.playout == Playout::kNet ||
               valuation.playout == Playout::kFit || valuation.self == Self::kNet ||
               bidding.playout == Playout::kNet;
    }
    // The utility the worlds of `rules` are searched by.
    cardgames::Utility utility_for(const cardgames::Rules& rules) const {
        if (rules.game == cardgames::GameKind::kHearts) return cardgames::Utility::kPoints;
        return valuation.spades_utility.value_or(
            rules.is_partnership() ? cardgames::Utility::kMargin : cardgames::Utility::kScore);
    }
    cardgames::BagValue bag_value(const cardgames::InfoState& info) const {
        const bool amortize = info.rules->game == cardgames::GameKind::kSpades &&
                              info.rules->is_partnership() && !info.last_hand;
        return valuation.bags.value_or(amortize ? cardgames::BagValue::kAmortized
                                                : cardgames::BagValue::kHand);
    }
    bool margin(const cardgames::Rules& rules) const {
        return valuation.objective == Objective::kMargin ||
               (valuation.objective == Objective::kAuto && rules.is_partnership());
    }
    // Spades: whether bids and blind nil come from the learned bid model.
    bool bids_by_model(const cardgames::Rules& rules) const {
        return bidding.bid == Bid::kModel || (bidding.bid == Bid::kAuto && rules.is_partnership());
    }
    // Spades: whether blind nil comes from the learned bid model: with bid=model, and where the
    // bids do by default (auto), or come from the bid network, which decides no blind nil.
    bool blind_nil_by_model(const cardgames::Rules& rules) const {
        return bids_by_model(rules) ||
               ((bidding.bid == Bid::kNet || bidding.bid == Bid::kValue) && rules.is_partnership());
    }
    // `rollouts`, or by default 192 for the passes of 4- and 5-player Hearts, where they played
    // better than 48 at the same median decision time (docs/results/2026-11-26-pass-deals.md),
    // and 48 elsewhere (in 3- and 6-player Hearts 192 was not clearly better).
    int rollouts_for(const cardgames::Rules& rules) const {
        if (bidding.rollouts > 0) return bidding.rollouts;
        const bool hearts = rules.game == cardgames::GameKind::kHearts;
        return hearts && (rules.players == 4 || rules.players == 5) ? 192 : 48;
    }
    int pass_deals(const cardgames::Rules& rules) const {
        return bidding.pass_rollouts > 0 ? bidding.pass_rollouts : rollouts_for(rules);
    }

    bool operator==(const PimcOptions&) const = default;

    // A `pimc:` or `oracle:` spec's options, by the table of its bot; a named model file is read
    // now, so that a bad one stops the command before it starts.
    static PimcOptions from_spec(const cardgames::BotSpec& spec);
};

// Every option of a `pimc:` spec, in the order the help lists them.
const cardgames::OptionTable<PimcOptions>& pimc_option_table();
// Those the `oracle` takes: all but the sampled worlds' own (it has one world, the true one).
const cardgames::OptionTable<PimcOptions>& oracle_option_table();

}  // namespace sampling
