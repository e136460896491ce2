#include "cardgames/models/card_features.hpp"

#include <algorithm>

namespace cardgames::models {

namespace {

// Walks the hand's plays in order: calls f(relative seat, card, position in its trick, led suit).
template <class F>
void for_each_play(const InfoState& info, F&& f) {
    const int n = info.players();
    Suit led = Suit::kClubs;
    for (std::size_t i = 0; i < info.plays.size(); ++i) {
        const int pos = static_cast<int>(i % static_cast<std::size_t>(n));
        const PlayedCard& p = info.plays[i];
        if (pos == 0) led = p.card.suit();
        f((p.seat - info.seat + n) % n, p.card, pos, led);
    }
}

}  // namespace

void card_features(const InfoState& info, ActiveFeatures& out) {
    const int n = info.players();
    out.count = 0;
    for (Card c : info.hand) out.push(hand_feature(c));
    std::array<std::uint8_t, kMaxPlayers> voids{};
    const std::size_t in_trick = info.plays.size() % static_cast<std::size_t>(n);
    const std::size_t trick_start = info.plays.size() - in_trick;
    std::size_t i = 0;
    for_each_play(info, [&](int rel, Card c, int pos, Suit led) {
        out.push(played_feature(rel, c));
        if (i++ >= trick_start) out.push(trick_feature(n, rel, c));
        if (pos > 0 && c.suit() != led) voids[rel] |= 1u << static_cast<int>(led);
    });
    for (int r = 0; r < n; ++r)
        for (int s = 0; s < 4; ++s)
            if (voids[r] & (1u << s)) out.push(void_feature(n, r, static_cast<Suit>(s)));
    std::sort(out.index.begin(), out.index.begin() + out.count);
}

CardFeatureTracker::CardFeatureTracker(const InfoState& info)
    : players_(info.players()), viewer_(info.seat) {
    const std::size_t in_trick = info.plays.size() % static_cast<std::size_t>(players_);
    const std::size_t trick_start = info.plays.size() - in_trick;
    std::size_t i = 0;
    for_each_play(info, [&](int rel, Card c, int pos, Suit led) {
        if (pos > 0 && c.suit() != led) voids_[rel] |= 1u << static_cast<int>(led);
        if (i++ >= trick_start) {
            if (pos == 0) led_ = c.suit();
            trick_[trick_size_++] = {static_cast<std::int8_t>(rel), c};
        }
    });
}

}  // namespace cardgames::models
