#pragma once
// The game's actions as small integers, OpenSpiel style, the same for every form:
//
//   0-51     play a card
//   52-103   pass a card (a Hearts pass and the blind-nil exchange are chosen one card at a time,
//            as OpenSpiel's Hearts does)
//   104-121  bid 0-17 tricks (104 is nil)
//   122      no blind nil
//   123      blind nil
//
// A card's number is suit * 13 + rank - 2, suits clubs, diamonds, hearts, spades (2C = 0, AS = 51).

#include <stdexcept>
#include <string>
#include <vector>

#include "cardgames/rules/game.hpp"

namespace cardgames::encoding {

inline constexpr int kNumCards = 52;
inline constexpr int kPassBase = 52;
inline constexpr int kBidBase = 104;
inline constexpr int kNumBids = kMaxTricks + 1;
inline constexpr int kNoBlindNil = kBidBase + kNumBids;  // 122
inline constexpr int kBlindNil = kNoBlindNil + 1;        // 123
inline constexpr int kNumActions = kBlindNil + 1;        // 124

inline int card_number(Card c) {
    return static_cast<int>(c.suit()) * 13 + c.rank() - 2;
}
inline Card card_of_number(int n) {
    return Card(static_cast<Suit>(n / 13), n % 13 + 2);
}

// An action the rules refuse now; Python's cardgames.IllegalActionError, a ValueError.
class IllegalAction : public std::invalid_argument {
  public:
    using std::invalid_argument::invalid_argument;
};

// "play QS", "pass QS", "bid 4", "bid nil", "blind nil", "no blind nil"; throws InputError for a
// number outside 0..kNumActions-1.
std::string action_name(int action);

// The legal actions, ascending, of the seat to act in `phase`: `hand` its cards, `pending` those it
// has chosen so far for the pass in progress, `playable` its legal cards (phase kPlay).
std::vector<int> legal_actions_in(const Rules& rules, Phase phase, CardSet hand, CardSet pending,
                                  CardSet playable);

}  // namespace cardgames::encoding
