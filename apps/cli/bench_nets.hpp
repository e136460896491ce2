#pragma once
#include <cstdint>
#include <string>

#include "cardgames/rules/rules.hpp"

namespace apps {

// cardgames bench --nets: plays `hands` random hands and times the network `model` (empty: a
// random network of the trainer's default shape) on every seat's view after every card: evaluations
// per second with the accumulator recomputed from the features and with it updated card by card.
int bench_nets(const cardgames::Rules& rules, const std::string& model, int hands,
               std::uint64_t seed);

}  // namespace apps
