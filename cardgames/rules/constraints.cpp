#include "cardgames/rules/constraints.hpp"

namespace cardgames {

Constraints constraints_from(const InfoState& info) {
    const Rules& rules = *info.rules;
    const PlayRules play_rules = PlayRules::from(rules);
    Constraints c;
    c.players = rules.players;
    c.me = info.seat;
    const int n = rules.players;
    std::array<int, kMaxPlayers> played_by{};
    CardSet played;
    for (const PlayedCard& p : info.plays) {
        ++played_by[p.seat];
        played |= p.card;
    }
    c.unseen = rules.deck() - info.hand - played;
    for (int s = 0; s < n; ++s)
        c.need[s] = s == info.seat ? 0 : rules.cards_per_hand() - played_by[s];

    // Walk the hand's plays trick by trick, reading what each card reveals.
    bool broken = false;
    const CardSet restricted = CardSet::whole_suit(play_rules.restricted_suit);
    for (std::size_t i = 0; i < info.plays.size(); ++i) {
        const int trick = static_cast<int>(i) / n;
        const std::size_t lead_index = static_cast<std::size_t>(trick) * n;
        const PlayedCard& p = info.plays[i];
        if (i == lead_index) {
            // Leading the restricted suit before it is broken reveals a hand of nothing else.
            if (play_rules.lead_restricted && !broken && restricted.contains(p.card) &&
                !(trick == 0 && p.card == play_rules.first_lead))
                c.excluded[p.seat] |= CardSet::full_deck() - restricted;
        } else {
            const Suit led = info.plays[lead_index].card.suit();
            if (p.card.suit() != led) {
                c.excluded[p.seat] |= CardSet::whole_suit(led);
                // A penalty card on the first trick means nothing else was held (except the led
                // suit).
                if (trick == 0 && play_rules.first_trick_barred.contains(p.card))
                    c.excluded[p.seat] |= CardSet::full_deck() - play_rules.first_trick_barred;
            }
        }
        if (play_rules.breakers.contains(p.card)) broken = true;
    }
    // Before the hand's first card, the seat on lead holds the first-lead card: it leads because
    // it holds it, which every seat sees.
    if (info.phase == Phase::kPlay && info.plays.empty() && play_rules.first_lead != kNoCard)
        c.known[info.play.leader] |= play_rules.first_lead;
    // Cards this seat gave away and that have not shown up since are still with the receiver.
    if (const int to = rules.pass_recipient(info.seat, info.hand_number); to != info.seat)
        c.known[to] |= info.passed - played;
    // What I hold and what has been played is nobody else's.
    for (int s = 0; s < n; ++s) {
        c.known[s] &= c.unseen;
        c.excluded[s] &= c.unseen;
        c.excluded[s] -= c.known[s];
    }
    return c;
}

std::string Constraints::describe() const {
    std::string out =
        "seat " + std::to_string(me) + " sees " + std::to_string(unseen.size()) + " unseen cards;";
    for (int s = 0; s < players; ++s) {
        if (s == me) continue;
        out += " seat " + std::to_string(s) + " holds " + std::to_string(need[s]);
        if (!known[s].empty()) out += " incl. " + cards_to_string(known[s]);
        if (!excluded[s].empty()) out += ", not " + cards_to_string(excluded[s]);
        out += ";";
    }
    return out;
}

std::string Constraints::why_no_deal() const {
    // The checks DealSampler makes, plus Hall's condition, which is what "some deal exists" comes
    // down to: every set of seats has room for the free cards that only they can hold.
    CardSet free = unseen;
    int total_need = 0;
    std::array<int, kMaxPlayers> room{};
    for (int s = 0; s < players; ++s) {
        if (s == me) continue;
        if (!unseen.contains_all(known[s]))
            return "seat " + std::to_string(s) + " must hold " +
                   cards_to_string(known[s] - unseen) + ", which are not unseen";
        room[s] = need[s] - known[s].size();
        if (room[s] < 0)
            return "seat " + std::to_string(s) + " is known to hold more cards than it has";
        free -= known[s];
        total_need += room[s];
    }
    if (total_need != free.size())
        return std::to_string(free.size()) + " unseen cards for " + std::to_string(total_need) +
               " places";
    std::array<unsigned, 64> holders{};  // per card index: the seats that may hold it
    for (Card card : free) {
        for (int s = 0; s < players; ++s)
            if (s != me && !excluded[s].contains(card)) holders[card.index()] |= 1u << s;
        if (holders[card.index()] == 0)
            return to_string(card) + " is unseen but no seat can hold it";
    }
    for (unsigned seats = 1; seats < (1u << players); ++seats) {
        if (seats >> me & 1) continue;
        int space = 0;
        for (int s = 0; s < players; ++s)
            if (seats >> s & 1) space += room[s];
        CardSet only;
        for (Card card : free)
            if ((holders[card.index()] & ~seats) == 0) only |= card;
        if (only.size() > space) {
            std::string who;
            for (int s = 0; s < players; ++s)
                if (seats >> s & 1) who += (who.empty() ? "" : "+") + std::to_string(s);
            return "only seats " + who + " can hold " + cards_to_string(only) +
                   ", but they have room for " + std::to_string(space) + " cards";
        }
    }
    return {};
}

}  // namespace cardgames
