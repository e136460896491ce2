#pragma once
// A set of cards as a 64-bit word: one 16-bit lane per suit (clubs lowest), bit r of a lane set
// when the card of rank r is in the set. Iteration goes by lowest set bit, i.e. clubs first and
// low to high within a suit. Trivially copyable; no heap.

#include <bit>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <string>

#include "cardgames/cards/card.hpp"

namespace cardgames {

class CardSet {
  public:
    constexpr CardSet() = default;
    constexpr explicit CardSet(std::uint64_t bits) : bits_(bits) {}
    constexpr CardSet(Card c)
        : bits_(std::uint64_t{1} << c.index()) {}  // NOLINT: implicit on purpose

    static constexpr std::uint64_t kLaneMask = 0x7ffc;  // ranks 2..14
    static constexpr CardSet full_deck() {
        return CardSet(kLaneMask | kLaneMask << 16 | kLaneMask << 32 | kLaneMask << 48);
    }
    static constexpr CardSet whole_suit(Suit s) { return CardSet(kLaneMask << shift(s)); }

    constexpr std::uint64_t bits() const { return bits_; }
    constexpr bool empty() const { return bits_ == 0; }
    constexpr int size() const { return std::popcount(bits_); }
    constexpr bool contains(Card c) const { return (bits_ >> c.index()) & 1; }
    constexpr bool contains_all(CardSet o) const { return (bits_ & o.bits_) == o.bits_; }
    constexpr bool intersects(CardSet o) const { return (bits_ & o.bits_) != 0; }
    constexpr void insert(CardSet o) { bits_ |= o.bits_; }
    constexpr void erase(CardSet o) { bits_ &= ~o.bits_; }

    // The 16-bit lane of one suit, ranks as bit positions.
    constexpr std::uint16_t lane(Suit s) const {
        return static_cast<std::uint16_t>(bits_ >> shift(s));
    }
    constexpr CardSet of_suit(Suit s) const { return CardSet(bits_ & (kLaneMask << shift(s))); }
    constexpr bool has_suit(Suit s) const { return lane(s) != 0; }
    constexpr int count(Suit s) const { return std::popcount(lane(s)); }

    // Lowest card (clubs first, low rank first); the set must not be empty.
    constexpr Card lowest() const { return Card::from_index(std::countr_zero(bits_)); }
    constexpr Card highest() const { return Card::from_index(63 - std::countl_zero(bits_)); }
    constexpr Card pop_lowest() {
        const Card c = lowest();
        bits_ &= bits_ - 1;
        return c;
    }

    constexpr CardSet operator|(CardSet o) const { return CardSet(bits_ | o.bits_); }
    constexpr CardSet operator&(CardSet o) const { return CardSet(bits_ & o.bits_); }
    constexpr CardSet operator-(CardSet o) const { return CardSet(bits_ & ~o.bits_); }
    constexpr CardSet& operator|=(CardSet o) {
        bits_ |= o.bits_;
        return *this;
    }
    constexpr CardSet& operator&=(CardSet o) {
        bits_ &= o.bits_;
        return *this;
    }
    constexpr CardSet& operator-=(CardSet o) {
        bits_ &= ~o.bits_;
        return *this;
    }
    constexpr bool operator==(const CardSet&) const = default;

    class Iterator {
      public:
        using iterator_category = std::forward_iterator_tag;
        using value_type = Card;
        using difference_type = std::ptrdiff_t;
        using pointer = const Card*;
        using reference = Card;
        constexpr Iterator() = default;
        constexpr explicit Iterator(std::uint64_t bits) : bits_(bits) {}
        constexpr Card operator*() const { return Card::from_index(std::countr_zero(bits_)); }
        constexpr Iterator& operator++() {
            bits_ &= bits_ - 1;
            return *this;
        }
        constexpr Iterator operator++(int) {
            Iterator old = *this;
            ++*this;
            return old;
        }
        constexpr bool operator==(const Iterator&) const = default;

      private:
        std::uint64_t bits_ = 0;
    };
    constexpr Iterator begin() const { return Iterator(bits_); }
    constexpr Iterator end() const { return Iterator(0); }

    static constexpr int shift(Suit s) { return static_cast<int>(s) * 16; }

  private:
    std::uint64_t bits_ = 0;
};

// One suit of a hand in notation: ranks high to low ("AKQ2"), "" for a void.
std::string suit_to_string(CardSet hand, Suit s);
// A hand in notation order S.H.D.C: "AKQ2.JT9.8765.4".
std::string hand_to_string(CardSet hand);
// Cards separated by spaces, in notation order (spades first, high first): "AS KS 2H".
std::string cards_to_string(CardSet cards);

}  // namespace cardgames
