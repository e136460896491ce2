#pragma once
// The double-dummy solver: how many tricks each side takes with every card seen, in partnership
// Spades under the tricks utility (with spades_lead_anytime=true, bridge play with spades as
// trumps), from a whole deal or any position, mid-trick included. It answers what the generic
// two-sided search over TrickGame answers, much faster; solver.hpp holds how.

#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "cardgames/rules/play_state.hpp"

namespace cardgames {

namespace double_dummy {
class Solver;
}

// What a solver searched, since it was made or its reset_stats().
struct DoubleDummyStats {
    std::uint64_t nodes = 0;       // positions entered
    std::uint64_t expansions = 0;  // ... whose moves were generated
    std::uint64_t tricks = 0;      // tricks completed in the search (what DDS reports as its nodes)
};

// Tricks per side from a position on: [seats 0 and 2, seats 1 and 3].
using SideTricks = std::array<int, 2>;
// Seats 0 and 2 take `ns` of the `left` tricks; seats 1 and 3 the rest.
constexpr SideTricks side_tricks(int ns, int left) {
    return {ns, left - ns};
}

// One legal card of the side to move and the tricks seats 0 and 2 take from the position on after
// it.
struct CardTricks {
    Card card;
    int tricks = 0;
    bool operator==(const CardTricks&) const = default;
};

// Every card the player to move may play, valued; the best card and the position's value.
struct RootValue {
    std::vector<CardTricks> cards;  // in notation order (spades first, high to low)
    Card best = kNoCard;            // the first card reaching the best value for the side to move
    SideTricks value{};             // after the best card
};

class DoubleDummy {
  public:
    // `table_log2`: room for 2^(table_log2 - 2) shapes and as many blocks of 16 bounds; about
    // 2^table_log2 x 152 bytes in all (38 MiB by default).
    explicit DoubleDummy(int table_log2 = 18);
    ~DoubleDummy();

    // Whether `rules` are the ones this solver plays: four players in two partnerships with a
    // trump suit and no first-trick restrictions beyond an optional forced opening lead.
    static bool supports(const PlayRules& rules);

    // Tricks seats 0 and 2 take from `state` on, the trick in progress included.
    int solve(const PlayRules& rules, const PlayState& state);
    // Every legal card of the side to move with the tricks seats 0 and 2 take from `state` on when
    // it is played (the trick it completes included), in notation order: one solve per card.
    std::vector<CardTricks> value_cards(const PlayRules& rules, const PlayState& state);
    // value_cards, with the best card and the value. An empty `cards`: no legal card.
    RootValue value_root(const PlayRules& rules, const PlayState& state);

    // Forgets every stored bound. Bounds stay valid across positions played under the same rules,
    // so a caller may keep them; other rules clear them.
    void clear();
    const DoubleDummyStats& stats() const;
    void reset_stats();

  private:
    std::unique_ptr<double_dummy::Solver> solver_;
};

}  // namespace cardgames
