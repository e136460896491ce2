#pragma once
// The max^n family: plain max^n, shallow, branch-and-bound, last-branch and speculative pruning,
// optionally with leaf-value (outcome) tables and a transposition table.
//
// One recursive routine implements every variant; the algorithm only decides which pruning tests
// run. The correctness argument, which is Lemma 1 of Sturtevant (2003) generalised to players that
// do not alternate and to re-searched children:
//
// * A child searched after its parent's best child is adopted only if strictly better for the
//   parent's player (ties go left); a child re-searched *before* the best is adopted if at least as
//   good. Each ancestor's frame records which case applies (`strict`).
// * A node returns either its exact max^n value, or Pruned(top): "my true value is not the true
// value
//   of some ancestor at ply top..ply-1 on this path" -- so no ancestor at or below `top` can adopt
//   it. A node never returns a made-up tuple.
// * A node at ply d may return Pruned(s) when (a) no later child can beat every bound of the
// ancestor
//   sequence s..d (the linear test against maxsum with the heuristic bounds, or the outcome test),
//   and (b) its own best so far already fails some ancestor in s..d-1.
// * A node receiving Pruned(top) with top == its own ply simply ignores that child (exact). With
//   top < its ply the child is "pending": at the end, if the node's best fails some ancestor at or
//   above `lim`, the node returns Pruned too; otherwise the pending children are searched again
//   with bounds that cannot reach above the node (speculative re-search). `lim` -- the highest
//   ancestor a node's Pruned may name -- is lowered to the node itself whenever its best would pass
//   every ancestor, which is what makes the re-search final.
// * `lim` only ever restricts which prunes are allowed (a child's lim lies between its parent's lim
//   and the parent's own ply), so the policy choosing it affects cost, never the value. Speculative
//   max^n also holds a node's children to lim = the node until the node has an exact best, unless
//   it is on its last branch: as in Figure 7 of the paper, a speculative prune needs the
//   intermediate player's bound. Pruning the first child against the grandparent left the node
//   without a best, weakened every later sibling and forced nested re-searches (the bench's
//   3-player Spades positions expanded 15x more than with this rule).
// Hence every tuple a node returns is its exact max^n value (cached safely in the transposition
// table), and the root's tuple and move equal plain max^n's.

#include <algorithm>
#include <vector>

#include "engine/game.hpp"
#include "engine/outcome_cache.hpp"
#include "engine/transposition.hpp"
#include "engine/types.hpp"

namespace engine {

// A max^n-family search over one game type. Owns its stacks and tables (allocated once in the
// constructor); reusable for many searches; never shared between threads.
template <Game G>
class MaxnSearch {
  public:
    using Move = typename G::Move;

    explicit MaxnSearch(const SearchOptions& options)
        : options_(options),
          prune_(options.algorithm != Algorithm::kMaxn),
          heuristic_(options.use_heuristic && options.algorithm != Algorithm::kShallow),
          sequences_(options.algorithm == Algorithm::kLastBranch ||
                     options.algorithm == Algorithm::kSpeculative),
          last_branch_only_(options.algorithm == Algorithm::kLastBranch),
          use_outcomes_(OutcomeGame<G> && options.outcome_tables && prune_ &&
                        options.depth_limit == kNoDepthLimit),
          tt_(TranspositionGame<G> ? options.tt_entries : 0),
          outcomes_(use_outcomes_ ? options.outcome_cache_entries : 0),
          frames_(kMaxPly + 2),
          values_(kMaxPly + 2) {}

    [[nodiscard]] const SearchOptions& options() const { return options_; }
    void set_depth_limit(int depth) { options_.depth_limit = depth; }
    void set_node_limit(std::uint64_t limit) { options_.node_limit = limit; }

    // Best move and root max^n tuple.
    ResultOf<G> search(G& game) {
        begin(game);
        ResultOf<G> result;
        node(game, 0, 0);
        result.complete = !aborted_;
        result.value = values_[0];
        result.best_index = frames_[0].best_index;
        if (result.best_index >= 0) {
            MoveListOf<G> moves;
            game.legal_moves(moves);
            result.best_move = moves[result.best_index];
        }
        result.depth = options_.depth_limit;
        result.stats = stats_;
        end(game);
        return result;
    }

    // Exact value of every legal root move (the root's own bounds are not used to prune), plus the
    // max^n choice among them.
    AnalysisOf<G> analyze_root(G& game) {
        begin(game);
        AnalysisOf<G> analysis;
        Frame& f = frames_[0];
        f = Frame{};
        f.player = game.player_to_move();
        ++stats_.nodes;
        if (game.is_terminal()) {
            analysis.stats = stats_;
            end(game);
            return analysis;
        }
        ++stats_.expansions;
        MoveListOf<G> moves;
        game.legal_moves(moves);
        for (int i = 0; i < moves.size(); ++i) {
            f.last_branch = i == moves.size() - 1;
            game.apply(moves[i]);
            const NodeResult r = node(game, 1, 0);
            game.undo(moves[i]);
            if (r.kind == Kind::kAborted) break;
            assert(r.kind == Kind::kExact);
            analysis.moves.push_back({moves[i], values_[1], values_[1][f.player]});
            if (analysis.best_index < 0 ||
                values_[1][f.player] > analysis.moves[analysis.best_index].value[f.player])
                analysis.best_index = i;
        }
        analysis.complete = !aborted_;
        analysis.stats = stats_;
        end(game);
        return analysis;
    }

  private:
    enum class Kind : std::uint8_t { kExact, kPruned, kAborted };
    struct NodeResult {
        Kind kind;
        int top;        // kPruned: highest ancestor ply that may ignore this node
        bool complete;  // kExact: no cut-off evaluation or prune influenced the value
    };
    struct Pending {
        int index;
        int top;
    };
    // One ply of the current path. `best` is the best exact child value so far (has_best), found
    // at best_index; `strict` says whether the child being searched lies after best_index.
    struct Frame {
        Tuple best{};
        Tuple lo{};
        Tuple hi{};
        int player = 0;
        int best_index = -1;
        bool has_best = false;
        bool strict = true;
        bool last_branch = true;
    };
    // Lower limits every later child must meet to pass the whole ancestor sequence.
    struct Requirements {
        Tuple need{};
        std::array<bool, kMaxPlayers> strict{};
        std::array<bool, kMaxPlayers> in_sequence{};
        // Adds "a later value must beat (strict) or reach `bound` for player p"; returns whether
        // the requirements changed.
        bool add(int p, Utility bound, bool is_strict) {
            if (in_sequence[p] &&
                (bound < need[p] || (bound == need[p] && (!is_strict || strict[p]))))
                return false;
            in_sequence[p] = true;
            if (bound > need[p] || (bound == need[p] && is_strict)) {
                need[p] = bound;
                strict[p] = is_strict;
            }
            return true;
        }
    };
    enum class Verdict : std::uint8_t { kFeasible, kLinear, kOutcome };

    static NodeResult exact(bool complete) { return {Kind::kExact, 0, complete}; }
    static NodeResult pruned(int top) { return {Kind::kPruned, top, false}; }

    void begin(G& game) {
        stats_ = SearchStats{};
        aborted_ = false;
        n_ = game.num_players();
        maxsum_ = game.maxsum();
        step_ = options_.discrete ? game.delta() : 0;
        root_units_ = depth_units(game, 0);
        // Tell the game where the cut-off lies so that its bounds can be those of the
        // depth-limited tree (engine/game.hpp, HorizonGame). Plain max^n does not use bounds.
        if constexpr (HorizonGame<G>) {
            const bool limited = options_.depth_limit != kNoDepthLimit && prune_ && heuristic_;
            game.set_horizon(limited ? root_units_ + options_.depth_limit : kNoDepthLimit);
        }
    }

    static void end(G& game) {
        if constexpr (HorizonGame<G>) game.set_horizon(kNoDepthLimit);
        (void)game;
    }

    NodeResult node(G& game, int ply, int lim) {
        assert(ply < kMaxPly);
        ++stats_.nodes;
        Frame& f = frames_[ply];
        f.player = game.player_to_move();
        f.has_best = false;
        f.best_index = -1;
        f.strict = true;
        f.last_branch = true;
        Tuple& out = values_[ply];
        if (game.is_terminal()) {
            ++stats_.leaves;
            out = Tuple{};
            game.payoff(out);
            return exact(true);
        }
        const bool limited = options_.depth_limit != kNoDepthLimit;
        const int used = depth_units(game, ply) - root_units_;
        if (used >= options_.depth_limit) {
            ++stats_.leaves;
            ++stats_.evaluations;
            out = Tuple{};
            game.evaluate(out);
            return exact(false);
        }
        const int remaining = limited ? options_.depth_limit - used : kCompleteDepth;

        [[maybe_unused]] bool storable = false;
        [[maybe_unused]] Tuple offset{};
        if constexpr (TranspositionGame<G>) {
            if (tt_.enabled() && ply > 0 && game.tt_storable()) {
                storable = true;
                game.tt_offset(offset);
                ++stats_.tt_probes;
                bool complete = false;
                if (tt_.probe(game.hash_key(), remaining, offset, n_, out, complete)) {
                    ++stats_.tt_hits;
                    return exact(complete);
                }
            }
        }

        if (prune_) {
            load_bounds(game, f);
            const int top = find_prune_top(game, ply, lim, false);
            if (top >= 0) return pruned(top);
        }
        if (options_.node_limit != kNoNodeLimit && stats_.expansions >= options_.node_limit) {
            aborted_ = true;
            return {Kind::kAborted, 0, false};
        }
        ++stats_.expansions;

        MoveListOf<G> moves;
        game.legal_moves(moves);
        const int count = moves.size();
        assert(count > 0);
        FixedVector<Pending, G::kMaxMoves> pending;
        bool complete = true;
        int child_lim = lim;
        bool best_may_fail = true;  // no best yet, or the best fails some ancestor in [lim, ply)
        const int p = f.player;

        for (int i = 0; i < count; ++i) {
            f.last_branch = i == count - 1;
            f.strict = true;
            // Last-branch pruning never names an ancestor above a node that has more children to
            // search, so it never needs a re-search.
            if (last_branch_only_ && !f.last_branch) child_lim = ply;
            if (last_branch_only_ && f.last_branch) child_lim = best_may_fail ? lim : ply;
            // Speculative: a node with no exact best yet gives its children no bound of its own, so
            // a child pruned against the ancestors above would leave it without a best and search
            // every later sibling with weak bounds, and would almost always have to be searched
            // again. Until the node has a best (or is on its last branch, where it cannot get one
            // later) its children may only be pruned against the node itself.
            if (sequences_ && !last_branch_only_ && !f.has_best)
                child_lim = f.last_branch ? lim : ply;
            game.apply(moves[i]);
            const NodeResult r = node(game, ply + 1, child_lim);
            game.undo(moves[i]);
            if (r.kind == Kind::kAborted) return r;
            if (r.kind == Kind::kPruned) {
                complete = false;
                if (r.top < ply) pending.push_back({i, r.top});
                continue;
            }
            complete = complete && r.complete;
            const Tuple& v = values_[ply + 1];
            if (f.has_best && v[p] <= f.best[p]) continue;
            adopt(f, v, i);
            if (!prune_) continue;
            if (sequences_) {
                best_may_fail = deepest_fail(ply, lim) >= 0;
                child_lim = best_may_fail ? lim : ply;
            }
            if (f.best[p] >= upper_bound(f, p)) {
                // Immediate pruning: no later child can be strictly better for the mover.
                ++stats_.immediate_prunes;
                complete = complete && i == count - 1;
                break;
            }
            const int top = find_prune_top(game, ply, lim, true);
            if (top >= 0) return pruned(std::min(top, min_top(pending)));
        }

        while (!pending.empty()) {
            if (!f.has_best) return pruned(min_top(pending));
            const int fail = deepest_fail(ply, lim);
            if (fail >= 0) return pruned(std::min(fail, min_top(pending)));
            // The best so far would pass every ancestor, so a speculatively pruned child might
            // matter after all: search those again, in order, with bounds that stop at this node.
            const FixedVector<Pending, G::kMaxMoves> again = pending;
            pending.clear();
            for (const Pending& item : again) {
                const int i = item.index;
                ++stats_.re_searches;
                f.strict = i > f.best_index;
                f.last_branch = false;
                child_lim = deepest_fail(ply, lim) >= 0 ? lim : ply;
                game.apply(moves[i]);
                const NodeResult r = node(game, ply + 1, child_lim);
                game.undo(moves[i]);
                if (r.kind == Kind::kAborted) return r;
                if (r.kind == Kind::kPruned) {
                    if (r.top < ply) pending.push_back({i, r.top});
                    continue;
                }
                const Tuple& v = values_[ply + 1];
                if (v[p] > f.best[p] || (v[p] == f.best[p] && i < f.best_index)) adopt(f, v, i);
            }
        }

        assert(f.has_best);
        out = f.best;
        if constexpr (TranspositionGame<G>) {
            if (storable)
                tt_.store(game.hash_key(), complete ? kCompleteDepth : remaining, offset, n_, out);
        }
        return exact(complete);
    }

    static void adopt(Frame& f, const Tuple& v, int index) {
        f.best = v;
        f.best_index = index;
        f.has_best = true;
    }

    static int min_top(const FixedVector<Pending, G::kMaxMoves>& pending) {
        int top = kMaxPly;
        for (const Pending& item : pending) top = std::min(top, item.top);
        return top;
    }

    void load_bounds(const G& game, Frame& f) const {
        f.lo = Tuple{};
        f.hi = Tuple{};
        if (heuristic_) {
            game.bounds(f.lo, f.hi);
        } else {
            for (int q = 0; q < n_; ++q) f.hi[q] = maxsum_;
        }
    }

    // Highest value the mover p can still get below this node.
    Utility upper_bound(const Frame& f, int p) const {
        Utility others = 0;
        for (int q = 0; q < n_; ++q)
            if (q != p) others += f.lo[q];
        return std::min(f.hi[p], maxsum_ - others);
    }

    // Whether value v, arriving at ancestor frame a, would be rejected there.
    static bool fails(const Tuple& v, const Frame& a) {
        if (!a.has_best) return false;
        const Utility b = a.best[a.player];
        return a.strict ? v[a.player] <= b : v[a.player] < b;
    }

    // Deepest ancestor in [lim, ply) that would reject the best value of the node at ply; -1: none.
    int deepest_fail(int ply, int lim) const {
        const Tuple& best = frames_[ply].best;
        for (int s = ply - 1; s >= lim; --s)
            if (fails(best, frames_[s])) return s;
        return -1;
    }

    // The most local ancestor ply s >= lim such that this node may return Pruned(s); -1 if none.
    int find_prune_top(const G& game, int ply, int lim, bool own_best) {
        const Frame& f = frames_[ply];
        Requirements req;
        req.need = f.lo;
        if (own_best) req.add(f.player, f.best[f.player], true);
        bool best_fails = !own_best;
        bool dirty = false;
        const int floor = sequences_ ? lim : std::max(lim, ply - 1);
        for (int s = ply - 1; s >= floor; --s) {
            if (last_branch_only_ && s < ply - 1 && !frames_[s + 1].last_branch) break;
            const Frame& a = frames_[s];
            if (a.has_best) {
                dirty = req.add(a.player, a.best[a.player], a.strict) || dirty;
                if (!best_fails && fails(f.best, a)) best_fails = dirty = true;
            }
            if (!best_fails || !dirty) continue;
            dirty = false;
            const Verdict verdict = infeasible(game, f, req);
            if (verdict == Verdict::kFeasible) continue;
            if (verdict == Verdict::kOutcome) ++stats_.outcome_prunes;
            if (s == ply - 1)
                ++stats_.shallow_prunes;
            else
                ++stats_.sequence_prunes;
            return s;
        }
        return -1;
    }

    // Whether no later child value can meet every requirement.
    Verdict infeasible(const G& game, const Frame& f, const Requirements& req) {
        std::int64_t sum = 0;
        bool any_strict = false;
        for (int q = 0; q < n_; ++q) {
            const bool strict = req.strict[q] && req.in_sequence[q];
            // Discrete: beating b means reaching b + delta. Continuous: keep the strict inequality.
            const Utility need = req.need[q] + (strict ? step_ : 0);
            const bool open = strict && step_ == 0;
            if (need > f.hi[q] || (open && need == f.hi[q])) return Verdict::kLinear;
            sum += need;
            any_strict = any_strict || open;
        }
        if (sum > maxsum_ || (any_strict && sum == maxsum_)) return Verdict::kLinear;
        if constexpr (OutcomeGame<G>) {
            if (use_outcomes_ && !outcome_reachable(game, req)) return Verdict::kOutcome;
        } else {
            (void)game;
        }
        return Verdict::kFeasible;
    }

    // Leaf-value table test: does some reachable outcome beat every bound of the sequence?
    bool outcome_reachable(const G& game, const Requirements& req) requires OutcomeGame<G> {
        Tuple thresholds;
        thresholds.fill(kNoThreshold);
        const Utility step = std::max<Utility>(step_, 1);
        for (int q = 0; q < n_; ++q)
            if (req.in_sequence[q]) thresholds[q] = req.need[q] + (req.strict[q] ? step : 0);
        ++stats_.outcome_probes;
        const std::uint64_t key = game.outcome_key();
        const std::uint64_t hash = OutcomeCache::key_of(thresholds, key);
        bool reachable = false;
        if (outcomes_.probe(hash, thresholds, key, reachable)) {
            ++stats_.outcome_cache_hits;
            return reachable;
        }
        const int n = n_;
        game.for_each_outcome([&](const Tuple& o) {
            for (int q = 0; q < n; ++q)
                if (o[q] < thresholds[q]) return false;
            reachable = true;
            return true;
        });
        outcomes_.store(hash, thresholds, key, reachable);
        return reachable;
    }

    SearchOptions options_;
    bool prune_;
    bool heuristic_;
    bool sequences_;
    bool last_branch_only_;
    bool use_outcomes_;
    MaxnTable tt_;
    OutcomeCache outcomes_;
    std::vector<Frame> frames_;
    std::vector<Tuple> values_;
    SearchStats stats_;
    bool aborted_ = false;
    int n_ = 0;
    Utility maxsum_ = 0;
    Utility step_ = 0;
    int root_units_ = 0;
};

}  // namespace engine
