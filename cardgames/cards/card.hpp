#pragma once
// Cards, suits and ranks. A card is one byte: suit * 16 + rank, so its value is also its bit
// position in a CardSet (one 16-bit lane per suit, ranks 2..14 in bits 2..14 of the lane).

#include <cstdint>
#include <string>
#include <string_view>

namespace cardgames {

enum class Suit : std::uint8_t { kClubs = 0, kDiamonds = 1, kHearts = 2, kSpades = 3 };
inline constexpr int kNumSuits = 4;

using Rank = int;
inline constexpr Rank kTwo = 2, kTen = 10, kJack = 11, kQueen = 12, kKing = 13, kAce = 14;

// The suits in notation order (PBN lists a hand as S.H.D.C).
inline constexpr Suit kSuitsNotationOrder[kNumSuits] = {Suit::kSpades, Suit::kHearts,
                                                        Suit::kDiamonds, Suit::kClubs};

class Card {
  public:
    constexpr Card() = default;
    constexpr Card(Suit suit, Rank rank)
        : index_(static_cast<std::uint8_t>(static_cast<int>(suit) * 16 + rank)) {}
    static constexpr Card from_index(int index) {
        Card c;
        c.index_ = static_cast<std::uint8_t>(index);
        return c;
    }

    constexpr Suit suit() const { return static_cast<Suit>(index_ >> 4); }
    constexpr Rank rank() const { return index_ & 15; }
    constexpr int index() const { return index_; }
    constexpr bool valid() const { return rank() >= kTwo && rank() <= kAce; }

    constexpr bool operator==(const Card&) const = default;
    constexpr auto operator<=>(const Card&) const = default;

  private:
    std::uint8_t index_ = 0;  // 0 is not a valid card: rank 0
};

inline constexpr Card kNoCard{};

char suit_letter(Suit s);         // 'S', 'H', 'D', 'C'
char rank_letter(Rank r);         // '2'..'9', 'T', 'J', 'Q', 'K', 'A'
const char* suit_symbol(Suit s);  // UTF-8 "♠" ...

// "QS", "TH", "2C". With symbols: "Q♠".
std::string to_string(Card c);
std::string to_string_symbol(Card c);

// Accepts "QS", "qs", "10H", "TH", "Q♠", "q♠", surrounding spaces. Throws InputError naming the
// text.
Card parse_card(std::string_view text);

// Parses a suit letter or symbol ("S", "s", "♠"); returns false when it is neither.
bool parse_suit(std::string_view text, Suit& out);

}  // namespace cardgames
