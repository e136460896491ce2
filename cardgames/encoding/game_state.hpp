#pragma once
// The game as an OpenSpiel-style state: a Game driven one action (a small integer, actions.hpp) at
// a time.
//
// A GameState plays what `cardgames tournament --seed S` plays: a whole game (board 0's game
// seed), or with hands = N the N boards of `--hands N`, each one hand from zero scores. It keeps
// its action history (and any deal set for a hand, as sampling::sample_world sets them), from which
// it can be rebuilt (replay; Python's pickling).

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "cardgames/encoding/actions.hpp"
#include "cardgames/rules/game.hpp"

namespace cardgames::encoding {

class GameState {
  public:
    // hands = 0: one whole game; hands = N: N independent hands.
    GameState(const Rules& rules, std::uint64_t seed, int hands);

    const Rules& rules() const { return rules_; }
    std::uint64_t seed() const { return seed_; }
    int hands() const { return hands_; }
    int board() const { return board_; }
    const Game& game() const { return game_; }
    // The games of the boards already over (hands mode), then the current one.
    std::vector<const Game*> games() const;
    const std::vector<int>& history() const { return history_; }
    const std::map<std::pair<int, int>, Deal>& deals() const { return deals_; }
    CardSet pending_pass() const { return pending_; }
    // Where the current hand's actions begin in history().
    std::size_t hand_start() const { return hand_start_; }

    bool terminal() const { return game_.over(); }
    int current_player() const { return terminal() ? -1 : game_.to_act(); }
    std::vector<int> legal_actions() const;
    // Applies a legal action; throws IllegalAction with the reason otherwise (the Game's
    // own reasons, as the terminal table shows them), changing nothing.
    void apply(int action);
    // Per seat: the score of its unit (hands mode: the sum of its hands' scores). Hearts: points.
    std::vector<int> returns() const;
    InfoState info_state(int seat) const;

    // Rebuilds a state from its parts (pickling); InputError when they do not replay.
    static GameState replay(const Rules& rules, std::uint64_t seed, int hands,
                            const std::map<std::pair<int, int>, Deal>& deals,
                            const std::vector<int>& actions);

  private:
    void start_board(int board);
    std::string pass_card(Card card);
    void apply_deal_override();
    void after_decision(std::size_t hands_before);

    Rules rules_;
    std::uint64_t seed_ = 0;
    int hands_ = 0;
    int board_ = 0;
    Game game_;
    std::vector<Game> finished_;                 // boards over (hands mode)
    std::vector<int> history_;                   // every action since the start
    std::size_t game_start_ = 0;                 // where the current board's actions begin
    std::size_t hand_start_ = 0;                 // where the current hand's actions begin
    CardSet pending_;                            // cards chosen so far for the pass in progress
    std::map<std::pair<int, int>, Deal> deals_;  // (board, hand) -> deal set
};

}  // namespace cardgames::encoding
