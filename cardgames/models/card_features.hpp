#pragma once
// The card features a network reads (feature set "cards"; docs/design/network-format.md): binary
// facts about the hand as one seat (the viewer) knows them, seats relative to the viewer (relative
// seat r is the seat r places to its left; 0 is the viewer). A card's number is suit * 13 + rank
// - 2, clubs to spades (2C = 0, AS = 51). With n players, version 1:
//
//   hand      [52]          the card is in the viewer's hand
//   played    [n][52]       relative seat r has played the card this hand (the trick included)
//   trick     [n][52]       relative seat r played the card to the trick in progress
//   void      [n][4]        relative seat r has shown a void: it did not follow that suit's lead
//
// 52 + 108 n features. Version 2 adds what the cards alone do not show, who took what (the
// contract), after them:
//
//   Spades:
//     nil     [n]           relative seat r bid nil (or blind nil) and has taken no trick
//     made    [n]           r's unit (its side in partnership, else r) has a contract and made it
//     need    [n][13]       r's unit still needs k = 1..13 tricks for its contract (13: 13 or
//                           more); its contract is the sum of its seats' bids that are not nil
//                           (while bidding: the bids so far)
//   Hearts:
//     took    [n]           relative seat r has taken a card that scores penalty points
//     queen   [n]           r has taken the queen of spades
//     moon    [n]           r has taken every penalty card taken so far (at least one)
//
// 52 + 123 n features in Spades, 52 + 111 n in Hearts. Playing a card changes at most n + 3 of
// the first ones, and a trick's end at most a few more of the contract, which is what the
// network's accumulator is updated with (CardFeatureTracker) instead of being recomputed.

#include <array>
#include <cstdint>
#include <span>
#include <string>

#include "cardgames/cards/card.hpp"
#include "cardgames/rules/info_state.hpp"
#include "cardgames/rules/play_state.hpp"

namespace cardgames::models {

inline constexpr const char* kCardFeatureSet = "cards";
// The newest version, what the trainer writes; a network file may name any version from 1 on.
inline constexpr int kCardFeatureVersion = 2;

inline constexpr int card_number(Card c) {
    return static_cast<int>(c.suit()) * 13 + c.rank() - 2;
}
// The contract features of version 2 per seat.
inline constexpr int kSpadesNeedLevels = 13;
inline constexpr int contract_features_per_seat(GameKind game) {
    return game == GameKind::kSpades ? 2 + kSpadesNeedLevels : 3;
}
inline constexpr int card_feature_count(GameKind game, int players, int version) {
    return 52 + 108 * players + (version >= 2 ? contract_features_per_seat(game) * players : 0);
}
// At most this many features are on at once: the hand and the played cards are disjoint (52), a
// trick has a card per seat, a seat shows at most 4 voids, and at most 3 contract facts hold per
// seat (nil, made or one need level; took, queen, moon).
inline constexpr int max_active_card_features(int players, int version) {
    return 52 + 5 * players + (version >= 2 ? 3 * players : 0);
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

// Version 2's contract facts of relative seat r, after the cards' 52 + 108 n: fact-major.
inline constexpr int kNilFact = 0, kMadeFact = 1;                   // Spades
inline constexpr int kTookFact = 0, kQueenFact = 1, kMoonFact = 2;  // Hearts
inline constexpr int contract_feature(int players, int fact, int rel) {
    return 52 + 108 * players + fact * players + rel;
}
// Spades: r's unit still needs `need` (1..13; more counts as 13) tricks.
inline constexpr int need_feature(int players, int rel, int need) {
    return 52 + 110 * players + rel * kSpadesNeedLevels + (need < 13 ? need : 13) - 1;
}

// The features that are on, ascending; capacity for the largest table.
struct ActiveFeatures {
    std::array<int, max_active_card_features(kMaxPlayers, kCardFeatureVersion)> index{};
    int count = 0;
    void push(int f) { index[static_cast<std::size_t>(count++)] = f; }
    std::span<const int> view() const { return {index.data(), static_cast<std::size_t>(count)}; }
};

// Who has taken what, as version 2's contract features read it: the bids, each seat's tricks and
// penalty cards. Seats absolute.
class ContractTally {
  public:
    ContractTally(const InfoState& info, int version);
    // `winner` takes the trick of `cards`.
    void take(int winner, std::span<const Card> cards);
    // The contract features for `viewer`, ascending, into out; returns their number (none before
    // version 2).
    int features(int viewer, std::array<int, 3 * kMaxPlayers>& out) const;
    // The seat that wins a finished trick of cards played by `seats` (the leader first).
    int winner(std::span<const int> seats, std::span<const Card> cards) const;

  private:
    int version_ = 1;
    Rules rules_;           // a copy: a tracker may outlive the InfoState it started from
    PlayRules play_rules_;  // version 2 only: who wins a trick, what scores
    std::array<Bid, kMaxPlayers> bids_{};
    std::array<int, kMaxPlayers> won_{};
    std::array<bool, kMaxPlayers> took_{}, queen_{};
};

// The features of version `version` that are on for `info.seat`, computed from scratch.
void card_features(const InfoState& info, int version, ActiveFeatures& out);

// Follows one viewer through the play of a hand and reports each card's feature changes to a sink
// with add(int) and remove(int), so that an accumulator is updated, not recomputed. Holds only
// the trick in progress, the voids shown and (version 2) the tally; no allocation.
class CardFeatureTracker {
  public:
    // From what `info.seat` knows now (any point of the play phase).
    CardFeatureTracker(const InfoState& info, int version);

    // `seat` plays `card`: the changes, then, when the card completes the trick, the trick's
    // features going off and the contract's changes.
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
            if (version_ >= 2) end_trick(sink);
            trick_size_ = 0;
        }
    }

  private:
    template <class Sink>
    void end_trick(Sink& sink) {
        std::array<int, 3 * kMaxPlayers> before{}, after{};
        const int nb = tally_.features(viewer_, before);
        std::array<int, kMaxPlayers> seats{};
        std::array<Card, kMaxPlayers> cards{};
        for (int i = 0; i < trick_size_; ++i) {
            seats[i] = (viewer_ + trick_[i].seat) % players_;
            cards[i] = trick_[i].card;
        }
        const auto n = static_cast<std::size_t>(trick_size_);
        tally_.take(tally_.winner({seats.data(), n}, {cards.data(), n}), {cards.data(), n});
        const int na = tally_.features(viewer_, after);
        // Both ascending: a merge finds what went off and what came on.
        int i = 0, j = 0;
        while (i < nb || j < na) {
            if (j == na || (i < nb && before[i] < after[j])) {
                sink.remove(before[i++]);
            } else if (i == nb || after[j] < before[i]) {
                sink.add(after[j++]);
            } else {
                ++i, ++j;
            }
        }
    }

    int players_ = 0, viewer_ = 0, version_ = 1;
    std::array<PlayedCard, kMaxPlayers> trick_{};  // seats relative to the viewer
    int trick_size_ = 0;
    Suit led_ = Suit::kClubs;
    std::array<std::uint8_t, kMaxPlayers> voids_{};  // bit per suit, by relative seat
    ContractTally tally_;
};

}  // namespace cardgames::models
