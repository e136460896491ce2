#pragma once
// The bids that training data takes in place of a seat's own (`learn bids-data`, `learn selfplay
// --explore-bids`): the rule player's bid varied on purpose, so that the data shows what nil takes
// on hands the rule player would not risk it on, and what one trick more or less takes (pimc plays
// to its contract, so a bid shapes the tricks a little). A bid value network learns the outcome of
// these bids only, so `pimc:bid=value` chooses among them (explored_bids).

#include <cstdint>
#include <vector>

#include "cardgames/rules/info_state.hpp"

namespace sampling {

// The bid the data records for the seat that `view` is of, whose rule player's bid is `rule`,
// drawn from `seed`. Partnership or cutthroat Spades. The draws that keep a bid keep `kept`: the
// rule player's bid by default, or the seat's own bot's (`learn selfplay --explore-bids own`, so
// that the data follows the bidder being improved, and explores around it).
int explore_bid(const cardgames::InfoState& view, int rule, std::uint64_t seed, int kept);
inline int explore_bid(const cardgames::InfoState& view, int rule, std::uint64_t seed) {
    return explore_bid(view, rule, seed, rule);
}

// Every bid explore_bid can draw for the seat when it keeps the rule player's bid, ascending (nil
// first): the rule player's bid, one more and one fewer, and nil on a weak hand whose partner has
// not bid nil.
std::vector<int> explored_bids(const cardgames::InfoState& view, int rule);

}  // namespace sampling
