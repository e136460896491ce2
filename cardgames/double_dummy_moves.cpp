// The double-dummy solver's moves: one card per run of equivalent cards, in card-play order.
#include "cardgames/double_dummy.hpp"

#include <algorithm>

#include "cardgames/double_dummy_lanes.hpp"

namespace cardgames {

using namespace lanes;

int DoubleDummy::lead_score(int seat, int s, int r) const {
    const int lho = (seat + 1) & 3, part = (seat + 2) & 3, rho = (seat + 3) & 3;
    const int top_opp = top_rank(hand_[lho][s] | hand_[rho][s]);
    const bool opp_ruff = can_ruff(lho, s) || can_ruff(rho, s);
    if (r > top_opp) return opp_ruff ? 20 : 90;                                  // cash a winner
    if (top_rank(hand_[part][s]) > top_opp) return opp_ruff ? 15 - r : 80 - r;  // low to partner's winner
    if (can_ruff(part, s) && !can_ruff(rho, s)) return 70 - r;                   // give partner a ruff
    // Otherwise low, rather from length, rather where the opponents have few cards to choose
    // from, not into a right-hand opponent holding one of the two top cards, and the top of a
    // second-and-third-best pair.
    int score = 40 - r + (bits(hand_[seat][s]) > 3 ? 5 : 0) - bits(hand_[lho][s]) - bits(hand_[rho][s]);
    const std::uint16_t all = in_play(s);
    const int top = top_rank(all), second = top_rank(static_cast<std::uint16_t>(all & ~(1u << top)));
    if ((hand_[rho][s] >> top & 1u) || (second && (hand_[rho][s] >> second & 1u))) score -= 18;
    const std::uint16_t below = static_cast<std::uint16_t>(all & ((1u << r) - 1));
    if (r == second && below && (hand_[seat][s] >> top_rank(below) & 1u)) score += 10;
    return score;
}

int DoubleDummy::follow_score(int seat, int s, int r) const {
    const int led = trick_suit_[0];
    const bool beats = beats_winner(s, r);
    const bool partner_winning = ((win_seat_ ^ seat) & 1) == 0;
    // Whether an opponent still to play this trick can beat (s, r) if it wins now.
    const auto beaten_later = [&](int card_suit, int card_rank) {
        for (int i = size_ + 1; i < 4; ++i) {
            const int p = (leader_ + i) & 3;
            if (((p ^ seat) & 1) == 0) continue;
            if (hand_[p][led]) {
                if (card_suit == led && top_rank(hand_[p][led]) > card_rank) return true;
            } else if (hand_[p][trump_] && (card_suit != trump_ || top_rank(hand_[p][trump_]) > card_rank)) {
                return true;
            }
        }
        return false;
    };
    const int length_bonus = s == led ? 0 : bits(hand_[seat][s]);  // discard from length
    if (partner_winning) {
        if (!beaten_later(win_suit_, win_rank_)) return beats ? -r : 60 - r + length_bonus;  // let it win
        if (beats && !beaten_later(s, r)) return 70 - r;                                       // secure it
        return beats ? 20 + r : 40 - r + length_bonus;
    }
    if (beats) {
        if (!beaten_later(s, r)) return 80 - r;  // win it, as cheaply as possible
        return size_ == 1 ? 25 + r : 45 + r;     // second hand rather low; third hand high
    }
    if (s == trump_ && led != trump_) return 5 - r;  // a trump that does not win: a waste
    return 50 - r + length_bonus;
}

void DoubleDummy::generate(int seat, const Entry* hint, Moves& out) const {
    out.n = 0;
    const auto& hand = hand_[seat];
    unsigned suits = 0;
    if (size_ == 0) {
        if (first_trick_ && (hand[first_lead_suit_] >> first_lead_rank_ & 1u)) {
            out.m[0] = {static_cast<std::int8_t>(first_lead_suit_), static_cast<std::int8_t>(first_lead_rank_),
                        static_cast<std::int8_t>(first_lead_rank_), 0};
            out.n = 1;
            return;
        }
        for (int s = 0; s < 4; ++s)
            if (hand[s]) suits |= 1u << s;
        if (!trump_leadable(seat)) suits &= ~(1u << trump_);
    } else if (hand[trick_suit_[0]]) {
        suits = 1u << trick_suit_[0];
    } else {
        for (int s = 0; s < 4; ++s)
            if (hand[s]) suits |= 1u << s;
    }
    int hint_suit = -1, hint_rank = -1;
    for (int s = 0; s < 4; ++s) {
        if (!(suits >> s & 1u)) continue;
        const std::uint16_t mine = hand[s], present = in_play(s);
        if (hint && hint->best_suit == s) {
            // The stored lead: the card with best_from_top cards in play above it.
            hint_suit = s;
            hint_rank = top_rank(static_cast<std::uint16_t>(present & ~top_cards(present, hint->best_from_top)));
        }
        for (std::uint16_t m = mine; m;) {
            const int r = top_rank(m);
            m = static_cast<std::uint16_t>(m & ~(1u << r));
            const std::uint16_t higher = present & above(r);
            // Of a run of my cards with no other card in play between them, only the highest.
            if (higher & (higher & -higher) & mine) continue;
            int score = size_ == 0 ? lead_score(seat, s, r) : follow_score(seat, s, r);
            if (s == hint_suit && r == hint_rank) score += 1000;
            if (size_ == 0 && killer_[tricks_left_] == s * 16 + r) score += 40;  // the last lead that decided at this depth
            int low = r;  // down the run of my cards with nothing in play between them
            for (std::uint16_t below = present & static_cast<std::uint16_t>((1u << r) - 1); below;) {
                const int b = top_rank(below);
                if (!(mine >> b & 1u)) break;
                low = b;
                below = static_cast<std::uint16_t>(below & ~(1u << b));
            }
            Move mv{static_cast<std::int8_t>(s), static_cast<std::int8_t>(r), static_cast<std::int8_t>(low), static_cast<std::int16_t>(score)};
            int j = out.n++;
            while (j > 0 && out.m[j - 1].score < mv.score) {
                out.m[j] = out.m[j - 1];
                --j;
            }
            out.m[j] = mv;
        }
    }
}

}  // namespace cardgames
