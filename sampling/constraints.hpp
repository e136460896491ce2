#pragma once
// The hard facts one seat knows about the hidden hands live in cardgames/constraints.hpp, where the
// bot side of the protocol checks the table's lines against them too; the sampler's names for them.

#include "cardgames/rules/constraints.hpp"

namespace sampling {

using cardgames::CardSet;
using cardgames::Constraints;
using cardgames::constraints_from;
using cardgames::kMaxPlayers;

}  // namespace sampling
