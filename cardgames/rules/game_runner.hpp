#pragma once
// Drives a Game by asking each seat's Player for its decisions until the game is over. A decision
// the rules refuse is a bug in the bot: run_game throws, naming the seat, the bot and the choice.

#include <memory>
#include <vector>

#include "cardgames/rules/game.hpp"
#include "cardgames/rules/player.hpp"

namespace cardgames {

// Asks the seat to act for one decision and applies it. When the decision ends a hand, every
// player is told (Player::hand_over).
void step_game(Game& game, std::vector<std::unique_ptr<Player>>& players);
void run_game(Game& game, std::vector<std::unique_ptr<Player>>& players);

// Every player's fallback notes, for the game record.
std::vector<FallbackNote> collect_fallbacks(const std::vector<std::unique_ptr<Player>>& players);

// The seats whose players see every hand (Player::sees_all_hands), for the game record.
std::vector<int> cheating_seats(const std::vector<std::unique_ptr<Player>>& players);

}  // namespace cardgames
