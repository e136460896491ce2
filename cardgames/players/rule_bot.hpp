#pragma once
// The `rule` bot: plays Spades and Hearts as a sensible casual player does, from its InfoState
// alone, for every player count. It is the baseline that search bots must beat, so its rules are
// the ones real players use: count tricks to bid, second hand low, third hand high, win cheaply,
// avoid bags once the contract is safe, protect and attack nil bids; in Hearts pass the dangerous
// cards, duck with the highest losing card, dump the Q♠ and high hearts, flush out the Q♠ and stop
// an obvious moon. It is fully deterministic (no randomness is needed) and only ever returns a
// legal choice. Spades rules live in rule_bot_spades.cpp, Hearts rules in rule_bot_hearts.cpp.

#include <array>
#include <cstdint>
#include <vector>

#include "cardgames/rules/player.hpp"

namespace cardgames {

class RuleBot : public Player {
  public:
    // The seed is accepted for the factory's uniform signature; every decision is a pure
    // function of the InfoState.
    explicit RuleBot(std::uint64_t /*seed*/ = 0) {}
    std::string name() const override { return "rule"; }
    bool blind_nil(const InfoState& info) override;
    int bid(const InfoState& info) override;
    CardSet pass(const InfoState& info) override;
    Card play(const InfoState& info) override;
};

namespace rule_bot_detail {

// What one seat has worked out from its InfoState during card play: the cards it cannot see, who
// has shown out of which suit (failed to follow), the trick in progress and the Hearts penalty
// points each seat has taken. Built fresh for each decision; holds a reference to the InfoState.
struct TableView {
    explicit TableView(const InfoState& info);

    const InfoState& info;
    const Rules& rules;
    PlayRules play_rules;
    int n = 4;
    int seat = 0;
    CardSet hand;    // my cards
    CardSet legal;   // what I may play now
    CardSet unseen;  // cards in the other hands: neither played nor mine
    std::array<std::array<bool, kNumSuits>, kMaxPlayers> void_in{};
    std::array<int, kMaxPlayers> penalty_taken{};  // Hearts: hearts and Q♠ won so far
    int trick_size = 0;
    int tricks_left = 0;      // counting the trick in progress
    Suit led = Suit::kClubs;  // meaningful when trick_size > 0
    int winner = -1;          // the seat winning the trick in progress, -1 when leading
    Card winning = kNoCard;   // its card

    bool leading() const { return trick_size == 0; }
    bool last_to_play() const { return trick_size == n - 1; }
    // Does seat `s` still play to the trick in progress after me (all others when I lead)?
    bool plays_after_me(int s) const;
    // Would `a` beat `b` in the trick in progress (b being the winning card so far)?
    bool beats(Card a, Card b) const;
    // Unseen cards of c's suit above / below c.
    int higher_unseen(Card c) const;
    int lower_unseen(Card c) const;
    bool is_master(Card c) const { return higher_unseen(c) == 0; }
    // Played now, would `c` win the trick as far as this seat can tell (it beats the cards played,
    // no later player can follow higher or trump over it for all we know)?
    bool likely_wins(Card c) const;
    // Would `c`, already the top card of the trick (or about to be), stay on top through the
    // players still to come, as far as this seat can tell?
    bool stays_on_top(Card c) const;
    // The cards of `cards` that beat the winning card of the trick in progress (all when leading).
    CardSet beaters(CardSet cards) const;
    // Some seat still to play has shown out of `s`.
    bool later_void(Suit s) const;
};

// The card of `cards` with the greatest key(c); ties go to the first in iteration order.
template <class Key>
Card best_by(CardSet cards, Key key) {
    Card best = kNoCard;
    double best_key = 0;
    for (Card c : cards) {
        const double k = key(c);
        if (best == kNoCard || k > best_key) {
            best = c;
            best_key = k;
        }
    }
    return best;
}

// Cards compared by rank across suits (ties go to the lower suit): the cheapest or the biggest.
Card lowest_rank(CardSet cards);
Card highest_rank(CardSet cards);
// The lowest card of `hand` worth as much as `c` given the cards already played: the bottom of
// the sequence that c heads (from AKQ it is Q; from AQ with the K played it is Q too).
Card bottom_of_sequence(CardSet hand, CardSet played, Card c);

Card spades_play(const TableView& view);
int spades_bid(const InfoState& info);
bool spades_blind_nil(const InfoState& info);
CardSet spades_exchange(const InfoState& info);
// Spades trick estimate of a hand, as the bid is derived from it (exposed for tests).
double spades_trick_estimate(CardSet hand, int players);
bool spades_nil_safe(CardSet hand, bool cutthroat);

Card hearts_play(const TableView& view);
CardSet hearts_pass(const InfoState& info);
// Every pass of pass_count cards from the hand, the least dangerous to keep the rest first, as
// hearts_pass rates them (ties in the order hearts_pass meets them): candidates for a search.
std::vector<CardSet> hearts_passes_by_danger(const InfoState& info);

}  // namespace rule_bot_detail

}  // namespace cardgames
