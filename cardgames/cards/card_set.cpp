#include "cardgames/cards/card_set.hpp"

namespace cardgames {

std::string suit_to_string(CardSet hand, Suit s) {
    std::string out;
    for (Rank r = kAce; r >= kTwo; --r)
        if (hand.contains(Card(s, r))) out += rank_letter(r);
    return out;
}

std::string hand_to_string(CardSet hand) {
    std::string out;
    for (int i = 0; i < kNumSuits; ++i) {
        if (i) out += '.';
        out += suit_to_string(hand, kSuitsNotationOrder[i]);
    }
    return out;
}

std::string cards_to_string(CardSet cards) {
    std::string out;
    for (Suit s : kSuitsNotationOrder) {
        for (Rank r = kAce; r >= kTwo; --r) {
            if (!cards.contains(Card(s, r))) continue;
            if (!out.empty()) out += ' ';
            out += to_string(Card(s, r));
        }
    }
    return out;
}

}  // namespace cardgames
