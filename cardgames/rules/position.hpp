#pragma once
// A position to search, from a deal that may hold fewer than a full hand per seat (an end
// position), a leader, and optionally the cards already on the table in the current trick. Used
// by `cardgames solve` and `cardgames bench`.

#include <array>
#include <optional>
#include <string>
#include <vector>

#include "cardgames/cards/deal.hpp"
#include "cardgames/rules/info_state.hpp"
#include "cardgames/rules/play_state.hpp"
#include "cardgames/rules/rules.hpp"

namespace cardgames {

// Parses a seat: 0..n-1, or N/E/S/W in 4-player games. Throws InputError naming the text.
int parse_seat(const std::string& text, int players);

// One bid per seat of `rules`, comma-separated: 0 to the cards in a hand, nil and bnil (blind
// nil) where the rules allow them; spaces around a bid are ignored. Errors name `label` (the
// option or field) and the text.
std::array<Bid, kMaxPlayers> parse_bid_list(const std::string& text, const Rules& rules,
                                            const std::string& label);

// Seat names for printing: North, East, South, West for 4 players, else "Seat 0".
std::string seat_name(int seat, int players);

// Checks the position and builds its PlayState. Hands must be equal in length except that the
// seats that already played to `trick` hold one card less; in a full deal the leader must be the
// seat that holds the rules' first-lead card, if any. `broken` defaults to "not a full deal".
// Throws InputError naming what is wrong.
PlayState position_from_deal(const Rules& rules, const Deal& deal, int leader,
                             const std::vector<Card>& trick,
                             std::optional<bool> broken = std::nullopt);

}  // namespace cardgames
