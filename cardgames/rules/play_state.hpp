#pragma once
// The card-play phase of one hand: who holds what, the trick in progress, tricks and points taken.
// PlayState is a small trivially copyable value, so search code copies it freely; PlayRules is the
// part of the rule set that card play needs, flattened for the hot path.

#include <array>
#include <cstdint>
#include <string>

#include "cardgames/cards/card_set.hpp"
#include "cardgames/cards/deal.hpp"
#include "cardgames/rules/rules.hpp"

namespace cardgames {

struct PlayRules {
    int players = 4;
    bool has_trump = false;
    Suit trump = Suit::kSpades;
    bool lead_restricted = false;  // the restricted suit may not be led until broken
    Suit restricted_suit = Suit::kHearts;
    CardSet breakers;                      // cards whose play breaks the restricted suit
    Card first_lead = kNoCard;             // the card that must open the hand, if any
    CardSet first_trick_barred;            // cards that may not go on the first trick unless forced
    std::array<std::int8_t, 64> points{};  // Hearts penalty points per card index (all 0 in Spades)

    static PlayRules from(const Rules& rules);
};

// Whether `a`, played to a trick that `b` is winning, takes the trick over: a trump beats any
// other suit, otherwise only a higher card of b's suit does.
inline bool beats(const PlayRules& rules, Card a, Card b) {
    const bool a_trump = rules.has_trump && a.suit() == rules.trump;
    const bool b_trump = rules.has_trump && b.suit() == rules.trump;
    if (a_trump != b_trump) return a_trump;
    return a.suit() == b.suit() && a.rank() > b.rank();
}

struct PlayState {
    std::array<CardSet, kMaxPlayers> hands{};
    CardSet played;                         // every card played this hand, current trick included
    std::array<Card, kMaxPlayers> trick{};  // the current trick in play order, from the leader
    std::array<std::int8_t, kMaxPlayers> tricks_won{};
    std::array<std::int16_t, kMaxPlayers> points{};
    std::int8_t players = 4;
    std::int8_t leader = 0;
    std::int8_t to_move = 0;
    std::int8_t trick_size = 0;
    std::int8_t tricks_played = 0;
    // The position in `trick` of the card winning it (0 between tricks): kept as cards are played
    // because the searches ask for the winner at every node.
    std::int8_t winning = 0;
    bool broken = false;  // spades (Spades) or hearts (Hearts) broken

    // A fresh hand: `leader` leads the first trick (the caller finds the 2♣ holder where needed).
    static PlayState start(const Deal& deal, int leader);

    Suit led_suit() const { return trick[0].suit(); }
    bool hand_over() const { return trick_size == 0 && hands[to_move].empty(); }
    int cards_left() const;  // cards not yet played, all hands together
    // The cards still in play: every hand and the trick in progress.
    CardSet in_play() const {
        CardSet c;
        for (int p = 0; p < players; ++p) c |= hands[p];
        for (int i = 0; i < trick_size; ++i) c |= trick[i];
        return c;
    }

    CardSet legal_moves(const PlayRules& rules) const;
    // Empty when `card` is legal for the player to move, else why not, in words for a player.
    std::string why_illegal(const PlayRules& rules, Card card) const;

    // Plays a legal card for the player to move. Returns the trick's winner when the card
    // completed a trick, else -1.
    int play(const PlayRules& rules, Card card);

    // The seat currently winning the trick in progress (trick_size > 0).
    int current_winner() const {
        const int seat = leader + winning;
        return seat >= players ? seat - players : seat;
    }
};

}  // namespace cardgames
