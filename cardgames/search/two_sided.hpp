#pragma once
// What the engine's two-sided search (alphabeta) answers about a TrickGame under the tricks
// utility, as tricks per side.

#include <array>

#include "engine/types.hpp"

namespace cardgames {

// Alphabeta's score is side 0's utility sum, and both partners carry their side's tricks, so the
// side's tricks are half of it; `maxsum` (TrickGame::maxsum) is twice the tricks left. Returns
// [seats 0 and 2, seats 1 and 3].
constexpr std::array<int, 2> two_sided_tricks(engine::Utility side0_sum, engine::Utility maxsum) {
    const int ns = side0_sum / 2;
    return {ns, maxsum / 2 - ns};
}

}  // namespace cardgames
