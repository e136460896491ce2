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
// drawn from `seed`. Partnership or cutthroat Spades.
int explore_bid(const cardgames::InfoState& view, int rule, std::uint64_t seed);

// Every bid explore_bid can draw for the seat, ascending (nil first): the rule player's bid, one
// more and one fewer, and nil on a weak hand whose partner has not bid nil.
std::vector<int> explored_bids(const cardgames::InfoState& view, int rule);

}  // namespace sampling
