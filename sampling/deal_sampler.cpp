#include "sampling/deal_sampler.hpp"

#include <boost/random/uniform_int_distribution.hpp>
#include <cmath>
#include <numeric>

namespace sampling {

using namespace cardgames;

namespace {

double binomial(int n, int k) {
    if (k < 0 || k > n) return 0;
    double r = 1;
    for (int i = 1; i <= k; ++i) r = r * (n - k + i) / i;
    return std::round(r);
}

// A uniform double in [0, 1) from 53 random bits: the same on every machine.
double unit(boost::random::mt19937_64& rng) {
    return static_cast<double>(rng() >> 11) * 0x1.0p-53;
}

// Deals `cards` by a uniform shuffle, then consecutive runs: counts[s] cards to seat s, in seat
// order.
void deal_shuffled(CardSet cards, const std::array<std::int8_t, kMaxPlayers>& counts, int players,
                   boost::random::mt19937_64& rng, Deal& deal) {
    std::vector<Card> order;
    for (Card c : cards) order.push_back(c);
    for (std::size_t i = order.size(); i > 1; --i) {
        boost::random::uniform_int_distribution<std::size_t> pick(0, i - 1);
        std::swap(order[i - 1], order[pick(rng)]);
    }
    std::size_t next = 0;
    for (int s = 0; s < players; ++s)
        for (int k = 0; k < counts[s]; ++k) deal.hands[s] |= order[next++];
}

}  // namespace

Deal redeal_others(const Deal& deal, int seat, boost::random::mt19937_64& rng) {
    Deal out = deal;
    CardSet others;
    std::array<std::int8_t, kMaxPlayers> counts{};
    for (int s = 0; s < kMaxPlayers; ++s) {  // the seats past deal.players hold nothing
        if (s == seat) continue;
        others |= deal.hands[s];
        counts[s] = static_cast<std::int8_t>(deal.hands[s].size());
        out.hands[s] = CardSet();
    }
    deal_shuffled(others, counts, deal.players, rng, out);
    return out;
}

DealSampler::DealSampler(const Constraints& constraints) : c_(constraints) {
    const int n = c_.players;
    CardSet free = c_.unseen;
    for (int s = 0; s < n; ++s) {
        if (s == c_.me) continue;
        if (!c_.unseen.contains_all(c_.known[s]))
            throw Contradiction("seat " + std::to_string(s) + " must hold " +
                                cards_to_string(c_.known[s] - c_.unseen) +
                                ", which are not unseen: " + c_.describe());
        free -= c_.known[s];
        base_need_[s] = static_cast<std::int8_t>(c_.need[s] - c_.known[s].size());
        if (base_need_[s] < 0)
            throw Contradiction("seat " + std::to_string(s) +
                                " is known to hold more cards than it has: " + c_.describe());
    }
    // Group the free cards by the set of seats that may hold them.
    for (Card card : free) {
        std::uint8_t seats = 0;
        for (int s = 0; s < n; ++s)
            if (s != c_.me && !c_.excluded[s].contains(card))
                seats |= static_cast<std::uint8_t>(1u << s);
        if (seats == 0)
            throw Contradiction(to_string(card) +
                                " is unseen but no seat can hold it: " + c_.describe());
        bool placed = false;
        for (Class& cl : classes_)
            if (cl.seats == seats) {
                cl.cards |= card;
                placed = true;
            }
        if (!placed) classes_.push_back({CardSet(card), seats});
    }
    int total_need = 0;
    for (int s = 0; s < n; ++s) total_need += base_need_[s];
    if (total_need != free.size())
        throw Contradiction(std::to_string(free.size()) + " unseen cards for " +
                            std::to_string(total_need) + " places: " + c_.describe());
    total_ = ways(0, base_need_);
    if (total_ <= 0)
        throw Contradiction("no deal of the unseen cards fits what is known: " + c_.describe());
}

std::uint64_t DealSampler::key(std::size_t cls, const Needs& need) {
    std::uint64_t k = cls;
    for (std::int8_t x : need) k = k * 32 + static_cast<std::uint64_t>(x);
    return k;
}

template <class F>
void DealSampler::for_each_split(std::size_t cls, const Needs& need, F&& f) const {
    const Class& cl = classes_[cls];
    int seats[kMaxPlayers], m = 0;
    for (int s = 0; s < c_.players; ++s)
        if (cl.seats >> s & 1) seats[m++] = s;
    Needs split{};
    // Depth-first over the seats: give seat seats[i] between 0 and its room of what is left.
    auto rec = [&](auto&& self, int i, int left, double weight) -> void {
        if (i == m - 1) {
            if (left > need[seats[i]]) return;
            split[seats[i]] = static_cast<std::int8_t>(left);
            f(split, weight);
            return;
        }
        const int room = std::min<int>(left, need[seats[i]]);
        for (int x = 0; x <= room; ++x) {
            split[seats[i]] = static_cast<std::int8_t>(x);
            self(self, i + 1, left - x, weight * binomial(left, x));
        }
        split[seats[i]] = 0;
    };
    rec(rec, 0, cl.cards.size(), 1.0);
}

double DealSampler::ways(std::size_t cls, const Needs& need) const {
    if (cls == classes_.size()) {
        for (std::int8_t x : need)
            if (x != 0) return 0;
        return 1;
    }
    const std::uint64_t k = key(cls, need);
    if (auto it = memo_.find(k); it != memo_.end()) return it->second;
    double total = 0;
    for_each_split(cls, need, [&](const Needs& split, double w) {
        Needs rest = need;
        for (int s = 0; s < c_.players; ++s) rest[s] = static_cast<std::int8_t>(rest[s] - split[s]);
        total += w * ways(cls + 1, rest);
    });
    memo_.emplace(k, total);
    return total;
}

HandRotation::HandRotation(const Constraints& c) {
    std::vector<bool> placed(static_cast<std::size_t>(c.players), false);
    const auto alike = [&](int a, int b) {
        return c.need[a] == c.need[b] && (c.excluded[a] & c.unseen) == (c.excluded[b] & c.unseen) &&
               (c.known[a] & c.unseen) == (c.known[b] & c.unseen);
    };
    for (int s = 0; s < c.players; ++s) {
        if (s == c.me || placed[static_cast<std::size_t>(s)] || c.need[s] == 0) continue;
        std::vector<int> group{s};
        for (int t = s + 1; t < c.players; ++t)
            if (t != c.me && !placed[static_cast<std::size_t>(t)] && alike(s, t)) {
                group.push_back(t);
                placed[static_cast<std::size_t>(t)] = true;
            }
        if (group.size() < 2) continue;
        period_ = std::lcm(period_, static_cast<int>(group.size()));
        groups_.push_back(std::move(group));
    }
}

Deal HandRotation::turned(const Deal& deal, int turns) const {
    Deal out = deal;
    for (const std::vector<int>& group : groups_) {
        const std::size_t n = group.size();
        for (std::size_t i = 0; i < n; ++i)
            out.hands[group[(i + static_cast<std::size_t>(turns)) % n]] = deal.hands[group[i]];
    }
    return out;
}

Deal DealSampler::sample(boost::random::mt19937_64& rng, CardSet my_hand) const {
    Deal deal;
    deal.players = c_.players;
    deal.hands[c_.me] = my_hand;
    for (int s = 0; s < c_.players; ++s)
        if (s != c_.me) deal.hands[s] = c_.known[s];
    Needs need = base_need_;
    for (std::size_t cls = 0; cls < classes_.size(); ++cls) {
        // Draw this class's split with probability proportional to the deals it leaves possible.
        const double target = unit(rng) * ways(cls, need);
        double acc = 0;
        Needs chosen{};
        bool done = false;
        for_each_split(cls, need, [&](const Needs& split, double w) {
            if (done) return;
            Needs rest = need;
            for (int s = 0; s < c_.players; ++s)
                rest[s] = static_cast<std::int8_t>(rest[s] - split[s]);
            const double v = w * ways(cls + 1, rest);
            if (v <= 0) return;
            chosen = split;
            acc += v;
            if (acc > target) done = true;
        });
        deal_shuffled(classes_[cls].cards, chosen, c_.players, rng, deal);
        for (int s = 0; s < c_.players; ++s)
            need[s] = static_cast<std::int8_t>(need[s] - chosen[s]);
    }
    return deal;
}

}  // namespace sampling
