#pragma once
// The card-play, bidding and passing heuristics of a sensible casual player, as pure functions of
// one seat's InfoState. The `rule` bot (rule_bot.hpp) is these functions as a Player; the search
// bots use them for play-outs, candidate passes, bid features and their fallbacks. Every function
// is deterministic. Spades heuristics are in rule_bot_spades.cpp, Hearts ones in
// rule_bot_hearts.cpp.

#include <array>
#include <optional>
#include <span>
#include <vector>

#include "cardgames/rules/player.hpp"

namespace cardgames::heuristics {

// What a hand's play history shows every seat alike: who has failed to follow which suit (in the
// trick in progress too) and the Hearts penalty points each seat has won in complete tricks.
struct HistoryFacts {
    std::array<std::array<bool, kNumSuits>, kMaxPlayers> void_in{};
    std::array<int, kMaxPlayers> penalty_taken{};
    bool operator==(const HistoryFacts&) const = default;
};

// The facts of `plays` (a hand's plays in order), replayed from its first card.
HistoryFacts replay_history(const PlayRules& play_rules, std::span<const PlayedCard> plays);

// A player's memory of the histories it has viewed: the PlayRules of its rules, and the facts of
// the last history at each of its trick boundaries, so that the next history is replayed only from
// the last trick boundary the two share. The decisions of one play-out, and the play-outs of one
// decision, share most of their plays, so most decisions replay at most a trick. Its facts equal
// replay_history's, field for field. It belongs to one player: never shared between threads.
class TableMemory {
  public:
    // The PlayRules of `rules`. Other rules than the last ones given make it forget the rest.
    const PlayRules& play_rules(const Rules& rules);
    // The facts of `plays` under the rules last given to play_rules.
    HistoryFacts facts(std::span<const PlayedCard> plays);

  private:
    std::optional<Rules> rules_;
    PlayRules play_rules_;
    SeenPlays seen_;  // the last history
    // at_trick_[t]: the facts after the first t tricks of the last history (as far as it went).
    std::array<HistoryFacts, kMaxTricks + 1> at_trick_{};
};

// What one seat has worked out from its InfoState during card play: the cards it cannot see, who
// has shown out of which suit (failed to follow), the trick in progress and the Hearts penalty
// points each seat has taken. Built for each decision; holds a reference to the InfoState.
struct TableView {
    // From the InfoState alone: its whole history replayed.
    explicit TableView(const InfoState& info);
    // The same view from the PlayRules of info's rules and the facts of its history, as a
    // TableMemory gives them, and the cards info's seat may play, as the caller found them.
    TableView(const InfoState& info, const PlayRules& play_rules, const HistoryFacts& history,
              CardSet legal);

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

  private:
    // Everything but the facts of the history, which the public constructors add.
    TableView(const InfoState& info, const PlayRules& play_rules, CardSet legal_cards);
    void set_history(const HistoryFacts& history);
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

// Spades: the card to play, for the contract or for a nil bid (own, partner's, opponents').
Card spades_play(const TableView& view);
// Spades: the bid: nil for a weak, safe hand, else the trick estimate rounded (+1 over a nil).
int spades_bid(const InfoState& info);
// Spades: whether to bid blind nil: far behind, or behind with the opponents near the target.
bool spades_blind_nil(const InfoState& info);
// Spades: the cards to give in a blind-nil exchange: the bidder's biggest, partner's smallest.
CardSet spades_exchange(const InfoState& info);
// Spades: how many tricks the hand is expected to take, before rounding into a bid.
double spades_trick_estimate(CardSet hand, int players);
// Spades: whether the hand can duck every trick: short low spades, honours guarded by low cards.
bool spades_nil_safe(CardSet hand, bool cutthroat);

// Hearts: the card to play: duck, dump the Q♠ and high hearts, flush out the Q♠, stop a moon.
Card hearts_play(const TableView& view);
// Hearts: the pass of pass_count cards that leaves the least dangerous hand to keep.
CardSet hearts_pass(const InfoState& info);
// Every pass of pass_count cards from the hand, the least dangerous to keep the rest first, as
// hearts_pass rates them (ties in the order hearts_pass meets them): candidates for a search.
std::vector<CardSet> hearts_passes_by_danger(const InfoState& info);

}  // namespace cardgames::heuristics
