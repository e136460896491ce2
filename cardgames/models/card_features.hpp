#pragma once
// The card features a network reads (feature set "cards", version 1;
// docs/design/network-format.md): binary facts about the cards as one seat (the viewer) knows them,
// seats relative to the viewer (relative seat r is the seat r places to its left; 0 is the viewer).
// A card's number is suit * 13 + rank - 2, clubs to spades (2C = 0, AS = 51). With n players:
//
//   hand      [52]          the card is in the viewer's hand
//   played    [n][52]       relative seat r has played the card this hand (the trick included)
//   trick     [n][52]       relative seat r played the card to the trick in progress
//   void      [n][4]        relative seat r has shown a void: it did not follow that suit's lead
//
// 52 + 108 n features. Playing a card changes at most n + 3 of them, which is what the network's
// accumulator is updated with (CardFeatureTracker) instead of being recomputed.

#include <array>
#include <cstdint>
#include <span>
#include <string>

#include "cardgames/cards/card.hpp"
#include "cardgames/rules/info_state.hpp"

namespace cardgames::models {

inline constexpr const char* kCardFeatureSet = "cards";
inline constexpr int kCardFeatureVersion = 1;

inline constexpr int card_number(Card c) {
    return static_cast<int>(c.suit()) * 13 + c.rank() - 2;
}
inline constexpr int card_feature_count(int players) {
    return 52 + 108 * players;
}
// At most this many features are on at once: the hand and the played cards are disjoint (52), a
// trick has a card per seat, and a seat shows at most 4 voids.
inline constexpr int max_active_card_features(int players) {
    return 52 + 5 * players;
}

inline constexpr int hand_feature(Card c) {
    return card_number(c);
}
inline constexpr int played_feature(int rel, Card c) {
    return 52 + rel * 52 + card_number(c);
}
inline constexpr int trick_feature(int players, int rel, Card c) {
    return 52 + (players + rel) * 52 + card_number(c);
}
inline constexpr int void_feature(int players, int rel, Suit s) {
    return 52 + 104 * players + rel * 4 + static_cast<int>(s);
}

// The features that are on, ascending; capacity for the largest table.
struct ActiveFeatures {
    std::array<int, max_active_card_features(kMaxPlayers)> index{};
    int count = 0;
    void push(int f) { index[static_cast<std::size_t>(count++)] = f; }
    std::span<const int> view() const { return {index.data(), static_cast<std::size_t>(count)}; }
};

// The features that are on for `info.seat`, computed from scratch.
void card_features(const InfoState& info, ActiveFeatures& out);

// Follows one viewer through the play of a hand and reports each card's feature changes to a sink
// with add(int) and remove(int), so that an accumulator is updated, not recomputed. Holds only
// the trick in progress and the voids shown; no allocation.
class CardFeatureTracker {
  public:
    // From what `info.seat` knows now (any point of the play phase).
    explicit CardFeatureTracker(const InfoState& info);

    // `seat` plays `card`: the changes, then, when the card completes the trick, the trick's
    // features going off.
    template <class Sink>
    void play(int seat, Card card, Sink& sink) {
        const int rel = (seat - viewer_ + players_) % players_;
        if (rel == 0) sink.remove(hand_feature(card));
        sink.add(played_feature(rel, card));
        sink.add(trick_feature(players_, rel, card));
        if (trick_size_ > 0 && card.suit() != led_ &&
            !(voids_[rel] & (1u << static_cast<int>(led_)))) {
            voids_[rel] |= 1u << static_cast<int>(led_);
            sink.add(void_feature(players_, rel, led_));
        }
        if (trick_size_ == 0) led_ = card.suit();
        trick_[trick_size_++] = {static_cast<std::int8_t>(rel), card};
        if (trick_size_ == players_) {
            for (int i = 0; i < trick_size_; ++i)
                sink.remove(trick_feature(players_, trick_[i].seat, trick_[i].card));
            trick_size_ = 0;
        }
    }

  private:
    int players_ = 0, viewer_ = 0;
    std::array<PlayedCard, kMaxPlayers> trick_{};  // seats relative to the viewer
    int trick_size_ = 0;
    Suit led_ = Suit::kClubs;
    std::array<std::uint8_t, kMaxPlayers> voids_{};  // bit per suit, by relative seat
};

}  // namespace cardgames::models
