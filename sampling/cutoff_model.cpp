#include "sampling/cutoff_model.hpp"

#include <algorithm>
#include <bit>

#include "cardgames/cards/error.hpp"

namespace sampling {

using namespace cardgames;

namespace {

const CutoffNames kHeartsNames = {"bias",
                                  "points_left",
                                  "tricks_left",
                                  "leads",
                                  "hearts",
                                  "high_hearts",
                                  "queen",
                                  "queen_guards",
                                  "spade_tops",
                                  "bare_spade_tops",
                                  "top_cards",
                                  "low_cards",
                                  "voids",
                                  "short_suits",
                                  "mean_rank",
                                  "top_x_points",
                                  "high_x_points",
                                  "hearts_x_points",
                                  "moon_self_x_points",
                                  "moon_other_x_points"};

const CutoffNames kSpadesNames = {
    "bias",         "tricks_left",       "leads",       "clean_nil",        "need",
    "partner_need", "partner_clean_nil", "others_need", "others_clean_nil", "trumps",
    "top_trumps",   "high_trumps",       "top_cards",   "high_cards",       "low_cards",
    "ruff_voids",   "short_suits",       "mean_rank",   "broken",           "partner_tops"};

// Cards of lane `m` above every card of lane `o` (they win the suit when it is led) and below
// every one of them (they never win it).
int above_all(std::uint16_t m, std::uint16_t o) {
    const int their_top = o ? 15 - std::countl_zero(o) : 0;
    return std::popcount(static_cast<std::uint16_t>(m & ~((2u << their_top) - 1)));
}
int below_all(std::uint16_t m, std::uint16_t o) {
    const int their_low = o ? std::countr_zero(o) : 16;
    return std::popcount(static_cast<std::uint16_t>(m & ((1u << their_low) - 1)));
}
// Cards of rank `from` and above in a lane.
int from_rank(std::uint16_t m, int from) {
    return std::popcount(static_cast<std::uint16_t>(m & ~((1u << from) - 1)));
}

CardSet cards_of_others(const PlayState& ps, int players, int seat) {
    CardSet others;
    for (int p = 0; p < players; ++p)
        if (p != seat) others |= ps.hands[p];
    return others;
}

double mean_rank(CardSet cards) {
    int sum = 0;
    for (Card c : cards) sum += c.rank();
    return cards.empty() ? 0.0 : static_cast<double>(sum) / cards.size();
}

void hearts_features(const TrickPlay& g, int seat, CutoffFeatures& out) {
    const PlayState& ps = g.state();
    const int n = g.players();
    const CardSet mine = ps.hands[seat];
    const CardSet others = cards_of_others(ps, n, seat);
    const int tricks = std::max(1, g.remaining_tricks());
    const double points = cutoff_left(g);
    const double per_trick = points / tricks;
    const Card queen(Suit::kSpades, kQueen);
    const bool queen_mine = mine.contains(queen), queen_theirs = others.contains(queen);

    int top = 0, low = 0, voids = 0, shorts = 0, high = 0;
    for (int s = 0; s < kNumSuits; ++s) {
        const auto suit = static_cast<Suit>(s);
        const std::uint16_t m = mine.lane(suit), o = others.lane(suit);
        const int len = std::popcount(m);
        if (len == 0) {
            voids += o != 0;
            continue;
        }
        shorts += len <= 2;
        top += above_all(m, o);
        low += below_all(m, o);
        high += from_rank(m, kJack);
    }
    const int hearts = mine.count(Suit::kHearts);
    const int high_hearts = from_rank(mine.lane(Suit::kHearts), kTen);
    const int spades = mine.count(Suit::kSpades);
    const int spade_tops = (mine.contains(Card(Suit::kSpades, kAce)) ? 1 : 0) +
                           (mine.contains(Card(Suit::kSpades, kKing)) ? 1 : 0);
    // The moon: only while it is possible do the points taken enter (the hash key has them then).
    bool moon_self = false, moon_other = false;
    if (g.moon_possible())
        for (int p = 0; p < n; ++p)
            if (g.penalty(p) > 0) (p == seat ? moon_self : moon_other) = true;

    out = {1.0,
           points,
           static_cast<double>(g.remaining_tricks()),
           ps.to_move == seat ? 1.0 : 0.0,
           static_cast<double>(hearts),
           static_cast<double>(high_hearts),
           queen_mine ? 1.0 : 0.0,
           queen_mine ? static_cast<double>(spades - 1) : 0.0,
           queen_theirs ? static_cast<double>(spade_tops) : 0.0,
           queen_theirs && spade_tops > 0 && spades <= 2 ? 1.0 : 0.0,
           static_cast<double>(top),
           static_cast<double>(low),
           static_cast<double>(voids),
           static_cast<double>(shorts),
           mean_rank(mine),
           top * per_trick,
           high * per_trick,
           hearts * per_trick,
           moon_self ? points : 0.0,
           moon_other ? points : 0.0};
}

// A seat's sure winners: trumps above every trump the others hold, and side-suit cards above
// every card of the suit they hold.
struct Tops {
    int trumps = 0, cards = 0;
};
Tops tops_of(CardSet mine, CardSet others, Suit trump) {
    Tops t;
    for (int s = 0; s < kNumSuits; ++s) {
        const auto suit = static_cast<Suit>(s);
        (suit == trump ? t.trumps : t.cards) += above_all(mine.lane(suit), others.lane(suit));
    }
    return t;
}

void spades_features(const TrickPlay& g, const ScoreContext& context, int seat,
                     CutoffFeatures& out) {
    const PlayState& ps = g.state();
    const int n = g.players();
    const Suit trump = g.play_rules().trump;
    const CardSet mine = ps.hands[seat], others = cards_of_others(ps, n, seat);
    const int partner = g.partnership() ? (seat + 2) % n : -1;
    auto clean_nil = [&](int p) { return context.bids[p].nil_stands(ps.tricks_won[p]); };
    // Tricks a seat still needs for its own bid (nil and unknown bids need none).
    auto need = [&](int p) {
        const Bid& b = context.bids[p];
        return b.made() && !b.is_nil() ? std::max(0, b.tricks - ps.tricks_won[p]) : 0;
    };
    int others_need = 0, others_nil = 0;
    for (int p = 0; p < n; ++p)
        if (p != seat && p != partner) {
            others_need += need(p);
            others_nil += clean_nil(p) ? 1 : 0;
        }
    const Tops own = tops_of(mine, others, trump);
    const Tops partners =
        partner >= 0 ? tops_of(ps.hands[partner], cards_of_others(ps, n, partner), trump) : Tops{};
    const std::uint16_t trumps = mine.lane(trump);
    int high_cards = 0, low = 0, ruff_voids = 0, shorts = 0;
    for (int s = 0; s < kNumSuits; ++s) {
        const auto suit = static_cast<Suit>(s);
        const std::uint16_t m = mine.lane(suit), o = others.lane(suit);
        low += below_all(m, o);
        if (suit == trump) continue;
        const int len = std::popcount(m);
        high_cards += from_rank(m, kKing);
        shorts += len == 1 || len == 2;
        ruff_voids += len == 0 && trumps != 0 && o != 0;
    }
    out = {1.0,
           static_cast<double>(g.remaining_tricks()),
           ps.to_move == seat ? 1.0 : 0.0,
           clean_nil(seat) ? 1.0 : 0.0,
           static_cast<double>(need(seat)),
           partner >= 0 ? static_cast<double>(need(partner)) : 0.0,
           partner >= 0 && clean_nil(partner) ? 1.0 : 0.0,
           static_cast<double>(others_need),
           static_cast<double>(others_nil),
           static_cast<double>(std::popcount(trumps)),
           static_cast<double>(own.trumps),
           static_cast<double>(from_rank(trumps, kQueen)),
           static_cast<double>(own.cards),
           static_cast<double>(high_cards),
           static_cast<double>(low),
           static_cast<double>(ruff_voids),
           static_cast<double>(shorts),
           mean_rank(mine),
           ps.broken ? 1.0 : 0.0,
           static_cast<double>(partners.trumps + partners.cards)};
}

// The names the weights of `file` must have: those of the game of its form.
const CutoffNames& names_of(const ModelFile& file) {
    file.expect_kind("cutoff-eval");
    return cutoff_feature_names(game_of_form(file.get("form")));
}

}  // namespace

const CutoffNames& cutoff_feature_names(GameKind game) {
    return game == GameKind::kSpades ? kSpadesNames : kHeartsNames;
}

int cutoff_left(const TrickPlay& g) {
    if (g.rules().game == GameKind::kSpades) return g.remaining_tricks();
    int left = g.moon_total();
    for (int p = 0; p < g.players(); ++p) left -= g.penalty(p);
    return left;
}

void cutoff_features(const TrickPlay& g, const ScoreContext& context, int seat,
                     CutoffFeatures& out) {
    if (g.rules().game == GameKind::kSpades)
        spades_features(g, context, seat, out);
    else
        hearts_features(g, seat, out);
}

CutoffModel::CutoffModel(const ModelFile& file)
    : LinearModel(file, "cutoff-eval", names_of(file)) {}

void CutoffModel::predict(const TrickPlay& g, const ScoreContext& context,
                          std::array<double, kMaxPlayers>& rest) const {
    CutoffFeatures f;
    for (int p = 0; p < g.players(); ++p) {
        cutoff_features(g, context, p, f);
        rest[p] = predict_seat(f);
    }
}

}  // namespace sampling
