#include "sampling/inference.hpp"

#include <cmath>

#include "cardgames/rule_bot.hpp"

namespace sampling {

using namespace cardgames;

double world_weight(const InfoState& info, const Deal& world) {
    const Rules& rules = *info.rules;
    if (rules.game != GameKind::kSpades) return 1.0;
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
