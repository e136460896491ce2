#include "cardgames/models/card_features.hpp"

#include <algorithm>

#include "cardgames/rules/scoring.hpp"

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

ContractTally::ContractTally(const InfoState& info, int version)
    : version_(version), rules_(*info.rules), bids_(info.bids) {
    if (version_ < 2) return;
    play_rules_ = PlayRules::from(rules_);
    // The finished tricks of the hand, taken in turn.
    const auto n = static_cast<std::size_t>(rules_.players);
    std::array<int, kMaxPlayers> seats{};
    std::array<Card, kMaxPlayers> cards{};
    for (std::size_t t = 0; (t + 1) * n <= info.plays.size(); ++t) {
        for (std::size_t i = 0; i < n; ++i) {
            seats[i] = info.plays[t * n + i].seat;
            cards[i] = info.plays[t * n + i].card;
        }
        take(winner({seats.data(), n}, {cards.data(), n}), {cards.data(), n});
    }
}

int ContractTally::winner(std::span<const int> seats, std::span<const Card> cards) const {
    std::size_t best = 0;
    for (std::size_t i = 1; i < cards.size(); ++i)
        if (beats(play_rules_, cards[i], cards[best])) best = i;
    return seats[best];
}

void ContractTally::take(int winner, std::span<const Card> cards) {
    ++won_[static_cast<std::size_t>(winner)];
    for (Card c : cards) {
        if (play_rules_.points[static_cast<std::size_t>(c.index())] > 0)
            took_[static_cast<std::size_t>(winner)] = true;
        if (c == Card(Suit::kSpades, kQueen)) queen_[static_cast<std::size_t>(winner)] = true;
    }
}

int ContractTally::features(int viewer, std::array<int, 3 * kMaxPlayers>& out) const {
    if (version_ < 2) return 0;
    const int n = rules_.players;
    const auto abs = [&](int rel) { return static_cast<std::size_t>((viewer + rel) % n); };
    int count = 0;
    const auto push = [&](int f) { out[static_cast<std::size_t>(count++)] = f; };
    if (rules_.game == GameKind::kHearts) {
        int takers = 0;
        for (int s = 0; s < n; ++s) takers += took_[static_cast<std::size_t>(s)] ? 1 : 0;
        for (int r = 0; r < n; ++r)
            if (took_[abs(r)]) push(contract_feature(n, kTookFact, r));
        for (int r = 0; r < n; ++r)
            if (queen_[abs(r)]) push(contract_feature(n, kQueenFact, r));
        for (int r = 0; r < n; ++r)
            if (took_[abs(r)] && takers == 1) push(contract_feature(n, kMoonFact, r));
        return count;
    }
    std::array<UnitContract, kMaxPlayers> unit{};
    for (int u = 0; u < rules_.num_units(); ++u)
        unit[static_cast<std::size_t>(u)] = unit_contract(rules_, bids_, won_, u);
    const auto contract_of = [&](int rel) -> const UnitContract& {
        return unit[static_cast<std::size_t>(rules_.unit_of(static_cast<int>(abs(rel))))];
    };
    for (int r = 0; r < n; ++r)
        if (bids_[abs(r)].nil_stands(won_[abs(r)])) push(contract_feature(n, kNilFact, r));
    for (int r = 0; r < n; ++r)
        if (const UnitContract& c = contract_of(r); c.bid > 0 && c.need() <= 0)
            push(contract_feature(n, kMadeFact, r));
    for (int r = 0; r < n; ++r)
        if (const int need = contract_of(r).need(); need > 0) push(need_feature(n, r, need));
    return count;
}

void card_features(const InfoState& info, int version, ActiveFeatures& out) {
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
    if (version >= 2) {
        std::array<int, 3 * kMaxPlayers> contract{};
        const int k = ContractTally(info, version).features(info.seat, contract);
        for (int j = 0; j < k; ++j) out.push(contract[static_cast<std::size_t>(j)]);
    }
    std::sort(out.index.begin(), out.index.begin() + out.count);
}

CardFeatureTracker::CardFeatureTracker(const InfoState& info, int version)
    : players_(info.players()), viewer_(info.seat), version_(version), tally_(info, version) {
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
