#pragma once
// How a Spades nil bidder plays from what it can see (its own hand, the cards played, the voids
// shown). The rule player plays its nil this way; a search may play another seat's standing nil
// this way instead of letting that seat see every hand (pimc:nil_bidder=rule).

#include <bit>
#include <cstdint>

#include "cardgames/cards/card_set.hpp"

namespace cardgames {

// The card to play when trying to lose the trick, of the `legal` cards of which `beaters` would
// win it as it stands: the biggest card that still loses (high spades count as the biggest
// liability); when every card wins, the biggest if the trick is ours anyway (last to play), else
// the smallest in the hope that someone overtakes.
Card nil_duck(CardSet legal, CardSet beaters, bool last_to_play);

// The lead most likely to be beaten: many unseen cards above it (`unseen`: the cards of the other
// hands as far as the bidder knows), never a spade when another suit will do, never a card nobody
// can beat or, by `followers(card)`, nobody else can follow.
template <class Followers>
Card nil_lead(CardSet legal, CardSet unseen, Followers&& followers) {
    Card best = kNoCard;
    double best_key = 0;
    for (Card c : legal) {
        const int higher =
            std::popcount(static_cast<std::uint16_t>(unseen.lane(c.suit()) >> (c.rank() + 1)));
        const bool spade = c.suit() == Suit::kSpades;
        const double key = higher == 0 || followers(c) == 0
                               ? -100.0 - c.rank()
                               : 4.0 * higher - c.rank() - (spade ? 20 : 0);
        if (best == kNoCard || key > best_key) {
            best = c;
            best_key = key;
        }
    }
    return best;
}

}  // namespace cardgames
