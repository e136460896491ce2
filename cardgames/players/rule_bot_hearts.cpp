// The Hearts heuristics: passing the dangerous cards, and card play that ducks, dumps the Q♠ and
// high hearts, flushes the Q♠ out with low spades and stops an obvious moon.

#include <algorithm>
#include <utility>
#include <vector>

#include "cardgames/players/heuristics.hpp"

namespace cardgames::heuristics {

namespace {

const Card kSpadeQueen{Suit::kSpades, kQueen};

int count_below(CardSet cards, Suit s, Rank r) {
    int k = 0;
    for (Card c : cards.of_suit(s))
        if (c.rank() < r) ++k;
    return k;
}

// How much trouble a hand is likely to cause its holder: unguarded Q♠, A♠/K♠ that may catch
// the Q♠, high hearts, high cards in short side suits; voids are worth having.
double hand_danger(CardSet kept, const Rules& rules) {
    double d = 0;
    const int low_spades = count_below(kept, Suit::kSpades, kQueen);
    if (kept.contains(kSpadeQueen)) {
        // Well guarded, the queen is an asset: we choose whom to give it to.
        d += low_spades >= 4 ? -0.5 : low_spades == 3 ? 4 : low_spades == 2 ? 9 : 13;
    } else {
        for (Rank r : {kAce, kKing})
            if (kept.contains(Card(Suit::kSpades, r)))
                d += low_spades >= 4 ? 1 : low_spades == 3 ? 2.5 : (r == kAce ? 6 : 5);
    }
    const int low_hearts = count_below(kept, Suit::kHearts, 7);
    for (Card c : kept.of_suit(Suit::kHearts))
        if (c.rank() >= 9)
            d += (c.rank() - 8) * (low_hearts >= 3 ? 0.4 : low_hearts >= 1 ? 0.7 : 1.0);
    for (Suit s : {Suit::kClubs, Suit::kDiamonds}) {
        const int len = kept.count(s), low = count_below(kept, s, 7);
        for (Card c : kept.of_suit(s))
            if (c.rank() >= kJack) d += (c.rank() - 10) * (low >= 2 ? 0.3 : 0.8);
        if (len == 0) d -= 2.5;
        if (len == 1 && kept.of_suit(s).lowest().rank() <= 6) d -= 0.8;
    }
    if (rules.jack_of_diamonds && kept.contains(Card(Suit::kDiamonds, kJack))) d -= 3;
    // Between otherwise equal choices, keep the lower cards.
    for (Card c : kept) d += 0.01 * c.rank();
    return d;
}

// Exactly one other seat has taken penalty points, and a meaningful amount: it may be shooting.
int moon_candidate(const TableView& v) {
    int who = -1;
    for (int s = 0; s < v.n; ++s) {
        if (v.penalty_taken[s] <= 0) continue;
        if (who >= 0) return -1;
        who = s;
    }
    if (who < 0 || who == v.seat || v.penalty_taken[who] < 10) return -1;
    return who;
}

bool queen_out(const TableView& v) {
    return !v.info.play.played.contains(kSpadeQueen) && !v.hand.contains(kSpadeQueen);
}

// How badly I want to be rid of a card when discarding.
double liability(const TableView& v, Card c) {
    if (c == kSpadeQueen) return 100;
    if (c.suit() == Suit::kSpades && c.rank() > kQueen && !v.info.play.played.contains(kSpadeQueen))
        return 50 + c.rank();
    if (v.rules.jack_of_diamonds && c == Card(Suit::kDiamonds, kJack)) return -50;
    if (c.suit() == Suit::kHearts) return c.rank() + 6;
    return c.rank() + (v.hand.count(c.suit()) <= 2 ? 2 : 0);
}

Card hearts_lead(const TableView& v) {
    const CardSet hearts = v.legal.of_suit(Suit::kHearts);
    if (moon_candidate(v) >= 0 && !hearts.empty() && v.is_master(highest_rank(hearts)))
        return highest_rank(hearts);  // take a heart myself: the moon is off
    const bool q_out = queen_out(v);
    const bool big_spade =
        v.hand.contains(Card(Suit::kSpades, kAce)) || v.hand.contains(Card(Suit::kSpades, kKing));
    if (q_out && !big_spade) {
        // Smoke the queen out: lead spades under it, the highest first to keep the small ones.
        CardSet under;
        for (Card c : v.legal.of_suit(Suit::kSpades))
            if (c.rank() < kQueen) under |= c;
        if (!under.empty()) return highest_rank(under);
    }
    return best_by(v.legal, [&](Card c) {
        const Suit s = c.suit();
        int followers = 0;
        for (int p = 0; p < v.n; ++p)
            if (p != v.seat && !v.void_in[p][static_cast<int>(s)]) ++followers;
        const int h = v.higher_unseen(c), l = v.lower_unseen(c);
        if (c == kSpadeQueen) return -60.0;
        if (h == 0 || followers == 0) {
            // A sure winner: fine only when everyone must follow and no points can fall on it.
            const bool clean = s != Suit::kHearts && !(s == Suit::kSpades && q_out) &&
                               followers == v.n - 1 && v.unseen.count(s) >= v.n - 1;
            return clean ? 1.0 : -50.0 - c.rank();
        }
        if (s == Suit::kSpades && q_out && c.rank() > kQueen) return -40.0;
        double score = 3.0 * h / (h + l) - 0.1 * c.rank();
        if (s == Suit::kSpades && v.hand.contains(kSpadeQueen)) score -= 1.5;
        if (s != Suit::kHearts && v.hand.count(s) <= 2) score += 0.5;
        if (followers < v.n - 1 && q_out) score -= 1.0;
        return score;
    });
}

Card hearts_follow(const TableView& v) {
    const CardSet follow = v.legal.of_suit(v.led);
    int trick_points = 0;
    for (int i = 0; i < v.trick_size; ++i)
        trick_points += v.play_rules.points[v.info.play.trick[i].index()];
    const int shooter = moon_candidate(v);
    const bool moon_threat = shooter >= 0 && (v.winner == shooter || v.plays_after_me(shooter));
    // Prefer not to win with the Q♠ itself when another card will do.
    auto without_queen = [](CardSet s) {
        const CardSet t = s - kSpadeQueen;
        return t.empty() ? s : t;
    };

    if (!follow.empty()) {
        CardSet losers;
        for (Card c : follow)
            if (c.rank() < v.winning.rank()) losers |= c;
        const CardSet winners = follow - losers;
        if (moon_threat && !winners.empty() && (trick_points > 0 || v.led == Suit::kHearts))
            return highest_rank(without_queen(winners));
        // No points may fall on the first trick: shed the biggest card while it is free.
        if (v.info.play.tricks_played == 0 && !v.play_rules.first_trick_barred.empty())
            return highest_rank(without_queen(follow));
        if (v.last_to_play()) {
            const CardSet clean_winners = winners - kSpadeQueen;
            if (trick_points <= 0 && !clean_winners.empty()) return highest_rank(clean_winners);
            if (!losers.empty()) return highest_rank(losers);
            return highest_rank(without_queen(winners));
        }
        if (!losers.empty()) return highest_rank(losers);
        // Every card I hold beats the trick so far.
        const bool risky =
            trick_points > 0 || v.later_void(v.led) || (v.led == Suit::kSpades && queen_out(v));
        const CardSet w = without_queen(winners);
        return risky ? lowest_rank(w) : highest_rank(w);
    }
    // Out of the led suit: dump the worst card, but feed no points to a would-be shooter.
    if (moon_threat && v.winner == shooter)
        return best_by(v.legal, [&](Card c) {
            return liability(v, c) - (v.play_rules.points[c.index()] > 0 ? 200 : 0);
        });
    return best_by(v.legal, [&](Card c) { return liability(v, c); });
}

// Every way to choose k cards of `cards` (k <= 4, hands <= 17 cards: a few thousand at most).
void choose(const std::vector<Card>& cards, std::size_t from, int k, CardSet chosen,
            std::vector<CardSet>& out) {
    if (k == 0) {
        out.push_back(chosen);
        return;
    }
    for (std::size_t i = from; i + static_cast<std::size_t>(k) <= cards.size(); ++i)
        choose(cards, i + 1, k - 1, chosen | cards[i], out);
}

}  // namespace

Card hearts_play(const TableView& v) {
    return v.leading() ? hearts_lead(v) : hearts_follow(v);
}

namespace {

std::vector<CardSet> every_pass(const InfoState& info) {
    std::vector<Card> cards;
    for (Card c : info.hand) cards.push_back(c);
    std::vector<CardSet> options;
    choose(cards, 0, std::min<int>(info.pass_count, static_cast<int>(cards.size())), CardSet(),
           options);
    return options;
}

}  // namespace

std::vector<CardSet> hearts_passes_by_danger(const InfoState& info) {
    std::vector<CardSet> options = every_pass(info);
    std::vector<std::pair<double, CardSet>> rated;
    rated.reserve(options.size());
    for (CardSet pass : options)
        rated.emplace_back(hand_danger(info.hand - pass, *info.rules), pass);
    std::stable_sort(rated.begin(), rated.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    for (std::size_t i = 0; i < rated.size(); ++i) options[i] = rated[i].second;
    return options;
}

CardSet hearts_pass(const InfoState& info) {
    const std::vector<CardSet> options = every_pass(info);
    CardSet best;
    double best_danger = 0;
    for (CardSet pass : options) {
        const double d = hand_danger(info.hand - pass, *info.rules);
        if (best.empty() || d < best_danger - 1e-9) {
            best = pass;
            best_danger = d;
        }
    }
    return best;
}

}  // namespace cardgames::heuristics
