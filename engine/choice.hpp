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
    void set_depth_limit(int depth) {
        options_.depth_limit = depth;
        each([depth](auto& s) { s.set_depth_limit(depth); });
    }
    void set_node_limit(std::uint64_t limit) {
        options_.node_limit = limit;
        each([limit](auto& s) { s.set_node_limit(limit); });
    }
    Result search(G& game) {
        return game.visit([this](auto& g) { return searcher_for(g).search(g); });
    }
    Analysis analyze_root(G& game) {
        return game.visit([this](auto& g) { return searcher_for(g).analyze_root(g); });
    }
    AllOptimal<Move, G::kMaxMoves> search_all_optimal(G& game) {
        return game.visit([this](auto& g) { return searcher_for(g).search_all_optimal(g); });
    }

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

}  // namespace engine
