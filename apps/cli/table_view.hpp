#pragma once
// What the human seat of `cardgames play` sees of the table: seats named by where they sit from
// you, the game's events as they happen, the state of the hand that stays in view above every
// prompt (bids, tricks and what the contracts still need in Spades; points taken and broken
// hearts in Hearts; scores), and hand and game summaries that say how each number came about.
// It reads the Game it is given and never changes it.

#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

#include "apps/cli/terminal.hpp"
#include "cardgames/rules/game.hpp"

namespace apps {

class TableView {
  public:
    TableView(const cardgames::Game& game, int me, const Display& display)
        : game_(game), me_(me), display_(display) {}

    // "You"; with 4 players the compass name; else "Left", "Right", "Across" (6 players) or
    // "Seat 3 (2nd left)".
    std::string seat(int s) const;
    // The opening: the game, its form, your seat and partner, the target, each seat's bot.
    std::string opening(std::uint64_t seed, const std::vector<std::string>& names) const;
    // Prints one event of the game as you see it.
    void print(std::ostream& out, const cardgames::GameEvent& e);
    // The state of the hand and the game, kept in view above each prompt.
    std::string status() const;
    // The last finished trick, for the `last` command.
    std::string last_trick() const;
    // The cards received in the pass, marked in the hand the first time it is shown after it.
    cardgames::CardSet take_fresh_cards();

  private:
    std::string unit(int u) const;
    std::string bid_text(const cardgames::Bid& b) const;
    std::string trick_text(std::size_t first) const;  // the trick whose first card is plays[first]
    void print_hand_start(std::ostream& out) const;
    void print_hand_end(std::ostream& out) const;
    void print_game_over(std::ostream& out) const;
    std::string spades_status() const;
    std::string hearts_status() const;
    std::string scores_line() const;

    const cardgames::Game& game_;
    int me_;
    Display display_;
    std::string last_trick_;
    cardgames::CardSet fresh_;
};

}  // namespace apps
