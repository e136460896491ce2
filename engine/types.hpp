#pragma once
// Basic value types shared by every search in the engine: utilities and their tuples,
// fixed-capacity lists, the algorithm names, search options, statistics and results.

#include <array>
#include <cassert>
#include <cstdint>
#include <limits>
#include <optional>
#include <string_view>

namespace engine {

// Utilities are integers: tricks, points and hand scores all are, and integer steps make the
// discrete pruning refinements exact. Games shift their utilities so that every player's utility is
// >= 0.
using Utility = std::int32_t;

inline constexpr int kMaxPlayers = 6;
// Deepest path a search may walk (a 6-player hand of 17 cards has 102 plies).
inline constexpr int kMaxPly = 128;
// "No depth limit" / "no node limit".
inline constexpr int kNoDepthLimit = std::numeric_limits<int>::max();
inline constexpr std::uint64_t kNoNodeLimit = 0;

// One utility per player; entries at index >= num_players are unused and kept at 0.
using Tuple = std::array<Utility, kMaxPlayers>;

// A vector with a compile-time capacity that lives on the stack: the search never allocates.
// Invariant: 0 <= size() <= Capacity; only the first size() elements are meaningful.
template <typename T, int Capacity>
class FixedVector {
  public:
    static constexpr int kCapacity = Capacity;

    void push_back(const T& value) {
        assert(size_ < Capacity);
        items_[static_cast<std::size_t>(size_++)] = value;
    }
    void clear() { size_ = 0; }
    [[nodiscard]] int size() const { return size_; }
    [[nodiscard]] bool empty() const { return size_ == 0; }
    T& operator[](int i) { return items_[static_cast<std::size_t>(i)]; }
    const T& operator[](int i) const { return items_[static_cast<std::size_t>(i)]; }
    T* begin() { return items_.data(); }
    T* end() { return items_.data() + size_; }
    const T* begin() const { return items_.data(); }
    const T* end() const { return items_.data() + size_; }

  private:
    std::array<T, static_cast<std::size_t>(Capacity)> items_{};
    int size_ = 0;
};

template <typename Move, int Capacity>
using MoveList = FixedVector<Move, Capacity>;

// The search algorithms. All of the max^n family (maxn .. speculative) return exactly the root
// tuple and root move of plain max^n; paranoid and alphabeta are two-sided searches.
enum class Algorithm {
    kMaxn,         // plain max^n, ties to the first child in move order
    kShallow,      // shallow pruning + immediate pruning, trivial bounds [0, maxsum]
    kBnb,          // alpha-beta branch-and-bound with the game's monotonic heuristic
    kLastBranch,   // Lemma 1 sequences, only while intermediate players are on their last branch
    kSpeculative,  // Lemma 1 sequences anywhere, re-searching speculatively pruned children
    kParanoid,     // root player against the coalition of all others (comparison only)
    kAlphaBeta,    // two sides (players or teams), constant-sum
};

inline constexpr std::array<std::pair<Algorithm, std::string_view>, 7> kAlgorithmNames{{
    {Algorithm::kMaxn, "maxn"},
    {Algorithm::kShallow, "shallow"},
    {Algorithm::kBnb, "bnb"},
    {Algorithm::kLastBranch, "lastbranch"},
    {Algorithm::kSpeculative, "speculative"},
    {Algorithm::kParanoid, "paranoid"},
    {Algorithm::kAlphaBeta, "alphabeta"},
}};

constexpr std::string_view algorithm_name(Algorithm algorithm) {
    for (const auto& [a, name] : kAlgorithmNames) {
        if (a == algorithm) return name;
    }
    return "?";
}

constexpr std::optional<Algorithm> parse_algorithm(std::string_view name) {
    for (const auto& [a, n] : kAlgorithmNames) {
        if (n == name) return a;
    }
    return std::nullopt;
}

constexpr bool is_maxn_family(Algorithm algorithm) {
    return algorithm != Algorithm::kParanoid && algorithm != Algorithm::kAlphaBeta;
}

// How to search. Table sizes are entry counts rounded up to a power of two; 0 disables the table.
struct SearchOptions {
    Algorithm algorithm = Algorithm::kSpeculative;
    // Depth limit in the game's depth units (plies, or the game's depth_counter(), e.g. tricks).
    int depth_limit = kNoDepthLimit;
    // Stop after this many node expansions (0 = no limit); the result is then marked incomplete.
    std::uint64_t node_limit = kNoNodeLimit;
    // Use the game's per-player bounds (monotonic heuristic). shallow always uses [0, maxsum].
    bool use_heuristic = true;
    // Use the utility step delta (2003 paper, section 4.4); off = the paper's continuous tests.
    bool discrete = true;
    // Leaf-value tables (2005): decide prunes by enumerating reachable outcomes. Needs a game with
    // the outcome hook and is only used when no depth limit is set (cut-off values are no
    // outcomes).
    bool outcome_tables = false;
    std::size_t outcome_cache_entries = std::size_t{1} << 16;
    // Transposition table; needs a game with the transposition hook.
    std::size_t tt_entries = 0;
};

// Counters of one search (or one iterative-deepening run). Re-expansions count as expansions.
struct SearchStats {
    std::uint64_t nodes = 0;              // nodes entered, including leaves and TT hits
    std::uint64_t expansions = 0;         // nodes whose moves were generated
    std::uint64_t leaves = 0;             // terminal payoffs + cut-off evaluations
    std::uint64_t evaluations = 0;        // ... of which cut-off evaluations
    std::uint64_t immediate_prunes = 0;   // best so far reached the mover's upper bound
    std::uint64_t shallow_prunes = 0;     // pruned against the parent only (shallow / bnb)
    std::uint64_t sequence_prunes = 0;    // pruned against a longer Lemma 1 sequence
    std::uint64_t outcome_prunes = 0;     // prunes decided by the leaf-value (outcome) test
    std::uint64_t alphabeta_cutoffs = 0;  // two-sided searches: beta/alpha cut-offs
    std::uint64_t re_searches = 0;        // speculatively pruned children searched again
    std::uint64_t tt_probes = 0;
    std::uint64_t tt_hits = 0;
    std::uint64_t outcome_probes = 0;      // outcome-table decisions asked for
    std::uint64_t outcome_cache_hits = 0;  // ... of which answered from the decision cache

    SearchStats& operator+=(const SearchStats& o) {
        nodes += o.nodes;
        expansions += o.expansions;
        leaves += o.leaves;
        evaluations += o.evaluations;
        immediate_prunes += o.immediate_prunes;
        shallow_prunes += o.shallow_prunes;
        sequence_prunes += o.sequence_prunes;
        outcome_prunes += o.outcome_prunes;
        alphabeta_cutoffs += o.alphabeta_cutoffs;
        re_searches += o.re_searches;
        tt_probes += o.tt_probes;
        tt_hits += o.tt_hits;
        outcome_probes += o.outcome_probes;
        outcome_cache_hits += o.outcome_cache_hits;
        return *this;
    }
    friend bool operator==(const SearchStats&, const SearchStats&) = default;
};

// What a search returns. For the max^n family `value` is the root's max^n tuple. Two-sided searches
// fill `score` (side 0's utility sum for alphabeta, the root player's utility for paranoid) and
// fill `value` only when it is determined by the score (constant-sum, two players or two even
// sides: engine/game.hpp's EvenSidedGame): has_tuple says so.
template <typename Move>
struct SearchResult {
    bool complete = true;  // false: the node limit stopped the search, the answer is unreliable
    int best_index = -1;   // index of the chosen move in the root's legal move list, -1 at a leaf
    Move best_move{};
    Tuple value{};
    bool has_tuple = true;
    Utility score = 0;
    int depth = kNoDepthLimit;  // depth limit the answer was computed with
    SearchStats stats;
};

// Value of one legal root move: the exact tuple (max^n family) or score (two-sided) it leads to.
template <typename Move>
struct RootMoveValue {
    Move move{};
    Tuple value{};
    Utility score = 0;
};

template <typename Move, int Capacity>
struct RootAnalysis {
    bool complete = true;
    bool has_tuple = true;
    FixedVector<RootMoveValue<Move>, Capacity> moves;  // in the game's move order
    int best_index = -1;  // first move with the best value for the mover
    SearchStats stats;
};

// What every search over game type G returns: search() its result, analyze_root() every legal
// root move's value.
template <class G>
using ResultOf = SearchResult<typename G::Move>;
template <class G>
using AnalysisOf = RootAnalysis<typename G::Move, G::kMaxMoves>;

}  // namespace engine
