#pragma once
// The perfect-information view of a hand that the engine searches (it models engine::Game with the
// transposition, outcome, depth-counter and side hooks). Built from any point of a hand, mid-trick
// included, under the rules in force, with one of three utilities:
//
//   tricks  Spades: tricks won from the root on; in partnership both partners get their side's
//   count
//           (constant-sum: 2 x tricks left in partnership, tricks left otherwise).
//   score   Spades: the hand's score change from bids, nil and bags (the 10-bag penalty included),
//           shifted to be >= 0. Not constant-sum: leaf-value tables are what prune it.
//   points  Hearts: u_i = 26 - (hand score of i), the moon applied at the leaves. While one player
//           could still take every penalty card the bounds are the trivial ones (the moon breaks
//           monotonicity); once two players have taken points they are exact again.
//
// Moves are cards; of equivalent cards (same hand, same suit, adjacent among the cards still in
// play, same points) only the highest is generated. Make/unmake copies a small state onto a stack
// held by the object: no allocation while searching.

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "cardgames/rules/info_state.hpp"
#include "cardgames/rules/play_state.hpp"
#include "cardgames/rules/rules.hpp"
#include "engine/game.hpp"
#include "engine/types.hpp"

namespace cardgames {

enum class Utility : std::uint8_t { kTricks, kScore, kPoints };
Utility parse_utility(const std::string& name);  // throws InputError naming the text
std::string utility_name(Utility u);
// The utility a game searches by default: tricks for Spades, points for Hearts.
Utility default_utility(GameKind game);

// Spades facts the score utility needs: bids and the running bags of each unit.
struct ScoreContext {
    std::array<Bid, kMaxPlayers> bids{};
    std::array<int, kMaxPlayers> bags{};
};

class TrickGame {
  public:
    using Move = Card;
    static constexpr int kMaxMoves = 17;

    // `taken` are the penalty cards each seat took before this position (Hearts moon), `context`
    // the bids and bags (Spades score utility). Throws InputError when the utility does not fit
    // the game or the position is impossible.
    TrickGame(const Rules& rules, const PlayState& state, Utility utility,
              const std::array<CardSet, kMaxPlayers>& taken = {}, const ScoreContext& context = {});

    // engine::Game
    int num_players() const { return players_; }
    int player_to_move() const { return s_.ps.to_move; }
    bool is_terminal() const { return s_.ps.trick_size == 0 && s_.ps.hands[s_.ps.to_move].empty(); }
    void legal_moves(engine::MoveList<Card, kMaxMoves>& out) const;
    void apply(Card c);
    void undo(Card c);
    void payoff(engine::Tuple& out) const;
    void evaluate(engine::Tuple& out) const;
    void bounds(engine::Tuple& lo, engine::Tuple& hi) const;
    engine::Utility maxsum() const { return maxsum_; }
    bool constant_sum() const { return constant_sum_; }
    engine::Utility delta() const { return 1; }
    std::uint64_t hash_key() const;
    // Hooks.
    bool tt_storable() const { return s_.ps.trick_size == 0; }
    void tt_offset(engine::Tuple& out) const;
    int depth_counter() const { return s_.ps.tricks_played - root_tricks_; }
    int side_of(int player) const { return partnership_ ? player % 2 : player; }
    // Depth-limited search (engine::HorizonGame): nodes are evaluated once depth_counter() reaches
    // `counter` (engine::kNoDepthLimit: never). With the tricks utility, bounds() then become those
    // of the cut-off tree: a node k tricks before the horizon can gain at most k more tricks on top
    // of the even share that evaluate() hands out at the horizon. Points and score keep their
    // plain bounds (what is taken before the horizon changes the shares there).
    void set_horizon(int counter) { horizon_ = counter; }
    std::uint64_t outcome_key() const;
    template <class F>
    void for_each_outcome(F&& f) const;

    // Every legal card, not only one of each equivalent run (for printing all moves).
    CardSet all_legal_cards() const { return s_.ps.legal_moves(play_rules_); }
    // The representative that legal_moves generates for `c` (the top of its equivalent run).
    Card representative(Card c) const;
    const PlayState& state() const { return s_.ps; }
    // A search value as a person reads it: tricks per side (partnership: [0&2, 1&3]) or per
    // player from the root on; the hand's score change per unit (score); penalty points per player
    // for the whole hand, the moon applied (points).
    std::vector<int> report(const engine::Tuple& value) const;
    Utility utility() const { return utility_; }

  private:
    struct State {
        PlayState ps;
        std::array<std::int16_t, kMaxPlayers>
            penalty{};                   // Hearts: points from hearts and Q♠ taken this hand
        std::uint8_t jack_taker = 0xff;  // Hearts J♦ option: who took it
        std::uint64_t hash = 0;
    };

    void outcome_tuple(const std::array<int, kMaxPlayers>& tricks, engine::Tuple& out) const;
    void points_tuple(const std::array<int, kMaxPlayers>& penalty, int jack_taker,
                      engine::Tuple& out) const;
    template <class F>
    void for_each_points_outcome(F&& f) const;
    bool moon_possible() const;
    std::uint64_t relative_rank_hash() const;
    void sure_trump_tricks(std::array<int, 2>& sure) const;  // partnership, no depth limit
    int remaining_tricks() const;  // tricks not yet completed (the current one included)

    Rules rules_;
    PlayRules play_rules_;
    Utility utility_;
    int players_;
    bool partnership_;
    ScoreContext context_;
    State s_;
    int ply_ = 0;
    std::array<State, engine::kMaxPly> stack_{};
    std::array<std::int8_t, kMaxPlayers> root_tricks_won_{};
    int root_tricks_ = 0;
    int horizon_ = engine::kNoDepthLimit;  // depth_counter() at which the search evaluates
    int moon_total_ = 0;  // Hearts: points of hearts and Q♠ in this hand (26 for a full deal)
    bool jack_in_hand_ = false;  // Hearts J♦ option: the J♦ belongs to this hand
    engine::Utility shift_ = 0;  // added to every utility so that all are >= 0
    engine::Utility max_u_ = 0;  // largest utility any player can reach
    engine::Utility maxsum_ = 0;
    bool constant_sum_ = false;
    CardSet moon_cards_;
};

template <class F>
void TrickGame::for_each_outcome(F&& f) const {
    if (utility_ == Utility::kPoints) {
        for_each_points_outcome(f);
        return;
    }
    // Every split of the remaining tricks among the players, added to the tricks won so far.
    const int left = remaining_tricks();
    std::array<int, kMaxPlayers> tricks{};
    for (int p = 0; p < players_; ++p) tricks[p] = s_.ps.tricks_won[p];
    engine::Tuple t{};
    bool stop = false;
    auto rec = [&](auto&& self, int p, int rest) -> void {
        if (stop) return;
        if (p == players_ - 1) {
            tricks[p] += rest;
            outcome_tuple(tricks, t);
            stop = f(static_cast<const engine::Tuple&>(t));
            tricks[p] -= rest;
            return;
        }
        for (int k = 0; k <= rest && !stop; ++k) {
            tricks[p] += k;
            self(self, p + 1, rest - k);
            tricks[p] -= k;
        }
    };
    rec(rec, 0, left);
}

template <class F>
void TrickGame::for_each_points_outcome(F&& f) const {
    // A superset of the reachable outcomes: every split of the hearts still in play, every taker of
    // the Q♠ and of the J♦ if they are still in play.
    const CardSet in_play = [&] {
        CardSet c;
        for (int p = 0; p < players_; ++p) c |= s_.ps.hands[p];
        for (int i = 0; i < s_.ps.trick_size; ++i) c |= s_.ps.trick[i];
        return c;
    }();
    const int hearts = in_play.count(Suit::kHearts);
    const bool queen = in_play.contains(Card(Suit::kSpades, kQueen));
    const bool jack = rules_.jack_of_diamonds && in_play.contains(Card(Suit::kDiamonds, kJack));
    std::array<int, kMaxPlayers> pen{};
    for (int p = 0; p < players_; ++p) pen[p] = s_.penalty[p];
    engine::Tuple t{};
    bool stop = false;
    auto finish = [&](int jack_taker) {
        points_tuple(pen, jack_taker, t);
        stop = f(static_cast<const engine::Tuple&>(t));
    };
    auto rec = [&](auto&& self, int p, int rest) -> void {
        if (stop) return;
        if (p == players_ - 1) {
            pen[p] += rest;
            for (int q = queen ? 0 : -1; q < (queen ? players_ : 0) && !stop; ++q) {
                if (q >= 0) pen[q] += kQueenOfSpadesPoints;
                if (jack)
                    for (int j = 0; j < players_ && !stop; ++j) finish(j);
                else
                    finish(s_.jack_taker);
                if (q >= 0) pen[q] -= kQueenOfSpadesPoints;
            }
            pen[p] -= rest;
            return;
        }
        for (int k = 0; k <= rest && !stop; ++k) {
            pen[p] += k;
            self(self, p + 1, rest - k);
            pen[p] -= k;
        }
    };
    rec(rec, 0, hearts);
}

// The engine searches TrickGame through this concept; say so where a mismatch is cheapest to read.
static_assert(engine::Game<TrickGame>);

}  // namespace cardgames
