#pragma once
// The hard facts one seat knows about the hidden hands, derived from its InfoState only: how many
// cards each other seat still holds, which cards each cannot hold (voids shown by failing to
// follow suit, a lead of the unbroken suit, a discard of a penalty card on the first trick), and
// which cards it must hold (cards this seat passed it that it has not played yet; the first-lead
// card, held by the seat on lead before the hand's first card). The sampler deals the hidden hands
// from them (sampling/deal_sampler.hpp); the bot side of the protocol checks the table's lines
// against them, so that no state the sampler cannot deal reaches it.

#include <array>
#include <string>

#include "cardgames/rules/info_state.hpp"

namespace cardgames {

struct Constraints {
    int players = 4;
    int me = 0;
    CardSet unseen;                               // cards held by the other seats, all together
    std::array<int, kMaxPlayers> need{};          // cards each seat holds now (0 for me)
    std::array<CardSet, kMaxPlayers> excluded{};  // cards the seat certainly does not hold
    std::array<CardSet, kMaxPlayers> known{};     // cards the seat certainly holds

    // Human-readable summary for error messages and logs.
    std::string describe() const;
    // Empty when some deal of the unseen cards fits every constraint, else why none does.
    std::string why_no_deal() const;
};

Constraints constraints_from(const InfoState& info);

}  // namespace cardgames
