#pragma once
// The deal features a cut-off network reads (feature set "deal", version 1;
// docs/design/network-format.md): binary facts of a perfect-information position at a trick
// boundary, as the search sees a sampled world. Seats are absolute (seat s is seat s of the
// table), so that a trick played changes a few features and leaves the rest alone, and only what
// the searched objectives' transposition keys cover is read. With n players:
//
//   hand      [n][52]   seat s holds the card (card_number, card_features.hpp)
//   to_move   [n]       seat s leads the next trick
//   broken    [1]       the restricted suit is broken (hearts, or spades)
//   Hearts:
//     moon    [n]       seat s has taken points while every point is still with one seat
//   Spades:
//     nil     [n]       seat s bid nil and has taken no trick
//     need    [n][14]   seat s still needs k tricks for its bid (13 stands for 13 or more; no bid,
//                       nil or a made bid: 0)
//
// 54 n + 1 features in Hearts, 68 n + 1 in Spades.

#include "cardgames/models/card_features.hpp"
#include "cardgames/rules/rules.hpp"

namespace cardgames::models {

inline constexpr const char* kDealFeatureSet = "deal";
inline constexpr int kDealFeatureVersion = 1;
inline constexpr int kDealNeedLevels = 14;

inline constexpr int deal_feature_count(GameKind game, int players) {
    return 52 * players + players + 1 +
           (game == GameKind::kSpades ? players * (1 + kDealNeedLevels) : players);
}
// At most this many are on at once: the cards in hand (52), one leader, broken, and per seat one
// moon fact (Hearts) or a nil and a need (Spades).
inline constexpr int max_active_deal_features(GameKind game, int players) {
    return 52 + 2 + (game == GameKind::kSpades ? 2 * players : players);
}

inline constexpr int deal_hand_feature(int seat, Card c) {
    return seat * 52 + card_number(c);
}
inline constexpr int deal_to_move_feature(int players, int seat) {
    return 52 * players + seat;
}
inline constexpr int deal_broken_feature(int players) {
    return 53 * players;
}
// Hearts' moon fact and Spades' clean nil share their place.
inline constexpr int deal_seat_flag_feature(int players, int seat) {
    return 53 * players + 1 + seat;
}
inline constexpr int deal_need_feature(int players, int seat, int need) {
    return 54 * players + 1 + seat * kDealNeedLevels + (need < 13 ? need : 13);
}

}  // namespace cardgames::models
