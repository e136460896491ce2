#pragma once
// One entry point for every algorithm: Searcher<G> picks the max^n-family search or the two-sided
// search from SearchOptions::algorithm, and iterative_deepening() (iterative_deepening_root() for
// every root move's value) runs it at growing depth limits.
//
//   engine::SearchOptions options;
//   options.algorithm = engine::parse_algorithm("speculative").value();
//   options.tt_entries = 1 << 20;
//   engine::Searcher<MyGame> searcher(options);
//   auto result = searcher.search(game);          // result.best_move, result.value, result.stats
//   auto analysis = searcher.analyze_root(game);  // value of every legal root move

#include <variant>

#include "engine/alphabeta.hpp"
#include "engine/maxn.hpp"

namespace engine {

// Owns exactly one search object (and its tables) for the configured algorithm.
template <Game G>
class Searcher {
  public:
    explicit Searcher(const SearchOptions& options) : impl_(make(options)) {}

    [[nodiscard]] const SearchOptions& options() const {
        return std::visit([](const auto& s) -> const SearchOptions& { return s.options(); }, impl_);
    }
    void set_depth_limit(int depth) {
        std::visit([depth](auto& s) { s.set_depth_limit(depth); }, impl_);
    }
    void set_node_limit(std::uint64_t limit) {
        std::visit([limit](auto& s) { s.set_node_limit(limit); }, impl_);
    }
    ResultOf<G> search(G& game) {
        return std::visit([&game](auto& s) { return s.search(game); }, impl_);
    }
    AnalysisOf<G> analyze_root(G& game) {
        return std::visit([&game](auto& s) { return s.analyze_root(game); }, impl_);
    }
    // Two-sided algorithms only: every optimal root move.
    AllOptimal<typename G::Move, G::kMaxMoves> search_all_optimal(G& game) {
        return std::get<TwoSidedSearch<G>>(impl_).search_all_optimal(game);
    }

  private:
    using Impl = std::variant<MaxnSearch<G>, TwoSidedSearch<G>>;
    static Impl make(const SearchOptions& options) {
        if (is_maxn_family(options.algorithm)) return Impl(std::in_place_index<0>, options);
        return Impl(std::in_place_index<1>, options);
    }
    Impl impl_;
};

namespace detail {

// The loop of both entry points below; `run` searches once at the searcher's current limits and
// returns a SearchResult or a RootAnalysis (both say whether they are complete and what it cost).
template <Game G, class Result, class Run>
Result deepen(Searcher<G>& searcher, int max_depth, Run run) {
    const SearchOptions saved = searcher.options();
    const std::uint64_t budget = saved.node_limit;
    Result best{};
    best.complete = false;
    SearchStats total;
    for (int depth = 1; depth <= max_depth; ++depth) {
        if (budget != kNoNodeLimit && total.expansions >= budget) break;
        searcher.set_depth_limit(depth);
        searcher.set_node_limit(budget == kNoNodeLimit ? kNoNodeLimit : budget - total.expansions);
        Result r = run();
        total += r.stats;
        if (!r.complete) break;
        best = r;
        if (r.stats.evaluations == 0) break;  // reached the end everywhere: deeper is the same
    }
    searcher.set_depth_limit(saved.depth_limit);
    searcher.set_node_limit(saved.node_limit);
    best.stats = total;
    return best;
}

}  // namespace detail

// Searches at depth limits 1, 2, ... max_depth (in the game's depth units) until the node budget
// (the searcher's node_limit, shared by all iterations) runs out or a search needs no cut-off;
// returns the deepest complete answer with the statistics of all iterations summed (complete is
// false, and the answer empty, when not even depth 1 fitted the budget). Reuses the searcher's
// tables: values from a shallower iteration are only reused when no cut-off shaped them.
template <Game G>
ResultOf<G> iterative_deepening(Searcher<G>& searcher, G& game, int max_depth) {
    return detail::deepen<G, ResultOf<G>>(searcher, max_depth,
                                          [&] { return searcher.search(game); });
}

// The same for the value of every legal root move (Searcher::analyze_root).
template <Game G>
AnalysisOf<G> iterative_deepening_root(Searcher<G>& searcher, G& game, int max_depth) {
    return detail::deepen<G, AnalysisOf<G>>(searcher, max_depth,
                                            [&] { return searcher.analyze_root(game); });
}

}  // namespace engine
