#pragma once
// Game records as JSON Lines: one object per game holding the rules, the seed, the players and,
// per hand, the deal, bids or passes, every card in order, trick winners and scores. replay_record
// re-runs a record through the rules: it reports the first illegal event and refuses a record
// whose recorded outcomes (scores, winners, moon, bags, ...) are not what the rules give.

#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "cardgames/cards/json_input.hpp"
#include "cardgames/rules/game.hpp"
#include "cardgames/rules/player.hpp"

namespace cardgames {

inline constexpr int kRecordVersion = 1;

nlohmann::json hand_to_json(const Rules& rules, const HandRecord& hand);
// The whole game so far (every finished hand), with the players' specs, when any bot failed
// to decide a "fallbacks" array of {hand, seat, decision, received, reason, fallback}, and when
// any player saw every hand (the `oracle`, Player::sees_all_hands) a "cheats" array of its seats.
nlohmann::json game_record(const Game& game, const std::vector<std::string>& players,
                           const std::vector<FallbackNote>& fallbacks = {},
                           const std::vector<int>& cheats = {});

// The rules as a record's (and a results header's) "rules" object: every key=value of
// rules_to_pairs, values as strings.
nlohmann::json rules_to_json(const Rules& rules);
// Rules from a record's "rules" object; throws InputError naming the key.
Rules rules_from_json(const nlohmann::json& rules);
// The same from a field of a parsed file, the error naming the field's path ("key \"rules\"").
Rules rules_from_json(const JsonField& rules);

// Whether a parsed line is a game record ("type": "game"); other objects (summaries) are not.
// InputError when "type" is there but not a string.
bool is_game_record(const nlohmann::json& line);

// One hand of a record with every field checked for type and range (seats in range, cards that
// are cards, one entry per seat); whether its events are legal is for replay_record to say.
struct RecordedHand {
    int number = 0;
    int dealer = 0;
    Deal deal;
    std::vector<int> bids;                           // Spades: one per seat
    std::vector<bool> blind;                         // Spades: one per seat
    std::vector<std::pair<int, CardSet>> exchanges;  // Spades: (giving seat, cards) in order
    std::vector<CardSet> passes;                     // Hearts: one per seat
    std::vector<PlayedCard> plays;
    // The outcomes the record states, those present of "trick_winners", "tricks", "hand_score",
    // "scores", "bags" (integer arrays), "moon", "pass_offset" (integers).
    nlohmann::json recorded;
};
struct RecordedGame {
    Rules rules;
    std::uint64_t seed = 0;
    std::vector<std::string> players;  // empty when the record names none
    std::vector<int> cheats;           // "cheats": the seats whose players saw every hand
    std::vector<RecordedHand> hands;
    std::optional<std::vector<int>> winners;
    std::optional<std::vector<int>> final_scores;
    bool complete = false;
    bool complete_given = false;  // the record has a "complete" key
};

// The one reader of a game record (replay, eval --records, the record part of a tournament
// result): checks types, required keys ("rules", "seed", "hands"), value ranges and the optional
// keys before anything is used. Throws InputError naming the key ("hands[2].plays[5][0]").
RecordedGame read_game_record(const nlohmann::json& record);

struct ReplayResult {
    bool ok = true;
    std::string error;         // the first illegal event, when !ok
    ScoreBoard scores;         // final scores as re-computed
    std::vector<int> winners;  // units
    int hands = 0;
    // Every hand replayed, as the rules give it: the deal, bids, passes, plays, trick winners, the
    // hand's score and the running scores after it.
    std::vector<HandRecord> played;
};

// Re-runs one game record through the rules. An illegal event (a card not held, a bid out of
// turn, a missing card) is reported in the result (!ok). Every outcome the record states is
// compared with what the rules give: per hand the hand and dealer numbers, bids and blind-nil
// flags, the blind-nil exchanges, Hearts passes and pass offset, trick winners, tricks, hand
// score, running scores, bags and moon; then final_scores, winners and complete. A difference is
// an InputError naming the key ('key "hands[2].moon": recorded 1 but the rules give -1'), as is
// a malformed record (the json overload reads it with read_game_record first).
// `before_play`, when given, is called at every card play of the record just before the card is
// played, with the game as it stands (game.to_act() is the seat to play): the one walk over a
// record's decisions (eval --mode play collects its decisions here).
using PlayVisitor = std::function<void(const Game& game)>;
ReplayResult replay_record(const RecordedGame& record, const PlayVisitor& before_play = {});
ReplayResult replay_record(const nlohmann::json& record);

}  // namespace cardgames
