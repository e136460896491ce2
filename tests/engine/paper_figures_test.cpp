// The small trees of Sturtevant (2003), "Last-Branch and Speculative Pruning Algorithms for Max^n",
// with exact node counts for each algorithm. Players are 0-based: the paper's Player 1 is player 0.
// maxsum = 10, scores >= 0, constant-sum, delta = 1.
//
// The extracted paper text keeps the numbers the prose mentions but not every leaf of each figure.
// Where a leaf is not recoverable, the tree below is the smallest one that shows exactly the
// situation the figure describes (the comment on each builder says which numbers come from the
// text). Counts: `expansions` = nodes whose children were generated (re-expansions count), `leaves`
// = terminal values looked at.

#include <gtest/gtest.h>

#include <array>
#include <optional>

#include "engine/explicit_tree.hpp"
#include "engine/search.hpp"

namespace engine {
namespace {

constexpr Utility kMaxsum = 10;

SearchResult<ExplicitTree::Move> run(ExplicitTree& tree, Algorithm algorithm,
                                     bool discrete = true) {
    SearchOptions options;
    options.algorithm = algorithm;
    options.discrete = discrete;
    MaxnSearch<ExplicitTree> search(options);
    return search.search(tree);
}

// Figure 2 (shallow pruning): root left branch (5,4,1); at (a) Player 2's left child is (0,6,4).
// The two later children of (a) are ours; they are never looked at by any pruning algorithm.
ExplicitTree figure2() {
    ExplicitTree t(3, kMaxsum);
    const int left = t.leaf({5, 4, 1});
    const int a = t.node(1, {t.leaf({0, 6, 4}), t.leaf({4, 2, 4}), t.leaf({1, 8, 1})});
    t.node(0, {left, a});
    return t;
}

// Figure 3 (deep pruning fails): root left (5,4,1); (a) = [(b), (6,4,0)]; after (b)'s left child
// Player 3 has 5 (and Player 1 at most 5). (b)'s true value is (0,4,6), which Player 2 takes at (a)
// on the tie-to-the-left, so the root keeps (5,4,1). `ignore_b` builds the tree a deep prune of (b)
// would effectively search.
ExplicitTree figure3(bool ignore_b = false) {
    ExplicitTree t(3, kMaxsum);
    const int left = t.leaf({5, 4, 1});
    const int b = t.node(2, {t.leaf({1, 4, 5}), t.leaf({0, 4, 6})});
    const int right = t.leaf({6, 4, 0});
    const int a = ignore_b ? t.node(1, {right}) : t.node(1, {b, right});
    t.node(0, {left, a});
    return t;
}

using Leaf = std::array<Utility, 3>;

// The tree of Figures 4, 6 and 9: the root's left leaf (5,4,1), and (a) = [(3,3,4), (b), then
// `after_b` when given], (b) being Player 3's node over `b_leaves`.
ExplicitTree shallow_figure(const std::array<Leaf, 3>& b_leaves,
                            std::optional<Leaf> after_b = std::nullopt) {
    ExplicitTree t(3, kMaxsum);
    const auto leaf = [&t](const Leaf& v) { return t.leaf({v[0], v[1], v[2]}); };
    const int left = t.leaf({5, 4, 1});
    const int b = t.node(2, {leaf(b_leaves[0]), leaf(b_leaves[1]), leaf(b_leaves[2])});
    const int a = after_b ? t.node(1, {t.leaf({3, 3, 4}), b, leaf(*after_b)})
                          : t.node(1, {t.leaf({3, 3, 4}), b});
    t.node(0, {left, a});
    return t;
}

// Figure 4 (last-branch pruning): bounds 5 at the root, 3 at (a) from (3,3,4), 2 at (b) from
// (3,5,2); (b) is the last child of (a). (b)'s later children (1,1,8), (2,2,6) are ours.
ExplicitTree figure4() {
    return shallow_figure({{{3, 5, 2}, {1, 1, 8}, {2, 2, 6}}});
}

// Figure 6 (speculative pruning): as Figure 4, but (a) has a final child after (b): (4,4,2) (no
// re-search needed) or (6,4,0) (Player 2's partial value becomes better for Player 1: re-search).
ExplicitTree figure6(bool needs_research) {
    return shallow_figure({{{3, 5, 2}, {1, 1, 8}, {2, 2, 6}}},
                          needs_research ? Leaf{6, 4, 0} : Leaf{4, 4, 2});
}

// Figure 9 (discrete cut-off evaluations): bounds 5 at the root and 3 at (a); (b)'s first child
// gives Player 3 zero points and Player 2 only 3 -- the text's (7,3,0). Later children are ours.
ExplicitTree figure9() {
    return shallow_figure({{{7, 3, 0}, {0, 2, 8}, {1, 1, 8}}});
}

struct Expect {
    Algorithm algorithm;
    std::uint64_t expansions;
    std::uint64_t leaves;
    std::uint64_t re_searches;
};

void check(ExplicitTree tree, const Tuple& value, int move, std::initializer_list<Expect> rows,
           bool discrete = true) {
    for (const Expect& e : rows) {
        SCOPED_TRACE(std::string(algorithm_name(e.algorithm)));
        const auto r = run(tree, e.algorithm, discrete);
        EXPECT_EQ(r.value, value);
        EXPECT_EQ(r.best_index, move);
        EXPECT_EQ(r.stats.expansions, e.expansions);
        EXPECT_EQ(r.stats.leaves, e.leaves);
        EXPECT_EQ(r.stats.re_searches, e.re_searches);
    }
}

TEST(PaperFigures, Figure2ShallowPruning) {
    const Tuple v{5, 4, 1};
    check(figure2(), v, 0,
          {{Algorithm::kMaxn, 2, 4, 0},
           {Algorithm::kShallow, 2, 2, 0},
           {Algorithm::kBnb, 2, 2, 0},
           {Algorithm::kLastBranch, 2, 2, 0},
           {Algorithm::kSpeculative, 2, 2, 0}});
    // The paper's continuous test (6 >= 10 - 5) prunes at the same point.
    check(figure2(), v, 0, {{Algorithm::kShallow, 2, 2, 0}}, /*discrete=*/false);
    ExplicitTree tree = figure2();
    const auto r = run(tree, Algorithm::kShallow);
    EXPECT_EQ(r.stats.shallow_prunes, 1u);
}

TEST(PaperFigures, Figure3DeepPruningWouldBeUnsound) {
    const Tuple v{5, 4, 1};
    // A deep prune of (b) (root bound 5 + Player 3's 5 >= maxsum) leaves (a) with (6,4,0) only,
    // which the root would take: a different root value and move.
    ExplicitTree pruned = figure3(/*ignore_b=*/true);
    const auto wrong = run(pruned, Algorithm::kMaxn);
    EXPECT_EQ(wrong.value, (Tuple{6, 4, 0}));
    EXPECT_EQ(wrong.best_index, 1);
    EXPECT_NE(wrong.value, v);
    // Every real algorithm keeps (5,4,1). Speculative pruning does not prune (b) against the root:
    // (b) is (a)'s first child and (a) has no bound of its own yet, so the prune would be deep
    // pruning in disguise and (6,4,0), better for Player 1, would force a re-search of (b).
    check(figure3(), v, 0,
          {{Algorithm::kMaxn, 3, 4, 0},
           {Algorithm::kShallow, 3, 3, 0},
           {Algorithm::kBnb, 3, 3, 0},
           {Algorithm::kLastBranch, 3, 3, 0},
           {Algorithm::kSpeculative, 3, 3, 0}});
}

TEST(PaperFigures, Figure4LastBranchPruning) {
    const Tuple v{5, 4, 1};
    // Shallow pruning needs (1,1,8) at (b) to prune; last-branch prunes (b) after (3,5,2)
    // because 5 + 3 + 2 >= maxsum and (b) is (a)'s last branch.
    check(figure4(), v, 0,
          {{Algorithm::kMaxn, 3, 5, 0},
           {Algorithm::kShallow, 3, 4, 0},
           {Algorithm::kBnb, 3, 4, 0},
           {Algorithm::kLastBranch, 3, 3, 0},
           {Algorithm::kSpeculative, 3, 3, 0}});
    check(figure4(), v, 0, {{Algorithm::kLastBranch, 3, 3, 0}}, /*discrete=*/false);
    ExplicitTree tree = figure4();
    EXPECT_EQ(run(tree, Algorithm::kLastBranch).stats.sequence_prunes, 1u);
}

TEST(PaperFigures, Figure6SpeculativeWithoutResearch) {
    check(figure6(false), Tuple{5, 4, 1}, 0,
          {{Algorithm::kMaxn, 3, 6, 0},
           {Algorithm::kLastBranch, 3, 5, 0},
           {Algorithm::kSpeculative, 3, 4, 0}});
}

TEST(PaperFigures, Figure6SpeculativeResearch) {
    // (6,4,0) at (a)'s last branch is better for Players 2 and 1: (b) is searched again, now
    // before (a)'s best child, so Player 2 takes (b) on a tie (ties still break left).
    check(figure6(true), Tuple{6, 4, 0}, 1,
          {{Algorithm::kMaxn, 3, 6, 0},
           {Algorithm::kLastBranch, 3, 5, 0},
           {Algorithm::kSpeculative, 4, 6, 1}});
}

TEST(PaperFigures, Figure9DiscreteCutoff) {
    const Tuple v{5, 4, 1};
    // With delta = 1, (7,3,0) at (b) already proves nothing below (b) reaches the root: Player 3
    // must get >= 1, Players 1 and 2 >= 6 and >= 4, 11 > maxsum; and (7,3,0) itself is no better
    // than 3 for Player 2. The continuous test needs (0,2,8) first.
    check(figure9(), v, 0,
          {{Algorithm::kMaxn, 3, 5, 0},
           {Algorithm::kShallow, 3, 4, 0},
           {Algorithm::kLastBranch, 3, 3, 0},
           {Algorithm::kSpeculative, 3, 3, 0}});
    check(figure9(), v, 0, {{Algorithm::kLastBranch, 3, 4, 0}, {Algorithm::kSpeculative, 3, 4, 0}},
          /*discrete=*/false);
}

}  // namespace
}  // namespace engine
