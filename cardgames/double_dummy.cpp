#include "cardgames/double_dummy.hpp"

#include <algorithm>
#include <bit>
#include <cstdlib>

namespace cardgames {

namespace {

// Cards in a lane. Written out: without -mpopcnt (not in the x86-64 baseline) std::popcount is a
// library call, and this is the solver's most frequent operation.
constexpr int bits(std::uint32_t x) {
    x = x - ((x >> 1) & 0x5555u);
    x = (x & 0x3333u) + ((x >> 2) & 0x3333u);
    x = (x + (x >> 4)) & 0x0f0fu;
    return static_cast<int>((x + (x >> 8)) & 0x1fu);
}

constexpr bool same(const std::array<std::uint32_t, 4>& a, const std::array<std::uint32_t, 4>& b) {
    return a[0] == b[0] && a[1] == b[1] && a[2] == b[2] && a[3] == b[3];
}

constexpr int top_rank(std::uint16_t lane) { return lane ? 15 - std::countl_zero(lane) : 0; }
// Bits strictly above rank r.
constexpr std::uint16_t above(int r) { return static_cast<std::uint16_t>(~((2u << r) - 1)); }

// The n highest cards of a lane.
std::uint16_t top_cards(std::uint16_t lane, int n) {
    std::uint16_t out = 0;
    for (; n > 0 && lane; --n) {
        const std::uint16_t bit = static_cast<std::uint16_t>(1u << top_rank(lane));
        out |= bit;
        lane = static_cast<std::uint16_t>(lane & ~bit);
    }
    return out;
}

// compress(x, m): the bits of x at the positions set in m, packed down (a 16-bit pext), by bytes
// from a table.
struct CompressTable {
    std::array<std::uint8_t, 1 << 16> byte{};  // [mask << 8 | x]
    CompressTable() {
        for (unsigned m = 0; m < 256; ++m)
            for (unsigned x = 0; x < 256; ++x) {
                unsigned out = 0, k = 0;
                for (unsigned b = 0; b < 8; ++b)
                    if (m >> b & 1u) out |= (x >> b & 1u) << k++;
                byte[m << 8 | x] = static_cast<std::uint8_t>(out);
            }
    }
};
const CompressTable kCompress;

std::uint32_t compress(std::uint16_t x, std::uint16_t m) {
    const unsigned lo = kCompress.byte[(m & 0xffu) << 8 | (x & 0xffu)];
    const unsigned hi = kCompress.byte[(m & 0xff00u) | (x >> 8)];
    return lo | hi << bits(m & 0xffu);
}

// Bit i of x to bit 2i.
constexpr std::uint32_t spread(std::uint32_t x) {
    x = (x | (x << 8)) & 0x00ff00ffu;
    x = (x | (x << 4)) & 0x0f0f0f0fu;
    x = (x | (x << 2)) & 0x33333333u;
    return (x | (x << 1)) & 0x55555555u;
}

constexpr std::uint64_t mix(std::uint64_t x) {
    x ^= x >> 31;
    x *= 0x9e3779b97f4a7c15ULL;
    x ^= x >> 29;
    return x;
}

}  // namespace

DoubleDummy::DoubleDummy(int table_log2)
    : heads_(std::size_t{1} << table_log2),
      blocks_(std::size_t{1} << std::max(table_log2 - 2, 1)),
      mask_((std::uint64_t{1} << table_log2) - 1) {}

bool DoubleDummy::supports(const PlayRules& rules) {
    if (rules.players != 4 || !rules.has_trump || !rules.first_trick_barred.empty()) return false;
    return !rules.lead_restricted ||
           (rules.restricted_suit == rules.trump && rules.breakers == CardSet::whole_suit(rules.trump));
}

void DoubleDummy::clear() {
    used_ = 0;
    killer_ = {};
    if (++generation_ == 0) {  // wrapped: stale heads could look current again
        std::fill(heads_.begin(), heads_.end(), Head{});
        generation_ = 1;
    }
}

void DoubleDummy::load(const PlayRules& rules, const PlayState& state) {
    const int trump = static_cast<int>(rules.trump);
    const int first = rules.first_lead == kNoCard ? 0xff : rules.first_lead.index();
    const std::uint64_t id = static_cast<std::uint64_t>(trump) | (rules.lead_restricted ? 8u : 0u) |
                             (static_cast<std::uint64_t>(first) << 4);
    if (id != rules_id_) {
        clear();
        rules_id_ = id;
    }
    rules_ = rules;
    trump_ = trump;
    restricted_ = rules.lead_restricted;
    first_lead_suit_ = rules.first_lead == kNoCard ? -1 : static_cast<int>(rules.first_lead.suit());
    first_lead_rank_ = rules.first_lead == kNoCard ? 0 : rules.first_lead.rank();
    for (int p = 0; p < 4; ++p)
        for (int s = 0; s < 4; ++s) hand_[p][s] = state.hands[p].lane(static_cast<Suit>(s));
    broken_ = state.broken;
    leader_ = state.leader;
    size_ = state.trick_size;
    first_trick_ = state.tricks_played == 0 && size_ == 0 && first_lead_suit_ >= 0;
    for (int i = 0; i < size_; ++i) {
        const Card c = state.trick[i];
        trick_suit_[i] = static_cast<std::int8_t>(c.suit());
        trick_rank_[i] = static_cast<std::int8_t>(c.rank());
    }
    tricks_left_ = state.hands[state.to_move].size();  // the one to move has not played to this trick
    if (size_ > 0) {
        win_seat_ = state.current_winner(rules);
        const Card w = state.trick[(win_seat_ - leader_ + 4) % 4];
        win_suit_ = static_cast<int>(w.suit());
        win_rank_ = w.rank();
    }
}

bool DoubleDummy::makes(const PlayRules& rules, const PlayState& state, int target) {
    load(rules, state);
    ++stats_.tests;
    Ranks relevant{};
    return search(target, relevant);
}

int DoubleDummy::solve(const PlayRules& rules, const PlayState& state) {
    load(rules, state);
    // Bisection over the target; each test leaves bounds in the table for the next. (Stepping
    // by one from the first test searched fewer nodes on whole deals but took longer to the median.)
    int lo = 0, hi = tricks_left_;
    while (lo < hi) {
        const int target = (lo + hi + 1) / 2;
        ++stats_.tests;
        Ranks relevant{};
        if (search(target, relevant))
            lo = target;
        else
            hi = target - 1;
    }
    return lo;
}

bool DoubleDummy::check(int need, bool answer) {
    PlayState state;
    state.players = 4;
    state.leader = state.to_move = static_cast<std::int8_t>(leader_);
    state.broken = broken_;
    state.tricks_played = 1;  // past any forced opening lead
    for (int p = 0; p < 4; ++p)
        for (int s = 0; s < 4; ++s) state.hands[p] |= CardSet(static_cast<std::uint64_t>(hand_[p][s]) << (16 * s));
    if (!checker_) {
        checker_ = std::make_unique<DoubleDummy>(12);
        checker_->exact_patterns_ = true;
    }
    checker_->clear();
    return checker_->makes(rules_, state, need) == answer;
}

std::uint16_t DoubleDummy::in_play(int suit) const {
    std::uint16_t lane = hand_[0][suit] | hand_[1][suit] | hand_[2][suit] | hand_[3][suit];
    for (int i = 0; i < size_; ++i)
        if (trick_suit_[i] == suit) lane = static_cast<std::uint16_t>(lane | (1u << trick_rank_[i]));
    return lane;
}

bool DoubleDummy::trump_leadable(int seat) const { return trump_leadable(hand_, seat, broken_); }

bool DoubleDummy::trump_leadable(const Hands& h, int seat, bool broken) const {
    if (!restricted_ || broken) return true;
    for (int s = 0; s < 4; ++s)
        if (s != trump_ && h[seat][s]) return false;
    return true;
}

int DoubleDummy::cash_tricks(const Hands& h, int seat, bool broken, int goal, Ranks& relevant) const {
    // Tricks the leader cashes from the top without giving up the lead: its cards above every
    // other card of their suit. Trumps first (opponents holding trumps must follow); then, when
    // the opponents have trumps left, only one side suit, for as many rounds as each opponent
    // with trumps can follow. A partner with trumps counts only for rounds it can follow, so it
    // is never forced to ruff and take the lead away. What the count rests on: per suit, the
    // owners of the top cards down to the first one the leader does not hold (lengths are known).
    const int part = seat ^ 2, lho = (seat + 1) & 3, rho = (seat + 3) & 3;
    int winners[4];
    for (int s = 0; s < 4; ++s) {
        const std::uint16_t others = h[lho][s] | h[rho][s] | h[part][s];
        winners[s] = bits(static_cast<std::uint16_t>(h[seat][s] & above(top_rank(others))));
    }
    // A count of n rests on the n highest cards of the suit being the leader's (lengths are known).
    const auto rest_on = [&](int s, int n) {
        relevant[s] |= top_cards(static_cast<std::uint16_t>(h[0][s] | h[1][s] | h[2][s] | h[3][s]), n);
    };
    int q = 0;
    if (winners[trump_] > 0 && trump_leadable(h, seat, broken)) {
        q = winners[trump_];
        rest_on(trump_, q);
    }
    // Each round of trumps takes one from every hand still holding some: who has trumps after.
    const auto trumps_after = [&](int p) { return bits(h[p][trump_]) > q; };
    const bool lho_trumps = trumps_after(lho), rho_trumps = trumps_after(rho);
    const bool opp_trumps = lho_trumps || rho_trumps, part_trumps = trumps_after(part);
    // Side suits: all of them when no opponent can ruff any more, else the best one. Only the
    // suits needed to reach `goal` go into the pattern (a more general table entry).
    std::array<int, 4> w{};
    for (int s = 0; s < 4; ++s) {
        if (s == trump_ || winners[s] == 0) continue;
        w[s] = winners[s];
        if (part_trumps) w[s] = std::min(w[s], bits(h[part][s]));
        if (lho_trumps) w[s] = std::min(w[s], bits(h[lho][s]));
        if (rho_trumps) w[s] = std::min(w[s], bits(h[rho][s]));
    }
    int side = 0;
    for (int s = 0; s < 4; ++s) side = opp_trumps ? std::max(side, w[s]) : side + w[s];
    int counted = q;
    while (counted < goal) {
        int best = -1;
        for (int s = 0; s < 4; ++s)
            if (w[s] > 0 && (best < 0 || w[s] > w[best])) best = s;
        if (best < 0) break;
        rest_on(best, w[best]);
        counted += w[best];
        w[best] = 0;
        if (opp_trumps) break;
    }
    return q + side;
}

int DoubleDummy::quick_tricks(int seat, int goal, Ranks& relevant) const {
    int best = cash_tricks(hand_, seat, broken_, goal, relevant);
    if (best >= goal) return best;
    // Or a low card to partner's winner, and partner cashes. The entry must stand: partner's card
    // is above both opponents' and neither can ruff it. After the trick each opponent is taken
    // to keep its highest cards (a void one keeps all it has): partner's count can only be lower.
    const int part = seat ^ 2, lho = (seat + 1) & 3, rho = (seat + 3) & 3;
    for (int s = 0; s < 4; ++s) {
        const std::uint16_t mine = hand_[seat][s], theirs = hand_[part][s];
        if (!mine || !theirs) continue;
        const int entry = top_rank(theirs);
        if (entry < top_rank(static_cast<std::uint16_t>(hand_[lho][s] | hand_[rho][s]))) continue;
        if ((mine & -mine) > (1 << entry)) continue;  // all mine are higher: my own winners
        if (s == trump_ ? !trump_leadable(seat)
                        : (!hand_[lho][s] && hand_[lho][trump_]) || (!hand_[rho][s] && hand_[rho][trump_]))
            continue;
        Hands after = hand_;
        const auto drop_lowest = [](std::uint16_t& lane) { lane = static_cast<std::uint16_t>(lane & (lane - 1)); };
        drop_lowest(after[seat][s]);
        after[part][s] = static_cast<std::uint16_t>(theirs & ~(1u << entry));
        drop_lowest(after[lho][s]);
        drop_lowest(after[rho][s]);
        Ranks via{};
        const int q = 1 + cash_tricks(after, part, broken_ || s == trump_, goal - 1, via);
        if (q > best) {
            best = q;
            via[s] |= static_cast<std::uint16_t>(in_play(s) & above(entry - 1));
            relevant = via;
            if (best >= goal) break;
        }
    }
    return best;
}

int DoubleDummy::sure_trumps(int side, Ranks& relevant) const {
    // A trump above every trump of the other side wins the trick it falls on, unless a partner's
    // higher one falls on the same trick; one player's such trumps fall on different tricks.
    // The count rests on the cards down to the last of those trumps (lengths are known).
    const std::uint16_t other = hand_[side ^ 1][trump_] | hand_[side ^ 3][trump_];
    const std::uint16_t high = above(top_rank(other));
    const auto sure_of = [&](int p) { return static_cast<std::uint16_t>(hand_[p][trump_] & high); };
    const std::uint16_t best = bits(sure_of(side)) >= bits(sure_of(side ^ 2)) ? sure_of(side) : sure_of(side ^ 2);
    if (other && best) relevant[trump_] |= static_cast<std::uint16_t>(best & -best);
    return bits(best);
}

bool DoubleDummy::second_hand_wins(Ranks& relevant) const {
    // The leader's card is on the table; the two opponents play second and fourth, the leader's
    // partner third. The opponents win the trick for sure when one of them holds the highest
    // card of the led suit and the partner cannot ruff, or one ruffs above anything the partner
    // could ruff with (the fourth hand ruffs last and sees everything).
    const int led = trick_suit_[0];
    const int second = (leader_ + 1) & 3, third = (leader_ + 2) & 3, fourth = (leader_ + 3) & 3;
    const std::uint16_t third_trumps = hand_[third][trump_];
    const bool third_ruffs = led != trump_ && !hand_[third][led] && third_trumps;
    const std::uint16_t in_suit = in_play(led);
    const int top = top_rank(in_suit);
    if (((hand_[second][led] | hand_[fourth][led]) >> top & 1u) && !third_ruffs) {
        relevant[led] |= static_cast<std::uint16_t>(1u << top);
        return true;
    }
    if (led == trump_) return false;
    for (int p : {fourth, second}) {
        if (hand_[p][led] || !hand_[p][trump_]) continue;
        const int ruff = top_rank(hand_[p][trump_]);
        if (third_ruffs && top_rank(third_trumps) > ruff) continue;
        relevant[trump_] |= static_cast<std::uint16_t>(1u << ruff);
        return true;
    }
    return false;
}

bool DoubleDummy::last_trick(Ranks& relevant) const {
    // One card each: whether North-South win the trick (the caller has need == 1).
    int suit[4], rank[4];
    for (int p = 0; p < 4; ++p)
        for (int s = 0; s < 4; ++s)
            if (hand_[p][s]) {
                suit[p] = s;
                rank[p] = top_rank(hand_[p][s]);
            }
    int winner = leader_, same = 1;
    for (int i = 1; i < 4; ++i) {
        const int p = (leader_ + i) & 3;
        if (suit[p] == suit[winner]) {
            ++same;
            if (rank[p] > rank[winner]) winner = p;
        } else if (suit[p] == trump_) {
            winner = p;
            same = 1;
        }
    }
    if (same > 1) relevant[suit[winner]] |= static_cast<std::uint16_t>(1u << rank[winner]);
    return (winner & 1) == 0;
}

bool DoubleDummy::first_trick_lost(Ranks& relevant) const {
    // Whatever the leader leads, an opponent holds the suit's top card and the leader's partner
    // cannot ruff it: the opponents take this trick.
    const int part = leader_ ^ 2, lho = (leader_ + 1) & 3, rho = (leader_ + 3) & 3;
    const bool trumps_too = trump_leadable(leader_);
    for (int s = 0; s < 4; ++s) {
        if (!hand_[leader_][s] || (s == trump_ && !trumps_too)) continue;
        const int top = top_rank(in_play(s));
        if (!((hand_[lho][s] | hand_[rho][s]) >> top & 1u)) return false;
        if (s != trump_ && !hand_[part][s] && hand_[part][trump_]) return false;
        relevant[s] |= static_cast<std::uint16_t>(1u << top);
    }
    return true;
}

bool DoubleDummy::lead_bounds(int need, int left, bool& result, Ranks& relevant) const {
    const int side = leader_ & 1;
    Ranks quick{}, sure{};
    if (side == 0) {
        if (quick_tricks(leader_, need, quick) >= need) {
            relevant = quick;
            return result = true;
        }
        if (sure_trumps(0, sure) >= need) {
            relevant = sure;
            return result = true;
        }
        if (left - sure_trumps(1, sure = {}) < need) {
            relevant = sure;
            result = false;
            return true;
        }
        if (need == left && first_trick_lost(sure = {})) {
            relevant = sure;
            result = false;
            return true;
        }
        return false;
    }
    if (sure_trumps(0, sure) >= need) {
        relevant = sure;
        return result = true;
    }
    if (need == 1 && first_trick_lost(sure = {})) {
        relevant = sure;
        return result = true;
    }
    if (left - quick_tricks(leader_, left - need + 1, quick) < need) {
        relevant = quick;
        result = false;
        return true;
    }
    if (left - sure_trumps(1, sure = {}) < need) {
        relevant = sure;
        result = false;
        return true;
    }
    return false;
}

DoubleDummy::Shape DoubleDummy::shape() const {
    Shape sh;
    sh.lengths = 0;
    for (int s = 0; s < 4; ++s) {
        const std::uint16_t b0 = hand_[1][s] | hand_[3][s], b1 = hand_[2][s] | hand_[3][s];
        const std::uint16_t all = hand_[0][s] | b0 | hand_[2][s];
        // Owner of each card in play, 2 bits per card, the lowest card in the lowest bits.
        const std::uint32_t seq = spread(compress(b0, all)) | spread(compress(b1, all)) << 1;
        const int n = bits(all);
        sh.count[s] = static_cast<std::int8_t>(n);
        sh.owners[s] = seq;
        sh.prefix[s][0] = 0;
        for (int k = 1; k <= n; ++k) sh.prefix[s][k] = seq >> (2 * (n - k)) | static_cast<std::uint32_t>(k) << 26;
        std::uint64_t lengths = 0;
        for (int p = 0; p < 4; ++p) lengths |= static_cast<std::uint64_t>(bits(hand_[p][s])) << (4 * p);
        sh.lengths |= lengths << (16 * s);
    }
    sh.extra = static_cast<std::uint8_t>(leader_ | (restricted_ && broken_ ? 4 : 0));
    return sh;
}

DoubleDummy::Head* DoubleDummy::find_head(const Shape& sh, bool create) {
    const std::uint64_t i = mix(sh.lengths ^ mix(sh.extra + 1u));
    for (std::uint64_t j = 0; j < 8; ++j) {
        Head& h = heads_[(i + j) & mask_];
        if (h.generation != generation_) {
            if (!create) return nullptr;
            h = Head{sh.lengths, generation_, -1, sh.extra};
            return &h;
        }
        if (h.lengths == sh.lengths && h.extra == sh.extra) return &h;
    }
    if (!create) return nullptr;
    Head& h = heads_[i & mask_];  // crowded: this shape takes the first slot's place
    h = Head{sh.lengths, generation_, -1, sh.extra};
    return &h;
}

bool DoubleDummy::matches(const Pattern& top, const Shape& sh) {
    return top[0] == sh.prefix[0][top[0] >> 26] && top[1] == sh.prefix[1][top[1] >> 26] &&
           top[2] == sh.prefix[2][top[2] >> 26] && top[3] == sh.prefix[3][top[3] >> 26];
}

void DoubleDummy::store(const Shape& sh, const Ranks& relevant, bool result, int need, int left, const Move* best) {
    // The entry's pattern: per suit, every card in play down to the lowest relevant rank.
    std::array<std::uint32_t, 4> top{};
    Ranks full = relevant;
    if (exact_patterns_)
        for (int s = 0; s < 4; ++s) full[s] = in_play(s);
    for (int s = 0; s < 4; ++s) {
        if (!full[s]) continue;
        const int low = std::countr_zero(full[s]);
        const int k = bits(static_cast<std::uint16_t>(in_play(s) & ~((1u << low) - 1)));
        top[s] = sh.prefix[s][k];
    }
    Head* head = find_head(sh, true);
    const auto find_same = [&]() -> Entry* {
        for (std::int32_t b = head->first; b >= 0; b = blocks_[static_cast<std::size_t>(b)].next) {
            Block& block = blocks_[static_cast<std::size_t>(b)];
            for (int j = 0; j < block.count; ++j)
                if (same(block.top[j], top)) return &block.entry[j];
        }
        return nullptr;
    };
    Entry* slot = find_same();
    if (!slot) {
        if (head->first < 0 || blocks_[static_cast<std::size_t>(head->first)].count == kBlock) {
            if (used_ == blocks_.size()) {
                clear();
                head = find_head(sh, true);
            }
            const auto index = static_cast<std::int32_t>(used_++);
            Block& fresh = blocks_[static_cast<std::size_t>(index)];
            fresh.count = 0;
            fresh.next = head->first;
            head->first = index;
        }
        Block& block = blocks_[static_cast<std::size_t>(head->first)];
        const int j = block.count++;
        block.top[j] = top;
        slot = &block.entry[j];
        *slot = Entry{};
        slot->upper = static_cast<std::int8_t>(left);
    }
    if (result)
        slot->lower = static_cast<std::int8_t>(std::max<int>(slot->lower, need));
    else
        slot->upper = static_cast<std::int8_t>(std::min<int>(slot->upper, need - 1));
    if (best) {
        slot->best_suit = best->suit;
        slot->best_from_top = static_cast<std::int8_t>(bits(static_cast<std::uint16_t>(in_play(best->suit) & above(best->rank))));
    }
}

int DoubleDummy::lead_score(int seat, int s, int r) const {
    const int lho = (seat + 1) & 3, part = (seat + 2) & 3, rho = (seat + 3) & 3;
    const int top_opp = top_rank(hand_[lho][s] | hand_[rho][s]);
    const auto ruffs = [&](int p) { return s != trump_ && hand_[p][s] == 0 && hand_[p][trump_] != 0; };
    const bool opp_ruff = ruffs(lho) || ruffs(rho);
    if (r > top_opp) return opp_ruff ? 20 : 90;                                  // cash a winner
    if (top_rank(hand_[part][s]) > top_opp) return opp_ruff ? 15 - r : 80 - r;  // low to partner's winner
    if (ruffs(part) && !ruffs(rho)) return 70 - r;                               // give partner a ruff
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
    const bool beats = (s == win_suit_ && r > win_rank_) || (s == trump_ && win_suit_ != trump_);
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
            std::uint16_t rest = present;
            for (int k = 0; k < hint->best_from_top && rest; ++k) rest = static_cast<std::uint16_t>(rest & ~(1u << top_rank(rest)));
            hint_suit = s;
            hint_rank = top_rank(rest);
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

bool DoubleDummy::probe(const Shape& sh, int need, bool& result, Ranks& relevant, const Entry*& hint) {
    Head* head = find_head(sh, false);
    if (!head) return false;
    for (std::int32_t b = head->first; b >= 0; b = blocks_[static_cast<std::size_t>(b)].next) {
        Block& block = blocks_[static_cast<std::size_t>(b)];
        for (int j = block.count - 1; j >= 0; --j) {  // newest first
            ++stats_.tt_scanned;
            if (!matches(block.top[j], sh)) continue;
            const Entry& e = block.entry[j];
            if (e.lower < need && e.upper >= need) {
                if (!hint && e.best_suit >= 0) hint = &e;
                continue;
            }
            ++stats_.tt_hits;
            result = e.lower >= need;
            if (checking_ && !check(need, result)) ++stats_.check_failures;
            // The bound holds wherever the entry's top cards lie as here.
            for (int s = 0; s < 4; ++s) relevant[s] = top_cards(in_play(s), static_cast<int>(block.top[j][s] >> 26));
            // To the front, where the next look-up starts: entries that answer tend to answer again.
            Block& front = blocks_[static_cast<std::size_t>(head->first)];
            const int last = front.count - 1;
            std::swap(block.top[j], front.top[last]);
            std::swap(block.entry[j], front.entry[last]);
            return true;
        }
    }
    return false;
}

bool DoubleDummy::search(int need, Ranks& relevant) {
    ++stats_.nodes;
    relevant = {};
    const int seat = (leader_ + size_) & 3;
    if (need <= 0) return true;
    const int left = tricks_left_;
    if (need > left) return false;
    // After the lead: if the leader's side must take every trick left (or the other side only
    // needs one), it is settled when the other side surely wins this one.
    if (size_ == 1 && (((leader_ & 1) == 0) ? need == left : need == 1) && second_hand_wins(relevant))
        return (leader_ & 1) != 0;

    if (left == 1 && size_ == 0 && !first_trick_) return last_trick(relevant);

    // The hand's first trick, with its forced lead, is only ever the root: no bounds, no table.
    const bool trick_start = size_ == 0 && !first_trick_;
    Shape sh;
    const Entry* hint = nullptr;
    if (trick_start) {
        bool result = false;
        if (lead_bounds(need, left, result, relevant)) {
            ++stats_.bound_cuts;
            return result;
        }
        sh = shape();
        ++stats_.tt_probes;
        if (probe(sh, need, result, relevant, hint)) return result;
    }

    ++stats_.expansions;
    Moves moves;
    generate(seat, hint, moves);
    const bool max_side = (seat & 1) == 0;
    bool result = !max_side;
    const Move* decided = nullptr;
    Ranks all{};  // when no move decides, the proof rests on every move's subtree
    // Per suit: my cards below this rank are small where a card already tried was small: below
    // every rank its answer rested on. They give the same answer (they swap places with it).
    std::array<int, 4> small_below{};
    for (int i = 0; i < moves.n; ++i) {
        const int s = moves.m[i].suit, r = moves.m[i].rank;
        if (r < small_below[s]) {
            ++stats_.small_skips;
            continue;
        }
        const int saved_leader = leader_, saved_size = size_, ws = win_seat_, wsuit = win_suit_, wr = win_rank_;
        const bool saved_broken = broken_, saved_first = first_trick_;
        const auto saved_suits = trick_suit_, saved_ranks = trick_rank_;  // the next trick overwrites them
        hand_[seat][s] = static_cast<std::uint16_t>(hand_[seat][s] & ~(1u << r));
        if (size_ == 0 || (s == win_suit_ && r > win_rank_) || (s == trump_ && win_suit_ != trump_)) {
            win_seat_ = seat;
            win_suit_ = s;
            win_rank_ = r;
        }
        trick_suit_[size_] = static_cast<std::int8_t>(s);
        trick_rank_[size_] = static_cast<std::int8_t>(r);
        if (s == trump_) broken_ = true;
        int next_need = need;
        // The winner's rank matters when it beat another card of its suit.
        std::uint16_t won_by_rank = 0;
        if (++size_ == 4) {
            int same = 0;
            for (int j = 0; j < 4; ++j) same += trick_suit_[j] == win_suit_;
            if (same > 1) won_by_rank = static_cast<std::uint16_t>(1u << win_rank_);
            next_need -= (win_seat_ & 1) == 0;
            leader_ = win_seat_;
            size_ = 0;
            first_trick_ = false;
            --tricks_left_;
        }
        const int trick_suit = win_suit_;
        Ranks child{};
        const bool r_child = search(next_need, child);
        child[trick_suit] |= won_by_rank;
        hand_[seat][s] = static_cast<std::uint16_t>(hand_[seat][s] | (1u << r));
        leader_ = saved_leader;
        tricks_left_ = left;
        size_ = saved_size;
        win_seat_ = ws;
        win_suit_ = wsuit;
        win_rank_ = wr;
        broken_ = saved_broken;
        first_trick_ = saved_first;
        trick_suit_ = saved_suits;
        trick_rank_ = saved_ranks;
        if (r_child == max_side) {
            result = max_side;
            decided = &moves.m[i];
            if (size_ == 0) killer_[left] = static_cast<std::int16_t>(s * 16 + r);
            relevant = child;
            break;
        }
        for (int j = 0; j < 4; ++j) all[j] |= child[j];
        const int threshold = child[s] ? std::countr_zero(child[s]) : 16;
        if (r < threshold) small_below[s] = std::max(small_below[s], threshold);
    }
    if (!decided) {
        // Every move failed, each standing for the cards equivalent to it here. Where a move's card
        // falls inside the pattern, the ones it stood for must too: elsewhere they need not lie
        // next to it. (Below the pattern all cards of a hand and suit are alike anyway.)
        for (bool grown = true; grown;) {
            grown = false;
            for (int i = 0; i < moves.n; ++i) {
                const Move& m = moves.m[i];
                const std::uint16_t lane = all[m.suit];
                if (m.low == m.rank || !lane) continue;
                const int threshold = std::countr_zero(lane);
                if (threshold <= m.rank && m.low < threshold) {
                    all[m.suit] = static_cast<std::uint16_t>(lane | (1u << m.low));
                    grown = true;
                }
            }
        }
        relevant = all;
    }
    if (trick_start) store(sh, relevant, result, need, left, decided);
    return result;
}

}  // namespace cardgames
