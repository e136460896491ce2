#include "cardgames/players/heuristics.hpp"

#include <algorithm>
#include <bit>

namespace cardgames::heuristics {

TableView::TableView(const InfoState& state)
    : info(state), rules(*state.rules), play_rules(PlayRules::from(*state.rules)) {
    n = rules.players;
    seat = state.seat;
    hand = state.hand;
    legal = state.phase == Phase::kPlay ? state.play.legal_moves(play_rules) : CardSet();
    unseen = rules.deck() - state.play.played - hand;
    trick_size = state.play.trick_size;
    tricks_left = rules.cards_per_hand() - state.play.tricks_played;

    // Replay the history trick by trick: who failed to follow, and who won which penalty cards.
    const auto& plays = state.plays;
    for (std::size_t start = 0; start < plays.size(); start += static_cast<std::size_t>(n)) {
        const std::size_t end = std::min(plays.size(), start + static_cast<std::size_t>(n));
        const Suit suit = plays[start].card.suit();
        std::size_t best = start;
        int points = 0;
        for (std::size_t i = start; i < end; ++i) {
            const Card c = plays[i].card;
            if (c.suit() != suit) void_in[plays[i].seat][static_cast<int>(suit)] = true;
            if (i > start) {
                if (cardgames::beats(play_rules, c, plays[best].card)) best = i;
            }
            if (rules.game == GameKind::kHearts && rules.card_points(c) > 0)
                points += rules.card_points(c);
        }
        if (end - start == static_cast<std::size_t>(n)) penalty_taken[plays[best].seat] += points;
    }
    if (trick_size > 0) {
        led = state.play.led_suit();
        winner = state.play.current_winner(play_rules);
        winning = state.play.trick[(winner - state.play.leader + n) % n];
    }
}

bool TableView::plays_after_me(int s) const {
    if (s == seat) return false;
    for (int k = 1; k < n - trick_size; ++k)
        if ((seat + k) % n == s) return true;
    return false;
}

bool TableView::beats(Card a, Card b) const {
    return cardgames::beats(play_rules, a, b);
}

int TableView::higher_unseen(Card c) const {
    const std::uint16_t lane = unseen.lane(c.suit());
    return std::popcount(static_cast<std::uint16_t>(lane >> (c.rank() + 1)));
}

int TableView::lower_unseen(Card c) const {
    const std::uint16_t lane = unseen.lane(c.suit());
    return std::popcount(static_cast<std::uint16_t>(lane & ((1u << c.rank()) - 1)));
}

bool TableView::likely_wins(Card c) const {
    return (trick_size == 0 || beats(c, winning)) && stays_on_top(c);
}

bool TableView::stays_on_top(Card c) const {
    const Suit suit = trick_size > 0 ? led : c.suit();
    const bool trump = play_rules.has_trump && c.suit() == play_rules.trump;
    const bool trumps_out = play_rules.has_trump && !unseen.of_suit(play_rules.trump).empty();
    for (int k = 1; k < n - trick_size; ++k) {
        const int s = (seat + k) % n;
        const bool shown_out = void_in[s][static_cast<int>(c.suit())];
        if (trump) {
            if (!shown_out && higher_unseen(c) > 0) return false;
            continue;
        }
        if (!void_in[s][static_cast<int>(suit)] && higher_unseen(c) > 0) return false;
        // A player out of the suit may trump it.
        if (void_in[s][static_cast<int>(suit)] && trumps_out &&
            !void_in[s][static_cast<int>(play_rules.trump)])
            return false;
    }
    return true;
}

CardSet TableView::beaters(CardSet cards) const {
    if (trick_size == 0) return cards;
    CardSet out;
    for (Card c : cards)
        if (beats(c, winning)) out |= c;
    return out;
}

bool TableView::later_void(Suit s) const {
    for (int k = 1; k < n - trick_size; ++k)
        if (void_in[(seat + k) % n][static_cast<int>(s)]) return true;
    return false;
}

Card lowest_rank(CardSet cards) {
    Card best = kNoCard;
    for (Card c : cards)
        if (best == kNoCard || c.rank() < best.rank()) best = c;
    return best;
}

Card highest_rank(CardSet cards) {
    Card best = kNoCard;
    for (Card c : cards)
        if (best == kNoCard || c.rank() > best.rank()) best = c;
    return best;
}

Card bottom_of_sequence(CardSet hand, CardSet played, Card c) {
    Card bottom = c;
    for (Rank r = c.rank() - 1; r >= kTwo; --r) {
        const Card below(c.suit(), r);
        if (hand.contains(below))
            bottom = below;
        else if (!played.contains(below))
            break;
    }
    return bottom;
}

}  // namespace cardgames::heuristics
