#pragma once
// Game records as JSON Lines: one object per game holding the rules, the seed, the players and,
// per hand, the deal, bids or passes, every card in order, trick winners and scores. replay_record
// re-runs a record through the rules and reports the first illegal or inconsistent event.

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cardgames/game.hpp"
#include "cardgames/player.hpp"

namespace cardgames {

inline constexpr int kRecordVersion = 1;

nlohmann::json hand_to_json(const Rules& rules, const HandRecord& hand);
// The whole game so far (every finished hand), with the players' specs and, when any bot failed
// to decide, a "fallbacks" array of {hand, seat, decision, received, reason, fallback}.
nlohmann::json game_record(const Game& game, const std::vector<std::string>& players,
                           const std::vector<FallbackNote>& fallbacks = {});

// Rules from a record's "rules" object; throws InputError naming the key.
Rules rules_from_json(const nlohmann::json& rules);

struct ReplayResult {
    bool ok = true;
    std::string error;        // the first illegal or inconsistent event, when !ok
    ScoreBoard scores;        // final scores as re-computed
    std::vector<int> winners; // units
    int hands = 0;
};

// Re-runs one game record. Malformed JSON structure is an InputError (naming the field); an
// illegal or inconsistent event is reported in the result.
ReplayResult replay_record(const nlohmann::json& record);

}  // namespace cardgames
