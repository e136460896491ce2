#pragma once
// Transposition tables. Both are allocated once at construction, direct-mapped and always-replace,
// and owned by one search object, so two searches never share a table.

#include <algorithm>
#include <cstdint>
#include <limits>
#include <vector>

#include "engine/hash.hpp"
#include "engine/types.hpp"

namespace engine {

// Depth stored for values that no cut-off evaluation influenced: valid at any depth limit.
inline constexpr int kCompleteDepth = -1;

// Table of exact max^n values. Holds value - offset (what the subtree adds to the utilities taken
// so far) so an entry is independent of the history that reached the key. Invariant: every stored
// value is an exact max^n value for its remaining depth (or complete), never a pruned one.
class MaxnTable {
  public:
    explicit MaxnTable(std::size_t entries)
        : entries_(entries == 0 ? 0 : round_up_pow2(entries)), mask_(entries_.size() - 1) {}

    [[nodiscard]] bool enabled() const { return !entries_.empty(); }

    // Finds a value usable with `remaining` depth units left; adds the offset back.
    bool probe(std::uint64_t key, int remaining, const Tuple& offset, int n, Tuple& value,
               bool& complete) const {
        const Entry& e = entries_[key & mask_];
        if (!e.used || e.key != key) return false;
        if (e.depth != kCompleteDepth && e.depth != remaining) return false;
        value = Tuple{};
        for (int p = 0; p < n; ++p) value[p] = e.value[p] + offset[p];
        complete = e.depth == kCompleteDepth;
        return true;
    }

    void store(std::uint64_t key, int depth, const Tuple& offset, int n, const Tuple& value) {
        Entry& e = entries_[key & mask_];
        e.used = true;
        e.key = key;
        e.depth = depth;
        e.value = Tuple{};
        for (int p = 0; p < n; ++p) e.value[p] = value[p] - offset[p];
    }

  private:
    struct Entry {
        std::uint64_t key = 0;
        Tuple value{};
        int depth = 0;
        bool used = false;
    };
    std::vector<Entry> entries_;
    std::size_t mask_;
};

enum class BoundKind : std::uint8_t { kExact, kLower, kUpper };

// Table of two-sided scores as bounds (fail-soft alpha-beta): each entry keeps a lower and an
// upper bound, so null-window searches that fail high and low at the same position (MTD(f))
// narrow one interval instead of overwriting each other. Scores are stored relative to the score
// of the offset, like MaxnTable.
class BoundTable {
  public:
    explicit BoundTable(std::size_t entries)
        : entries_(entries == 0 ? 0 : round_up_pow2(entries)), mask_(entries_.size() - 1) {}

    [[nodiscard]] bool enabled() const { return !entries_.empty(); }

    // The bounds known for the position at this depth (lower <= value <= upper).
    bool probe(std::uint64_t key, int remaining, Utility offset, Utility& lower, Utility& upper,
               bool& complete) const {
        const Entry& e = entries_[key & mask_];
        if (!e.used || e.key != key) return false;
        if (e.depth != kCompleteDepth && e.depth != remaining) return false;
        lower = e.lower == kNone ? kNone : e.lower + offset;
        upper = e.upper == kNoneHigh ? kNoneHigh : e.upper + offset;
        complete = e.depth == kCompleteDepth;
        return true;
    }

    void store(std::uint64_t key, int depth, Utility offset, Utility score, BoundKind kind) {
        Entry& e = entries_[key & mask_];
        if (!e.used || e.key != key || e.depth != depth)
            e = Entry{key, kNone, kNoneHigh, depth, true};
        const Utility s = score - offset;
        if (kind != BoundKind::kUpper) e.lower = std::max(e.lower, s);
        if (kind != BoundKind::kLower) e.upper = std::min(e.upper, s);
    }

    static constexpr Utility kNone = std::numeric_limits<Utility>::min() / 2;      // no lower bound
    static constexpr Utility kNoneHigh = std::numeric_limits<Utility>::max() / 2;  // no upper bound

  private:
    struct Entry {
        std::uint64_t key = 0;
        Utility lower = kNone;
        Utility upper = kNoneHigh;
        int depth = 0;
        bool used = false;
    };
    std::vector<Entry> entries_;
    std::size_t mask_;
};

}  // namespace engine
