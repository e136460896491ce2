// The Spades heuristics: bidding by counting tricks, the blind-nil decision and exchange, and card
// play for the contract, for a nil bid (own, partner's, opponents').

#include <algorithm>
#include <cmath>

#include "cardgames/players/heuristics.hpp"
#include "cardgames/rules/nil_play.hpp"
#include "cardgames/rules/scoring.hpp"

namespace cardgames::heuristics {

namespace {

constexpr Suit kTrump = Suit::kSpades;

bool holds(CardSet hand, Suit s, Rank r) {
    return hand.contains(Card(s, r));
}
bool is_spade(Card c) {
    return c.suit() == kTrump;
}

// Where the hand stands for this seat: whose nil is alive, and what our contract still needs.
struct SpadesPlan {
    int partner = -1;
    bool my_nil = false;                      // I bid nil and have taken no trick yet
    bool partner_nil = false;                 // likewise for my partner
    std::array<bool, kMaxPlayers> opp_nil{};  // opponents whose nil is still alive
    bool any_opp_nil = false;
    int need = 0;       // tricks our contract still needs (<= 0: made)
    bool want = false;  // keep winning tricks: contract short, or an opponent close to being set
};

SpadesPlan make_plan(const TableView& v) {
    const InfoState& info = v.info;
    const auto& won = info.play.tricks_won;
    SpadesPlan p;
    p.partner = info.partner();
    p.my_nil = info.bids[v.seat].nil_stands(won[v.seat]);
    p.partner_nil = p.partner >= 0 && info.bids[p.partner].nil_stands(won[p.partner]);
    const int mine = v.rules.unit_of(v.seat);
    for (int s = 0; s < v.n; ++s) {
        if (v.rules.unit_of(s) == mine || !info.bids[s].nil_stands(won[s])) continue;
        p.opp_nil[s] = true;
        p.any_opp_nil = true;
    }
    // unit_contract counts in int; the play state keeps int8.
    std::array<int, kMaxPlayers> tricks{};
    std::copy(won.begin(), won.end(), tricks.begin());
    p.need = unit_contract(*info.rules, info.bids, tricks, mine).need();
    bool can_set = false;
    for (int u = 0; u < v.rules.num_units(); ++u) {
        const int nu = u == mine ? 0 : unit_contract(*info.rules, info.bids, tricks, u).need();
        if (nu > 0 && v.tricks_left - nu <= 1) can_set = true;
    }
    p.want = p.need > 0 || can_set;
    return p;
}

// Losing the trick on purpose, as a nil bidder does.
Card duck(const TableView& v) {
    return nil_duck(v.legal, v.beaters(v.legal), v.last_to_play());
}

// A cheap card that gives nothing away: the lowest of the led suit, else a low discard from a short
// side suit (making a void to trump later) that is not a winner.
Card low_card(const TableView& v) {
    const CardSet follow = v.legal.of_suit(v.led);
    if (!v.leading() && !follow.empty()) return lowest_rank(follow);
    const CardSet side = v.legal - CardSet::whole_suit(kTrump);
    if (side.empty()) return lowest_rank(v.legal);
    return best_by(side, [&](Card c) {
        return -(c.rank() + 2 * v.hand.count(c.suit()) + (v.is_master(c) ? 30 : 0));
    });
}

// No opponent is known to be out of c's suit with trumps left, and enough of the suit is out that
// nobody is likely to be void yet.
bool safe_from_ruff(const TableView& v, const SpadesPlan& p, Card c) {
    const bool trumps_out = !v.unseen.of_suit(kTrump).empty();
    if (!trumps_out) return true;
    for (int s = 0; s < v.n; ++s) {
        if (s == v.seat || s == p.partner) continue;
        if (v.void_in[s][static_cast<int>(c.suit())] && !v.void_in[s][static_cast<int>(kTrump)])
            return false;
    }
    return v.unseen.count(c.suit()) >= v.n - 2;
}

// My nil: lead what the voids shown leave someone to follow and beat.
Card nil_lead(const TableView& v) {
    return cardgames::nil_lead(v.legal, v.unseen, [&](Card c) {
        int followers = 0;
        for (int s = 0; s < v.n; ++s)
            if (s != v.seat && !v.void_in[s][static_cast<int>(c.suit())]) ++followers;
        return followers;
    });
}

// Partner's nil, I lead: lead high (winners first, suits partner is out of best) so that partner
// can play under or discard.
Card cover_lead(const TableView& v, const SpadesPlan& p) {
    return best_by(v.legal, [&](Card c) {
        return 2.0 * c.rank() + (v.is_master(c) ? 20 : 0) +
               (v.void_in[p.partner][static_cast<int>(c.suit())] ? 15 : 0) - (is_spade(c) ? 12 : 0);
    });
}

// Partner's nil, partner plays after me: make the trick's top card as high as I can, so partner
// has room to play under it.
Card cover_before_partner(const TableView& v) {
    const CardSet follow = v.legal.of_suit(v.led);
    const CardSet over = v.beaters(v.legal);
    if (!follow.empty()) return over.empty() ? lowest_rank(follow) : highest_rank(over);
    // Out of the led suit: trump only when the card on top could still be beaten by partner.
    const bool top_is_safe = is_spade(v.winning) || v.is_master(v.winning);  // partner can go under
    if (!top_is_safe && !over.empty()) return lowest_rank(over);
    return low_card(v);
}

Card normal_lead(const TableView& v, const SpadesPlan& p) {
    const CardSet side = v.legal - CardSet::whole_suit(kTrump);
    const CardSet spades = v.legal.of_suit(kTrump);
    if (p.any_opp_nil) {
        // Lead low into the nil bidder, in a suit they still hold.
        return best_by(v.legal, [&](Card c) {
            bool open = false;
            for (int s = 0; s < v.n; ++s)
                if (p.opp_nil[s] && !v.void_in[s][static_cast<int>(c.suit())]) open = true;
            return -c.rank() - (open ? 0 : 30) - (is_spade(c) ? 15 : 0) + v.higher_unseen(c);
        });
    }
    if (!p.want) {
        // The contract is made: lead what is most likely to lose.
        return best_by(v.legal, [&](Card c) {
            if (v.is_master(c)) return -100.0 - c.rank();
            return 3.0 * v.higher_unseen(c) - c.rank() - (is_spade(c) ? 10 : 0);
        });
    }
    // Cash side-suit winners nobody can trump, from the suit with most cards out.
    CardSet cash;
    for (Card c : side)
        if (v.is_master(c) && safe_from_ruff(v, p, c)) cash |= c;
    if (!cash.empty()) return best_by(cash, [&](Card c) { return v.unseen.count(c.suit()); });
    // Draw trumps with the top spade when holding length.
    if (!spades.empty() && v.is_master(highest_rank(spades)) && v.hand.count(kTrump) >= 2)
        return highest_rank(spades);
    // A side singleton sets up a ruff.
    if (v.hand.count(kTrump) >= 2)
        for (Card c : side)
            if (v.hand.count(c.suit()) == 1 && !v.is_master(c)) return c;
    if (side.empty())
        return v.is_master(highest_rank(spades)) ? highest_rank(spades) : lowest_rank(spades);
    // Low from the longest side suit, not away from an unsupported king or queen.
    const Card pick = best_by(side, [&](Card c) {
        const Suit s = c.suit();
        const bool ace = holds(v.hand, s, kAce) || v.info.play.played.contains(Card(s, kAce));
        const bool king = holds(v.hand, s, kKing) || v.info.play.played.contains(Card(s, kKing));
        int score = 2 * v.hand.count(s);
        if (holds(v.hand, s, kKing) && !ace) score -= 3;
        if (holds(v.hand, s, kQueen) && !(ace && king)) score -= 2;
        return score * 100.0 - c.rank();
    });
    return pick;
}

Card normal_follow(const TableView& v, const SpadesPlan& p) {
    const CardSet follow = v.legal.of_suit(v.led);
    const CardSet over = v.beaters(v.legal);
    // An opponent's nil is winning this trick: let it.
    if (p.opp_nil[v.winner]) return duck(v);
    // An opponent's nil plays after me: keep the trick low for them to win.
    for (int s = 0; s < v.n; ++s)
        if (p.opp_nil[s] && v.plays_after_me(s))
            return follow.empty() ? low_card(v) : lowest_rank(follow);
    if (!p.want) return duck(v);

    if (p.partner >= 0 && v.winner == p.partner) {
        // Don't overtake partner unless partner's card is in danger and I hold a sure winner.
        if (v.last_to_play() || v.stays_on_top(v.winning)) return low_card(v);
        CardSet sure;
        for (Card c : over)
            if (!is_spade(c) && v.likely_wins(c)) sure |= c;
        return sure.empty() ? low_card(v) : lowest_rank(sure);
    }
    if (over.empty()) return low_card(v);
    // Win as cheaply as possible.
    if (v.last_to_play()) return lowest_rank(over);
    CardSet sure;
    for (Card c : over)
        if (v.likely_wins(c)) sure |= c;
    if (!sure.empty()) return lowest_rank(sure);
    if (follow.empty()) return lowest_rank(over);  // trump in; the cheapest trump that wins so far
    if (v.trick_size == 1) return lowest_rank(follow);  // second hand low
    // Third hand high: the cheapest of my top sequence.
    const Card top = bottom_of_sequence(v.hand, v.info.play.played, highest_rank(follow));
    return v.beats(top, v.winning) ? top : lowest_rank(follow);
}

}  // namespace

Card spades_play(const TableView& v) {
    const SpadesPlan p = make_plan(v);
    if (p.my_nil) return v.leading() ? nil_lead(v) : duck(v);
    if (p.partner_nil) {
        if (v.leading()) return cover_lead(v, p);
        if (v.plays_after_me(p.partner)) return cover_before_partner(v);
        if (v.winner == p.partner) {
            const CardSet over = v.beaters(v.legal);
            if (!over.empty()) return lowest_rank(over);
        }
    }
    return v.leading() ? normal_lead(v, p) : normal_follow(v, p);
}

double spades_trick_estimate(CardSet hand, int players) {
    const bool three = players == 3;  // 17 cards each: suits run longer, honours last longer
    double tricks = 0;

    // Spades: honours by length, then small spades beyond the usual length.
    const int sp = hand.count(kTrump);
    int honours = 0;
    auto spade_honour = [&](Rank r, int full_len, double short_value) {
        if (!holds(hand, kTrump, r)) return;
        ++honours;
        tricks += sp >= full_len ? 1.0 : short_value;
    };
    spade_honour(kAce, 1, 1.0);
    spade_honour(kKing, 2, 0.4);
    spade_honour(kQueen, 3, 0.4);
    spade_honour(kJack, 4, 0.2);
    const int usual = three ? 4 : 3;
    for (int pos = honours + 1; pos <= sp; ++pos) {
        if (pos == usual + 1)
            tricks += 0.5;
        else if (pos > usual + 1)
            tricks += 1.0;
    }
    const int spare = std::max(0, sp - static_cast<int>(std::lround(tricks)));

    // Side suits: aces, protected kings, queens with support; short suits ruff when spades spare.
    double ruffs = 0;
    int ruff_spades = spare;
    for (Suit s : {Suit::kClubs, Suit::kDiamonds, Suit::kHearts}) {
        const int len = hand.count(s);
        const bool a = holds(hand, s, kAce), k = holds(hand, s, kKing), q = holds(hand, s, kQueen);
        const int long_len = three ? 7 : 6;
        if (a) tricks += len <= long_len ? 1.0 : 0.6;
        if (k) {
            if (len == 1)
                tricks += 0.1;
            else if (a)
                tricks += len <= long_len - 1 ? 0.9 : 0.5;
            else
                tricks += len <= long_len - 2 ? (three ? 0.8 : 0.7) : 0.4;
        }
        if (q && len >= 3 && len <= long_len - 1)
            tricks += (a && k) ? 0.6 : (a || k) ? 0.4 : (three ? 0.3 : 0.2);
        if (ruff_spades > 0 && len <= 2) {
            const double value = len == 0 ? (ruff_spades >= 2 ? 1.6 : 0.9) : len == 1 ? 0.6 : 0.3;
            ruffs += value;
            ruff_spades -= len == 0 ? std::min(2, ruff_spades) : 1;
        }
    }
    return tricks + ruffs;
}

bool spades_nil_safe(CardSet hand, bool cutthroat) {
    const CardSet spades = hand.of_suit(kTrump);
    const int long_spades = hand.size() >= 17 ? 5 : 4;
    if (spades.size() >= long_spades) return false;
    if (!spades.empty()) {
        const Rank top = highest_rank(spades).rank();
        if (top >= kJack || (top >= kTen && spades.size() >= 3)) return false;
    }
    for (Suit s : {Suit::kClubs, Suit::kDiamonds, Suit::kHearts}) {
        int low = 0;
        for (Card c : hand.of_suit(s))
            if (c.rank() <= 7) ++low;
        if (holds(hand, s, kAce)) return false;
        if (holds(hand, s, kKing) && low < (cutthroat ? 4 : 3)) return false;
        if (holds(hand, s, kQueen) && low < (cutthroat ? 3 : 2)) return false;
        if (holds(hand, s, kJack) && low < 1) return false;
    }
    return true;
}

int spades_bid(const InfoState& info) {
    const Rules& r = *info.rules;
    const int partner = info.partner();
    const bool partner_nil = partner >= 0 && info.bids[partner].is_nil();
    const double estimate = spades_trick_estimate(info.hand, r.players);
    // A partner who bid big can cover a nil with a trick's worth more in our hand.
    const bool strong_partner = partner >= 0 && info.bids[partner].tricks >= 4;
    const double nil_limit = strong_partner ? 2.0 : 1.6;
    if (r.nil_allowed && !partner_nil && estimate < nil_limit &&
        spades_nil_safe(info.hand, partner < 0))
        return 0;
    int bid = static_cast<int>(std::floor(estimate + 0.15));
    // Covering partner's nil means overtaking their cards: we take a little more ourselves.
    if (partner_nil) bid += 1;
    return std::clamp(bid, 1, r.cards_per_hand());
}

bool spades_blind_nil(const InfoState& info) {
    const Rules& r = *info.rules;
    const int partner = info.partner();
    if (partner < 0 || info.bids[partner].is_nil()) return false;
    const int mine = r.unit_of(info.seat);
    const int them = info.scores.score[1 - mine];
    const int deficit = them - info.scores.score[mine];
    // Far behind, or behind with the opponents about to win: the 200-point gamble is worth it.
    return deficit >= std::max(200, 2 * r.blind_nil_deficit) ||
           (deficit >= r.blind_nil_deficit && them >= r.target - 100);
}

CardSet spades_exchange(const InfoState& info) {
    // Spades rank above every side card for this purpose: they are the nil bidder's worst danger.
    auto weight = [](Card c) { return c.rank() + (is_spade(c) ? 13 : 0); };
    const bool nil_bidder = info.bids[info.seat].blind;
    CardSet out, left = info.hand;
    while (out.size() < info.pass_count && !left.empty()) {
        const Card c =
            nil_bidder ? best_by(left, weight) : best_by(left, [&](Card x) { return -weight(x); });
        out |= c;
        left -= c;
    }
    return out;
}

}  // namespace cardgames::heuristics
