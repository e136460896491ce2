#pragma once
// A game whose type is chosen at run time among a few compile-time types (one per objective, say),
// searched at the speed of the chosen type. Such a game names its alternatives in
// `using Choices = std::variant<A, B, ...>` and hands the one it holds to `visit(f)`. Searcher<G>
// then picks the alternative once per search and runs Searcher<A> on it, so the search loop never
// switches at a node; G's own Game methods (which dispatch on every call) serve only the callers'
// root-level moves.

#include <type_traits>
#include <variant>

#include "engine/search.hpp"

namespace engine {

template <typename G>
concept ChoiceGame = Game<G> && requires(G& game) {
    typename G::Choices;
    game.visit([](auto&) {});
};

namespace detail {
template <class V>
struct ChoiceSearchers;
template <class... Gs>
struct ChoiceSearchers<std::variant<Gs...>> {
    using type = std::variant<std::monostate, Searcher<Gs>...>;
};
}  // namespace detail

// Builds the searcher of an alternative the first time a search meets it (with the options as
// they are then), and keeps it and its tables while the following searches meet the same one.
template <Game G>
requires ChoiceGame<G>
class Searcher<G> {
  public:
    using Move = typename G::Move;
    using Result = SearchResult<Move>;
    using Analysis = RootAnalysis<Move, G::kMaxMoves>;

    explicit Searcher(const SearchOptions& options) : options_(options) {}

    [[nodiscard]] const SearchOptions& options() const { return options_; }
    void set_depth_limit(int depth);
    void set_node_limit(std::uint64_t limit);
    Result search(G& game);
    Analysis analyze_root(G& game);
    AllOptimal<Move, G::kMaxMoves> search_all_optimal(G& game);

  private:
    template <class F>
    void each(F&& f) {
        std::visit(
            [&f](auto& s) {
                if constexpr (!std::is_same_v<std::decay_t<decltype(s)>, std::monostate>) f(s);
            },
            impl_);
    }
    template <class A>
    Searcher<A>& searcher_for(const A&) {
        if (!std::holds_alternative<Searcher<A>>(impl_))
            impl_.template emplace<Searcher<A>>(options_);
        return std::get<Searcher<A>>(impl_);
    }

    SearchOptions options_;
    typename detail::ChoiceSearchers<typename G::Choices>::type impl_;
};

// The entry points are defined out of the class, so they are not inline (g++ instantiates inline
// members at -O2 even under `extern template`, to inline them). A game that many files search can
// so have its search compiled once: `extern template class engine::Searcher<G>;` beside the game,
// `template class engine::Searcher<G>;` in one .cpp. Its callers then only call these entry
// points, which dispatch once per search; every node is searched inside that one instantiation.
template <Game G>
requires ChoiceGame<G>
void Searcher<G>::set_depth_limit(int depth) {
    options_.depth_limit = depth;
    each([depth](auto& s) { s.set_depth_limit(depth); });
}
template <Game G>
requires ChoiceGame<G>
void Searcher<G>::set_node_limit(std::uint64_t limit) {
    options_.node_limit = limit;
    each([limit](auto& s) { s.set_node_limit(limit); });
}
template <Game G>
requires ChoiceGame<G>
auto Searcher<G>::search(G& game) -> Result {
    return game.visit([this](auto& g) { return searcher_for(g).search(g); });
}
template <Game G>
requires ChoiceGame<G>
auto Searcher<G>::analyze_root(G& game) -> Analysis {
    return game.visit([this](auto& g) { return searcher_for(g).analyze_root(g); });
}
template <Game G>
requires ChoiceGame<G>
auto Searcher<G>::search_all_optimal(G& game) -> AllOptimal<Move, G::kMaxMoves> {
    return game.visit([this](auto& g) { return searcher_for(g).search_all_optimal(g); });
}

}  // namespace engine
