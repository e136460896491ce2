#include "cardgames/cards/card.hpp"

#include <cctype>

#include "cardgames/cards/error.hpp"
#include "cardgames/cards/text.hpp"

namespace cardgames {

char suit_letter(Suit s) {
    return "CDHS"[static_cast<int>(s)];
}

char rank_letter(Rank r) {
    return "??23456789TJQKA"[r];
}

const char* suit_symbol(Suit s) {
    static constexpr const char* kSymbols[] = {"\u2663", "\u2666", "\u2665", "\u2660"};
    return kSymbols[static_cast<int>(s)];
}

std::string to_string(Card c) {
    return {rank_letter(c.rank()), suit_letter(c.suit())};
}

std::string to_string_symbol(Card c) {
    return std::string(1, rank_letter(c.rank())) + suit_symbol(c.suit());
}

bool parse_suit(std::string_view t, Suit& out) {
    // A letter: its place in "CDHS" is the suit's number.
    constexpr std::string_view kLetters = "CDHS";
    if (t.size() == 1) {
        const auto at =
            kLetters.find(static_cast<char>(std::toupper(static_cast<unsigned char>(t[0]))));
        if (at == std::string_view::npos) return false;
        out = static_cast<Suit>(at);
        return true;
    }
    // Both the black and the white symbol of each suit.
    static constexpr struct {
        const char* sym;
        Suit suit;
    } kSyms[] = {{"\u2660", Suit::kSpades},   {"\u2664", Suit::kSpades},
                 {"\u2665", Suit::kHearts},   {"\u2661", Suit::kHearts},
                 {"\u2666", Suit::kDiamonds}, {"\u2662", Suit::kDiamonds},
                 {"\u2663", Suit::kClubs},    {"\u2667", Suit::kClubs}};
    for (const auto& s : kSyms) {
        if (t == s.sym) {
            out = s.suit;
            return true;
        }
    }
    return false;
}

namespace {

bool parse_rank(std::string_view t, Rank& out) {
    if (t == "10") {
        out = kTen;
        return true;
    }
    if (t.size() != 1) return false;
    const char c = static_cast<char>(std::toupper(static_cast<unsigned char>(t[0])));
    if (c >= '2' && c <= '9') {
        out = c - '0';
        return true;
    }
    switch (c) {
        case 'T':
            out = kTen;
            return true;
        case 'J':
            out = kJack;
            return true;
        case 'Q':
            out = kQueen;
            return true;
        case 'K':
            out = kKing;
            return true;
        case 'A':
            out = kAce;
            return true;
        default:
            return false;
    }
}

std::string_view trim(std::string_view t) {
    while (!t.empty() && std::isspace(static_cast<unsigned char>(t.front()))) t.remove_prefix(1);
    while (!t.empty() && std::isspace(static_cast<unsigned char>(t.back()))) t.remove_suffix(1);
    return t;
}

}  // namespace

Card parse_card(std::string_view text) {
    const std::string_view t = trim(text);
    // Rank is "10" or one character; the rest is the suit.
    for (std::size_t rank_len : {std::size_t{2}, std::size_t{1}}) {
        if (t.size() <= rank_len) continue;
        Rank r;
        Suit s;
        if (parse_rank(t.substr(0, rank_len), r) && parse_suit(t.substr(rank_len), s))
            return Card(s, r);
    }
    // The text may be anything typed or read: shown safe and short.
    throw InputError("'" + safe_text(text, 60) +
                     "' is not a card (expected rank then suit, like QS, TH, 10h or Q\u2660)");
}

}  // namespace cardgames
