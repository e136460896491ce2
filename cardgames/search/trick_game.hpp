#pragma once
// The perfect-information view of a hand that the engine searches. TrickSearch<Objective> joins
// the trick-play core (trick_play.hpp) with one objective (trick_objectives.hpp) at compile time
// and models engine::Game with the transposition, outcome, depth-counter and side hooks.
//
// TrickGame is what callers hold: it picks the objective from a run-time Utility once, when it is
// built, and engine::Searcher<TrickGame> (engine/choice.hpp) runs the search on the TrickSearch it
// holds, so no node switches on the objective. Its own Game methods dispatch on every call and
// serve only the callers' moves at the root (play-outs, listing the moves).

#include <array>
#include <cstdint>
#include <type_traits>
#include <variant>
#include <vector>

#include "cardgames/rules/info_state.hpp"
#include "cardgames/rules/play_state.hpp"
#include "cardgames/rules/rules.hpp"
#include "cardgames/search/trick_objectives.hpp"
#include "cardgames/search/trick_play.hpp"
#include "engine/choice.hpp"
#include "engine/game.hpp"
#include "engine/types.hpp"

namespace cardgames {

template <class Objective>
class TrickSearch {
  public:
    using Move = Card;
    static constexpr int kMaxMoves = TrickPlay::kMaxMoves;
    static constexpr Utility kUtility = Objective::kUtility;

    TrickSearch(const Rules& rules, const PlayState& state,
                const std::array<CardSet, kMaxPlayers>& taken, const ScoreContext& context)
        : play_(rules, state, taken), objective_(play_, context) {}

    // engine::Game
    int num_players() const { return play_.players(); }
    int player_to_move() const { return play_.state().to_move; }
    bool is_terminal() const { return play_.is_terminal(); }
    void legal_moves(engine::MoveList<Card, kMaxMoves>& out) const {
        if (nil_ruled(player_to_move())) {
            out.push_back(play_.nil_bidder_card());
            return;
        }
        play_.legal_moves(
            out, [this](Card c, const MoveFacts& f) { return objective_.move_order(play_, c, f); });
    }
    void apply(Card c) { play_.template apply<Objective::kPenalties>(c); }
    void undo(Card) { play_.undo(); }
    void payoff(engine::Tuple& out) const { objective_.payoff(play_, out); }
    void evaluate(engine::Tuple& out) const { objective_.evaluate(play_, out); }
    void bounds(engine::Tuple& lo, engine::Tuple& hi) const {
        objective_.bounds(play_, horizon_, lo, hi);
    }
    engine::Utility maxsum() const { return objective_.maxsum(); }
    bool constant_sum() const { return objective_.constant_sum(); }
    engine::Utility delta() const { return 1; }
    std::uint64_t hash_key() const {
        // A ruled nil's card depends on whether it has taken a trick and, across suits, on the
        // cards' own ranks, which the tricks objective's key (relative ranks, no tricks) leaves
        // out; the Spades score objectives key exactly this.
        return nil_rule_ != 0 ? play_.cards_and_tricks_key() : objective_.hash_key(play_);
    }
    // Hooks.
    bool tt_storable() const { return play_.state().trick_size == 0; }
    void tt_offset(engine::Tuple& out) const { objective_.tt_offset(play_, out); }
    int depth_counter() const { return play_.depth_counter(); }
    int side_of(int player) const { return play_.partnership() ? player % 2 : player; }
    bool even_sides() const {
        if constexpr (requires { objective_.even_sides(play_); }) {
            return objective_.even_sides(play_);
        } else {
            return false;
        }
    }
    // Depth-limited search: nodes are evaluated once depth_counter() reaches `counter`
    // (engine::kNoDepthLimit: never); the objective may tighten its bounds to the cut-off tree.
    void set_horizon(int counter) { horizon_ = counter; }
    // A predictive cut-off evaluation for the Hearts points objective (trick_objectives.hpp);
    // returns false, changing nothing, for objectives that have none.
    bool set_cutoff(const CutoffEvaluator* cutoff) {
        if constexpr (requires { objective_.set_cutoff(cutoff); }) {
            objective_.set_cutoff(cutoff);
            return true;
        } else {
            return false;
        }
    }
    // Spades: the seats (a bit each) whose nil, while it stands, plays the one card a nil bidder
    // that sees only its own hand would (TrickPlay::nil_bidder_card) instead of every card. What
    // they play then depends only on what hash_key() covers (the cards, the tricks each has won),
    // so transposition entries stay exact; the outcome tables list every split of the tricks, a
    // superset of what the restricted play reaches, so they stay sound. Hearts has no nils (and
    // keys more than the tricks): there it does nothing.
    void set_nil_rule(unsigned seats) {
        if constexpr (kUtility != Utility::kPoints) nil_rule_ = seats;
    }
    std::uint64_t outcome_key() const { return objective_.outcome_key(play_); }
    template <class F>
    void for_each_outcome(F&& f) const {
        objective_.for_each_outcome(play_, f);
    }

    const TrickPlay& play() const { return play_; }
    std::vector<int> report(const engine::Tuple& value) const {
        return objective_.report(play_, value);
    }

  private:
    bool nil_ruled(int p) const {
        return ((nil_rule_ >> p) & 1u) != 0 && play_.state().tricks_won[p] == 0;
    }

    TrickPlay play_;
    Objective objective_;
    int horizon_ = engine::kNoDepthLimit;  // depth_counter() at which the search evaluates
    unsigned nil_rule_ = 0;                // set_nil_rule
};

// The engine searches each objective through this concept; say so where a mismatch is cheapest
// to read.
static_assert(engine::Game<TrickSearch<TricksObjective>>);
static_assert(engine::Game<TrickSearch<SpadesScoreObjective>>);
static_assert(engine::Game<TrickSearch<HeartsPointsObjective>>);
static_assert(engine::EvenSidedGame<TrickSearch<SpadesMarginObjective>>);
static_assert(engine::OutcomeGame<TrickSearch<HeartsPointsObjective>> &&
              engine::TranspositionGame<TrickSearch<HeartsPointsObjective>> &&
              engine::HorizonGame<TrickSearch<HeartsPointsObjective>> &&
              engine::SidedGame<TrickSearch<HeartsPointsObjective>>);

class TrickGame {
  public:
    using Move = Card;
    static constexpr int kMaxMoves = TrickPlay::kMaxMoves;
    using Choices =
        std::variant<TrickSearch<TricksObjective>, TrickSearch<SpadesScoreObjective>,
                     TrickSearch<HeartsPointsObjective>, TrickSearch<SpadesMarginObjective>>;

    // `taken` are the penalty cards each seat took before this position (Hearts moon), `context`
    // the bids and bags (Spades score utility). Throws InputError when the utility does not fit
    // the game or the position is impossible.
    TrickGame(const Rules& rules, const PlayState& state, Utility utility,
              const std::array<CardSet, kMaxPlayers>& taken = {}, const ScoreContext& context = {});

    // Calls f with the TrickSearch this game holds (what engine::Searcher does once per search).
    template <class F>
    decltype(auto) visit(F&& f) {
        return std::visit(f, game_);
    }
    template <class F>
    decltype(auto) visit(F&& f) const {
        return std::visit(f, game_);
    }

    // engine::Game, one dispatch per call.
    int num_players() const { return play().players(); }
    int player_to_move() const { return state().to_move; }
    bool is_terminal() const { return play().is_terminal(); }
    void legal_moves(engine::MoveList<Card, kMaxMoves>& out) const {
        visit([&out](const auto& g) { g.legal_moves(out); });
    }
    void apply(Card c) {
        visit([c](auto& g) { g.apply(c); });
    }
    void undo(Card c) {
        visit([c](auto& g) { g.undo(c); });
    }
    void payoff(engine::Tuple& out) const {
        visit([&out](const auto& g) { g.payoff(out); });
    }
    void evaluate(engine::Tuple& out) const {
        visit([&out](const auto& g) { g.evaluate(out); });
    }
    void bounds(engine::Tuple& lo, engine::Tuple& hi) const {
        visit([&](const auto& g) { g.bounds(lo, hi); });
    }
    engine::Utility maxsum() const {
        return visit([](const auto& g) { return g.maxsum(); });
    }
    bool constant_sum() const {
        return visit([](const auto& g) { return g.constant_sum(); });
    }
    engine::Utility delta() const { return 1; }
    std::uint64_t hash_key() const {
        return visit([](const auto& g) { return g.hash_key(); });
    }
    // Hooks.
    bool tt_storable() const { return state().trick_size == 0; }
    void tt_offset(engine::Tuple& out) const {
        visit([&out](const auto& g) { g.tt_offset(out); });
    }
    int depth_counter() const { return play().depth_counter(); }
    int side_of(int player) const { return play().partnership() ? player % 2 : player; }
    void set_horizon(int counter) {
        visit([counter](auto& g) { g.set_horizon(counter); });
    }
    // The evaluator the cut-off leaves use (not owned; it must outlive the searches); false when
    // the utility has no predictive evaluation (only Hearts points has one).
    bool set_cutoff(const CutoffEvaluator* cutoff) {
        return visit([cutoff](auto& g) { return g.set_cutoff(cutoff); });
    }
    // TrickSearch::set_nil_rule: for the searches and for legal_moves here.
    void set_nil_rule(unsigned seats) {
        visit([seats](auto& g) { g.set_nil_rule(seats); });
    }
    std::uint64_t outcome_key() const {
        return visit([](const auto& g) { return g.outcome_key(); });
    }
    template <class F>
    void for_each_outcome(F&& f) const {
        visit([&f](const auto& g) { g.for_each_outcome(f); });
    }

    // Every legal card, not only one of each equivalent run (for printing all moves).
    CardSet all_legal_cards() const { return state().legal_moves(play().play_rules()); }
    // The representative that legal_moves generates for `c` (the top of its equivalent run).
    Card representative(Card c) const { return play().representative(c); }
    const PlayState& state() const { return play().state(); }
    // A search value as a person reads it: tricks per side (partnership: [0&2, 1&3]) or per
    // player from the root on; the hand's score change per unit (score); penalty points per player
    // for the whole hand, the moon applied (points).
    std::vector<int> report(const engine::Tuple& value) const {
        return visit([&value](const auto& g) { return g.report(value); });
    }
    // One player's utility `u` (a paranoid search's score: the root player's) as report() gives
    // it for that player: the tricks of its side or its own, its unit's score change, its points.
    int report_player(int player, engine::Utility u) const {
        engine::Tuple t;
        t.fill(u);  // report() reads each entry on its own: every player's entry is `u`
        return report(t)[static_cast<std::size_t>(side_of(player))];
    }
    Utility utility() const {
        return visit([](const auto& g) { return std::decay_t<decltype(g)>::kUtility; });
    }

  private:
    const TrickPlay& play() const {
        return visit([](const auto& g) -> const TrickPlay& { return g.play(); });
    }

    Choices game_;
};

static_assert(engine::Game<TrickGame> && engine::ChoiceGame<TrickGame>);

}  // namespace cardgames

// The search on a TrickGame (max^n and two-sided, for each objective) is compiled once, in
// trick_search.cpp (engine/choice.hpp says how): the files that search a hand call its entry
// points instead of compiling it again.
extern template class engine::Searcher<cardgames::TrickGame>;
