#pragma once
// Hand scoring and the end of the game, for both games. Scores are kept per scoring unit: a side
// (seats s and s+2) in partnership Spades, a player otherwise.

#include <array>
#include <cstdint>
#include <vector>

#include "cardgames/rules/info_state.hpp"
#include "cardgames/rules/rules.hpp"

namespace cardgames {

struct HandScore {
    std::array<int, kMaxPlayers> delta{};          // per unit: the change of the game score
    std::array<int, kMaxPlayers> bags_added{};     // Spades, per unit: overtricks this hand
    std::array<int, kMaxPlayers> bag_penalties{};  // Spades, per unit: times the bag penalty hit
    std::array<int, kMaxPlayers> contract{};       // Spades, per unit: +-10 per trick bid
    std::array<int, kMaxPlayers> nil{};            // Spades, per unit: nil and blind nil bonuses
    std::array<int, kMaxPlayers> points{};         // Hearts, per seat: penalty points taken
    int moon_shooter = -1;                         // Hearts: the seat that shot the moon
};

// Spades, one unit's contract as it stands: the tricks its bids made so far add up to (nil bids
// aside) and the tricks that count towards them (a nil bidder's only with
// nil_tricks_count_for_partner). The scoring and the table's display both read it from here.
struct UnitContract {
    int bid = 0;
    int counted = 0;
    // Tricks the contract still needs (<= 0: made); 0 for a unit with only nil bids, which has no
    // contract.
    int need() const { return bid == 0 ? 0 : bid - counted; }
};
UnitContract unit_contract(const Rules& rules, const std::array<Bid, kMaxPlayers>& bids,
                           const std::array<int, kMaxPlayers>& tricks, int unit);

// Spades: scores one hand from bids and tricks won per seat, and updates `board` (score and bags,
// with the bag penalty applied each time a unit's bags reach bags_per_penalty).
HandScore score_spades_hand(const Rules& rules, const std::array<Bid, kMaxPlayers>& bids,
                            const std::array<int, kMaxPlayers>& tricks, ScoreBoard& board);

// How a Spades player values a hand's bags: as the hand's score counts them (a point each, the
// penalty when it falls), or paid for as they are taken: each bag costs bag_penalty /
// bags_per_penalty (rounded) on top of its point, and a penalty that fell this hand is given back,
// since its bags were paid for as they came. Over a game the two add up to the same, but with the
// second a bag is a loss when it is taken, not a point. (The hand score plus the change of a
// potential of -bag_penalty / bags_per_penalty a bag held.)
enum class BagValue : std::uint8_t { kHand, kAmortized };

// The unit's score change in `hs` with its bags valued by `bag_value`.
int valued_delta(const Rules& rules, const HandScore& hs, int unit, BagValue bag_value);

// Hearts: scores one hand from the cards each seat took, applying the moon, and updates `board`.
HandScore score_hearts_hand(const Rules& rules, const std::array<CardSet, kMaxPlayers>& taken,
                            ScoreBoard& board);

// Do these rules have blind nil at all (partnership, nil and blind nil on)?
bool blind_nil_in_rules(const Rules& rules);

// May `seat` bid blind nil with the scores as they stand (partnership, option on, side trailing
// by at least blind_nil_deficit)?
bool blind_nil_allowed(const Rules& rules, const ScoreBoard& board, int seat);

// The winning units when the game is over after a hand, else empty (game goes on). Spades: over
// when a unit reaches the target or falls to the loss threshold; the single highest score wins,
// a tie for the highest plays another hand. Hearts: over when someone reaches end_score; the
// lowest score wins and ties share the win.
std::vector<int> game_winners(const Rules& rules, const ScoreBoard& board);

// Whether the lower score is the better one: Hearts counts penalty points, Spades scores.
bool lower_score_wins(const Rules& rules);

// The units that won one hand on its own (a tournament by hands): the best change of score, the
// highest in Spades and the fewest points in Hearts; ties share the win.
std::vector<int> hand_winners(const Rules& rules, const HandScore& score);

}  // namespace cardgames
