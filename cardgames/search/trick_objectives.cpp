#include "cardgames/search/trick_objectives.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>

#include "cardgames/cards/error.hpp"
#include "cardgames/rules/scoring.hpp"

namespace cardgames {

Utility parse_utility(const std::string& name) {
    if (name == "tricks") return Utility::kTricks;
    if (name == "score") return Utility::kScore;
    if (name == "points") return Utility::kPoints;
    if (name == "margin") return Utility::kMargin;
    throw InputError("utility '" + name +
                     "': expected tricks, score, margin (Spades) or points (Hearts)");
}

std::string utility_name(Utility u) {
    switch (u) {
        case Utility::kTricks:
            return "tricks";
        case Utility::kScore:
            return "score";
        case Utility::kPoints:
            return "points";
        case Utility::kMargin:
            return "margin";
    }
    return "?";
}

Utility default_utility(GameKind game) {
    return game == GameKind::kSpades ? Utility::kTricks : Utility::kPoints;
}

std::uint64_t tricks_outcome_key(const TrickPlay& g) {
    // The outcome set depends on what each player has taken and on what is still in play.
    std::uint64_t k = static_cast<std::uint64_t>(g.remaining_tricks());
    for (int p = 0; p < g.players(); ++p)
        k = k * 64 + static_cast<std::uint64_t>(g.state().tricks_won[p] & 63);
    return k;
}

std::vector<int> spades_report(const TrickPlay& g, const engine::Tuple& value,
                               engine::Utility shift) {
    if (g.partnership()) return {value[0] - shift, value[1] - shift};
    std::vector<int> out;
    for (int p = 0; p < g.players(); ++p) out.push_back(value[p] - shift);
    return out;
}

void cutoff_shares(const std::array<double, kMaxPlayers>& rest, int players, int total,
                   std::array<int, kMaxPlayers>& out) {
    out = {};
    std::array<double, kMaxPlayers> w{};
    double sum = 0;
    for (int p = 0; p < players; ++p) {
        w[p] = std::isfinite(rest[p]) && rest[p] > 0 ? rest[p] : 0.0;
        sum += w[p];
    }
    if (sum <= 0) {
        for (int p = 0; p < players; ++p) out[p] = total / players + (p < total % players ? 1 : 0);
        return;
    }
    std::array<double, kMaxPlayers> fraction{};
    int given = 0;
    for (int p = 0; p < players; ++p) {
        const double exact = total * (w[p] / sum);
        out[p] = std::clamp(static_cast<int>(std::floor(exact)), 0, total);
        fraction[p] = exact - out[p];
        given += out[p];
    }
    // Rounding down leaves fewer than `players` points; rounding error could in principle give
    // more, so both directions are handled by the largest (smallest) fraction.
    while (given < total) {
        int best = 0;
        for (int p = 1; p < players; ++p)
            if (fraction[p] > fraction[best]) best = p;
        ++out[best];
        fraction[best] -= 1;
        ++given;
    }
    while (given > total) {
        int worst = -1;
        for (int p = 0; p < players; ++p)
            if (out[p] > 0 && (worst < 0 || fraction[p] < fraction[worst])) worst = p;
        --out[worst];
        fraction[worst] += 1;
        --given;
    }
}

void CutoffEvaluator::shares(const TrickPlay& g, const ScoreContext& context, int total,
                             std::array<int, kMaxPlayers>& out) const {
    std::array<double, kMaxPlayers> rest{};
    predict(g, context, rest);
    cutoff_shares(rest, g.players(), total, out);
}

// --- Tricks

void TricksObjective::bounds(const TrickPlay& g, int horizon, engine::Tuple& lo,
                             engine::Tuple& hi) const {
    lo = {};
    hi = {};
    const int n = g.players();
    const int left = g.remaining_tricks();
    // Under a depth limit only the k tricks before the horizon are played out; evaluate() gives
    // the `after` tricks beyond it out in fixed shares (the share of player p depends on p and
    // `after` only), so the share is a known part of both bounds. Terminals come before the
    // horizon only when k == left, and then no share is added.
    const int k =
        horizon == engine::kNoDepthLimit ? left : std::clamp(horizon - g.depth_counter(), 0, left);
    const int after = left - k;
    engine::Tuple now{};
    for (int p = 0; p < n; ++p)
        now[p] =
            g.state().tricks_won[p] - g.root_tricks_won(p) + after / n + (p < after % n ? 1 : 0);
    std::array<int, 2> sure{};  // per side: tricks its top trumps are certain to win
    if (g.partnership() && g.play_rules().has_trump && k == left) sure = sure_trump_tricks(g);
    for (int p = 0; p < n; ++p) {
        const int got = g.partnership() ? now[p] + now[(p + 2) % 4] : now[p];
        lo[p] = got + sure[static_cast<std::size_t>(p % 2)];
        hi[p] = got + k - sure[static_cast<std::size_t>(1 - p % 2)];
    }
}

std::array<int, 2> TricksObjective::sure_trump_tricks(const TrickPlay& g) {
    // A trump above every trump the other side still has (in hand or on the table) wins the trick
    // it is played in, unless a partner's higher one falls on the same trick; one player's such
    // trumps fall on different tricks. So each side is sure of its better player's count. Every
    // card is played before the hand ends, so this holds for every line of play to the end.
    const PlayState& ps = g.state();
    const int n = g.players();
    const Suit trump = g.play_rules().trump;
    std::array<std::uint16_t, 2> side_lane{};
    for (int p = 0; p < n; ++p)
        side_lane[static_cast<std::size_t>(p % 2)] |= ps.hands[p].lane(trump);
    for (int i = 0; i < ps.trick_size; ++i) {
        const Card c = ps.trick[i];
        if (c.suit() == trump)
            side_lane[static_cast<std::size_t>((ps.leader + i) % n % 2)] |=
                static_cast<std::uint16_t>(1u << c.rank());
    }
    std::array<int, 2> sure{};
    for (int side = 0; side < 2; ++side) {
        const std::uint16_t other = side_lane[static_cast<std::size_t>(1 - side)];
        const int top =
            other ? 15 - std::countl_zero(other) : 0;  // the other side's highest trump rank
        const std::uint16_t above = static_cast<std::uint16_t>(~((2u << top) - 1));
        int best = 0;
        for (int p = side; p < n; p += 2)
            best = std::max(
                best, std::popcount(static_cast<std::uint16_t>(ps.hands[p].lane(trump) & above)));
        sure[static_cast<std::size_t>(side)] = best;
    }
    return sure;
}

// --- Spades score

SpadesOutcomes::SpadesOutcomes(const Rules& rules, const ScoreContext& context,
                               const TrickCounts& won, int left, bool margin)
    : rules_(rules), context_(context), margin_(margin), base_(won), span_(left + 1) {
    context_.outcomes = nullptr;
    const int n = rules.players;
    std::size_t entries = 1;
    for (int p = 0; p + 1 < n; ++p) entries *= static_cast<std::size_t>(span_);
    if (entries <= kMaxTable) table_.resize(entries);
    engine::Utility lo = std::numeric_limits<engine::Utility>::max(),
                    hi = std::numeric_limits<engine::Utility>::min(),
                    best_sum = std::numeric_limits<engine::Utility>::min();
    TrickCounts tricks = base_;
    for_each_split_added(tricks, n, left, [&] {
        engine::Tuple t{};
        score(tricks, t);
        if (!table_.empty()) table_[table_index(tricks)] = t;
        engine::Utility sum = 0;
        for (int p = 0; p < n; ++p) {
            lo = std::min(lo, t[p]);
            hi = std::max(hi, t[p]);
            sum += t[p];
        }
        best_sum = std::max(best_sum, sum);
        return false;
    });
    shift_ = -lo;
    max_u_ = hi - lo;
    for (engine::Tuple& t : table_)
        for (int p = 0; p < n; ++p) t[p] += shift_;
    // Every player's utility is shifted alike.
    maxsum_ = best_sum + n * shift_;
}

bool SpadesOutcomes::made_for(const TrickCounts& won, int left, bool margin) const {
    return margin == margin_ && left + 1 == span_ && won == base_;
}

std::size_t SpadesOutcomes::table_index(const TrickCounts& tricks) const {
    std::size_t i = 0;
    for (int p = rules_.players - 1; p-- > 0;)
        i = i * static_cast<std::size_t>(span_) + static_cast<std::size_t>(tricks[p] - base_[p]);
    return i;
}

const engine::Tuple* SpadesOutcomes::find(const TrickCounts& tricks) const {
    if (table_.empty()) return nullptr;
    int gained = 0;
    for (int p = 0; p < rules_.players; ++p) {
        const int d = tricks[p] - base_[p];
        if (d < 0 || d >= span_) return nullptr;
        gained += d;
    }
    return gained == span_ - 1 ? &table_[table_index(tricks)] : nullptr;
}

void SpadesOutcomes::score(const TrickCounts& tricks, engine::Tuple& out) const {
    out = {};
    const Rules& rules = rules_;
    ScoreBoard board;
    board.bags = context_.bags;
    const HandScore hs = score_spades_hand(rules, context_.bids, tricks, board);
    std::array<int, kMaxPlayers> delta{};
    for (int u = 0; u < rules.num_units(); ++u)
        delta[u] = valued_delta(rules, hs, u, context_.bag_value);
    if (!margin_) {
        for (int p = 0; p < rules.players; ++p) out[p] = delta[rules.unit_of(p)];
        return;
    }
    // Before the shift the utilities sum to zero.
    for (int p = 0; p < rules.players; ++p) out[p] = delta[p % 2] - delta[1 - p % 2];
}

SpadesScoreObjective::SpadesScoreObjective(const TrickPlay& g, const ScoreContext& context,
                                           bool margin)
    : context_(context), margin_(margin) {
    TrickCounts won{};
    for (int p = 0; p < g.players(); ++p) won[p] = g.state().tricks_won[p];
    const int left = g.remaining_tricks();
    if (context.outcomes && context.outcomes->made_for(won, left, margin))
        outcomes_ = context.outcomes;
    else
        outcomes_ = std::make_shared<const SpadesOutcomes>(g.rules(), context, won, left, margin);
    context_.outcomes = nullptr;  // what the objective reads of them is outcomes_
}

void SpadesScoreObjective::outcome_tuple(const TrickPlay& g, const TrickCounts& tricks,
                                         engine::Tuple& out) const {
    if (const engine::Tuple* t = outcomes_->find(tricks)) {
        out = *t;
        return;
    }
    outcomes_->score(tricks, out);
    for (int p = 0; p < g.players(); ++p) out[p] += outcomes_->shift();
}

void SpadesScoreObjective::evaluate(const TrickPlay& g, engine::Tuple& out) const {
    // A nil bidder still clean is predicted to stay clean (an even share would call every nil lost
    // at the horizon, leaving the search no reason to protect or attack it); the others share what
    // is left. With a cut-off evaluation (at a trick boundary) the tricks left go in whole shares
    // as it predicts. Any split of the tricks left is a reachable outcome, so the tuple stays
    // inside the (trivial) bounds and within maxsum.
    const int n = g.players();
    const int left = g.remaining_tricks();
    const PlayState& ps = g.state();
    TrickCounts tricks{};
    for (int p = 0; p < n; ++p) tricks[p] = ps.tricks_won[p];
    if (cutoff_ && ps.trick_size == 0) {
        std::array<int, kMaxPlayers> share{};
        cutoff_->shares(g, context_, left, share);
        for (int p = 0; p < n; ++p) tricks[p] += share[p];
        outcome_tuple(g, tricks, out);
        return;
    }
    int sharing = 0;
    std::array<bool, kMaxPlayers> clean_nil{};
    for (int p = 0; p < n; ++p) {
        clean_nil[p] = context_.bids[p].nil_stands(ps.tricks_won[p]);
        sharing += clean_nil[p] ? 0 : 1;
    }
    const int sharers = sharing > 0 ? sharing : n;
    for (int p = 0, k = 0; p < n; ++p) {
        if (clean_nil[p] && sharing > 0) continue;
        tricks[p] += left / sharers + (k < left % sharers ? 1 : 0);
        ++k;
    }
    outcome_tuple(g, tricks, out);
}

// --- Hearts points

HeartsPointsObjective::HeartsPointsObjective(const TrickPlay& g, const ScoreContext&) {
    const Rules& rules = g.rules();
    const int n = g.players();
    const int jack = g.jack_in_hand() ? -kJackOfDiamondsPoints : 0;
    max_u_ = kMoonPoints + (rules.moon_subtracts ? kMoonPoints : 0) + jack;
    const engine::Utility plain = kMoonPoints * n - g.moon_total() + jack;
    if (g.moon_possible()) {
        const engine::Utility moon = rules.moon_subtracts
                                         ? kMoonPoints * n + kMoonPoints + jack
                                         : kMoonPoints * n - kMoonPoints * (n - 1) + jack;
        maxsum_ = std::max(plain, moon);
        constant_sum_ = false;
    } else {
        maxsum_ = plain;
        constant_sum_ = true;
    }
}

void HeartsPointsObjective::points_tuple(const TrickPlay& g,
                                         const std::array<int, kMaxPlayers>& penalty,
                                         int jack_taker, engine::Tuple& out) const {
    const Rules& rules = g.rules();
    const int n = g.players();
    out = {};
    int shooter = -1;
    if (g.moon_total() == kMoonPoints)
        for (int p = 0; p < n; ++p)
            if (penalty[p] == kMoonPoints) shooter = p;
    for (int p = 0; p < n; ++p) {
        int score = penalty[p];
        if (shooter >= 0)
            score = p == shooter ? (rules.moon_subtracts ? -kMoonPoints : 0)
                                 : (rules.moon_subtracts ? 0 : kMoonPoints);
        if (rules.jack_of_diamonds && jack_taker == p) score += kJackOfDiamondsPoints;
        out[p] = shift_ - score;
    }
}

void HeartsPointsObjective::bounds(const TrickPlay& g, int, engine::Tuple& lo,
                                   engine::Tuple& hi) const {
    lo = {};
    hi = {};
    const int n = g.players();
    int left = g.moon_total();
    for (int p = 0; p < n; ++p) left -= g.penalty(p);
    const bool jack_free =
        g.rules().jack_of_diamonds && g.jack_in_hand() && g.jack_taker() == TrickPlay::kNobody;
    if (g.moon_possible() && left == 0) {
        // One player has taken every penalty card: the moon is made whatever is played now, and
        // only a jack of diamonds still out can change a score.
        payoff(g, lo);
        hi = lo;
        if (jack_free)
            for (int p = 0; p < n; ++p) hi[p] -= kJackOfDiamondsPoints;
        return;
    }
    if (g.moon_possible()) {
        for (int p = 0; p < n; ++p) hi[p] = max_u_;
        return;
    }
    for (int p = 0; p < n; ++p) {
        lo[p] = shift_ - (g.penalty(p) + jack_points(g, p) + left);
        hi[p] =
            shift_ - (g.penalty(p) + jack_points(g, p)) + (jack_free ? -kJackOfDiamondsPoints : 0);
    }
}

std::uint64_t HeartsPointsObjective::outcome_key(const TrickPlay& g) const {
    // The outcome set depends on what each player has taken and on what is still in play.
    std::uint64_t k = static_cast<std::uint64_t>(g.remaining_tricks());
    for (int p = 0; p < g.players(); ++p)
        k = k * 64 + static_cast<std::uint64_t>(g.penalty(p) & 63);
    k = k * 8 + (g.jack_taker() == TrickPlay::kNobody ? 7u : static_cast<unsigned>(g.jack_taker()));
    // Which of the Q♠ and the J♦ are still in play changes the outcome set too.
    const CardSet in_play = g.state().in_play();
    k = k * 4 + (in_play.contains(Card(Suit::kSpades, kQueen)) ? 1 : 0) +
        (in_play.contains(Card(Suit::kDiamonds, kJack)) ? 2 : 0);
    k = k * 16 + static_cast<std::uint64_t>(in_play.count(Suit::kHearts));
    return k;
}

}  // namespace cardgames
