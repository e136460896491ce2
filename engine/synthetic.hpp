#pragma once
// A synthetic game for tests and measurement: seeded random trees shaped like trick-taking hands.
//
// Along every path a pool of `pool` tokens is handed out, a few at a time, to the players (like
// tricks or points); the rest of the pool is split at the leaf (all of it if constant-sum, part of
// it otherwise). Tokens once awarded stay awarded, so "tokens so far" and "tokens so far + pool
// left" are true lower and upper bounds: the monotonic heuristic. With `scored` the utility is
// instead a per-player score table applied to the tokens (like Spades scored by bids: not
// monotonic, not constant-sum), the case for leaf-value tables. Players alternate, or the last
// player to receive tokens moves next (like a trick's winner leading), so one player may move twice
// in a row.
//
// Everything is derived from splitmix64 of the seed and the path (no std:: distributions), so a
// spec gives the same tree on every machine. With transposition_classes > 0, children are merged
// into a few classes per (depth, pool left, player to move), so different paths reach identical
// subtrees and the transposition hook (offset = tokens so far) becomes meaningful.

#include <algorithm>
#include <array>
#include <cstdint>

#include "engine/game.hpp"
#include "engine/hash.hpp"

namespace engine {

struct SyntheticSpec {
    std::uint64_t seed = 1;
    int players = 3;    // 2..6
    int branching = 3;  // 2..8: maximum children of a node
    int depth = 4;      // 1..kMaxDepth plies
    Utility pool = 10;  // tokens handed out along each path, <= kMaxPool
    bool constant_sum = true;
    bool alternate = true;       // false: whoever received the last award moves next
    bool heuristic = true;       // false: bounds() reports [0, maxsum]
    bool scored = false;         // utility = score_table[player][tokens]
    bool vary_branching = true;  // nodes have between branching-2 and branching children (>= 1)
    int transposition_classes = 0;
    int early_terminal_per_256 = 0;  // chance that a non-root interior node ends the game
};

// A position in a synthetic tree. Invariants: tokens awarded + pool left == pool on every path;
// lo <= final utility <= hi for every reachable leaf (heuristic on).
class SyntheticGame {
  public:
    using Move = std::uint8_t;
    static constexpr int kMaxMoves = 8;
    static constexpr int kMaxDepth = 16;
    static constexpr Utility kMaxPool = 24;

    explicit SyntheticGame(const SyntheticSpec& spec) : spec_(spec) {
        assert(spec.players >= 2 && spec.players <= kMaxPlayers);
        assert(spec.branching >= 1 && spec.branching <= kMaxMoves);
        assert(spec.depth >= 0 && spec.depth <= kMaxDepth);
        assert(spec.pool >= 0 && spec.pool <= kMaxPool);
        for (int p = 0; p < spec.players; ++p)
            for (Utility k = 0; k <= spec.pool; ++k)
                table_[p][k] = static_cast<Utility>(
                    mix(spec.seed, 0x5c0e, static_cast<std::uint64_t>(p * 64 + k)) %
                    static_cast<std::uint64_t>(spec.pool + 1));
        Ply& root = stack_[0];
        root.key = mix(spec.seed, 0x7007, 0);
        root.player = 0;
        root.left = spec.pool;
        root.acc = Tuple{};
    }

    [[nodiscard]] int ply() const { return ply_; }

    int num_players() const { return spec_.players; }
    int player_to_move() const { return top().player; }
    bool is_terminal() const {
        if (ply_ >= spec_.depth) return true;
        return ply_ > 0 && spec_.early_terminal_per_256 > 0 &&
               static_cast<int>(mix(top().key, 1, 0) & 255) < spec_.early_terminal_per_256;
    }

    void legal_moves(MoveListOf<SyntheticGame>& moves) const {
        int count = spec_.branching;
        if (spec_.vary_branching)
            count -= static_cast<int>(mix(top().key, 2, 0) %
                                      static_cast<std::uint64_t>(std::min(spec_.branching, 3)));
        count = std::max(count, 1);
        for (int i = 0; i < count; ++i) moves.push_back(static_cast<Move>(i));
    }

    void apply(Move move) {
        const Ply& parent = stack_[ply_];
        Ply& child = stack_[ply_ + 1];
        const std::uint64_t h = mix(parent.key, 100, move);
        const int levels_left = std::max(spec_.depth - ply_, 1);
        const Utility cap = (2 * parent.left + levels_left - 1) / levels_left;
        const Utility award = std::min<Utility>(
            parent.left, static_cast<Utility>(h % static_cast<std::uint64_t>(cap + 1)));
        const int recipient =
            static_cast<int>((h >> 20) % static_cast<std::uint64_t>(spec_.players));
        child.acc = parent.acc;
        child.acc[recipient] += award;
        child.left = parent.left - award;
        child.player = spec_.alternate ? (parent.player + 1) % spec_.players : recipient;
        if (spec_.transposition_classes > 0) {
            const auto cls = (h >> 32) % static_cast<std::uint64_t>(spec_.transposition_classes);
            child.key = mix(spec_.seed, static_cast<std::uint64_t>(ply_ + 1) * 1000 + cls,
                            static_cast<std::uint64_t>(child.left) * 8 +
                                static_cast<std::uint64_t>(child.player));
        } else {
            child.key = h;
        }
        ++ply_;
    }
    void undo(Move) { --ply_; }

    void payoff(Tuple& out) const {
        const Ply& t = top();
        Tuple raw = t.acc;
        const std::uint64_t bins =
            static_cast<std::uint64_t>(spec_.players) + (spec_.constant_sum ? 0 : 1);
        for (Utility k = 0; k < t.left; ++k) {
            const auto j = static_cast<int>(mix(t.key, 3, static_cast<std::uint64_t>(k)) % bins);
            if (j < spec_.players) ++raw[j];
        }
        map_utility(raw, out);
    }
    void evaluate(Tuple& out) const { map_utility(top().acc, out); }

    void bounds(Tuple& lo, Tuple& hi) const {
        const Ply& t = top();
        for (int p = 0; p < spec_.players; ++p) {
            if (!spec_.heuristic) {
                lo[p] = 0;
                hi[p] = maxsum();
            } else if (!spec_.scored) {
                lo[p] = t.acc[p];
                hi[p] = t.acc[p] + t.left;
            } else {
                const auto first = table_[p].begin() + t.acc[p];
                lo[p] = *std::min_element(first, first + t.left + 1);
                hi[p] = *std::max_element(first, first + t.left + 1);
            }
        }
    }

    Utility maxsum() const { return spec_.scored ? spec_.players * spec_.pool : spec_.pool; }
    bool constant_sum() const { return spec_.constant_sum && !spec_.scored; }
    Utility delta() const { return 1; }
    std::uint64_t hash_key() const { return top().key; }
    int side_of(int player) const { return player % 2; }

    // Transposition hook: only merged trees with additive utilities repeat subtrees.
    bool tt_storable() const { return spec_.transposition_classes > 0 && !spec_.scored; }
    void tt_offset(Tuple& offset) const { offset = top().acc; }

    // Outcome hook: every split of the pool left (all of it if constant-sum) added to the tokens so
    // far -- a superset of the leaves below -- mapped through the utility.
    std::uint64_t outcome_key() const {
        std::uint64_t h = mix(0x0c, static_cast<std::uint64_t>(top().left), 0);
        for (int p = 0; p < spec_.players; ++p)
            h = hash_combine(h, static_cast<std::uint64_t>(top().acc[p]));
        return h;
    }
    template <typename F>
    void for_each_outcome(F&& visit) const {
        Tuple raw = top().acc;
        split(0, top().left, raw, visit);
    }

  private:
    struct Ply {
        std::uint64_t key = 0;
        Tuple acc{};
        Utility left = 0;
        int player = 0;
    };

    static std::uint64_t mix(std::uint64_t a, std::uint64_t b, std::uint64_t c) {
        return hash_combine(hash_combine(a, b), c);
    }
    const Ply& top() const { return stack_[static_cast<std::size_t>(ply_)]; }

    void map_utility(const Tuple& raw, Tuple& out) const {
        out = Tuple{};
        for (int p = 0; p < spec_.players; ++p) out[p] = spec_.scored ? table_[p][raw[p]] : raw[p];
    }

    // Hands out `left` tokens to players p.. and visits each split; true = stop.
    template <typename F>
    bool split(int p, Utility left, Tuple& raw, F& visit) const {
        if (p >= kMaxPlayers - 1 || p == spec_.players - 1) {
            const Utility lowest = spec_.constant_sum ? left : 0;
            for (Utility k = lowest; k <= left; ++k) {
                raw[p] += k;
                Tuple out;
                map_utility(raw, out);
                raw[p] -= k;
                if (visit(static_cast<const Tuple&>(out))) return true;
            }
            return false;
        }
        for (Utility k = 0; k <= left; ++k) {
            raw[p] += k;
            const bool stop = split(p + 1, left - k, raw, visit);
            raw[p] -= k;
            if (stop) return true;
        }
        return false;
    }

    SyntheticSpec spec_;
    std::array<std::array<Utility, kMaxPool + 1>, kMaxPlayers> table_{};
    std::array<Ply, kMaxDepth + 1> stack_{};
    int ply_ = 0;
};

static_assert(Game<SyntheticGame>);
static_assert(TranspositionGame<SyntheticGame>);
static_assert(OutcomeGame<SyntheticGame>);
static_assert(SidedGame<SyntheticGame>);

}  // namespace engine
