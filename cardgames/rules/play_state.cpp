#include "cardgames/rules/play_state.hpp"

namespace cardgames {

PlayRules PlayRules::from(const Rules& rules) {
    PlayRules p;
    p.players = rules.players;
    p.first_lead = rules.first_lead_card();
    if (rules.game == GameKind::kSpades) {
        p.has_trump = true;
        p.trump = Suit::kSpades;
        p.lead_restricted = !rules.spades_lead_anytime;
        p.restricted_suit = Suit::kSpades;
        p.breakers = CardSet::whole_suit(Suit::kSpades);
    } else {
        p.lead_restricted = rules.hearts_breaking;
        p.restricted_suit = Suit::kHearts;
        p.breakers = CardSet::whole_suit(Suit::kHearts);
        if (rules.queen_breaks_hearts) p.breakers |= Card(Suit::kSpades, kQueen);
        if (!rules.first_trick_points_allowed)
            p.first_trick_barred = CardSet::whole_suit(Suit::kHearts) | Card(Suit::kSpades, kQueen);
        // Only hearts, the Q♠ and the J♦ can carry points.
        const CardSet scoring = CardSet::whole_suit(Suit::kHearts) | Card(Suit::kSpades, kQueen) |
                                Card(Suit::kDiamonds, kJack);
        for (Card c : rules.deck() & scoring)
            p.points[c.index()] = static_cast<std::int8_t>(rules.card_points(c));
    }
    return p;
}

PlayState PlayState::start(const Deal& deal, int leader) {
    PlayState s;
    s.players = static_cast<std::int8_t>(deal.players);
    s.hands = deal.hands;
    s.leader = s.to_move = static_cast<std::int8_t>(leader);
    return s;
}

int PlayState::cards_left() const {
    int n = 0;
    for (int i = 0; i < players; ++i) n += hands[i].size();
    return n;
}

CardSet PlayState::legal_moves(const PlayRules& rules) const {
    const CardSet hand = hands[to_move];
    if (trick_size == 0) {
        if (tricks_played == 0 && rules.first_lead != kNoCard && hand.contains(rules.first_lead))
            return rules.first_lead;
        if (rules.lead_restricted && !broken) {
            const CardSet other = hand - CardSet::whole_suit(rules.restricted_suit);
            if (!other.empty()) {
                // On the first trick of Hearts a void leader (no 2♣ in play) still avoids points.
                return other;
            }
        }
        return hand;
    }
    const CardSet follow = hand.of_suit(led_suit());
    if (!follow.empty()) return follow;
    if (tricks_played == 0 && !rules.first_trick_barred.empty()) {
        const CardSet clean = hand - rules.first_trick_barred;
        if (!clean.empty()) return clean;
    }
    return hand;
}

std::string PlayState::why_illegal(const PlayRules& rules, Card card) const {
    const CardSet hand = hands[to_move];
    if (!hand.contains(card)) return to_string(card) + " is not in your hand";
    if (legal_moves(rules).contains(card)) return {};
    if (trick_size == 0) {
        if (tricks_played == 0 && rules.first_lead != kNoCard && hand.contains(rules.first_lead))
            return "the first trick must be opened with " + to_string(rules.first_lead);
        const char* suit = rules.restricted_suit == Suit::kSpades ? "spades" : "hearts";
        return std::string(suit) +
               " are not broken yet: you may lead them only when you hold nothing else";
    }
    if (hand.has_suit(led_suit()))
        return std::string("you must follow suit: you hold ") +
               cards_to_string(hand.of_suit(led_suit()));
    return "no hearts or Q\u2660 on the first trick while you hold another card";
}

int PlayState::play(const PlayRules& rules, Card card) {
    hands[to_move] -= card;
    played |= card;
    if (trick_size > 0 && beats(rules, card, trick[winning])) winning = trick_size;
    trick[trick_size++] = card;
    if (rules.breakers.contains(card)) broken = true;
    if (trick_size < players) {
        to_move = static_cast<std::int8_t>(to_move + 1 == players ? 0 : to_move + 1);
        return -1;
    }
    const int winner = current_winner();
    winning = 0;
    int pts = 0;
    for (int i = 0; i < players; ++i) pts += rules.points[trick[i].index()];
    points[winner] = static_cast<std::int16_t>(points[winner] + pts);
    ++tricks_won[winner];
    ++tricks_played;
    trick_size = 0;
    leader = to_move = static_cast<std::int8_t>(winner);
    return winner;
}

}  // namespace cardgames
