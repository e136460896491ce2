// Property tests over many random games per form and variant: every card played exactly once per
// hand, tricks per hand equal to cards per hand, the trick structure and winners re-derived, Hearts
// points conserved (26, the J of diamonds, the moon), Spades scores re-derived, legal moves
// re-derived from the rules (follow suit, first lead, first-trick ban, breaking), and InfoState
// never showing another seat's cards. CARDGAMES_LONG=1 runs many more games.

#include <gtest/gtest.h>

#include <random>

#include "cardgames/players/random_bot.hpp"
#include "cardgames/rules/dealing.hpp"
#include "cardgames/rules/game_runner.hpp"
#include "cardgames/rules/scoring.hpp"
#include "test_helpers.hpp"

namespace cardgames {
namespace {

using testing::C;
using testing::preset;

const CardSet kQueenOfSpades = Card(Suit::kSpades, kQueen);

// Legal cards from first principles (RULES.md), from what the seat to play knows.
CardSet reference_legal(const Rules& r, const InfoState& info) {
    const CardSet hand = info.hand;
    const int n = r.players;
    const int in_trick = static_cast<int>(info.plays.size()) % n;
    const bool first_trick = static_cast<int>(info.plays.size()) < n;
    const bool hearts = r.game == GameKind::kHearts;
    if (in_trick == 0) {
        Card first = kNoCard;
        if (hearts || r.first_lead_two_clubs) first = r.deck().of_suit(Suit::kClubs).lowest();
        if (first_trick && first != kNoCard && hand.contains(first)) return first;
        const bool restricted = hearts ? r.hearts_breaking : !r.spades_lead_anytime;
        const Suit suit = hearts ? Suit::kHearts : Suit::kSpades;
        bool broken = false;
        for (const PlayedCard& p : info.plays)
            broken |= p.card.suit() == suit ||
                      (hearts && r.queen_breaks_hearts && p.card == Card(Suit::kSpades, kQueen));
        if (restricted && !broken && !(hand - CardSet::whole_suit(suit)).empty())
            return hand - CardSet::whole_suit(suit);
        return hand;
    }
    const Suit led = info.plays[info.plays.size() - in_trick].card.suit();
    if (hand.has_suit(led)) return hand.of_suit(led);
    if (hearts && first_trick && !r.first_trick_points_allowed) {
        const CardSet clean = hand - CardSet::whole_suit(Suit::kHearts) - kQueenOfSpades;
        if (!clean.empty()) return clean;
    }
    return hand;
}

// Checks what the seat to act is shown, and the legal cards against the reference.
void check_decision(const Game& g) {
    const Rules& r = g.rules();
    const int seat = g.to_act();
    const InfoState info = g.info_state(seat);
    ASSERT_EQ(info.seat, seat);
    ASSERT_EQ(info.phase, g.phase());
    for (int s = 0; s < r.players; ++s) {
        if (s != seat) {
            ASSERT_TRUE(info.play.hands[s].empty())
                << "InfoState shows seat " << s << " to seat " << seat;
        }
    }
    // Nor does any other seat's view, asked at any moment.
    for (int viewer = 0; viewer < r.players; ++viewer) {
        const InfoState other = g.info_state(viewer);
        for (int s = 0; s < r.players; ++s) {
            if (s != viewer) {
                ASSERT_TRUE(other.play.hands[s].empty())
                    << "InfoState shows seat " << s << " to seat " << viewer;
            }
        }
        ASSERT_TRUE(g.hand().deal.hands[viewer].contains_all(other.dealt));
    }
    if (g.phase() == Phase::kBlindNil) {
        ASSERT_TRUE(info.hand.empty());
        ASSERT_TRUE(info.dealt.empty());
        ASSERT_TRUE(info.play.hands[seat].empty());
    } else {
        ASSERT_EQ(info.hand, g.play_state().hands[seat]);
        ASSERT_EQ(info.dealt, g.hand().deal.hands[seat]);
    }
    ASSERT_EQ(info.plays, g.hand().plays);
    ASSERT_EQ(info.bids, g.hand().bids);
    // Only this seat's own passes/exchanges.
    if (r.game == GameKind::kHearts) {
        ASSERT_EQ(info.passed, g.hand().passed[seat]);
    }
    ASSERT_TRUE(info.passed.empty() || info.dealt.contains_all(info.passed) ||
                r.game == GameKind::kSpades);
    if (g.phase() == Phase::kPass) {
        ASSERT_GE(info.pass_to, 0);
        ASSERT_NE(info.pass_to, seat);
        ASSERT_EQ(info.pass_count, r.game == GameKind::kHearts ? r.pass_count : 2);
        if (r.game == GameKind::kSpades) {
            ASSERT_EQ(info.pass_to, (seat + 2) % 4);
        }
    }
    if (g.phase() != Phase::kPlay) return;
    const CardSet legal = info.legal_cards();
    ASSERT_FALSE(legal.empty());
    ASSERT_TRUE(info.hand.contains_all(legal));
    ASSERT_EQ(legal, reference_legal(r, info))
        << "seat " << seat << " hand " << hand_to_string(info.hand);
    ASSERT_EQ(legal, g.play_state().legal_moves(g.play_rules()));
    for (Card c : CardSet::full_deck()) {
        const std::string why = g.play_state().why_illegal(g.play_rules(), c);
        ASSERT_EQ(why.empty(), legal.contains(c)) << to_string(c) << ": " << why;
    }
}

// The trick winner from first principles.
int reference_winner(const Rules& r, const std::vector<PlayedCard>& trick) {
    std::size_t best = 0;
    for (std::size_t i = 1; i < trick.size(); ++i) {
        const Card c = trick[i].card, b = trick[best].card;
        const bool ct = r.game == GameKind::kSpades && c.suit() == Suit::kSpades;
        const bool bt = r.game == GameKind::kSpades && b.suit() == Suit::kSpades;
        if ((ct && !bt) || (c.suit() == b.suit() && c.rank() > b.rank())) best = i;
    }
    return trick[best].seat;
}

// Checks one finished hand; `before` is the score board before it.
void check_hand(const Rules& r, const HandRecord& h, const ScoreBoard& before) {
    const int n = r.players, per = r.cards_per_hand();
    ASSERT_TRUE(h.finished);
    ASSERT_EQ(h.deal.all_cards(), r.deck());
    // Every card played exactly once.
    ASSERT_EQ(static_cast<int>(h.plays.size()), r.deck().size());
    CardSet played;
    std::array<CardSet, kMaxPlayers> by_seat{};
    for (const PlayedCard& p : h.plays) {
        ASSERT_FALSE(played.contains(p.card)) << to_string(p.card) << " played twice";
        played |= p.card;
        by_seat[p.seat] |= p.card;
    }
    ASSERT_EQ(played, r.deck());
    // Each seat played exactly the hand it held after passing / the blind-nil exchange.
    std::array<CardSet, kMaxPlayers> held = h.deal.hands;
    if (r.game == GameKind::kHearts) {
        for (int s = 0; s < n; ++s) {
            ASSERT_EQ(h.passed[s].size(), h.pass_offset == 0 ? 0 : r.pass_count);
            ASSERT_TRUE(h.deal.hands[s].contains_all(h.passed[s]));
            held[s] -= h.passed[s];
        }
        for (int s = 0; s < n; ++s) held[(s + h.pass_offset + n) % n] |= h.passed[s];
        ASSERT_EQ(h.pass_offset, r.pass_offset(h.number));
    } else {
        for (const auto& [giver, given] : h.exchanges) {
            ASSERT_EQ(given.size(), 2);
            ASSERT_TRUE(held[giver].contains_all(given));
            held[giver] -= given;
            held[(giver + 2) % 4] |= given;
        }
        int blind = 0;
        for (int s = 0; s < n; ++s) blind += h.bids[s].blind;
        ASSERT_EQ(static_cast<int>(h.exchanges.size()), 2 * blind);
    }
    for (int s = 0; s < n; ++s) {
        ASSERT_EQ(by_seat[s], held[s]) << "seat " << s;
        ASSERT_EQ(by_seat[s].size(), per);
    }
    // Tricks: clockwise from the leader, the re-derived winner leads the next.
    ASSERT_EQ(static_cast<int>(h.trick_winners.size()), per);
    std::array<int, kMaxPlayers> tricks{};
    std::array<CardSet, kMaxPlayers> taken{};
    int leader = h.plays[0].seat;
    const Card first = r.first_lead_card();
    if (first != kNoCard) {
        ASSERT_EQ(h.plays[0].card, first);
    } else {
        ASSERT_EQ(leader, (h.dealer + 1) % n);
    }
    for (int t = 0; t < per; ++t) {
        std::vector<PlayedCard> trick(h.plays.begin() + t * n, h.plays.begin() + (t + 1) * n);
        for (int i = 0; i < n; ++i) ASSERT_EQ(trick[i].seat, (leader + i) % n);
        const int w = reference_winner(r, trick);
        ASSERT_EQ(h.trick_winners[t], w);
        ++tricks[w];
        for (const PlayedCard& p : trick) taken[w] |= p.card;
        leader = w;
    }
    int total = 0;
    for (int s = 0; s < n; ++s) {
        ASSERT_EQ(h.tricks[s], tricks[s]);
        ASSERT_EQ(h.taken[s], taken[s]);
        total += h.tricks[s];
    }
    ASSERT_EQ(total, per);
    // Scores.
    for (int u = 0; u < r.num_units(); ++u)
        ASSERT_EQ(h.scores_after.score[u], before.score[u] + h.score.delta[u]);
    if (r.game == GameKind::kHearts) {
        const bool jd = r.jack_of_diamonds;
        int points = 0, delta = 0, shooter = -1;
        for (int s = 0; s < n; ++s) {
            points += h.score.points[s];
            delta += h.score.delta[s];
            if (taken[s].contains_all(CardSet::whole_suit(Suit::kHearts) | kQueenOfSpades))
                shooter = s;
        }
        ASSERT_EQ(points, 26 - (jd ? 10 : 0));
        ASSERT_EQ(h.score.moon_shooter, shooter);
        const int moon_total = r.moon_subtracts ? -26 : 26 * (n - 1);
        ASSERT_EQ(delta, (shooter >= 0 ? moon_total : 26) - (jd ? 10 : 0));
        if (shooter < 0) {
            for (int s = 0; s < n; ++s) ASSERT_EQ(h.score.delta[s], h.score.points[s]);
        }
    } else {
        for (int u = 0; u < r.num_units(); ++u) {
            int contract = 0, counted = 0, nil = 0;
            for (int s = 0; s < n; ++s) {
                if (r.unit_of(s) != u) continue;
                ASSERT_TRUE(h.bids[s].made());
                if (h.bids[s].tricks == 0) {
                    nil += (tricks[s] == 0 ? 1 : -1) * (h.bids[s].blind ? 200 : 100);
                    if (r.nil_tricks_count_for_partner) counted += tricks[s];
                } else {
                    contract += h.bids[s].tricks;
                    counted += tricks[s];
                }
            }
            int want = nil, bags = before.bags[u];
            if (contract > 0 && counted >= contract) {
                want += 10 * contract + counted - contract;
                bags += counted - contract;
            } else if (contract > 0) {
                want -= 10 * contract;
            }
            while (bags >= r.bags_per_penalty) {
                bags -= r.bags_per_penalty;
                want -= r.bag_penalty;
            }
            ASSERT_EQ(h.score.delta[u], want) << "unit " << u;
            ASSERT_EQ(h.scores_after.bags[u], bags) << "unit " << u;
        }
    }
}

// Checks every finished hand of a finished game, and how it ended.
void check_game(const Game& g) {
    const Rules& r = g.rules();
    ASSERT_TRUE(g.over());
    ScoreBoard before;
    const auto& hands = g.finished_hands();
    ASSERT_FALSE(hands.empty());
    for (std::size_t i = 0; i < hands.size(); ++i) {
        ASSERT_EQ(hands[i].number, static_cast<int>(i));
        ASSERT_EQ(hands[i].dealer, (r.players - 1 + static_cast<int>(i)) % r.players);
        ASSERT_EQ(hands[i].deal, deal_from_seed(r, g.seed(), static_cast<int>(i)));
        check_hand(r, hands[i], before);
        if (::testing::Test::HasFatalFailure()) return;
        before = hands[i].scores_after;
        const bool last = i + 1 == hands.size();
        ASSERT_EQ(game_winners(r, before).empty(), !last) << "hand " << i;
    }
    ASSERT_EQ(g.winners(), game_winners(r, g.scores()));
    ASSERT_FALSE(g.winners().empty());
}

// A random player that also bids blind nil whenever it may (half the time).
class BlindNilTaker : public Player {
  public:
    explicit BlindNilTaker(std::uint64_t seed) : rng_(seed) {}
    std::string name() const override { return "blind-nil-taker"; }
    bool blind_nil(const InfoState&) override { return rng_() % 2 == 0; }
    int bid(const InfoState& info) override {
        const int lo = info.rules->nil_allowed ? 0 : 1;
        return lo + static_cast<int>(rng_() % (info.rules->cards_per_hand() - lo + 1));
    }
    CardSet pass(const InfoState& info) override {
        CardSet left = info.hand, out;
        for (int i = 0; i < info.pass_count; ++i) out |= take(left);
        return out;
    }
    Card play(const InfoState& info) override {
        CardSet legal = info.legal_cards();
        return take(legal);
    }

  private:
    Card take(CardSet& from) {
        int k = static_cast<int>(rng_() % from.size());
        for (Card c : from)
            if (k-- == 0) {
                from -= c;
                return c;
            }
        return kNoCard;
    }
    std::mt19937_64 rng_;
};

struct Form {
    const char* preset;
    std::vector<std::string> overrides;
};

std::string form_name(const Form& f) {
    std::string s = f.preset;
    for (const auto& o : f.overrides) s += " " + o;
    return s;
}

const std::vector<Form>& forms() {
    static const std::vector<Form> kForms = {
        {"hearts3", {}},
        {"hearts4", {}},
        {"hearts5", {}},
        {"hearts6", {}},
        {"hearts4", {"jack_of_diamonds=true", "moon_subtracts=true"}},
        {"hearts4", {"queen_breaks_hearts=true", "first_trick_points_allowed=true"}},
        {"hearts4", {"no_passing=true", "hearts_breaking=false", "pass_count=1"}},
        {"hearts5", {"jack_of_diamonds=true", "pass_count=2"}},
        {"spades-partnership", {}},
        {"spades-partnership", {"spades_lead_anytime=true", "first_lead_two_clubs=true"}},
        {"spades-partnership", {"nil_tricks_count_for_partner=true", "target=250"}},
        {"spades-cutthroat3", {}},
        {"spades-cutthroat3", {"first_lead_two_clubs=true"}},
        {"spades-cutthroat4", {}},
    };
    return kForms;
}

int games_per_form() {
    return testing::long_run() ? 2000 : 40;
}

// Plays games with the given seat factory, checking every decision and every hand.
template <class MakePlayer>
void run_checked_games(const Form& form, int games, std::uint64_t seed_base, MakePlayer make) {
    const Rules r = preset(form.preset, form.overrides);
    for (int i = 0; i < games; ++i) {
        const std::uint64_t seed = seed_base + static_cast<std::uint64_t>(i);
        Game g(r, seed);
        // The observer sees every card as it is played: it must have been in the mover's hand
        // (checked through the legal set taken just before the decision).
        CardSet legal_before;
        int cards_seen = 0;
        g.set_observer([&](const Game&, const GameEvent& e) {
            if (e.kind != GameEvent::Kind::kCard) return;
            ++cards_seen;
            EXPECT_TRUE(legal_before.contains(e.card)) << to_string(e.card);
        });
        std::vector<std::unique_ptr<Player>> players;
        for (int s = 0; s < r.players; ++s)
            players.push_back(make(mix_seed(seed, static_cast<std::uint64_t>(s))));
        int steps = 0;
        while (!g.over()) {
            check_decision(g);
            if (::testing::Test::HasFatalFailure()) {
                ADD_FAILURE() << form_name(form) << " seed " << seed << " step " << steps;
                return;
            }
            legal_before =
                g.phase() == Phase::kPlay ? g.play_state().legal_moves(g.play_rules()) : CardSet();
            step_game(g, players);
            ASSERT_LT(++steps, 100000) << "game does not end";
        }
        check_game(g);
        if (::testing::Test::HasFatalFailure()) {
            ADD_FAILURE() << form_name(form) << " seed " << seed;
            return;
        }
        ASSERT_EQ(cards_seen, static_cast<int>(g.finished_hands().size()) * r.deck().size());
    }
}

TEST(GameProperties, RandomPlayersEveryForm) {
    for (const Form& f : forms()) {
        SCOPED_TRACE(form_name(f));
        run_checked_games(f, games_per_form(), 1000,
                          [](std::uint64_t s) { return std::make_unique<RandomBot>(s); });
        if (HasFatalFailure()) return;
    }
}

TEST(GameProperties, BlindNilTakersPartnership) {
    int blind_bids = 0, exchanges = 0;
    for (const Form& f :
         {Form{"spades-partnership", {}}, Form{"spades-partnership", {"blind_nil_deficit=0"}}}) {
        SCOPED_TRACE(form_name(f));
        run_checked_games(f, games_per_form(), 5000,
                          [&](std::uint64_t s) -> std::unique_ptr<Player> {
                              return std::make_unique<BlindNilTaker>(s);
                          });
        if (HasFatalFailure()) return;
        // Count how much blind nil was exercised.
        const Rules r = preset(f.preset, f.overrides);
        for (int i = 0; i < 5; ++i) {
            Game g(r, 5000 + static_cast<std::uint64_t>(i));
            std::vector<std::unique_ptr<Player>> players;
            for (int s = 0; s < 4; ++s)
                players.push_back(std::make_unique<BlindNilTaker>(mix_seed(5000 + i, s)));
            run_game(g, players);
            for (const HandRecord& h : g.finished_hands()) {
                for (int s = 0; s < 4; ++s) blind_bids += h.bids[s].blind;
                exchanges += static_cast<int>(h.exchanges.size());
            }
        }
    }
    EXPECT_GT(blind_bids, 0);
    EXPECT_EQ(exchanges, 2 * blind_bids);
}

TEST(GameProperties, SameSeedSameGame) {
    for (const char* p : {"hearts4", "spades-partnership"}) {
        const Rules r = preset(p);
        std::vector<std::vector<PlayedCard>> runs[2];
        for (auto& run : runs) {
            Game g(r, 77);
            std::vector<std::unique_ptr<Player>> players;
            for (int s = 0; s < r.players; ++s)
                players.push_back(std::make_unique<RandomBot>(mix_seed(77, s)));
            run_game(g, players);
            for (const HandRecord& h : g.finished_hands()) run.push_back(h.plays);
        }
        EXPECT_EQ(runs[0], runs[1]) << p;
    }
}

}  // namespace
}  // namespace cardgames
