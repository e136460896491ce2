// Depth and node limits, iterative deepening, statistics consistency and repeatability.

#include <gtest/gtest.h>

#include "engine/search.hpp"
#include "engine/synthetic.hpp"
#include "tree_specs.hpp"

namespace engine {
namespace {

// Interior nodes and leaves of a synthetic tree, by walking it.
void count_tree(SyntheticGame& g, std::uint64_t& interior, std::uint64_t& leaves) {
    if (g.is_terminal()) {
        ++leaves;
        return;
    }
    ++interior;
    MoveListOf<SyntheticGame> moves;
    g.legal_moves(moves);
    for (auto m : moves) {
        g.apply(m);
        count_tree(g, interior, leaves);
        g.undo(m);
    }
}

SyntheticSpec spec4() {
    return {.seed = 42, .players = 4, .branching = 4, .depth = 6, .pool = 12, .alternate = false};
}

TEST(Limits, PlainMaxnExpandsTheWholeTree) {
    for (int t = 0; t < 200; ++t) {
        SyntheticGame g(testing::random_spec(static_cast<std::uint64_t>(t)));
        std::uint64_t interior = 0, leaves = 0;
        count_tree(g, interior, leaves);
        SearchOptions o;
        o.algorithm = Algorithm::kMaxn;
        MaxnSearch<SyntheticGame> search(o);
        const auto r = search.search(g);
        EXPECT_EQ(r.stats.expansions, interior);
        EXPECT_EQ(r.stats.leaves, leaves);
        EXPECT_EQ(r.stats.nodes, interior + leaves);
        EXPECT_EQ(r.stats.evaluations, 0u);
        EXPECT_TRUE(r.complete);
    }
}

TEST(Limits, DepthLimitCutsOffAtThatDepth) {
    SyntheticSpec s = spec4();
    s.vary_branching = false;
    SyntheticGame g(s);
    for (int depth = 0; depth <= 3; ++depth) {
        SearchOptions o;
        o.algorithm = Algorithm::kMaxn;
        o.depth_limit = depth;
        MaxnSearch<SyntheticGame> search(o);
        const auto r = search.search(g);
        std::uint64_t frontier = 1, interior = 0;
        for (int d = 0; d < depth; ++d) {
            interior += frontier;
            frontier *= 4;
        }
        EXPECT_EQ(r.stats.expansions, interior) << depth;
        EXPECT_EQ(r.stats.evaluations, frontier) << depth;
        if (depth == 0) {
            EXPECT_EQ(r.best_index, -1);
        }
    }
    // A depth limit at or beyond the tree's depth changes nothing.
    SearchOptions o;
    o.algorithm = Algorithm::kMaxn;
    const auto full = MaxnSearch<SyntheticGame>(o).search(g);
    o.depth_limit = s.depth;
    const auto limited = MaxnSearch<SyntheticGame>(o).search(g);
    EXPECT_EQ(full.value, limited.value);
    EXPECT_EQ(full.stats.expansions, limited.stats.expansions);
}

TEST(Limits, NodeLimitStopsTheSearch) {
    SyntheticGame g(spec4());
    for (Algorithm a : {Algorithm::kMaxn, Algorithm::kSpeculative, Algorithm::kAlphaBeta}) {
        SearchOptions o;
        o.algorithm = a;
        o.node_limit = 50;
        Searcher<SyntheticGame> searcher(o);
        const auto r = searcher.search(g);
        EXPECT_FALSE(r.complete) << algorithm_name(a);
        EXPECT_LE(r.stats.expansions, 50u);
        EXPECT_EQ(g.ply(), 0);  // every move was undone on the way out
        o.node_limit = 1'000'000;
        EXPECT_TRUE(Searcher<SyntheticGame>(o).search(g).complete);
    }
}

// The searcher the deepening tests use: speculative pruning and a small table.
SearchOptions speculative_with_table() {
    SearchOptions o;
    o.algorithm = Algorithm::kSpeculative;
    o.tt_entries = 1024;
    return o;
}

TEST(Limits, IterativeDeepeningReturnsTheDeepestCompleteAnswer) {
    SyntheticGame g(spec4());
    SearchOptions o = speculative_with_table();
    Searcher<SyntheticGame> searcher(o);
    const auto all = iterative_deepening(searcher, g, 20);
    EXPECT_TRUE(all.complete);
    EXPECT_EQ(all.depth, 6);  // the tree is 6 plies deep: depth 6 needed no cut-off
    SearchOptions plain;
    plain.algorithm = Algorithm::kMaxn;
    EXPECT_EQ(all.value, MaxnSearch<SyntheticGame>(plain).search(g).value);

    // With a small budget the answer comes from the last iteration that finished.
    o.node_limit = 60;
    Searcher<SyntheticGame> budgeted(o);
    const auto partial = iterative_deepening(budgeted, g, 20);
    ASSERT_TRUE(partial.complete);
    EXPECT_LT(partial.depth, 6);
    EXPECT_LE(partial.stats.expansions, 60u);
    plain.depth_limit = partial.depth;
    EXPECT_EQ(partial.value, MaxnSearch<SyntheticGame>(plain).search(g).value);
}

// The value of every root move of one analysis, for comparing two analyses.
std::vector<Tuple> move_values(
    const RootAnalysis<SyntheticGame::Move, SyntheticGame::kMaxMoves>& a) {
    std::vector<Tuple> out;
    for (const auto& m : a.moves) out.push_back(m.value);
    return out;
}

TEST(Limits, IterativeDeepeningOfTheRootValuesEveryMoveAtTheDeepestCompleteDepth) {
    SyntheticGame g(spec4());
    SearchOptions o = speculative_with_table();
    const auto once = Searcher<SyntheticGame>(o).analyze_root(g);  // no limits: every move exact
    Searcher<SyntheticGame> deepening(o);
    const auto whole = iterative_deepening_root(deepening, g, 20);
    ASSERT_TRUE(whole.complete);
    EXPECT_EQ(move_values(whole), move_values(once));

    // Capped at depth 2, the values are those of a search cut off at depth 2; the searcher's own
    // limits are as they were.
    const auto two = iterative_deepening_root(deepening, g, 2);
    ASSERT_TRUE(two.complete);
    EXPECT_EQ(deepening.options().depth_limit, kNoDepthLimit);
    SearchOptions at_two = o;
    at_two.depth_limit = 2;
    EXPECT_EQ(move_values(two), move_values(Searcher<SyntheticGame>(at_two).analyze_root(g)));
    EXPECT_NE(move_values(two), move_values(whole));

    // A budget of one expansion (the root's) leaves depth 1 the deepest complete answer; the
    // deeper tries it stopped are counted.
    o.node_limit = 1;
    Searcher<SyntheticGame> starved(o);
    const auto shallow = iterative_deepening_root(starved, g, 20);
    ASSERT_TRUE(shallow.complete);
    SearchOptions at_one = o;
    at_one.node_limit = kNoNodeLimit;
    at_one.depth_limit = 1;
    EXPECT_EQ(move_values(shallow), move_values(Searcher<SyntheticGame>(at_one).analyze_root(g)));
    EXPECT_EQ(shallow.stats.expansions, 1u);
    EXPECT_EQ(starved.options().node_limit, 1u);
}

TEST(Limits, RepeatedSearchesGiveIdenticalCounts) {
    for (int t = 0; t < 50; ++t) {
        SyntheticGame g(testing::random_spec(static_cast<std::uint64_t>(t) + 99));
        for (Algorithm a : {Algorithm::kShallow, Algorithm::kBnb, Algorithm::kLastBranch,
                            Algorithm::kSpeculative, Algorithm::kAlphaBeta, Algorithm::kParanoid}) {
            SearchOptions o;
            o.algorithm = a;
            o.outcome_tables = true;
            o.tt_entries = 256;
            // A fresh searcher and a second run on a fresh one count the same nodes.
            const auto first = Searcher<SyntheticGame>(o).search(g);
            const auto second = Searcher<SyntheticGame>(o).search(g);
            EXPECT_EQ(first.stats, second.stats) << algorithm_name(a);
            EXPECT_EQ(first.best_index, second.best_index);
        }
    }
}

TEST(Limits, StatisticsAreConsistent) {
    for (int t = 0; t < 300; ++t) {
        SyntheticGame g(testing::random_spec(static_cast<std::uint64_t>(t) + 5));
        SearchOptions o;
        o.algorithm = Algorithm::kSpeculative;
        o.outcome_tables = true;
        o.tt_entries = 256;
        const auto r = Searcher<SyntheticGame>(o).search(g);
        const SearchStats& s = r.stats;
        EXPECT_LE(s.expansions + s.leaves, s.nodes);
        EXPECT_LE(s.tt_hits, s.tt_probes);
        EXPECT_LE(s.outcome_cache_hits, s.outcome_probes);
        EXPECT_LE(s.outcome_prunes, s.shallow_prunes + s.sequence_prunes);
        EXPECT_LE(s.evaluations, s.leaves);
    }
}

}  // namespace
}  // namespace engine
