#include "cardgames/players/heuristics.hpp"

#include <algorithm>
#include <bit>
#include <stdexcept>

namespace cardgames::heuristics {

namespace {

// Adds to `facts` what one trick of plays shows, complete or in progress: who failed to follow
// the suit led and, once it is complete, the penalty points its winner took.
void replay_trick(const PlayRules& play_rules, std::span<const PlayedCard> trick,
                  HistoryFacts& facts) {
    const Suit suit = trick[0].card.suit();
    std::size_t best = 0;
    int points = 0;
    for (std::size_t i = 0; i < trick.size(); ++i) {
        const Card c = trick[i].card;
        if (c.suit() != suit) facts.void_in[trick[i].seat][static_cast<int>(suit)] = true;
        if (i > 0 && cardgames::beats(play_rules, c, trick[best].card)) best = i;
        // PlayRules::points: the card_points of Hearts, all 0 in Spades.
        if (play_rules.points[c.index()] > 0) points += play_rules.points[c.index()];
    }
    if (trick.size() == static_cast<std::size_t>(play_rules.players))
        facts.penalty_taken[trick[best].seat] += points;
}

}  // namespace

HistoryFacts replay_history(const PlayRules& play_rules, std::span<const PlayedCard> plays) {
    HistoryFacts facts;
    const std::size_t n = static_cast<std::size_t>(play_rules.players);
    for (std::size_t start = 0; start < plays.size(); start += n)
        replay_trick(play_rules, plays.subspan(start, std::min(n, plays.size() - start)), facts);
    return facts;
}

const PlayRules& TableMemory::play_rules(const Rules& rules) {
    if (!rules_ || *rules_ != rules) {
        rules_ = rules;
        play_rules_ = PlayRules::from(rules);
        seen_.forget();
    }
    return play_rules_;
}

HistoryFacts TableMemory::facts(std::span<const PlayedCard> plays) {
    if (!rules_) throw std::logic_error("table memory: facts asked before the rules were given");
    const int m = static_cast<int>(plays.size());
    const int n = play_rules_.players;
    // The facts at a trick boundary of the last history hold for every history sharing its plays.
    const int shared = seen_.follow(plays);
    int trick = shared / n;
    for (; (trick + 1) * n <= m; ++trick) {
        at_trick_[static_cast<std::size_t>(trick + 1)] = at_trick_[static_cast<std::size_t>(trick)];
        replay_trick(play_rules_, plays.subspan(static_cast<std::size_t>(trick * n), n),
                     at_trick_[static_cast<std::size_t>(trick + 1)]);
    }
    HistoryFacts out = at_trick_[static_cast<std::size_t>(trick)];
    if (trick * n < m)
        replay_trick(play_rules_, plays.subspan(static_cast<std::size_t>(trick * n)), out);
    return out;
}

TableView::TableView(const InfoState& state)
    : TableView(state, PlayRules::from(*state.rules), CardSet()) {
    if (state.phase == Phase::kPlay) legal = state.play.legal_moves(play_rules);
    set_history(replay_history(play_rules, state.plays));
}

TableView::TableView(const InfoState& state, const PlayRules& rules_of_play,
                     const HistoryFacts& history, CardSet legal_cards)
    : TableView(state, rules_of_play, legal_cards) {
    set_history(history);
}

TableView::TableView(const InfoState& state, const PlayRules& rules_of_play, CardSet legal_cards)
    : info(state), rules(*state.rules), play_rules(rules_of_play), legal(legal_cards) {
    n = rules.players;
    seat = state.seat;
    hand = state.hand;
    unseen = rules.deck() - state.play.played - hand;
    trick_size = state.play.trick_size;
    tricks_left = rules.cards_per_hand() - state.play.tricks_played;
    if (trick_size > 0) {
        led = state.play.led_suit();
        winner = state.play.current_winner();
        winning = state.play.trick[state.play.winning];
    }
}

void TableView::set_history(const HistoryFacts& history) {
    void_in = history.void_in;
    penalty_taken = history.penalty_taken;
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
