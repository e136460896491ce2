#pragma once
// The engine's view of a game: the C++20 concepts every search is templated over.
//
// A type G models engine::Game when it is a mutable, perfect-information position with make/unmake:
//
//   typename G::Move                     trivially copyable move (a card, an index ...)
//   static constexpr int G::kMaxMoves    capacity of the move list (13 for a hand of cards)
//   int  num_players() const             n, 2 <= n <= kMaxPlayers
//   int  player_to_move() const          whoever moves now; players need not alternate (a trick's
//                                        winner leads the next one)
//   bool is_terminal() const
//   void legal_moves(MoveList<Move, kMaxMoves>&) const
//                                        appends the legal moves, best first: every pruning rule
//                                        gains from good order, and ties go to the first move
//   void apply(Move) / void undo(Move)   make / unmake; undo(m) right after apply(m) restores the
//                                        position exactly
//   void payoff(Tuple&) const            final utilities at a terminal node, each >= 0
//   void evaluate(Tuple&) const          cut-off evaluation at a non-terminal node (depth limit);
//                                        for pruning to stay sound it must lie inside bounds() and
//                                        sum to at most maxsum() (points taken so far do)
//   void bounds(Tuple& lo, Tuple& hi) const
//                                        per-player bounds on the final utility from this node:
//                                        the monotonic heuristic (Spades tricks: lo = tricks won,
//                                        hi = won + left). [0, maxsum] is always allowed, and is
//                                        what Hearts must report while a moon is still possible
//   Utility maxsum() const               every reachable tuple sums to at most maxsum
//   bool constant_sum() const            ... and to exactly maxsum
//   Utility delta() const                utilities move in steps of delta (>= 1): beating a bound
//                                        b means reaching b + delta
//   std::uint64_t hash_key() const       key of the position (and of whatever the future utility
//                                        depends on)
//
// Optional hooks, detected by the concepts below:
//
//   TranspositionGame: bool tt_storable() const, void tt_offset(Tuple&) const.
//     The game says whether this node may go into the transposition table (card games: at trick
//     boundaries) and what has been accumulated so far. The table stores value - offset, i.e. what
//     the subtree adds, so one entry serves every history reaching the same hash_key(); a game
//     whose utility is not additive (Spades scored with bids) returns a zero offset and puts the
//     tricks won so far into hash_key(). Only exact max^n values are stored; pruned or
//     bound-dependent values never are.
//   OutcomeGame: std::uint64_t outcome_key() const, template <class F> void for_each_outcome(F&&)
//   const.
//     Leaf-value tables (Sturtevant 2005). for_each_outcome calls f(const Tuple&) for every outcome
//     (utility tuple of a terminal node) still reachable from here -- a superset is fine -- and
//     stops as soon as f returns true. Spades scored with bids: every split of the remaining tricks
//     added to the tricks won so far, mapped through the score function. outcome_key() identifies
//     the heuristic state the outcome set depends on (tricks won so far and tricks left), so that
//     prune decisions can be cached under (bounds of the player sequence, outcome_key()).
//   DepthCountedGame: int depth_counter() const.
//     A counter that never decreases along a path (tricks completed). When present, depth limits
//     are measured in its units from the root (a limit of 2 cuts off at the start of the third
//     trick); otherwise in plies.
//   HorizonGame (needs DepthCountedGame): void set_horizon(int counter).
//     The max^n searches call it before a depth-limited search with the depth_counter() value at
//     which nodes are cut off and evaluated (root counter + depth limit), and with kNoDepthLimit
//     when the search ends or has no limit. The game may then tighten bounds() to the values the
//     depth-limited search can actually return below a node: payoffs of terminals reached before
//     the horizon and evaluate() at the horizon. They must contain both, and evaluate() must still
//     sum to at most maxsum(). A search that does not call it (alphabeta) sees the plain bounds.
//   SidedGame: int side_of(int player) const -> 0 or 1.
//     Teams for alphabeta (partnership Spades: side_of(p) = p % 2). Without it side = player.
//   EvenSidedGame (needs SidedGame): bool even_sides() const.
//     True when every seat of a side always has the same utility, so that alphabeta's score (a
//     side's sum) gives the whole tuple of a constant-sum game with more than two players.

#include <concepts>
#include <cstdint>

#include "engine/types.hpp"

namespace engine {

template <typename G>
using MoveListOf = MoveList<typename G::Move, G::kMaxMoves>;

template <typename G>
concept Game = requires(G& game, const G& cgame, typename G::Move move, MoveListOf<G>& moves,
                        Tuple& a, Tuple& b, int player) {
    requires std::is_trivially_copyable_v<typename G::Move>;
    { G::kMaxMoves } -> std::convertible_to<int>;
    { cgame.num_players() } -> std::convertible_to<int>;
    { cgame.player_to_move() } -> std::convertible_to<int>;
    { cgame.is_terminal() } -> std::convertible_to<bool>;
    cgame.legal_moves(moves);
    game.apply(move);
    game.undo(move);
    cgame.payoff(a);
    cgame.evaluate(a);
    cgame.bounds(a, b);
    { cgame.maxsum() } -> std::convertible_to<Utility>;
    { cgame.constant_sum() } -> std::convertible_to<bool>;
    { cgame.delta() } -> std::convertible_to<Utility>;
    { cgame.hash_key() } -> std::convertible_to<std::uint64_t>;
};

namespace detail {
// Stand-in visitor used only to check that for_each_outcome accepts a callable.
struct OutcomeVisitorArchetype {
    bool operator()(const Tuple&) const { return false; }
};
}  // namespace detail

template <typename G>
concept TranspositionGame = Game<G> && requires(const G& game, Tuple& offset) {
    { game.tt_storable() } -> std::convertible_to<bool>;
    game.tt_offset(offset);
};

template <typename G>
concept OutcomeGame = Game<G> && requires(const G& game, detail::OutcomeVisitorArchetype visitor) {
    { game.outcome_key() } -> std::convertible_to<std::uint64_t>;
    game.for_each_outcome(visitor);
};

template <typename G>
concept DepthCountedGame = Game<G> && requires(const G& game) {
    { game.depth_counter() } -> std::convertible_to<int>;
};

template <typename G>
concept HorizonGame = DepthCountedGame<G> && requires(G& game, int counter) {
    game.set_horizon(counter);
};

template <typename G>
concept SidedGame = Game<G> && requires(const G& game, int player) {
    { game.side_of(player) } -> std::convertible_to<int>;
};

template <typename G>
concept EvenSidedGame = SidedGame<G> && requires(const G& game) {
    { game.even_sides() } -> std::convertible_to<bool>;
};

// The depth counter of a position: the game's own, or the ply count kept by the search.
template <Game G>
int depth_units(const G& game, int ply) {
    if constexpr (DepthCountedGame<G>) {
        (void)ply;
        return game.depth_counter();
    } else {
        return ply;
    }
}

template <Game G>
int side_of(const G& game, int player) {
    if constexpr (SidedGame<G>) {
        return game.side_of(player);
    } else {
        (void)game;
        return player;
    }
}

}  // namespace engine
