#include "sampling/moon.hpp"

namespace sampling {

using namespace cardgames;
using heuristics::best_by;
using heuristics::highest_rank;
using heuristics::lowest_rank;
using heuristics::TableView;

Card MoonShooter::play(const InfoState& info) {
    const TableView v(info);
    if (v.leading())
        return best_by(v.legal, [&](Card c) {
            // A master wins unless someone trumps it (no trumps in Hearts); among masters and
            // among the rest, the longest suit draws the most cards, the higher card the surer.
            return (v.is_master(c) ? 100.0 : 0.0) + v.hand.count(c.suit()) + 0.01 * c.rank();
        });
    const CardSet follow = v.legal.of_suit(v.led);
    if (!follow.empty()) {
        const CardSet winners = v.beaters(follow);
        return winners.empty() ? lowest_rank(follow) : highest_rank(winners);
    }
    // Void: the trick is lost; give it no points, keep the high cards that may win later.
    return best_by(v.legal,
                   [&](Card c) { return (v.rules.card_points(c) > 0 ? -100.0 : 0.0) - c.rank(); });
}

bool moon_open(const InfoState& info, const std::array<CardSet, kMaxPlayers>& taken) {
    const Rules& rules = *info.rules;
    if (rules.game != GameKind::kHearts) return false;
    for (int s = 0; s < rules.players; ++s)
        if (s != info.seat)
            for (Card c : taken[static_cast<std::size_t>(s)])
                if (rules.card_points(c) > 0) return false;
    // Every heart played so far is the seat's or in the trick in progress; the highest heart
    // still to be played must be in its hand.
    const CardSet hearts_out = rules.deck().of_suit(Suit::kHearts) - info.play.played;
    if (!hearts_out.empty() && !info.hand.contains(hearts_out.highest())) return false;
    const Card queen(Suit::kSpades, kQueen);
    if (info.play.played.contains(queen) || info.hand.contains(queen)) return true;
    return info.hand.contains(Card(Suit::kSpades, kKing)) ||
           info.hand.contains(Card(Suit::kSpades, kAce));
}

}  // namespace sampling
