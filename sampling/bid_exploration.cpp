#include "sampling/bid_exploration.hpp"

#include <algorithm>
#include <boost/random/mersenne_twister.hpp>
#include <boost/random/uniform_real_distribution.hpp>
#include <cmath>

#include "cardgames/players/heuristics.hpp"

namespace sampling {

using namespace cardgames;

namespace {

// What the draws depend on besides the draw itself, worked out once per seat.
struct Exploration {
    int rule = 0;       // the rule player's bid
    int kept = 0;       // the bid the draws that keep a bid keep
    bool weak = false;  // nil may be explored: a weak hand, the partner not on nil
    int weak_bid = 1;   // a weak hand's bid where the rule player bids nil
    int most = 13;      // the highest bid
};

Exploration exploration(const InfoState& view, int rule, int kept) {
    const Rules& rules = *view.rules;
    const int partner = view.partner();
    const bool partner_nil = partner >= 0 && view.bids[partner].is_nil();
    const double estimate = heuristics::spades_trick_estimate(view.hand, rules.players);
    return {rule, kept, rules.nil_allowed && !partner_nil && estimate < 3.5,
            std::max(1, static_cast<int>(std::lround(estimate))), rules.cards_per_hand()};
}

// The bid for a uniform draw u in [0, 1). Every branch point is a multiple of 0.2, so the draws
// 0.1, 0.3, ..., 0.9 meet every bid this can return, each standing for a fifth of the draws.
int bid_of_draw(const Exploration& e, double u) {
    if (e.weak) {
        if (u < 0.4) return 0;
        if (e.rule == 0) return u < 0.8 ? e.kept : e.weak_bid;
    }
    if (e.rule == 0) return e.kept;
    if (u > 0.8 && e.rule > 1) return e.rule - 1;
    if (u > 0.6 && u <= 0.8 && e.rule < e.most) return e.rule + 1;
    return e.kept;
}

}  // namespace

int explore_bid(const InfoState& view, int rule, std::uint64_t seed, int kept) {
    boost::random::mt19937_64 rng(seed);
    return bid_of_draw(exploration(view, rule, kept),
                       boost::random::uniform_real_distribution<double>(0, 1)(rng));
}

std::vector<int> explored_bids(const InfoState& view, int rule) {
    const Exploration e = exploration(view, rule, rule);
    std::vector<int> out;
    for (double u : {0.1, 0.3, 0.5, 0.7, 0.9}) out.push_back(bid_of_draw(e, u));
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

}  // namespace sampling
