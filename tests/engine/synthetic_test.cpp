// The synthetic game: deterministic from its seed, true bounds, outcome sets that contain every
// leaf, and transposition classes whose subtrees really are identical.

#include "engine/synthetic.hpp"

#include <gtest/gtest.h>

#include <functional>

#include "engine/hash.hpp"
#include "tree_specs.hpp"

namespace engine {
namespace {

// Hash of every leaf tuple in depth-first order; checks bounds and outcomes on the way.
std::uint64_t walk(SyntheticGame& g, std::uint64_t h, int& checked) {
    Tuple lo{}, hi{};
    g.bounds(lo, hi);
    if (g.is_terminal()) {
        Tuple u{};
        g.payoff(u);
        Utility sum = 0;
        for (int p = 0; p < g.num_players(); ++p) {
            EXPECT_GE(u[p], 0);
            sum += u[p];
        }
        EXPECT_LE(sum, g.maxsum());
        if (g.constant_sum()) {
            EXPECT_EQ(sum, g.maxsum());
        }
        for (int p = 0; p < kMaxPlayers; ++p) h = hash_combine(h, static_cast<std::uint32_t>(u[p]));
        ++checked;
        return h;
    }
    Tuple e{};
    g.evaluate(e);
    for (int p = 0; p < g.num_players(); ++p) {
        EXPECT_LE(lo[p], e[p]);
        EXPECT_LE(e[p], hi[p]);
    }
    MoveListOf<SyntheticGame> moves;
    g.legal_moves(moves);
    EXPECT_GE(moves.size(), 1);
    for (auto m : moves) {
        g.apply(m);
        // Bounds only tighten along a path (monotonic heuristic) and contain every leaf below.
        Tuple clo{}, chi{};
        g.bounds(clo, chi);
        for (int p = 0; p < g.num_players(); ++p) {
            EXPECT_GE(clo[p], lo[p]);
            EXPECT_LE(chi[p], hi[p]);
        }
        h = walk(g, h, checked);
        g.undo(m);
    }
    return h;
}

TEST(Synthetic, SameSeedSameTreeAndBoundsHold) {
    std::uint64_t all = 0;
    for (int t = 0; t < 300; ++t) {
        const SyntheticSpec spec = testing::random_spec(static_cast<std::uint64_t>(t));
        SyntheticGame a(spec), b(spec);
        int checked = 0;
        const std::uint64_t ha = walk(a, 0, checked);
        EXPECT_EQ(ha, walk(b, 0, checked));
        all = hash_combine(all, ha);
    }
    // Golden fingerprint of the first 300 random trees: this number must be the same on every
    // machine and standard library. It changes only when the generator is changed on purpose.
    EXPECT_EQ(all, 0x8540e9f4057aef29ull) << std::hex << all;
}

// Every leaf below the root is among the outcomes the root enumerates.
void leaves_in_outcomes(SyntheticGame& g, SyntheticGame& at, int depth) {
    if (g.is_terminal()) {
        Tuple u{};
        g.payoff(u);
        bool found = false;
        at.for_each_outcome([&](const Tuple& o) { return found = (o == u); });
        EXPECT_TRUE(found);
        return;
    }
    MoveListOf<SyntheticGame> moves;
    g.legal_moves(moves);
    for (auto m : moves) {
        g.apply(m);
        leaves_in_outcomes(g, at, depth + 1);
        g.undo(m);
    }
}

TEST(Synthetic, OutcomesContainEveryReachableLeaf) {
    for (int t = 0; t < 200; ++t) {
        SyntheticSpec spec = testing::random_spec(static_cast<std::uint64_t>(t) + 123);
        SyntheticGame g(spec), root(spec);
        leaves_in_outcomes(g, root, 0);
    }
}

TEST(Synthetic, TranspositionClassesRepeatSubtreesUpToTheOffset) {
    const SyntheticSpec spec{
        .seed = 7, .players = 3, .branching = 4, .depth = 5, .transposition_classes = 2};
    SyntheticGame g(spec);
    // Walk two plies and remember (key -> leaf values minus offset) for every node at ply 2.
    std::vector<std::pair<std::uint64_t, std::uint64_t>> seen;
    MoveListOf<SyntheticGame> m1;
    g.legal_moves(m1);
    int repeats = 0;
    for (auto a : m1) {
        g.apply(a);
        MoveListOf<SyntheticGame> m2;
        g.legal_moves(m2);
        for (auto b : m2) {
            g.apply(b);
            Tuple offset{};
            g.tt_offset(offset);
            SyntheticGame copy = g;  // relative leaf fingerprint of this subtree
            std::uint64_t h = 0;
            std::function<void()> rec = [&]() {
                if (copy.is_terminal()) {
                    Tuple u{};
                    copy.payoff(u);
                    for (int p = 0; p < 3; ++p)
                        h = hash_combine(h, static_cast<std::uint32_t>(u[p] - offset[p]));
                    return;
                }
                MoveListOf<SyntheticGame> ms;
                copy.legal_moves(ms);
                for (auto m : ms) {
                    copy.apply(m);
                    rec();
                    copy.undo(m);
                }
            };
            rec();
            for (const auto& [key, fp] : seen)
                if (key == g.hash_key()) {
                    EXPECT_EQ(fp, h);
                    ++repeats;
                }
            seen.emplace_back(g.hash_key(), h);
            g.undo(b);
        }
        g.undo(a);
    }
    EXPECT_GT(repeats, 0);
}

}  // namespace
}  // namespace engine
