#pragma once
// `pimc:eval=ismcts`: a card decision before the exact endgame by information-set Monte-Carlo
// tree search (single-observer ISMCTS, Cowling, Powley and Whitehouse 2012) instead of valuing
// each card in each world on its own. Each iteration deals a world consistent with what the seat
// knows (as `pimc` deals its worlds), walks one tree of the public card sequence from the
// decision, choosing at each node among the cards legal in that world by UCB over the rewards of
// the seat to move (availability counts: a card counts as offered only in the worlds where it is
// legal), adds one node, and plays the world out with the rule player in every seat, the engine
// solving the last tricks as `pimc`'s play-outs do (playout.hpp). The tree is shared by every
// world, so no seat's choices in it can depend on cards it cannot see: the deciding seat's later
// cards are one choice for all worlds, which a world-by-world valuation cannot give (strategy
// fusion). A fixed number of trees (kIsmctsTrees) split the iterations, farmed over the arena and
// summed card by card, so a decision is the same for any thread count.

#include <cstdint>
#include <vector>

#include "cardgames/rules/info_state.hpp"
#include "engine/types.hpp"
#include "sampling/pimc.hpp"

namespace sampling {

class DecisionArena;

inline constexpr int kIsmctsTrees = 4;
// UCB's exploration constant, for rewards read in standard deviations of all a tree has seen.
inline constexpr double kIsmctsExploration = 0.7;

struct IsmctsSettings {
    int worlds = 0;    // pimc's worlds: the play-outs are this many per legal card, each in a
                       // world of its own, split evenly over the trees
    int solve_at = 0;  // tricks left at which a play-out hands over to the exact search (0: none)
    std::uint64_t budget = 0;      // expansions those solves may spend, all trees (0: no limit)
    engine::SearchOptions solve;   // the exact search's options
    cardgames::Utility utility{};  // what the worlds are valued by
    cardgames::BagValue bags{};    // Spades: how the worlds value bags
    bool margin = false;           // rewards: each seat's side less the others (seat_value)
};

// The decision's cards (`cards`: every legal card, in card order) by ISMCTS: each card's `votes`
// are its visits at the root over all trees, `mean`, `expected` and `others` the mean of its
// play-outs as pimc reads them (seat_value); `best` is the card of best mean (the first in card
// order on a tie): with a few hundred iterations UCB's exploration keeps the visits of the good
// cards close, and the most visited played worse (docs/results/2026-12-01-ismcts.md). `base` is
// the decision's seed: iteration i deals world i from it.
PimcAnalysis ismcts_analysis(const cardgames::InfoState& info, std::vector<CardValue> cards,
                             const IsmctsSettings& settings, std::uint64_t base,
                             DecisionArena& arena);

}  // namespace sampling
