// The double-dummy solver's bounds: tricks one side is sure of, decided without searching.
#include <algorithm>
#include <optional>

#include "cardgames/double_dummy/lanes.hpp"
#include "cardgames/double_dummy/solver.hpp"

namespace cardgames::double_dummy {

using namespace lanes;

int Solver::cash_tricks(const Hands& h, std::uint64_t lengths, int seat, bool broken, int goal,
                        Ranks& relevant, unsigned skip, Cashed* cashed) const {
    // Tricks the leader cashes from the top without giving up the lead: its cards above every
    // other card of their suit. Trumps first (opponents holding trumps must follow, so they may
    // run out); then each side suit for as many rounds as every opponent still holding trumps
    // can follow (following one suit leaves the others' lengths alone). A partner with trumps
    // counts only for rounds it can follow, so it is never forced to ruff and take the lead away.
    const int part = seat ^ 2, lho = (seat + 1) & 3, rho = (seat + 3) & 3;
    int winners[4], len[4][4];
    for (int s = 0; s < 4; ++s) {
        for (int p = 0; p < 4; ++p) len[p][s] = length_of(lengths, p, s);
        const std::uint16_t others = h[lho][s] | h[rho][s] | h[part][s];
        winners[s] = bits(static_cast<std::uint16_t>(h[seat][s] & above(top_rank(others))));
    }
    // A count of n rests on the n highest cards of the suit being the leader's (lengths are known).
    const auto rest_on = [&](int s, int n) { relevant.add(s, top_cards(in_hands(h, s), n)); };
    // Once the leader's top cards have drawn every other card of their suit, the rest of its
    // cards there win too (length tricks).
    const auto exhausts = [&](int s, int top) {
        return len[lho][s] <= top && len[rho][s] <= top && len[part][s] <= top;
    };
    // Or the two top cards split between leader and partner, each with a second card: low to
    // partner's, partner back to the leader's; the leader is on lead again after two tricks.
    const auto crosses = [&](int s) {
        if (len[seat][s] < 2 || len[part][s] < 2) return false;
        const std::uint16_t all = in_hands(h, s);
        const int first = top_rank(all),
                  second = top_rank(static_cast<std::uint16_t>(all & ~(1u << first)));
        const std::uint16_t top2 = static_cast<std::uint16_t>((1u << first) | (1u << second));
        return (h[seat][s] & top2) && (h[part][s] & top2);
    };
    std::array<int, 4> rests{};  // how many top cards each suit's count rests on
    int q = 0;
    if (!(skip >> trump_ & 1u) && trump_leadable(h, seat, broken)) {
        if (winners[trump_] > 0) {
            q = exhausts(trump_, winners[trump_]) ? len[seat][trump_] : winners[trump_];
            rests[trump_] = winners[trump_];
        } else if (crosses(trump_)) {
            q = exhausts(trump_, 2) ? len[seat][trump_] : 2;
            rests[trump_] = 2;
        }
    }
    // Each round of trumps takes one from every hand still holding some: who has trumps after.
    const auto trumps_after = [&](int p) { return len[p][trump_] > q; };
    const bool lho_trumps = trumps_after(lho), rho_trumps = trumps_after(rho);
    const bool opp_trumps = lho_trumps || rho_trumps, part_trumps = trumps_after(part);
    // Side suits, each capped by the lengths of the hands that could ruff it. Only the suits
    // needed to reach `goal` go into the pattern (a more general table entry).
    std::array<int, 4> w{};
    for (int s = 0; s < 4; ++s) {
        if (s == trump_ || (skip >> s & 1u)) continue;
        if (winners[s] > 0) {
            rests[s] = winners[s];
        } else if (crosses(s)) {
            rests[s] = 2;
        } else {
            continue;
        }
        w[s] = !opp_trumps && exhausts(s, rests[s]) ? len[seat][s] : rests[s];
        if (part_trumps) w[s] = std::min(w[s], len[part][s]);
        if (lho_trumps) w[s] = std::min(w[s], len[lho][s]);
        if (rho_trumps) w[s] = std::min(w[s], len[rho][s]);
        if (rests[s] == 2 && winners[s] == 0 && w[s] < 2)
            w[s] = 0;  // the crossing needs both rounds
    }
    int side = 0;
    for (int s = 0; s < 4; ++s) side += w[s];
    if (cashed) {
        cashed->suits = q ? 1u << trump_ : 0u;
        for (int s = 0; s < 4; ++s)
            if (w[s]) cashed->suits |= 1u << s;
        cashed->trump_rounds = q;
    }
    // When trumps alone reach the goal, that many top trumps suffice (a crossing needs both).
    if (q)
        rest_on(trump_,
                q >= goal && winners[trump_] > 0 ? std::min(goal, rests[trump_]) : rests[trump_]);
    int counted = q;
    while (counted < goal) {
        int best = -1;
        for (int s = 0; s < 4; ++s)
            if (w[s] > 0 && (best < 0 || w[s] > w[best])) best = s;
        if (best < 0) break;
        // Short of the goal by fewer than the suit's top winners: that many of them suffice (a
        // crossing needs both of its cards).
        const int n = winners[best] > 0 ? std::min(goal - counted, rests[best]) : rests[best];
        rest_on(best, std::min(w[best], n));
        counted += w[best];
        w[best] = 0;
    }
    return q + side;
}

int Solver::quick_tricks(int seat, int goal, Ranks& relevant) const {
    const int part = seat ^ 2, lho = (seat + 1) & 3, rho = (seat + 3) & 3;
    if (goal == 1 && partner_ruffs(seat, relevant)) return 1;
    // The opponents have no trumps: every trump of mine wins a trick, and partner, with fewer
    // trumps, can ruff a side suit I lead and it is void in first (rests on lengths only).
    if (!(hand_[lho][trump_] | hand_[rho][trump_]) && hand_[part][trump_]) {
        const int mine = length_of(play_.lengths, seat, trump_);
        if (mine + 1 >= goal && mine >= length_of(play_.lengths, part, trump_))
            for (int s = 0; s < 4; ++s)
                if (s != trump_ && hand_[seat][s] && !hand_[part][s]) return mine + 1;
    }
    // Every count below comes from suits whose top card our side holds, at most the longer of
    // our two holdings in each: when even that falls short, nothing is counted.
    int most = 0, partners = 0;
    for (int s = 0; s < 4; ++s) {
        if (!heads(seat, s)) continue;
        const int p = length_of(play_.lengths, part, s);
        most += std::max(length_of(play_.lengths, seat, s), p);
        partners += p;
    }
    if (most < goal) return 0;
    int best = cash_tricks(hand_, play_.lengths, seat, play_.broken, goal, relevant);
    if (best >= goal) return best;
    // Through an entry: mine (at most the count above), the entry, and partner's, at most its
    // cards in the suits our side heads.
    if (best + 1 + partners < goal) return best;
    // Or cash mine (except in the entry suit), then a low card to partner's winner, and partner
    // cashes the suits I did not. The entry must stand: partner's card is above both opponents'
    // and neither can ruff it. While I cash, an opponent with trumps always follows (my counts
    // stop where it could ruff), so it keeps every other card; one without trumps may discard,
    // which only helps. Partner discards its other cards first; once only counted winners are
    // left, it takes every trick from the entry on. After the entry trick each opponent is taken
    // to keep its highest cards (a void one keeps all it has): partner's count can only be lower.
    for (int s = 0; s < 4; ++s) {
        const std::uint16_t mine = hand_[seat][s], theirs = hand_[part][s];
        if (!mine || !theirs) continue;
        const int entry = top_rank(theirs);
        if (entry < top_rank(static_cast<std::uint16_t>(hand_[lho][s] | hand_[rho][s]))) continue;
        if ((mine & -mine) > (1 << entry)) continue;  // all mine are higher: my own winners
        if (s == trump_ && !trump_leadable(seat)) continue;
        Ranks via{};
        Cashed cashed;
        const int own =
            cash_tricks(hand_, play_.lengths, seat, play_.broken, goal - 1, via, 1u << s, &cashed);
        // An opponent whose trumps my trump tricks draw cannot ruff the entry.
        const auto ruffs = [&](int p) {
            return can_ruff(p, s) && length_of(play_.lengths, p, trump_) > cashed.trump_rounds;
        };
        if (ruffs(lho) || ruffs(rho)) continue;
        Hands after = hand_;
        // My highest card under partner's goes: the cards I keep fall under partner's later.
        after[seat][s] = static_cast<std::uint16_t>(
            mine & ~(1u << top_rank(static_cast<std::uint16_t>(mine & ((1u << entry) - 1)))));
        after[part][s] = static_cast<std::uint16_t>(theirs & ~(1u << entry));
        after[lho][s] = without_lowest(after[lho][s]);
        after[rho][s] = without_lowest(after[rho][s]);
        std::uint64_t lengths = play_.lengths;
        for (int p = 0; p < 4; ++p)
            if (hand_[p][s]) lengths -= std::uint64_t{1} << length_shift(p, s);
        const int q = own + 1 +
                      cash_tricks(after, lengths, part, play_.broken || s == trump_, goal - 1 - own,
                                  via, cashed.suits);
        if (q > best) {
            best = q;
            via.add(s, static_cast<std::uint16_t>(in_play(s) & above(entry - 1)));
            relevant = via;
            if (best >= goal) break;
        }
    }
    return best;
}

bool Solver::partner_ruffs(int seat, Ranks& relevant) const {
    // A lead of a side suit partner is void in and ruffs, where each opponent follows suit or
    // cannot ruff higher than partner: a trick for our side. Rests on the trumps down to
    // partner's highest when an opponent could ruff too.
    const int part = seat ^ 2, lho = (seat + 1) & 3, rho = (seat + 3) & 3;
    if (!hand_[part][trump_]) return false;
    const int pt = top_rank(hand_[part][trump_]);
    for (int s = 0; s < 4; ++s) {
        if (s == trump_ || !hand_[seat][s] || hand_[part][s]) continue;
        const bool l_ruffs = can_ruff(lho, s), r_ruffs = can_ruff(rho, s);
        if ((l_ruffs && top_rank(hand_[lho][trump_]) > pt) ||
            (r_ruffs && top_rank(hand_[rho][trump_]) > pt))
            continue;
        if (l_ruffs || r_ruffs) relevant.add(trump_, static_cast<std::uint16_t>(1u << pt));
        return true;
    }
    return false;
}

int Solver::sure_trumps(int side, int goal, Ranks& relevant) const {
    // Trumps above every trump of the other side each win a trick, except that two partners'
    // such trumps may fall on the same trick. The longer trump holding plays in that many
    // different tricks, and the partners can spread their high trumps over those tricks, so
    // they win min(high trumps, longer trump length). With the other side's j top trumps left
    // out of "every trump", the same tricks less the j that those trumps may take. Reaching
    // `goal` rests on the cards down to the (goal + j)-th of ours (lengths are known).
    const std::uint16_t a = hand_[side][trump_], b = hand_[side ^ 2][trump_];
    const int longer = std::max(bits(a), bits(b));
    std::uint16_t other = hand_[side ^ 1][trump_] | hand_[side ^ 3][trump_];
    if (!other) return longer;  // every trump of ours wins, whatever the ranks
    int best = 0;
    for (int j = 0;; ++j) {
        const std::uint16_t high =
            static_cast<std::uint16_t>((a | b) & (other ? above(top_rank(other)) : 0xffffu));
        const int count = std::min(bits(high), longer) - j;
        if (count > best) {
            best = count;
            if (best >= goal) {
                relevant.add(trump_, top_cards(high, goal + j));
                break;
            }
        }
        if (!other || longer - j - 1 <= best) break;
        other = static_cast<std::uint16_t>(
            other & ~(1u << top_rank(other)));  // one more of theirs left out
    }
    return best;
}

bool Solver::guarded_trump_trick(int side, Ranks& relevant) const {
    // The other side holds the top trump and our side the second-best, with a guard, right
    // behind it: we take a trick (a bound for needing one). Suppose we never do: then from the
    // second trick on the other side leads every trick, and the top trump plays before the
    // guarded card in each. The guarded card ducks under it (which leaves ours the top one) and
    // wins any trump trick it stays out of, ruffing too when its hand holds only trumps. Only
    // its own lead could put it first: its hand must not be on lead, or must lead a side suit.
    // (Ours among the top trumps but for theirs: sure_trumps.)
    const std::uint16_t all = in_hands(hand_, trump_);
    if (bits(all) < 2) return false;
    const int first = top_rank(all),
              second = top_rank(static_cast<std::uint16_t>(all & ~(1u << first)));
    const int top = holder(trump_, first), hh = holder(trump_, second);
    const int guard = length_of(play_.lengths, hh, trump_);
    if ((hh & 1) != side || top != ((hh + 3) & 3) || guard < 2) return false;
    if (play_.leader == hh && guard == play_.tricks_left) return false;  // it would lead a trump
    relevant.add(trump_, static_cast<std::uint16_t>(1u << second));
    return true;
}

bool Solver::second_hand_wins(Ranks& relevant) const {
    // The leader's card is on the table; the two opponents play second and fourth, the leader's
    // partner third. The opponents win the trick for sure when one of them holds the highest
    // card of the led suit and the partner cannot ruff, or one ruffs above anything the partner
    // could ruff with (the fourth hand ruffs last and sees everything).
    const int led = play_.trick_suit[0];
    const int second = (play_.leader + 1) & 3, third = (play_.leader + 2) & 3,
              fourth = (play_.leader + 3) & 3;
    const bool third_ruffs = can_ruff(third, led);
    const std::uint16_t in_suit = in_play(led);
    const int top = top_rank(in_suit);
    if (((hand_[second][led] | hand_[fourth][led]) >> top & 1u) && !third_ruffs) {
        relevant.add(led, static_cast<std::uint16_t>(1u << top));
        return true;
    }
    if (led == trump_) return false;
    for (int p : {fourth, second}) {
        if (!can_ruff(p, led)) continue;
        const int ruff = top_rank(hand_[p][trump_]);
        if (third_ruffs && top_rank(hand_[third][trump_]) > ruff) continue;
        relevant.add(trump_, static_cast<std::uint16_t>(1u << ruff));
        return true;
    }
    return false;
}

bool Solver::second_hand_cashes(int goal, Ranks& relevant) const {
    // The lead is on the table. Second hand or its partner wins the trick: with the led suit's
    // top card, or by ruffing, where third hand cannot ruff. Then it leads and cashes.
    const int second = (play_.leader + 1) & 3, fourth = second ^ 2, third = play_.leader ^ 2;
    const int led = play_.trick_suit[0];
    if (can_ruff(third, led)) return false;
    const std::uint16_t ours = hand_[second][led] | hand_[fourth][led];
    const std::uint16_t theirs =
        static_cast<std::uint16_t>(hand_[third][led] | (1u << play_.trick_rank[0]));
    int hh = -1, top = -1;
    if (ours > theirs) {
        top = top_rank(ours);
        hh = hand_[second][led] >> top & 1u ? second : fourth;
    } else {
        for (int p : {second, fourth})
            if (can_ruff(p, led)) hh = p;  // its lowest trump wins: no one else ruffs
        if (hh < 0) return false;
    }
    Ranks why{};
    if (top >= 0) why.add(led, static_cast<std::uint16_t>(1u << top));
    int q = 1;
    if (no_trumps_left()) {
        // No trumps: its second-best card in the led suit if the two top cards there in the
        // hands are both its own, and the top card of every other suit it holds (every card of a
        // suit no one else holds). Each wins in turn.
        const std::uint16_t rest = static_cast<std::uint16_t>(in_hands(hand_, led) & ~(1u << top));
        if (q < goal && rest && (hand_[hh][led] >> top_rank(rest) & 1u)) {
            ++q;
            why.add(led, static_cast<std::uint16_t>(1u << top_rank(rest)));
        }
        for (int s = 0; s < 4 && q < goal; ++s) {
            if (s == led || !hand_[hh][s]) continue;
            const std::uint16_t others =
                static_cast<std::uint16_t>(in_hands(hand_, s) & ~hand_[hh][s]);
            if (!others) {
                q += bits(hand_[hh][s]);
            } else if (hand_[hh][s] > others) {
                ++q;
                why.add(s, static_cast<std::uint16_t>(1u << top_rank(hand_[hh][s])));
            }
        }
    } else {
        // With trumps: its cash in the other suits, where the winner's partner follows suit (so
        // it is never forced to ruff or to discard a card a count rests on). Third hand keeps
        // every card outside the led suit, or has no trumps to ruff with.
        if (!hand_[hh ^ 2][led]) return false;
        // Cheap first: the count can only come from suits our side heads, at most its length there.
        int most = 1;
        for (int s = 0; s < 4; ++s)
            if (s != led && heads(hh, s)) most += length_of(play_.lengths, hh, s);
        if (most < goal) return false;
        Hands after = hand_;
        std::uint64_t lengths = play_.lengths;
        if (top < 0) {  // it ruffed with its lowest trump
            after[hh][trump_] = without_lowest(after[hh][trump_]);
            lengths -= std::uint64_t{1} << length_shift(hh, trump_);
        }
        q += cash_tricks(after, lengths, hh, play_.broken || led == trump_ || top < 0, goal - 1,
                         why, 1u << led);
    }
    if (q < goal) return false;
    relevant = why;
    return true;
}

bool Solver::last_trick(Ranks& relevant) const {
    // One card each: whether North-South win the trick (the caller has need == 1).
    int suit[4], rank[4];
    for (int p = 0; p < 4; ++p)
        for (int s = 0; s < 4; ++s)
            if (hand_[p][s]) {
                suit[p] = s;
                rank[p] = top_rank(hand_[p][s]);
            }
    int winner = play_.leader, same = 1;
    for (int i = 1; i < 4; ++i) {
        const int p = (play_.leader + i) & 3;
        if (suit[p] == suit[winner]) {
            ++same;
            if (rank[p] > rank[winner]) winner = p;
        } else if (suit[p] == trump_) {
            winner = p;
            same = 1;
        }
    }
    if (same > 1) relevant.add(suit[winner], 1u << rank[winner]);
    return (winner & 1) == 0;
}

bool Solver::first_trick_lost(Ranks& relevant) const {
    // Whatever the leader leads, an opponent holds the suit's top card and the leader's partner
    // cannot ruff it: the opponents take this trick.
    const int part = play_.leader ^ 2, lho = (play_.leader + 1) & 3, rho = (play_.leader + 3) & 3;
    const bool trumps_too = trump_leadable(play_.leader);
    for (int s = 0; s < 4; ++s) {
        if (!hand_[play_.leader][s] || (s == trump_ && !trumps_too)) continue;
        const int top = top_rank(in_play(s));
        if (!((hand_[lho][s] | hand_[rho][s]) >> top & 1u)) return false;
        if (can_ruff(part, s)) return false;
        relevant.add(s, static_cast<std::uint16_t>(1u << top));
    }
    return true;
}

bool Solver::headed_short(int side, int left, Ranks& relevant) const {
    // With no trumps in play, a side that takes every trick left takes them in suits it heads,
    // at most the longer of its two holdings in each. A suit it heads needs no card in the
    // pattern: were it not headed, the count would only be lower. A suit the other side heads
    // rests on its top card, unless the count falls short even with it.
    int sum = 0;
    std::array<int, 4> other{};
    for (int s = 0; s < 4; ++s) {
        const std::uint16_t ours = hand_[side][s] | hand_[side ^ 2][s],
                            theirs = hand_[side ^ 1][s] | hand_[side ^ 3][s];
        const int longer =
            std::max(length_of(play_.lengths, side, s), length_of(play_.lengths, side ^ 2, s));
        if (ours > theirs)
            sum += longer;
        else if (ours)
            other[s] = longer;
    }
    if (sum >= left) return false;
    for (int s = 0; s < 4; ++s) {
        if (!other[s]) continue;
        if (sum + other[s] < left) {
            sum += other[s];  // short even if the side headed it
        } else {
            relevant.add(s,
                         static_cast<std::uint16_t>(1u << top_rank(static_cast<std::uint16_t>(
                                                        hand_[side ^ 1][s] | hand_[side ^ 3][s]))));
        }
    }
    return true;
}

std::optional<bool> Solver::lead_bounds(int need, int left, Ranks& relevant) const {
    // Tried in turn; the first that settles the test gives the result and what it rests on. The
    // sure trumps first: they cost less than the quick tricks and settle as many tests.
    const bool ns_lead = (play_.leader & 1) == 0;
    Ranks why{};
    const auto settle = [&](bool value) {
        relevant = why;
        return std::optional<bool>(value);
    };
    if (sure_trumps(0, need, why) >= need) return settle(true);
    if (ns_lead && quick_tricks(play_.leader, need, why = {}) >= need) return settle(true);
    if (!ns_lead && need == 1 && first_trick_lost(why = {})) return settle(true);
    if (left - sure_trumps(1, left - need + 1, why = {}) < need) return settle(false);
    if (!ns_lead && left - quick_tricks(play_.leader, left - need + 1, why = {}) < need)
        return settle(false);
    if (ns_lead && need == left && first_trick_lost(why = {})) return settle(false);
    if (need == 1 && guarded_trump_trick(0, why = {})) return settle(true);
    if (need == left && guarded_trump_trick(1, why = {})) return settle(false);
    if (no_trumps_left()) {
        if (need == left && headed_short(0, left, why = {})) return settle(false);
        if (need == 1 && headed_short(1, left, why = {})) return settle(true);
    }
    return std::nullopt;
}

}  // namespace cardgames::double_dummy
