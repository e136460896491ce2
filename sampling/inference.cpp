#include "sampling/inference.hpp"

#include <algorithm>
#include <cmath>

#include "cardgames/players/rule_bot.hpp"

namespace sampling {

using namespace cardgames;

namespace {

// How much a Hearts player wants to be rid of a card, whatever else it holds: the Q♠, then the
// A♠ and K♠ that may catch it, then hearts, then the rest by rank.
int pass_danger(Card c) {
    if (c == Card(Suit::kSpades, kQueen)) return 100;
    if (c.suit() == Suit::kSpades && c.rank() > kQueen) return 60 + c.rank();
    if (c.suit() == Suit::kHearts) return 20 + c.rank();
    return c.rank();
}

// Hearts: the seat that passed to me gave away what it most wanted rid of. A world in which it
// still holds more cards worse than the mildest card it passed than it can have received (the
// pass count) is less likely: k extra such cards weigh exp(-k).
double pass_weight(const InfoState& info, const Deal& world) {
    const Rules& rules = *info.rules;
    if (info.received.empty() || rules.pass_offset(info.hand_number) == 0) return 1.0;
    const int passer = rules.pass_sender(info.seat, info.hand_number);
    int mildest = 1000;
    for (Card c : info.received) mildest = std::min(mildest, pass_danger(c));
    CardSet held = world.hands[passer];
    for (const PlayedCard& p : info.plays)
        if (p.seat == passer) held |= p.card;
    int worse = 0;
    for (Card c : held) worse += pass_danger(c) > mildest ? 1 : 0;
    return std::exp(-static_cast<double>(std::max(0, worse - info.received.size())));
}

}  // namespace

double world_weight(const InfoState& info, const Deal& world) {
    const Rules& rules = *info.rules;
    if (rules.game == GameKind::kHearts) return pass_weight(info, world);
    // Each bidder's hand as it was when it bid: what it holds in the world plus what it has played.
    std::array<CardSet, kMaxPlayers> original = world.hands;
    for (const PlayedCard& p : info.plays) original[p.seat] |= p.card;
    RuleBot model;
    double log_weight = 0;
    for (int s = 0; s < rules.players; ++s) {
        if (s == info.seat || !info.bids[s].made() || info.bids[s].blind) continue;
        InfoState as_bidder;
        as_bidder.rules = info.rules;
        as_bidder.seat = s;
        as_bidder.dealer = info.dealer;
        as_bidder.hand_number = info.hand_number;
        as_bidder.phase = Phase::kBid;
        as_bidder.hand = as_bidder.dealt = original[s];
        as_bidder.play.players = static_cast<std::int8_t>(rules.players);
        as_bidder.play.hands[s] = original[s];
        as_bidder.scores = info.scores;
        // The bids made before this seat's turn, in bidding order from the dealer's left.
        for (int k = 1; k <= rules.players; ++k) {
            const int b = (info.dealer + k) % rules.players;
            if (b == s) break;
            as_bidder.bids[b] = info.bids[b];
        }
        const int model_bid = model.bid(as_bidder);
        log_weight -= std::abs(model_bid - info.bids[s].tricks);
    }
    return std::exp(log_weight);
}

}  // namespace sampling
