#include "cardgames/rules/scoring.hpp"

#include <algorithm>

namespace cardgames {

namespace {

void add_bags(const Rules& rules, ScoreBoard& board, HandScore& hs, int unit, int bags) {
    hs.bags_added[unit] += bags;
    board.bags[unit] += bags;
    while (board.bags[unit] >= rules.bags_per_penalty) {
        board.bags[unit] -= rules.bags_per_penalty;
        hs.delta[unit] -= rules.bag_penalty;
        ++hs.bag_penalties[unit];
    }
}

int nil_score(const Bid& bid, int tricks) {
    const int value = bid.blind ? 200 : 100;
    return tricks == 0 ? value : -value;
}

}  // namespace

UnitContract unit_contract(const Rules& rules, const std::array<Bid, kMaxPlayers>& bids,
                           const std::array<int, kMaxPlayers>& tricks, int unit) {
    UnitContract c;
    for (int seat = 0; seat < rules.players; ++seat) {
        if (rules.unit_of(seat) != unit) continue;
        if (bids[seat].is_nil()) {
            if (rules.nil_tricks_count_for_partner) c.counted += tricks[seat];
        } else if (bids[seat].made()) {
            c.bid += bids[seat].tricks;
            c.counted += tricks[seat];
        }
    }
    return c;
}

HandScore score_spades_hand(const Rules& rules, const std::array<Bid, kMaxPlayers>& bids,
                            const std::array<int, kMaxPlayers>& tricks, ScoreBoard& board) {
    HandScore hs;
    for (int unit = 0; unit < rules.num_units(); ++unit) {
        for (int seat = 0; seat < rules.players; ++seat)
            if (rules.unit_of(seat) == unit && bids[seat].is_nil())
                hs.nil[unit] += nil_score(bids[seat], tricks[seat]);
        const auto [contract, counted] = unit_contract(rules, bids, tricks, unit);
        hs.delta[unit] += hs.nil[unit];
        if (contract == 0) {
            // Only nil bids on this unit: no contract to make, and no bags.
            continue;
        }
        if (counted >= contract) {
            hs.contract[unit] = kPointsPerTrickBid * contract;
            hs.delta[unit] += kPointsPerTrickBid * contract + (counted - contract);
            add_bags(rules, board, hs, unit, counted - contract);
        } else {
            hs.contract[unit] = -kPointsPerTrickBid * contract;
            hs.delta[unit] -= kPointsPerTrickBid * contract;
        }
    }
    for (int unit = 0; unit < rules.num_units(); ++unit) board.score[unit] += hs.delta[unit];
    return hs;
}

int valued_delta(const Rules& rules, const HandScore& hs, int unit, BagValue bag_value) {
    if (bag_value == BagValue::kHand) return hs.delta[unit];
    // Rounded to the nearest point (bag_penalty need not be a multiple of bags_per_penalty).
    const int bags = hs.bags_added[unit];
    const int cost =
        (2 * bags * rules.bag_penalty + rules.bags_per_penalty) / (2 * rules.bags_per_penalty);
    return hs.delta[unit] + hs.bag_penalties[unit] * rules.bag_penalty - cost;
}

HandScore score_hearts_hand(const Rules& rules, const std::array<CardSet, kMaxPlayers>& taken,
                            ScoreBoard& board) {
    HandScore hs;
    const CardSet moon_cards = CardSet::whole_suit(Suit::kHearts) | Card(Suit::kSpades, kQueen);
    for (int seat = 0; seat < rules.players; ++seat) {
        hs.points[seat] = rules.points(taken[seat]);
        if (taken[seat].contains_all(moon_cards)) hs.moon_shooter = seat;
    }
    for (int seat = 0; seat < rules.players; ++seat) {
        int d = hs.points[seat];
        if (hs.moon_shooter >= 0) {
            // The moon replaces the 26 penalty points; the J♦ bonus still counts for whoever took
            // it.
            const int jack =
                (rules.jack_of_diamonds && taken[seat].contains(Card(Suit::kDiamonds, kJack)))
                    ? kJackOfDiamondsPoints
                    : 0;
            if (seat == hs.moon_shooter)
                d = jack + (rules.moon_subtracts ? -kMoonPoints : 0);
            else
                d = jack + (rules.moon_subtracts ? 0 : kMoonPoints);
        }
        hs.delta[seat] = d;
        board.score[seat] += d;
    }
    return hs;
}

bool blind_nil_in_rules(const Rules& rules) {
    return rules.is_partnership() && rules.blind_nil && rules.nil_allowed;
}

bool blind_nil_allowed(const Rules& rules, const ScoreBoard& board, int seat) {
    if (!blind_nil_in_rules(rules)) return false;
    const int own = rules.unit_of(seat);
    return board.score[1 - own] - board.score[own] >= rules.blind_nil_deficit;
}

std::vector<int> game_winners(const Rules& rules, const ScoreBoard& board) {
    const int units = rules.num_units();
    const auto begin = board.score.begin(), end = board.score.begin() + units;
    const int hi = *std::max_element(begin, end), lo = *std::min_element(begin, end);
    std::vector<int> winners;
    if (rules.game == GameKind::kHearts) {
        if (hi < rules.end_score) return winners;
        for (int u = 0; u < units; ++u)
            if (board.score[u] == lo) winners.push_back(u);
        return winners;
    }
    if (hi < rules.target && lo > rules.loss_threshold) return winners;
    for (int u = 0; u < units; ++u)
        if (board.score[u] == hi) winners.push_back(u);
    if (winners.size() > 1) winners.clear();  // a tie for the lead: play another hand
    return winners;
}

bool lower_score_wins(const Rules& rules) {
    return rules.game == GameKind::kHearts;
}

std::vector<int> hand_winners(const Rules& rules, const HandScore& score) {
    const auto begin = score.delta.begin(), end = score.delta.begin() + rules.num_units();
    const int best =
        lower_score_wins(rules) ? *std::min_element(begin, end) : *std::max_element(begin, end);
    std::vector<int> winners;
    for (int u = 0; u < rules.num_units(); ++u)
        if (score.delta[u] == best) winners.push_back(u);
    return winners;
}

}  // namespace cardgames
