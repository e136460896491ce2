#pragma once
// What a position of the trick play is worth: one policy type per objective, each giving the
// payoff, the cut-off evaluation, the pruning bounds, the move order, the transposition and outcome
// hooks of the engine, and the value as a person reads it. TrickSearch<Objective> (trick_game.hpp)
// combines one with the TrickPlay core at compile time.
//
//   TricksObjective        Spades: tricks won from the root on; in partnership both partners get
//                          their side's count (constant-sum: 2 x tricks left in partnership,
//                          tricks left otherwise).
//   SpadesScoreObjective   Spades: the hand's score change from bids, nil and bags (the 10-bag
//                          penalty included), shifted to be >= 0. Not constant-sum: leaf-value
//                          tables are what prune it.
//   SpadesMarginObjective  partnership Spades: the score change of the seat's side less the other
//                          side's, shifted to be >= 0. Constant-sum, partners alike: a two-sided
//                          game, which alphabeta searches far more cheaply than max^n the score.
//   HeartsPointsObjective  Hearts: u_i = 26 - (hand score of i), the moon applied at the leaves.
//                          While one player could still take every penalty card the bounds are the
//                          trivial ones (the moon breaks monotonicity); once two players have taken
//                          points they are exact again, and once one has taken them all (the moon
//                          made) they are the outcome itself.

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "cardgames/rules/info_state.hpp"
#include "cardgames/rules/scoring.hpp"
#include "cardgames/search/trick_play.hpp"
#include "engine/types.hpp"

namespace cardgames {

enum class Utility : std::uint8_t { kTricks, kScore, kPoints, kMargin };
// The utilities scored with the bids (and so searched with a ScoreContext).
inline bool scored_with_bids(Utility u) {
    return u == Utility::kScore || u == Utility::kMargin;
}
Utility parse_utility(const std::string& name);  // throws InputError naming the text
std::string utility_name(Utility u);
// The utility a game searches by default: tricks for Spades, points for Hearts.
Utility default_utility(GameKind game);

class SpadesOutcomes;

// Spades facts the score utility needs: bids and the running bags of each unit, and how bags are
// valued.
struct ScoreContext {
    std::array<Bid, kMaxPlayers> bids{};
    std::array<int, kMaxPlayers> bags{};
    BagValue bag_value = BagValue::kHand;
    // Optional: the outcomes scored once for many searches that start at one point of the hand
    // (the worlds of a pimc decision); a Spades score objective made at that point reads them.
    std::shared_ptr<const SpadesOutcomes> outcomes;
};
// The context of a game without bids (Hearts).
inline const ScoreContext kNoScoreContext{};

using TrickCounts = std::array<int, kMaxPlayers>;

// Every split of the tricks left from one point of a Spades hand (the tricks each player has won
// there, `left` tricks to play) scored as the hand scores it: per player its side's score change,
// or (margin) its side's less the other's, shifted so that every utility is >= 0. Scoring each at
// the leaves would cost a sixth of a Spades decision, and scoring the table again for each of a
// decision's worlds took a seventh of it, so a decision makes it once and its worlds share it.
class SpadesOutcomes {
  public:
    SpadesOutcomes(const Rules& rules, const ScoreContext& context, const TrickCounts& won,
                   int left, bool margin);

    // Whether these are the outcomes of a search from a point with `won` and `left`.
    bool made_for(const TrickCounts& won, int left, bool margin) const;
    // The shifted outcome of `tricks` (the tricks each player ends with), when it is a split of
    // the tricks left and the table holds it.
    const engine::Tuple* find(const TrickCounts& tricks) const;
    // The hand's scoring of `tricks`, before the shift.
    void score(const TrickCounts& tricks, engine::Tuple& out) const;

    engine::Utility shift() const { return shift_; }  // added to every utility
    engine::Utility max_u() const { return max_u_; }  // the largest utility any player can reach
    engine::Utility maxsum() const { return maxsum_; }

  private:
    // The largest table built (tuples); 14^3 covers every 4-player search.
    static constexpr std::size_t kMaxTable = 4096;
    std::size_t table_index(const TrickCounts& tricks) const;

    Rules rules_;
    ScoreContext context_;
    bool margin_;
    TrickCounts base_{};  // tricks won at the point
    int span_ = 0;        // tricks left there, plus one
    // The shifted outcome of every split (empty: too many; each is then scored when asked).
    std::vector<engine::Tuple> table_;
    engine::Utility shift_ = 0;
    engine::Utility max_u_ = 0;
    engine::Utility maxsum_ = 0;
};

// A predictive cut-off evaluation (pimc:eval=search,cutoff=model; the learned models are
// sampling/cutoff_model.hpp): what each player is expected to take in the rest of the hand from a
// trick boundary: penalty points (Hearts) or tricks (Spades, given the bids in `context`). The
// search only asks it; the objective makes the answer consistent with its bounds (cutoff_shares).
// Its answer must depend only on what the objective's hash_key() covers (the cards in each hand,
// the leader, whether spades are broken; in Hearts, while the moon is possible, the points each
// player has taken; in Spades the tricks each has won) and on `context`, which is fixed for a
// search, so that transposition entries stay exact.
class CutoffEvaluator {
  public:
    virtual ~CutoffEvaluator() = default;
    virtual void predict(const TrickPlay& g, const ScoreContext& context,
                         std::array<double, kMaxPlayers>& rest) const = 0;
    // The prediction as whole shares of `total`, what is left to take (cutoff_shares below).
    void shares(const TrickPlay& g, const ScoreContext& context, int total,
                std::array<int, kMaxPlayers>& out) const;
};

// Whole shares of `total` in proportion to `rest` (negative or non-finite entries count as 0, all
// zero gives the even share): every share in [0, total], summing to exactly `total`, so a leaf
// built from them lies inside the bounds and sums to what the even share sums to. Remainders go to
// the largest fractions, ties to the lower player.
void cutoff_shares(const std::array<double, kMaxPlayers>& rest, int players, int total,
                   std::array<int, kMaxPlayers>& out);

// Spades move order: lead aces and kings, else low; do not overtake the partner; win cheaply;
// else throw the lowest.
inline int spades_move_order(Card c, const MoveFacts& f) {
    if (f.leading) return c.rank() == kAce ? 200 : (c.rank() >= kKing ? 150 : 100 - c.rank());
    if (f.partner_winning) return 100 - c.rank() - (f.beats ? 50 : 0);
    if (f.beats) return 200 - c.rank();
    return 100 - c.rank();
}

// Adds each split of `total` among seats 0..players-1 to `counts` in turn (seat 0's share from 0
// up, then seat 1's, the last seat taking the rest) and calls f() on it, until f returns true.
// `counts` is as it was afterwards. Returns whether f did.
template <class F>
bool for_each_split_added(TrickCounts& counts, int players, int total, F&& f) {
    bool stop = false;
    auto rec = [&](auto&& self, int p, int rest) -> void {
        if (p == players - 1) {
            counts[p] += rest;
            stop = f();
            counts[p] -= rest;
            return;
        }
        for (int k = 0; k <= rest && !stop; ++k) {
            counts[p] += k;
            self(self, p + 1, rest - k);
            counts[p] -= k;
        }
    };
    rec(rec, 0, total);
    return stop;
}

// Calls f(tricks) for every split of the tricks left among the players, added to the tricks won
// so far, until f returns true.
template <class F>
void for_each_trick_split(const TrickPlay& g, F&& f) {
    TrickCounts tricks{};
    for (int p = 0; p < g.players(); ++p) tricks[p] = g.state().tricks_won[p];
    for_each_split_added(tricks, g.players(), g.remaining_tricks(),
                         [&] { return f(static_cast<const TrickCounts&>(tricks)); });
}

// Calls f(outcome tuple) for every split of the tricks left (for_each_trick_split), valued by
// the objective's outcome_tuple, until f returns true: the Spades objectives' outcomes.
template <class Objective, class F>
void for_each_split_outcome(const Objective& objective, const TrickPlay& g, F&& f) {
    engine::Tuple t{};
    for_each_trick_split(g, [&](const TrickCounts& tricks) {
        objective.outcome_tuple(g, tricks, t);
        return f(static_cast<const engine::Tuple&>(t));
    });
}

// The outcome key of the Spades objectives: tricks left and tricks won by each player.
std::uint64_t tricks_outcome_key(const TrickPlay& g);
// A Spades value per side (partnership) or per player, less `shift`.
std::vector<int> spades_report(const TrickPlay& g, const engine::Tuple& value,
                               engine::Utility shift);

class TricksObjective {
  public:
    static constexpr Utility kUtility = Utility::kTricks;
    static constexpr bool kPenalties = false;

    TricksObjective(const TrickPlay& g, const ScoreContext&)
        : maxsum_(g.partnership() ? 2 * g.remaining_tricks() : g.remaining_tricks()) {}

    engine::Utility maxsum() const { return maxsum_; }
    bool constant_sum() const { return true; }
    int move_order(const TrickPlay&, Card c, const MoveFacts& f) const {
        return spades_move_order(c, f);
    }
    void outcome_tuple(const TrickPlay& g, const TrickCounts& tricks, engine::Tuple& out) const {
        out = {};
        TrickCounts gained{};
        for (int p = 0; p < g.players(); ++p) gained[p] = tricks[p] - g.root_tricks_won(p);
        for (int p = 0; p < g.players(); ++p)
            out[p] = g.partnership() ? gained[p] + gained[(p + 2) % 4] : gained[p];
    }
    void payoff(const TrickPlay& g, engine::Tuple& out) const {
        TrickCounts tricks{};
        for (int p = 0; p < g.players(); ++p) tricks[p] = g.state().tricks_won[p];
        outcome_tuple(g, tricks, out);
    }
    // Tricks won so far, with what is left shared out evenly.
    void evaluate(const TrickPlay& g, engine::Tuple& out) const {
        const int left = g.remaining_tricks(), n = g.players();
        TrickCounts tricks{};
        for (int p = 0; p < n; ++p)
            tricks[p] = g.state().tricks_won[p] + left / n + (p < left % n ? 1 : 0);
        outcome_tuple(g, tricks, out);
    }
    // Under a depth limit (`horizon`) the bounds are those of the cut-off tree: a node k tricks
    // before the horizon can gain at most k more tricks on top of the even share that evaluate()
    // hands out there.
    void bounds(const TrickPlay& g, int horizon, engine::Tuple& lo, engine::Tuple& hi) const;
    std::uint64_t hash_key(const TrickPlay& g) const {
        return g.position_key(g.partnership() && g.state().trick_size == 0);
    }
    void tt_offset(const TrickPlay& g, engine::Tuple& out) const {
        out = {};
        for (int p = 0; p < g.players(); ++p)
            out[p] = g.state().tricks_won[p] - g.root_tricks_won(p);
        if (g.partnership()) {
            const engine::Tuple own = out;
            for (int p = 0; p < g.players(); ++p) out[p] = own[p] + own[(p + 2) % 4];
        }
    }
    std::uint64_t outcome_key(const TrickPlay& g) const { return tricks_outcome_key(g); }
    template <class F>
    void for_each_outcome(const TrickPlay& g, F&& f) const {
        for_each_split_outcome(*this, g, f);
    }
    std::vector<int> report(const TrickPlay& g, const engine::Tuple& value) const {
        return spades_report(g, value, 0);
    }

  private:
    // Per side: tricks its top trumps are certain to win (partnership, no depth limit).
    static std::array<int, 2> sure_trump_tricks(const TrickPlay& g);

    engine::Utility maxsum_;
};

class SpadesScoreObjective {
  public:
    static constexpr Utility kUtility = Utility::kScore;
    static constexpr bool kPenalties = false;

    // Shifts by the worst outcome, and finds the range and the largest sum.
    SpadesScoreObjective(const TrickPlay& g, const ScoreContext& context)
        : SpadesScoreObjective(g, context, false) {}

    engine::Utility maxsum() const { return outcomes_->maxsum(); }
    bool constant_sum() const { return margin_; }
    // Partners have the same utility (their side's), as alphabeta's tuples need.
    bool even_sides(const TrickPlay&) const { return margin_; }
    int move_order(const TrickPlay&, Card c, const MoveFacts& f) const {
        return spades_move_order(c, f);
    }
    // The real hand scoring, with the unit's running bags for the 10-bag penalty.
    void outcome_tuple(const TrickPlay& g, const TrickCounts& tricks, engine::Tuple& out) const;
    void payoff(const TrickPlay& g, engine::Tuple& out) const {
        TrickCounts tricks{};
        for (int p = 0; p < g.players(); ++p) tricks[p] = g.state().tricks_won[p];
        outcome_tuple(g, tricks, out);
    }
    void evaluate(const TrickPlay& g, engine::Tuple& out) const;
    // A predictive cut-off evaluation (null: the even share below). Any split of the tricks left
    // is a reachable outcome, so the (trivial) bounds hold for its whole shares too.
    void set_cutoff(const CutoffEvaluator* cutoff) { cutoff_ = cutoff; }
    // Trivial bounds: the score is not monotonic in the tricks taken.
    void bounds(const TrickPlay& g, int, engine::Tuple& lo, engine::Tuple& hi) const {
        lo = {};
        hi = {};
        for (int p = 0; p < g.players(); ++p) hi[p] = outcomes_->max_u();
    }
    // The score is not additive: the tricks won so far go into the key, the offset stays zero.
    std::uint64_t hash_key(const TrickPlay& g) const { return g.cards_and_tricks_key(); }
    void tt_offset(const TrickPlay&, engine::Tuple& out) const { out = {}; }
    std::uint64_t outcome_key(const TrickPlay& g) const { return tricks_outcome_key(g); }
    template <class F>
    void for_each_outcome(const TrickPlay& g, F&& f) const {
        for_each_split_outcome(*this, g, f);
    }
    std::vector<int> report(const TrickPlay& g, const engine::Tuple& value) const {
        return spades_report(g, value, outcomes_->shift());
    }

  protected:
    // `margin`: each seat's utility is its side's margin over the other (SpadesMarginObjective).
    SpadesScoreObjective(const TrickPlay& g, const ScoreContext& context, bool margin);

  private:
    ScoreContext context_;
    bool margin_ = false;
    // The outcomes from the position the objective was made for: the context's, when they are
    // that position's, else its own.
    std::shared_ptr<const SpadesOutcomes> outcomes_;
    const CutoffEvaluator* cutoff_ = nullptr;
};

// The same scoring as each side's margin over the other: partnership Spades as a two-sided game.
class SpadesMarginObjective : public SpadesScoreObjective {
  public:
    static constexpr Utility kUtility = Utility::kMargin;

    SpadesMarginObjective(const TrickPlay& g, const ScoreContext& context)
        : SpadesScoreObjective(g, context, true) {}
};

class HeartsPointsObjective {
  public:
    static constexpr Utility kUtility = Utility::kPoints;
    static constexpr bool kPenalties = true;

    HeartsPointsObjective(const TrickPlay& g, const ScoreContext&);

    engine::Utility maxsum() const { return maxsum_; }
    bool constant_sum() const { return constant_sum_; }
    // Lead low and keep points back; discard points, then high; duck as high as possible; forced
    // to win, win cheaply.
    int move_order(const TrickPlay& g, Card c, const MoveFacts& f) const {
        const int pts = g.play_rules().points[c.index()];
        if (f.leading) return 100 - c.rank() * 4 - pts * 3;
        if (c.suit() != f.led) return 200 + pts * 8 + c.rank();
        if (!f.beats) return 150 + c.rank();
        return 100 - c.rank();
    }
    void points_tuple(const TrickPlay& g, const std::array<int, kMaxPlayers>& penalty,
                      int jack_taker, engine::Tuple& out) const;
    void payoff(const TrickPlay& g, engine::Tuple& out) const {
        std::array<int, kMaxPlayers> pen{};
        for (int p = 0; p < g.players(); ++p) pen[p] = g.penalty(p);
        points_tuple(g, pen, g.jack_taker(), out);
    }
    // Points taken so far, with what is left shared out evenly, or (set_cutoff, at a trick
    // boundary) in whole shares of what is left as the evaluator predicts: either way every share
    // lies in [0, left] and the shares sum to what is left, so each entry lies inside the bounds
    // and the tuple sums to what the even share sums to (at most maxsum).
    void evaluate(const TrickPlay& g, engine::Tuple& out) const {
        const int n = g.players();
        int left = g.moon_total();
        for (int p = 0; p < n; ++p) left -= g.penalty(p);
        std::array<int, kMaxPlayers> share{};
        if (cutoff_ && g.state().trick_size == 0) {
            cutoff_->shares(g, kNoScoreContext, left, share);
        } else {
            for (int p = 0; p < n; ++p) share[p] = left / n + (p < left % n ? 1 : 0);
        }
        out = {};
        for (int p = 0; p < n; ++p) out[p] = shift_ - (g.penalty(p) + jack_points(g, p) + share[p]);
    }
    // A predictive cut-off evaluation (null: the even share). The bounds do not change: they
    // hold for any split of the points left.
    void set_cutoff(const CutoffEvaluator* cutoff) { cutoff_ = cutoff; }
    void bounds(const TrickPlay& g, int, engine::Tuple& lo, engine::Tuple& hi) const;
    std::uint64_t hash_key(const TrickPlay& g) const {
        std::uint64_t h = g.position_key(false);
        // What the future utility depends on beyond the cards, where it is not additive.
        if (g.moon_possible())
            for (int p = 0; p < g.players(); ++p) h ^= TrickPlay::count_key(p, g.penalty(p) & 31);
        if (g.rules().jack_of_diamonds && g.jack_taker() != TrickPlay::kNobody)
            h ^= TrickPlay::count_key(g.jack_taker(), 31) * 3;
        return h;
    }
    void tt_offset(const TrickPlay& g, engine::Tuple& out) const {
        out = {};
        if (!g.moon_possible())
            for (int p = 0; p < g.players(); ++p) out[p] = -g.penalty(p);
    }
    std::uint64_t outcome_key(const TrickPlay& g) const;
    template <class F>
    void for_each_outcome(const TrickPlay& g, F&& f) const;
    // Penalty points per player for the whole hand, the moon applied.
    std::vector<int> report(const TrickPlay& g, const engine::Tuple& value) const {
        std::vector<int> out;
        for (int p = 0; p < g.players(); ++p) out.push_back(shift_ - value[p]);
        return out;
    }

  private:
    static int jack_points(const TrickPlay& g, int p) {
        return (g.rules().jack_of_diamonds && g.jack_taker() == p) ? kJackOfDiamondsPoints : 0;
    }

    engine::Utility shift_ = kMoonPoints;
    engine::Utility max_u_ = 0;
    engine::Utility maxsum_ = 0;
    bool constant_sum_ = false;
    const CutoffEvaluator* cutoff_ = nullptr;
};

template <class F>
void HeartsPointsObjective::for_each_outcome(const TrickPlay& g, F&& f) const {
    // A superset of the reachable outcomes: every split of the hearts still in play, every taker of
    // the Q♠ and of the J♦ if they are still in play.
    const int players = g.players();
    const CardSet in_play = g.state().in_play();
    const int hearts = in_play.count(Suit::kHearts);
    const bool queen = in_play.contains(Card(Suit::kSpades, kQueen));
    const bool jack = g.rules().jack_of_diamonds && in_play.contains(Card(Suit::kDiamonds, kJack));
    std::array<int, kMaxPlayers> pen{};
    for (int p = 0; p < players; ++p) pen[p] = g.penalty(p);
    engine::Tuple t{};
    bool stop = false;
    auto finish = [&](int jack_taker) {
        points_tuple(g, pen, jack_taker, t);
        stop = f(static_cast<const engine::Tuple&>(t));
    };
    // The hearts split, then the Q♠ and J♦ takers.
    for_each_split_added(pen, players, hearts, [&] {
        for (int q = queen ? 0 : -1; q < (queen ? players : 0) && !stop; ++q) {
            if (q >= 0) pen[q] += kQueenOfSpadesPoints;
            if (jack)
                for (int j = 0; j < players && !stop; ++j) finish(j);
            else
                finish(g.jack_taker());
            if (q >= 0) pen[q] -= kQueenOfSpadesPoints;
        }
        return stop;
    });
}

}  // namespace cardgames
