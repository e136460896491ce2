#pragma once
// Shared helpers for the engine tests: random synthetic tree specs and naive reference searches.

#include <cstdint>

#include "engine/hash.hpp"
#include "engine/synthetic.hpp"

namespace engine::testing {

// A random spec: 2..6 players, branching 2..8, depth up to 10, trees kept to at most ~max_leaves
// leaves so that thousands of them search in seconds.
inline SyntheticSpec random_spec(std::uint64_t index, int max_leaves = 600) {
    std::uint64_t h = splitmix64(index * 0x9E37ULL + 17);
    auto next = [&h](int n) {
        h = splitmix64(h);
        return static_cast<int>(h % static_cast<std::uint64_t>(n));
    };
    SyntheticSpec spec;
    spec.seed = splitmix64(h ^ index);
    spec.players = 2 + next(5);
    spec.branching = 2 + next(7);
    int depth = 1;
    long leaves = spec.branching;
    while (depth < 10 && leaves * spec.branching <= max_leaves) {
        ++depth;
        leaves *= spec.branching;
    }
    spec.depth = 1 + next(depth);
    spec.constant_sum = next(2) == 0;
    spec.alternate = next(2) == 0;
    spec.heuristic = next(3) != 0;
    spec.scored = next(4) == 0;
    spec.pool = static_cast<Utility>(spec.players >= 5 ? 3 + next(6) : 3 + next(9));
    spec.transposition_classes = next(3) == 0 ? 1 + next(4) : 0;
    spec.early_terminal_per_256 = next(3) == 0 ? 20 + next(50) : 0;
    spec.vary_branching = next(4) != 0;
    return spec;
}

}  // namespace engine::testing
