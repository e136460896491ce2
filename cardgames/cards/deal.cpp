#include "cardgames/cards/deal.hpp"

#include <cctype>
#include <vector>

#include "cardgames/cards/error.hpp"
#include "cardgames/cards/text.hpp"
#include "engine/hash.hpp"

namespace cardgames {

CardSet Deal::all_cards() const {
    CardSet all;
    for (int i = 0; i < players; ++i) all |= hands[i];
    return all;
}

namespace {

int seat_of_letter(char c) {
    switch (std::toupper(static_cast<unsigned char>(c))) {
        case 'N':
            return 0;
        case 'E':
            return 1;
        case 'S':
            return 2;
        case 'W':
            return 3;
        default:
            return -1;
    }
}

CardSet parse_hand(std::string_view text, const std::string& where, CardSet& seen) {
    CardSet hand;
    int suit_index = 0;
    std::size_t start = 0;
    while (true) {
        const std::size_t dot = text.find('.', start);
        const std::string_view group =
            text.substr(start, dot == std::string_view::npos ? text.npos : dot - start);
        if (suit_index >= kNumSuits)
            throw InputError(where + " '" + std::string(text) +
                             "': more than 4 suits (a hand is S.H.D.C)");
        const Suit suit = kSuitsNotationOrder[suit_index];
        const std::string suit_where =
            where + " '" + std::string(text) + "', " + suit_letter(suit) + " suit";
        if (group != "-") {
            int previous = kAce + 1;
            for (std::size_t i = 0; i < group.size(); ++i) {
                const bool ten = group.substr(i, 2) == "10";
                Card c;
                try {
                    c = parse_card(std::string(group.substr(i, ten ? 2 : 1)) + suit_letter(suit));
                } catch (const InputError&) {
                    throw InputError(suit_where + ": '" + std::string(1, group[i]) +
                                     "' is not a rank");
                }
                if (ten) ++i;
                if (c.rank() >= previous)
                    throw InputError(suit_where +
                                     ": ranks must be listed high to low once each ('" +
                                     std::string(group) + "')");
                previous = c.rank();
                if (seen.contains(c))
                    throw InputError(suit_where + ": " + to_string(c) + " is dealt twice");
                seen |= c;
                hand |= c;
            }
        }
        ++suit_index;
        if (dot == std::string_view::npos) break;
        start = dot + 1;
    }
    if (suit_index != kNumSuits)
        throw InputError(where + " '" + std::string(text) + "': " + std::to_string(suit_index) +
                         " suits, expected 4 (S.H.D.C, use '-' or nothing for a void)");
    return hand;
}

}  // namespace

Deal parse_deal(std::string_view text) {
    const std::string quoted = "deal '" + std::string(text) + "'";
    const auto colon = text.find(':');
    if (colon == std::string_view::npos || colon == 0)
        throw InputError(quoted +
                         ": expected 'N:<hand> <hand> <hand> <hand>' or '<players>:<hand> ...'");
    const std::string_view head = text.substr(0, colon);
    Deal deal;
    int first_seat = 0;
    const auto hands = split_words(text.substr(colon + 1));
    if (head.size() == 1 && seat_of_letter(head[0]) >= 0) {
        deal.players = 4;
        first_seat = seat_of_letter(head[0]);
    } else if (head.size() == 1 && head[0] >= '3' && head[0] <= '6') {
        deal.players = head[0] - '0';
    } else {
        throw InputError(quoted + ": '" + std::string(head) +
                         "' before ':' must be a seat N, E, S, W or a player count 3 to 6");
    }
    if (static_cast<int>(hands.size()) != deal.players)
        throw InputError(quoted + ": " + std::to_string(hands.size()) + " hands, expected " +
                         std::to_string(deal.players));
    CardSet seen;
    for (int i = 0; i < deal.players; ++i) {
        const int seat = (first_seat + i) % deal.players;
        deal.hands[seat] = parse_hand(hands[i], "hand " + std::to_string(i + 1), seen);
    }
    return deal;
}

std::string deal_to_string(const Deal& deal) {
    std::string out = deal.players == 4 ? "N:" : std::to_string(deal.players) + ":";
    for (int i = 0; i < deal.players; ++i) {
        if (i) out += ' ';
        out += hand_to_string(deal.hands[i]);
    }
    return out;
}

std::uint64_t mix_seed(std::uint64_t a, std::uint64_t b) {
    // splitmix64 adds the golden ratio once more itself: the same numbers as ever.
    return engine::splitmix64(a + 0x9e3779b97f4a7c15ULL * b);
}

}  // namespace cardgames
