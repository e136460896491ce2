#pragma once
// A deal: one hand per seat. Notation (docs/guide/rules.md, "Notation"):
//   4 hands, PBN:        "N:AKQ2.JT9.8765.4 <E> <S> <W>"  (first seat N/E/S/W, then clockwise)
//   any count 3..6:      "3:<seat 0> <seat 1> <seat 2>"    (the project's extension; "4:" too)
// A hand is S.H.D.C, ranks high to low, an empty suit is "" or "-". Hands may be shorter than a
// full hand (end positions), but all of them the same length or shorter by one... that is checked
// by the caller that knows the position (validate_deal).

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "cardgames/cards/card_set.hpp"
#include "engine/types.hpp"

namespace cardgames {

using engine::kMaxPlayers;  // one limit for the search and the rules

struct Deal {
    int players = 4;
    std::array<CardSet, kMaxPlayers> hands{};

    CardSet all_cards() const;
    bool operator==(const Deal&) const = default;
};

// Throws InputError naming the offending text and its position (which hand, which suit).
Deal parse_deal(std::string_view text);
// PBN form for 4 hands ("N:..."), "<n>:..." otherwise.
std::string deal_to_string(const Deal& deal);

// Mixes two numbers into one well-spread 64-bit seed (splitmix64 finaliser).
std::uint64_t mix_seed(std::uint64_t a, std::uint64_t b);

}  // namespace cardgames
