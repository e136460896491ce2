#pragma once
// Deals under a rule set: checking a given deal against the rules, and dealing hand `n` of a game
// from its seed.

#include <cstdint>

#include "cardgames/cards/deal.hpp"
#include "cardgames/rules/rules.hpp"

namespace cardgames {

// Checks a deal against the rules: player count, cards only from the rules' deck, and each hand
// holding exactly `cards_per_hand` cards (0 means the rules' full hand). Throws InputError.
void validate_deal(const Deal& deal, const Rules& rules, int cards_per_hand = 0);

// The deal of hand `hand_number` of a game played from `seed`: identical on every machine
// (Boost.Random's generator and distribution, our own shuffle).
Deal deal_from_seed(const Rules& rules, std::uint64_t seed, int hand_number);

// The deal of hand `hand_number` of board `board` of a tournament run from `run_seed` (every seat
// rotation of a board plays these deals): what a results file's game must have been dealt.
Deal tournament_deal(const Rules& rules, std::uint64_t run_seed, long board, int hand_number);

}  // namespace cardgames
