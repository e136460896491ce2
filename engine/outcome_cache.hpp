#pragma once
// Cache of leaf-value-table prune decisions (Sturtevant 2005): "does some reachable outcome give
// every constrained player at least its threshold?", keyed by the thresholds of the player sequence
// and the game's outcome_key(). Allocated once, direct-mapped, owned by one search.

#include <cstdint>
#include <vector>

#include "engine/hash.hpp"
#include "engine/types.hpp"

namespace engine {

// A threshold of kNoThreshold means "this player is not in the sequence".
inline constexpr Utility kNoThreshold = std::numeric_limits<Utility>::min();

class OutcomeCache {
  public:
    explicit OutcomeCache(std::size_t entries)
        : entries_(entries == 0 ? 0 : round_up_pow2(entries)), mask_(entries_.size() - 1) {}

    [[nodiscard]] bool enabled() const { return !entries_.empty(); }

    static std::uint64_t key_of(const Tuple& thresholds, std::uint64_t outcome_key) {
        std::uint64_t h = splitmix64(outcome_key);
        for (Utility t : thresholds) h = hash_combine(h, static_cast<std::uint32_t>(t));
        return h;
    }

    // Returns true and sets `reachable` when the decision is cached.
    bool probe(std::uint64_t hash, const Tuple& thresholds, std::uint64_t outcome_key,
               bool& reachable) const {
        const Entry& e = entries_[hash & mask_];
        if (!e.used || e.hash != hash || e.outcome_key != outcome_key || e.thresholds != thresholds)
            return false;
        reachable = e.reachable;
        return true;
    }

    void store(std::uint64_t hash, const Tuple& thresholds, std::uint64_t outcome_key,
               bool reachable) {
        entries_[hash & mask_] = Entry{hash, outcome_key, thresholds, reachable, true};
    }

  private:
    struct Entry {
        std::uint64_t hash = 0;
        std::uint64_t outcome_key = 0;
        Tuple thresholds{};
        bool reachable = false;
        bool used = false;
    };
    std::vector<Entry> entries_;
    std::size_t mask_;
};

}  // namespace engine
