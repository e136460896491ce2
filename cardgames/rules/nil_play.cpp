#include "cardgames/rules/nil_play.hpp"

namespace cardgames {

namespace {

// Spades rank above every side card: they are the nil bidder's worst danger.
int liability(Card c) {
    return c.rank() + (c.suit() == Suit::kSpades ? 6 : 0);
}

// The card of `cards` with the greatest liability times `sign`; ties go to the first in iteration
// order.
Card by_liability(CardSet cards, int sign) {
    Card best = kNoCard;
    for (Card c : cards)
        if (best == kNoCard || sign * liability(c) > sign * liability(best)) best = c;
    return best;
}

}  // namespace

Card nil_duck(CardSet legal, CardSet beaters, bool last_to_play) {
    const CardSet losers = legal - beaters;
    if (!losers.empty()) return by_liability(losers, 1);
    return by_liability(legal, last_to_play ? 1 : -1);
}

}  // namespace cardgames
