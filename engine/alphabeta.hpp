#pragma once
// Two-sided searches: alpha-beta for two sides with opposed, constant-sum utilities (two players,
// or two teams: side_of()), and paranoid search (the root player against everyone else), both as
// fail-soft alpha-beta over a scalar score, with an optional transposition table of bounds.

#include <algorithm>
#include <array>
#include <vector>

#include "engine/game.hpp"
#include "engine/transposition.hpp"
#include "engine/types.hpp"

namespace engine {

// Root moves that reach the best score: the alpha-beta variant that cuts a root child only when it
// is strictly worse (lecture notes, "finding all optimal moves").
template <typename Move, int Capacity>
struct AllOptimal {
    SearchResult<Move> result;           // best_index = the first optimal move
    FixedVector<int, Capacity> indices;  // indices of every optimal root move, in move order
    FixedVector<Move, Capacity> moves;
};

// A two-sided search over one game type. The score is side 0's utility sum (alphabeta) or the root
// player's utility (paranoid); side 0 / the root player maximises it. Owns its table; reusable;
// never shared between threads.
template <Game G>
class TwoSidedSearch {
  public:
    using Move = typename G::Move;
    using Optimal = AllOptimal<Move, G::kMaxMoves>;

    explicit TwoSidedSearch(const SearchOptions& options)
        : options_(options),
          paranoid_(options.algorithm == Algorithm::kParanoid),
          tt_(TranspositionGame<G> ? options.tt_entries : 0) {}

    [[nodiscard]] const SearchOptions& options() const { return options_; }
    void set_depth_limit(int depth) { options_.depth_limit = depth; }
    void set_node_limit(std::uint64_t limit) { options_.node_limit = limit; }

    ResultOf<G> search(G& game) {
        begin(game);
        if (!tt_.enabled()) {
            const Scored r = alphabeta(game, 0, kMinScore, kMaxScore);
            return finish(game, r.score, root_best_index_);
        }
        // MTD(f): null-window searches around a guess until the bounds meet. Each one prunes far
        // more than a full window, and the table's bounds carry the work from one to the next.
        Utility lower = kMinScore, upper = kMaxScore, g = first_guess(game);
        while (lower < upper) {
            const Utility beta = std::max(g, lower + 1);
            const Scored r = alphabeta(game, 0, beta - 1, beta);
            if (aborted_) return finish(game, r.score, root_best_index_);
            g = r.score;
            (g < beta ? upper : lower) = g;
        }
        return finish(game, lower, first_move_reaching(game, lower));
    }

    Optimal search_all_optimal(G& game) {
        begin(game);
        Optimal optimal;
        ++stats_.nodes;
        if (game.is_terminal()) {
            Tuple t{};
            game.payoff(t);
            optimal.result = finish(game, score_of(t), -1);
            return optimal;
        }
        ++stats_.expansions;
        MoveListOf<G> moves;
        game.legal_moves(moves);
        const bool max_root = maximizing(game);
        Utility best = max_root ? kMinScore : kMaxScore;
        for (int i = 0; i < moves.size(); ++i) {
            const bool first = optimal.indices.empty();
            // A window one step wider than the best keeps children that tie with it exact.
            const Utility alpha = max_root && !first ? best - 1 : kMinScore;
            const Utility beta = !max_root && !first ? best + 1 : kMaxScore;
            game.apply(moves[i]);
            const Scored r = alphabeta(game, 1, alpha, beta);
            game.undo(moves[i]);
            if (aborted_) break;
            const bool better = first || (max_root ? r.score > best : r.score < best);
            if (better) {
                best = r.score;
                optimal.indices.clear();
                optimal.moves.clear();
            }
            if (better || r.score == best) {
                optimal.indices.push_back(i);
                optimal.moves.push_back(moves[i]);
            }
        }
        optimal.result = finish(game, best, optimal.indices.empty() ? -1 : optimal.indices[0]);
        return optimal;
    }

    // Exact score of every legal root move (full window per move).
    AnalysisOf<G> analyze_root(G& game) {
        begin(game);
        AnalysisOf<G> analysis;
        analysis.has_tuple = has_tuple(game);
        ++stats_.nodes;
        if (!game.is_terminal()) {
            ++stats_.expansions;
            MoveListOf<G> moves;
            game.legal_moves(moves);
            const bool max_root = maximizing(game);
            for (int i = 0; i < moves.size(); ++i) {
                game.apply(moves[i]);
                const Scored r = alphabeta(game, 1, kMinScore, kMaxScore);
                game.undo(moves[i]);
                if (aborted_) break;
                analysis.moves.push_back({moves[i], tuple_of(game, r.score), r.score});
                const int b = analysis.best_index;
                if (b < 0 || (max_root ? r.score > analysis.moves[b].score
                                       : r.score < analysis.moves[b].score))
                    analysis.best_index = i;
            }
        }
        analysis.complete = !aborted_;
        analysis.stats = stats_;
        return analysis;
    }

  private:
    static constexpr Utility kMinScore = std::numeric_limits<Utility>::min() / 4;
    static constexpr Utility kMaxScore = std::numeric_limits<Utility>::max() / 4;
    struct Scored {
        Utility score;
        bool complete;  // no cut-off evaluation influenced the score
    };

    // The middle of the position's heuristic bounds (the utility range without them).
    Utility first_guess(G& game) {
        Tuple lo{}, hi{};
        if (options_.use_heuristic) {
            game.bounds(lo, hi);
        } else {
            for (int p = 0; p < n_players(); ++p) hi[p] = game.maxsum();
        }
        return (score_of(lo) + score_of(hi)) / 2;
    }

    // The first root move (in move order, as a full-window search picks it) whose score is
    // `value`, the root's exact score: one null-window test per move, mostly answered by the table.
    int first_move_reaching(G& game, Utility value) {
        if (game.is_terminal()) return -1;
        MoveListOf<G> moves;
        game.legal_moves(moves);
        const bool max_root = maximizing(game);
        for (int i = 0; i < moves.size(); ++i) {
            game.apply(moves[i]);
            const Scored r = max_root ? alphabeta(game, 1, value - 1, value)
                                      : alphabeta(game, 1, value, value + 1);
            game.undo(moves[i]);
            if (aborted_) return -1;
            if (max_root ? r.score >= value : r.score <= value) return i;
        }
        return -1;
    }

    void begin(const G& game) {
        game_ = &game;
        stats_ = SearchStats{};
        aborted_ = false;
        root_player_ = game.player_to_move();
        root_units_ = depth_units(game, 0);
        root_best_index_ = -1;
    }

    ResultOf<G> finish(G& game, Utility score, int best_index) {
        ResultOf<G> result;
        result.complete = !aborted_;
        result.score = score;
        result.has_tuple = has_tuple(game);
        result.value = tuple_of(game, score);
        result.best_index = best_index;
        if (best_index >= 0) {
            MoveListOf<G> moves;
            game.legal_moves(moves);
            result.best_move = moves[best_index];
        }
        result.depth = options_.depth_limit;
        result.stats = stats_;
        return result;
    }

    // The score gives the tuple of a constant-sum game of two players, or of two sides whose
    // seats share their side's utility evenly.
    bool has_tuple(const G& game) const {
        if (paranoid_ || !game.constant_sum()) return false;
        if (game.num_players() == 2) return true;
        if constexpr (EvenSidedGame<G>) {
            return game.even_sides();
        } else {
            return false;
        }
    }
    Tuple tuple_of(const G& game, Utility score) const {
        Tuple t{};
        if (!has_tuple(game)) return t;
        std::array<int, 2> seats{};
        for (int p = 0; p < game.num_players(); ++p) ++seats[side_of(game, p)];
        for (int p = 0; p < game.num_players(); ++p) {
            const int side = side_of(game, p);
            t[p] = (side == 0 ? score : game.maxsum() - score) / seats[side];
        }
        return t;
    }

    bool maximizing(const G& game) const {
        const int p = game.player_to_move();
        return paranoid_ ? p == root_player_ : side_of(game, p) == 0;
    }

    Utility score_of(const Tuple& t) const {
        if (paranoid_) return t[root_player_];
        Utility s = 0;
        for (int p = 0; p < n_players(); ++p)
            if (side_of(*game_, p) == 0) s += t[p];
        return s;
    }
    int n_players() const { return game_->num_players(); }

    Scored alphabeta(G& game, int ply, Utility alpha, Utility beta) {
        assert(ply < kMaxPly);
        ++stats_.nodes;
        Tuple t{};
        if (game.is_terminal()) {
            ++stats_.leaves;
            game.payoff(t);
            return {score_of(t), true};
        }
        const bool limited = options_.depth_limit != kNoDepthLimit;
        const int used = depth_units(game, ply) - root_units_;
        if (used >= options_.depth_limit) {
            ++stats_.leaves;
            ++stats_.evaluations;
            game.evaluate(t);
            return {score_of(t), false};
        }
        const int remaining = limited ? options_.depth_limit - used : kCompleteDepth;

        [[maybe_unused]] bool storable = false;
        [[maybe_unused]] Utility offset = 0;
        if constexpr (TranspositionGame<G>) {
            if (tt_.enabled() && ply > 0 && game.tt_storable()) {
                storable = true;
                Tuple o{};
                game.tt_offset(o);
                offset = score_of(o);
                ++stats_.tt_probes;
                Utility lower = 0, upper = 0;
                bool complete = false;
                if (tt_.probe(game.hash_key(), remaining, offset, lower, upper, complete)) {
                    ++stats_.tt_hits;
                    if (lower >= beta || lower == upper) return {lower, complete};
                    if (upper <= alpha) return {upper, complete};
                }
            }
        }
        if (options_.use_heuristic) {
            Tuple lo{}, hi{};
            game.bounds(lo, hi);
            const Utility low = score_of(lo), high = score_of(hi);
            if (high <= alpha) return {high, true};
            if (low >= beta) return {low, true};
        }
        if (options_.node_limit != kNoNodeLimit && stats_.expansions >= options_.node_limit) {
            aborted_ = true;
            return {0, false};
        }
        ++stats_.expansions;

        MoveListOf<G> moves;
        game.legal_moves(moves);
        const bool max_node = maximizing(game);
        Utility best = max_node ? kMinScore : kMaxScore;
        Utility a = alpha, b = beta;
        bool complete = true;
        for (int i = 0; i < moves.size(); ++i) {
            game.apply(moves[i]);
            const Scored r = alphabeta(game, ply + 1, a, b);
            game.undo(moves[i]);
            if (aborted_) return {0, false};
            complete = complete && r.complete;
            if (max_node ? r.score > best : r.score < best) {
                best = r.score;
                if (ply == 0) root_best_index_ = i;
            }
            if (max_node)
                a = std::max(a, best);
            else
                b = std::min(b, best);
            if (a >= b) {
                ++stats_.alphabeta_cutoffs;
                break;
            }
        }
        if constexpr (TranspositionGame<G>) {
            if (storable) {
                const BoundKind kind = best <= alpha  ? BoundKind::kUpper
                                       : best >= beta ? BoundKind::kLower
                                                      : BoundKind::kExact;
                tt_.store(game.hash_key(), complete ? kCompleteDepth : remaining, offset, best,
                          kind);
            }
        }
        return {best, complete};
    }

    SearchOptions options_;
    bool paranoid_;
    BoundTable tt_;
    SearchStats stats_;
    const G* game_ = nullptr;
    bool aborted_ = false;
    int root_player_ = 0;
    int root_units_ = 0;
    int root_best_index_ = -1;
};

}  // namespace engine
