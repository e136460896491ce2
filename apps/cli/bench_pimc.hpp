#pragma once
#include <cstdint>
#include <string>

#include "cardgames/rules/rules.hpp"

namespace apps {

// Plays `hands` hands with `spec` in every seat and prints per-decision times by kind and point of
// the hand, the decision rate and the peak resident memory.
int bench_pimc(const cardgames::Rules& rules, const std::string& spec, int hands,
               std::uint64_t seed);

}  // namespace apps
