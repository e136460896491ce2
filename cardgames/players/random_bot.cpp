#include "cardgames/players/random_bot.hpp"

#include <boost/random/uniform_int_distribution.hpp>

namespace cardgames {

Card RandomBot::pick(CardSet cards) {
    boost::random::uniform_int_distribution<int> d(0, cards.size() - 1);
    int k = d(rng_);
    for (Card c : cards)
        if (k-- == 0) return c;
    return cards.lowest();
}

int RandomBot::bid(const InfoState& info) {
    const int lo = info.rules->nil_allowed ? 0 : 1;
    boost::random::uniform_int_distribution<int> d(lo, info.rules->cards_per_hand());
    return d(rng_);
}

CardSet RandomBot::pass(const InfoState& info) {
    CardSet left = info.hand, out;
    for (int i = 0; i < info.pass_count; ++i) {
        const Card c = pick(left);
        left -= c;
        out |= c;
    }
    return out;
}

Card RandomBot::play(const InfoState& info) {
    return pick(info.legal_cards());
}

}  // namespace cardgames
