#include "sampling/deal_sampler.hpp"

#include <gtest/gtest.h>

#include <boost/math/distributions/chi_squared.hpp>
#include <map>

#include "cardgames/rules/game_runner.hpp"
#include "sampling/bot_registry.hpp"

namespace sampling {
namespace {

using namespace cardgames;

// Every assignment of the unseen cards to the other seats that honours the constraints.
std::vector<Deal> enumerate(const Constraints& c) {
    std::vector<Card> cards;
    for (Card x : c.unseen) cards.push_back(x);
    std::vector<Deal> out;
    std::vector<int> owner(cards.size(), 0);
    std::vector<int> others;
    for (int s = 0; s < c.players; ++s)
        if (s != c.me) others.push_back(s);
    long total = 1;
    for (std::size_t i = 0; i < cards.size(); ++i) total *= static_cast<long>(others.size());
    for (long code = 0; code < total; ++code) {
        Deal d;
        d.players = c.players;
        long k = code;
        bool ok = true;
        for (std::size_t i = 0; i < cards.size(); ++i) {
            const int s = others[k % others.size()];
            k /= static_cast<long>(others.size());
            if (c.excluded[s].contains(cards[i])) ok = false;
            d.hands[s] |= cards[i];
        }
        for (int s : others)
            ok = ok && d.hands[s].size() == c.need[s] && d.hands[s].contains_all(c.known[s]);
        if (ok) out.push_back(d);
    }
    return out;
}

std::string key_of(const Deal& d) {
    return deal_to_string(d);
}

// Chi-squared goodness of fit of draw() against the uniform distribution over `all`.
template <class Draw>
void expect_uniform_over(const std::vector<Deal>& all, int samples, Draw draw) {
    std::map<std::string, int> freq;
    for (const Deal& d : all) freq[key_of(d)] = 0;
    for (int i = 0; i < samples; ++i) {
        const Deal d = draw();
        const auto it = freq.find(key_of(d));
        ASSERT_NE(it, freq.end()) << "sampled an inconsistent deal " << key_of(d);
        ++it->second;
    }
    const double expected = static_cast<double>(samples) / all.size();
    double chi2 = 0;
    for (const auto& [k, n] : freq) chi2 += (n - expected) * (n - expected) / expected;
    const double df = static_cast<double>(all.size() - 1);
    const double critical = boost::math::quantile(boost::math::chi_squared(df), 0.999);
    EXPECT_LT(chi2, critical) << all.size() << " deals";
}

// The same against the deals consistent with the constraints.
void expect_uniform(const Constraints& c, int samples, std::uint64_t seed) {
    const std::vector<Deal> all = enumerate(c);
    DealSampler sampler(c);
    ASSERT_DOUBLE_EQ(sampler.count(), static_cast<double>(all.size()));
    boost::random::mt19937_64 rng(seed);
    expect_uniform_over(all, samples, [&] { return sampler.sample(rng, CardSet()); });
}

Constraints small(int players, int per_seat) {
    Constraints c;
    c.players = players;
    c.me = 0;
    const Card cards[] = {
        Card(Suit::kSpades, kAce),  Card(Suit::kSpades, kKing),  Card(Suit::kHearts, 9),
        Card(Suit::kHearts, 3),     Card(Suit::kDiamonds, kTen), Card(Suit::kClubs, 2),
        Card(Suit::kClubs, kQueen), Card(Suit::kDiamonds, 4),    Card(Suit::kHearts, kAce)};
    for (int i = 0; i < (players - 1) * per_seat; ++i) c.unseen |= cards[i];
    for (int s = 1; s < players; ++s) c.need[s] = per_seat;
    return c;
}

TEST(DealSampler, UniformWithoutConstraints) {
    expect_uniform(small(4, 2), 30000, 1);
}

TEST(RedealOthers, KeepsTheSeatsHandAndEveryHandSizeAndIsUniform) {
    Constraints c = small(4, 2);
    c.need[3] = 3;  // uneven: seats 1 and 2 hold two of the unseen cards, seat 3 three
    c.unseen |= Card(Suit::kHearts, kAce);
    const std::vector<Deal> all = enumerate(c);
    Deal deal = all.back();
    const CardSet mine = CardSet(Card(Suit::kClubs, kAce)) | Card(Suit::kClubs, kKing);
    deal.hands[0] = mine;
    boost::random::mt19937_64 rng(7);
    expect_uniform_over(all, 30000, [&] {
        Deal d = redeal_others(deal, 0, rng);
        EXPECT_EQ(d.hands[0], mine);
        d.hands[0] = CardSet();  // as the enumerated deals hold it
        return d;
    });
}

TEST(DealSampler, UniformWithVoidsAndKnownCards) {
    Constraints c = small(4, 2);
    c.excluded[1] = CardSet::whole_suit(Suit::kSpades);  // seat 1 showed out of spades
    c.excluded[3] = CardSet::whole_suit(Suit::kHearts);
    c.known[2] = Card(Suit::kClubs, 2);  // a card seat 0 passed to seat 2
    expect_uniform(c, 30000, 2);
}

// Seats 1 and 2 are alike, seat 3 is not (it showed out of hearts): a turn swaps the hands of 1
// and 2 alone, and a sampled deal turned is as uniform over the consistent deals as the deal.
TEST(HandRotation, TurnsAlikeSeatsAndKeepsTheDealsUniform) {
    Constraints c = small(4, 2);
    c.excluded[3] = CardSet::whole_suit(Suit::kHearts);
    const HandRotation rotation(c);
    ASSERT_EQ(rotation.period(), 2);
    DealSampler sampler(c);
    boost::random::mt19937_64 rng(4);
    expect_uniform_over(enumerate(c), 30000, [&] {
        const Deal d = sampler.sample(rng, CardSet());
        const Deal t = rotation.turned(d, 1);
        EXPECT_EQ(t.hands[1], d.hands[2]);
        EXPECT_EQ(t.hands[2], d.hands[1]);
        EXPECT_EQ(t.hands[3], d.hands[3]);
        EXPECT_EQ(rotation.turned(d, 2), d);
        return t;
    });
    // Three seats alike: the turns are a cycle of three.
    const HandRotation three(small(4, 2));
    ASSERT_EQ(three.period(), 3);
    const Deal d = DealSampler(small(4, 2)).sample(rng, CardSet());
    const Deal once = three.turned(d, 1);
    EXPECT_EQ(once.hands[2], d.hands[1]);
    EXPECT_EQ(once.hands[3], d.hands[2]);
    EXPECT_EQ(once.hands[1], d.hands[3]);
    EXPECT_EQ(three.turned(d, 3), d);
    // No two alike: nothing turns.
    Constraints apart = small(4, 2);
    apart.excluded[1] = CardSet::whole_suit(Suit::kSpades);
    apart.known[2] = Card(Suit::kClubs, 2);
    EXPECT_EQ(HandRotation(apart).period(), 1);
}

TEST(DealSampler, UniformWithUnevenHandsAndThreePlayers) {
    Constraints c = small(3, 3);
    c.need[1] = 2;
    c.need[2] = 4;
    c.excluded[2] = CardSet::whole_suit(Suit::kDiamonds);
    expect_uniform(c, 30000, 3);
}

TEST(DealSampler, TightConstraintsStillDealInstantly) {
    // Every card has exactly one possible owner: one deal, found without any rejection.
    Constraints c = small(4, 2);
    c.excluded[1] = c.unseen - (CardSet(Card(Suit::kSpades, kAce)) | Card(Suit::kSpades, kKing));
    c.excluded[2] = c.unseen - (CardSet(Card(Suit::kHearts, 9)) | Card(Suit::kHearts, 3));
    DealSampler sampler(c);
    EXPECT_EQ(sampler.count(), 1.0);
    boost::random::mt19937_64 rng(4);
    const Deal d = sampler.sample(rng, CardSet());
    EXPECT_EQ(d.hands[3], CardSet(Card(Suit::kDiamonds, kTen)) | Card(Suit::kClubs, 2));
}

TEST(DealSampler, ContradictionIsReported) {
    Constraints c = small(4, 2);
    c.excluded[1] = c.unseen;  // seat 1 can hold nothing but must hold 2 cards
    try {
        DealSampler sampler(c);
        FAIL() << "expected a contradiction";
    } catch (const Contradiction& e) {
        EXPECT_NE(std::string(e.what()).find("seat 1 holds 2"), std::string::npos) << e.what();
    }
}

// The bot side of the protocol refuses a table line when why_no_deal() says no deal fits: it must
// say so exactly when the sampler would throw, on constraints random enough to hit Hall's condition
// (voids that leave some seats too little room) as well as counts and known cards.
TEST(DealSampler, WhyNoDealAgreesWithTheSampler) {
    boost::random::mt19937_64 rng(18);
    int feasible = 0, infeasible = 0;
    for (int trial = 0; trial < 3000; ++trial) {
        Constraints c = small(trial % 2 ? 4 : 3, 2 + trial % 2);
        const CardSet unseen = c.unseen;
        for (int s = 1; s < c.players; ++s) {
            for (Card card : unseen) {
                if (rng() % 3 == 0)
                    c.excluded[s] |= card;
                else if (rng() % 17 == 0)
                    c.known[s] |= card;
            }
            c.excluded[s] -= c.known[s];
            if (rng() % 11 == 0) c.need[s] += static_cast<int>(rng() % 3) - 1;
        }
        const std::string why = c.why_no_deal();
        bool threw = false;
        try {
            DealSampler sampler(c);
        } catch (const Contradiction&) {
            threw = true;
        }
        EXPECT_EQ(!why.empty(), threw) << c.describe() << ": " << why;
        (threw ? infeasible : feasible) += 1;
    }
    // Both answers were exercised often.
    EXPECT_GT(feasible, 300);
    EXPECT_GT(infeasible, 300);
}

// Replays the hand's public plays against a sampled world: every card must have been legal for
// the hand the world gives its player.
void expect_world_explains_history(const InfoState& info, const Deal& world) {
    const Rules& rules = *info.rules;
    const PlayRules pr = PlayRules::from(rules);
    Deal start = world;
    for (const PlayedCard& p : info.plays) start.hands[p.seat] |= p.card;
    PlayState s =
        PlayState::start(start, info.plays.empty() ? info.play.to_move : info.plays.front().seat);
    for (const PlayedCard& p : info.plays) {
        ASSERT_EQ(s.to_move, p.seat);
        ASSERT_TRUE(s.legal_moves(pr).contains(p.card))
            << to_string(p.card) << " by seat " << int(p.seat) << " would be illegal in world "
            << deal_to_string(world);
        s.play(pr, p.card);
    }
    for (int seat = 0; seat < rules.players; ++seat) ASSERT_EQ(s.hands[seat], world.hands[seat]);
}

TEST(DealSampler, WorldsAlwaysExplainTheHistoryOfRealGames) {
    for (const char* preset :
         {"hearts4", "hearts3", "hearts6", "spades-partnership", "spades-cutthroat3"}) {
        const Rules rules = load_rules(preset_path(preset), {});
        for (std::uint64_t seed = 1; seed <= 40; ++seed) {
            Game game(rules, seed);
            std::vector<std::unique_ptr<Player>> players;
            for (int s = 0; s < rules.players; ++s)
                players.push_back(make_player("random", mix_seed(seed, s)));
            boost::random::mt19937_64 rng(seed);
            const int hand = game.hand().number;
            while (!game.over() && game.hand().number == hand) {
                if (game.phase() == Phase::kPlay) {
                    const int me = game.to_act();
                    const InfoState info = game.info_state(me);
                    const Constraints c = constraints_from(info);
                    // The true hidden hands satisfy what the seat inferred.
                    for (int s = 0; s < rules.players; ++s) {
                        if (s == me) continue;
                        const CardSet truth = game.play_state().hands[s];
                        ASSERT_EQ(truth.size(), c.need[s]) << preset;
                        ASSERT_FALSE(truth.intersects(c.excluded[s]))
                            << preset << " " << c.describe();
                        ASSERT_TRUE(truth.contains_all(c.known[s])) << preset;
                    }
                    DealSampler sampler(c);
                    const HandRotation rotation(c);
                    for (int k = 0; k < 3; ++k) {
                        const Deal world = sampler.sample(rng, info.hand);
                        // So do its turns (pimc:rotate=on).
                        for (int turns = 0; turns < rotation.period(); ++turns)
                            expect_world_explains_history(info, rotation.turned(world, turns));
                    }
                }
                step_game(game, players);
            }
        }
    }
}

TEST(DealSampler, SameSeedSameWorld) {
    Constraints c = small(4, 3);
    DealSampler a(c), b(c);
    boost::random::mt19937_64 r1(9), r2(9);
    for (int i = 0; i < 20; ++i) EXPECT_EQ(a.sample(r1, CardSet()), b.sample(r2, CardSet()));
}

}  // namespace
}  // namespace sampling
