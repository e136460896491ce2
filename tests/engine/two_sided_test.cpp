// Two-sided searches against naive references: alphabeta = minimax on two-player and two-team
// constant-sum trees, the all-optimal variant = exactly the optimal root moves, paranoid = minimax
// of the root player against everyone else.

#include <gtest/gtest.h>

#include <vector>

#include "engine/search.hpp"
#include "engine/synthetic.hpp"
#include "tree_specs.hpp"

namespace engine {
namespace {

// Plain minimax of `score` with `maximizer(player)`; root move = first optimal child.
template <typename Score, typename Maximizer>
Utility minimax(SyntheticGame& g, int depth_left, const Score& score, const Maximizer& maximizer,
                int* best_index = nullptr) {
    Tuple t{};
    if (g.is_terminal()) {
        g.payoff(t);
        return score(t);
    }
    if (depth_left == 0) {
        g.evaluate(t);
        return score(t);
    }
    MoveListOf<SyntheticGame> moves;
    g.legal_moves(moves);
    const bool max_node = maximizer(g.player_to_move());
    Utility best = 0;
    for (int i = 0; i < moves.size(); ++i) {
        g.apply(moves[i]);
        const Utility v = minimax(g, depth_left - 1, score, maximizer);
        g.undo(moves[i]);
        if (i == 0 || (max_node ? v > best : v < best)) {
            best = v;
            if (best_index) *best_index = i;
        }
    }
    return best;
}

SyntheticSpec two_sided_spec(std::uint64_t t, int players) {
    SyntheticSpec s = testing::random_spec(t);
    s.players = players;
    s.constant_sum = true;
    s.scored = false;
    return s;
}

TEST(TwoSided, AlphaBetaEqualsMinimaxOnTwoPlayerTrees) {
    for (int t = 0; t < 3000; ++t) {
        const SyntheticSpec spec = two_sided_spec(static_cast<std::uint64_t>(t), 2);
        SyntheticGame g(spec);
        const int limit = t % 3 == 2 ? 2 : kNoDepthLimit;
        int expected_move = -1;
        const Utility expected = minimax(
            g, limit == kNoDepthLimit ? 99 : limit, [](const Tuple& u) { return u[0]; },
            [](int p) { return p == 0; }, &expected_move);
        for (bool tt : {false, true}) {
            for (bool heuristic : {false, true}) {
                SearchOptions o;
                o.algorithm = Algorithm::kAlphaBeta;
                o.tt_entries = tt ? 1024 : 0;
                o.use_heuristic = heuristic;
                o.depth_limit = limit;
                Searcher<SyntheticGame> searcher(o);
                const auto r = searcher.search(g);
                ASSERT_EQ(r.score, expected) << "tree " << t;
                ASSERT_EQ(r.best_index, expected_move) << "tree " << t;
                EXPECT_TRUE(r.has_tuple);
                // Cut-off evaluations (tokens so far) are not constant-sum; compare tuples with
                // max^n only on complete trees.
                if (limit != kNoDepthLimit) continue;
                EXPECT_EQ(r.value[0] + r.value[1], spec.pool);
                // max^n on a two-player constant-sum tree is minimax: same tuple, same move.
                SearchOptions m = o;
                m.algorithm = Algorithm::kMaxn;
                const auto maxn = Searcher<SyntheticGame>(m).search(g);
                EXPECT_EQ(maxn.value, r.value);
                EXPECT_EQ(maxn.best_index, r.best_index);
            }
        }
    }
}

TEST(TwoSided, AlphaBetaEqualsMinimaxForTeams) {
    for (int t = 0; t < 1500; ++t) {
        SyntheticGame g(two_sided_spec(static_cast<std::uint64_t>(t) + 31337, 4));
        int expected_move = -1;
        const Utility expected = minimax(
            g, 99, [](const Tuple& u) { return u[0] + u[2]; }, [](int p) { return p % 2 == 0; },
            &expected_move);
        SearchOptions o;
        o.algorithm = Algorithm::kAlphaBeta;
        o.tt_entries = 1024;
        const auto r = Searcher<SyntheticGame>(o).search(g);
        ASSERT_EQ(r.score, expected) << "tree " << t;
        ASSERT_EQ(r.best_index, expected_move) << "tree " << t;
        EXPECT_FALSE(r.has_tuple);
    }
}

TEST(TwoSided, AllOptimalReturnsExactlyTheOptimalRootMoves) {
    int with_ties = 0;
    for (int t = 0; t < 3000; ++t) {
        SyntheticGame g(two_sided_spec(static_cast<std::uint64_t>(t) + 4242, t % 2 ? 2 : 4));
        if (g.is_terminal()) continue;
        const int n = g.num_players();
        auto score = [n](const Tuple& u) {
            Utility s = 0;
            for (int p = 0; p < n; p += 2) s += u[p];
            return s;
        };
        auto maximizer = [](int p) { return p % 2 == 0; };
        MoveListOf<SyntheticGame> moves;
        g.legal_moves(moves);
        std::vector<Utility> values;
        for (auto m : moves) {
            g.apply(m);
            values.push_back(minimax(g, 99, score, maximizer));
            g.undo(m);
        }
        const bool max_root = maximizer(g.player_to_move());
        const Utility best = max_root ? *std::max_element(values.begin(), values.end())
                                      : *std::min_element(values.begin(), values.end());
        std::vector<int> expected;
        for (int i = 0; i < moves.size(); ++i)
            if (values[static_cast<std::size_t>(i)] == best) expected.push_back(i);
        with_ties += expected.size() > 1;

        SearchOptions o;
        o.algorithm = Algorithm::kAlphaBeta;
        o.tt_entries = t % 3 == 0 ? 512 : 0;
        Searcher<SyntheticGame> searcher(o);
        const auto all = searcher.search_all_optimal(g);
        std::vector<int> got(all.indices.begin(), all.indices.end());
        ASSERT_EQ(got, expected) << "tree " << t;
        EXPECT_EQ(all.result.score, best);
        EXPECT_EQ(all.result.best_index, expected.front());
        // Root analysis gives the exact score of every move.
        const auto analysis = searcher.analyze_root(g);
        for (int i = 0; i < moves.size(); ++i)
            EXPECT_EQ(analysis.moves[i].score, values[static_cast<std::size_t>(i)]);
    }
    EXPECT_GT(with_ties, 100);  // the test really exercises ties
}

TEST(TwoSided, ParanoidEqualsRootPlayerMinimax) {
    for (int t = 0; t < 2000; ++t) {
        SyntheticGame g(testing::random_spec(static_cast<std::uint64_t>(t) + 8080));
        const int root = g.player_to_move();
        int expected_move = -1;
        const Utility expected = minimax(
            g, 99, [root](const Tuple& u) { return u[root]; }, [root](int p) { return p == root; },
            &expected_move);
        for (bool tt : {false, true}) {
            SearchOptions o;
            o.algorithm = Algorithm::kParanoid;
            o.tt_entries = tt ? 512 : 0;
            const auto r = Searcher<SyntheticGame>(o).search(g);
            ASSERT_EQ(r.score, expected) << "tree " << t;
            ASSERT_EQ(r.best_index, expected_move) << "tree " << t;
        }
    }
}

}  // namespace
}  // namespace engine
