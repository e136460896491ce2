#pragma once
// Soft inference: how likely a sampled world makes what the other seats did, as a weight on the
// world (never a hard rule). Spades: the bids seen, under the rule player's bidding as a model of
// the bidders (a bid off by k tricks from the model's bid has weight exp(-k)). Hearts: the cards
// received, taken as the passer's most dangerous (see pass_weight in inference.cpp).

#include "cardgames/cards/deal.hpp"
#include "cardgames/rules/info_state.hpp"

namespace sampling {

double world_weight(const cardgames::InfoState& info, const cardgames::Deal& world);

}  // namespace sampling
