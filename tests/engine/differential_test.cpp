// Differential tests: every max^n-family configuration returns plain max^n's root tuple and move on
// thousands of random synthetic trees; root analysis returns the exact value of every root move.

#include <gtest/gtest.h>

#include <vector>

#include "engine/search.hpp"
#include "engine/synthetic.hpp"
#include "tree_specs.hpp"

#ifndef ENGINE_DIFFERENTIAL_SCALE
#define ENGINE_DIFFERENTIAL_SCALE 1
#endif

namespace engine {
namespace {

constexpr int kTrees = 10000 * ENGINE_DIFFERENTIAL_SCALE;

struct Config {
    Algorithm algorithm;
    bool outcome_tables;
    bool tt;
    bool discrete;
};

std::vector<Config> all_configs() {
    std::vector<Config> configs;
    for (Algorithm a : {Algorithm::kMaxn, Algorithm::kShallow, Algorithm::kBnb,
                        Algorithm::kLastBranch, Algorithm::kSpeculative})
        for (bool tables : {false, true})
            for (bool tt : {false, true}) {
                if (a == Algorithm::kMaxn && tables) continue;
                configs.push_back({a, tables, tt, true});
            }
    configs.push_back({Algorithm::kSpeculative, false, false, false});
    configs.push_back({Algorithm::kLastBranch, true, false, false});
    return configs;
}

SearchOptions options_for(const Config& c, int depth_limit) {
    SearchOptions o;
    o.algorithm = c.algorithm;
    o.outcome_tables = c.outcome_tables;
    o.tt_entries = c.tt ? 1024 : 0;  // larger tables cost a fresh mapping per search under ASan
    o.outcome_cache_entries = 1024;
    o.discrete = c.discrete;
    o.depth_limit = depth_limit;
    return o;
}

std::string describe(const SyntheticSpec& s, const Config& c, int depth_limit) {
    return "seed=" + std::to_string(s.seed) + " n=" + std::to_string(s.players) +
           " b=" + std::to_string(s.branching) + " d=" + std::to_string(s.depth) +
           " pool=" + std::to_string(s.pool) + " cs=" + std::to_string(s.constant_sum) +
           " alt=" + std::to_string(s.alternate) + " heur=" + std::to_string(s.heuristic) +
           " scored=" + std::to_string(s.scored) +
           " classes=" + std::to_string(s.transposition_classes) +
           " early=" + std::to_string(s.early_terminal_per_256) + " | " +
           std::string(algorithm_name(c.algorithm)) +
           " tables=" + std::to_string(c.outcome_tables) + " tt=" + std::to_string(c.tt) +
           " discrete=" + std::to_string(c.discrete) + " limit=" + std::to_string(depth_limit);
}

TEST(Differential, MaxnFamilyAgreesWithPlainMaxn) {
    const std::vector<Config> configs = all_configs();
    int failures = 0;
    std::uint64_t plain_nodes = 0, speculative_nodes = 0;
    for (int t = 0; t < kTrees && failures < 5; ++t) {
        const SyntheticSpec spec = testing::random_spec(static_cast<std::uint64_t>(t));
        // One tree in four is searched under a depth limit (cut-off evaluation).
        const int limit =
            t % 4 == 3 && spec.depth > 1 ? spec.depth - 1 - t % spec.depth / 2 : kNoDepthLimit;
        SyntheticGame game(spec);
        MaxnSearch<SyntheticGame> plain(options_for({Algorithm::kMaxn, false, false, true}, limit));
        const auto expected = plain.search(game);
        plain_nodes += expected.stats.expansions;
        for (const Config& c : configs) {
            Searcher<SyntheticGame> searcher(options_for(c, limit));
            const auto got = searcher.search(game);
            if (c.algorithm == Algorithm::kSpeculative && !c.outcome_tables && !c.tt && c.discrete)
                speculative_nodes += got.stats.expansions;
            ASSERT_EQ(game.ply(), 0);
            if (got.value != expected.value || got.best_index != expected.best_index) {
                ++failures;
                ADD_FAILURE() << describe(spec, c, limit) << " expected move "
                              << expected.best_index << " got " << got.best_index;
            }
        }
    }
    // Pruning must pay for itself on aggregate.
    EXPECT_LT(speculative_nodes, plain_nodes);
}

TEST(Differential, RootAnalysisGivesEveryRootMovesValue) {
    for (int t = 0; t < kTrees / 20; ++t) {
        const SyntheticSpec spec = testing::random_spec(static_cast<std::uint64_t>(t) + 777777);
        SyntheticGame game(spec);
        if (game.is_terminal()) continue;
        MaxnSearch<SyntheticGame> plain(
            options_for({Algorithm::kMaxn, false, false, true}, kNoDepthLimit));
        MoveListOf<SyntheticGame> moves;
        game.legal_moves(moves);
        std::vector<Tuple> child_values;
        for (auto m : moves) {
            game.apply(m);
            child_values.push_back(plain.search(game).value);
            game.undo(m);
        }
        const auto root = plain.search(game);
        for (Algorithm a :
             {Algorithm::kMaxn, Algorithm::kBnb, Algorithm::kLastBranch, Algorithm::kSpeculative}) {
            for (bool tables : {false, true}) {
                Searcher<SyntheticGame> searcher(
                    options_for({a, tables, tables, true}, kNoDepthLimit));
                const auto analysis = searcher.analyze_root(game);
                ASSERT_EQ(analysis.moves.size(), moves.size());
                for (int i = 0; i < moves.size(); ++i)
                    EXPECT_EQ(analysis.moves[i].value, child_values[static_cast<std::size_t>(i)])
                        << "tree " << t << " move " << i << " " << algorithm_name(a);
                EXPECT_EQ(analysis.best_index, root.best_index);
            }
        }
    }
}

}  // namespace
}  // namespace engine
