#pragma once
// The results file of a tournament, written and read here only: its header (the plan: every
// option that decides the results) and its result lines (a game record plus the tournament's
// fields: index, board, rotation, seat_unit, seat_win, seat_hand_scores). Reading checks types,
// required keys and value ranges against the header (a board that is not the index's, 3 seats in a
// 4-player file) before anything is used, and throws cardgames::InputError naming the key;
// ResultsFile and read_results add the file and the line.

#include <cstdint>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "apps/experiments/stats.hpp"
#include "cardgames/rules/game.hpp"
#include "cardgames/rules/player.hpp"
#include "cardgames/rules/rules.hpp"

namespace apps {

// A tournament run: everything in options() decides the results, so it is the file's header.
struct TournamentPlan {
    cardgames::Rules rules;
    std::vector<std::string> specs;  // entry e sits at seat e in rotation 0
    bool by_hands = false;           // each item one hand from zero scores, else one whole game
    long count = 0;                  // games or hands (boards in duplicate mode)
    bool duplicate = false;
    // Bots seeded by seat instead of by entry: two entries that would decide alike in a seat then
    // do, so a paired comparison of two specs differs only where their decisions do.
    bool seat_seeds = false;
    std::uint64_t seed = 1;
    // The entries whose players see every hand (the `oracle`): "cheats" in the header, when any.
    // Each record must then mark their seats; a header without it (older files) marks none and
    // leaves the records' own marks unchecked.
    std::vector<int> cheats;

    int rotations() const { return duplicate ? (rules.is_partnership() ? 2 : rules.players) : 1; }
    long total() const { return count * rotations(); }
    // The seat of each entry's spec in this rotation.
    std::vector<std::string> seat_specs(int rotation) const;
    nlohmann::json options() const;
};

// The plan from a tournament header ({"type":"header",...,"options":{...}}).
TournamentPlan tournament_plan_from_header(const nlohmann::json& header);

// The result line of item `index`: the finished `game` (one hand when by hands) as a record with
// `players` in their seats, plus the tournament's fields.
std::string tournament_result_line(const TournamentPlan& plan, long index,
                                   const cardgames::Game& game,
                                   const std::vector<std::unique_ptr<cardgames::Player>>& players);

// Reads the seat fields "board", "rotation", "players", "seat_unit", "seat_win" (0 or 1),
// "seat_hand_scores" of a tournament result line, checked for type, range and one entry per seat;
// throws cardgames::InputError naming the key. What they must be for a given run (board and
// rotation from the index, the players' seats, the record) is tournament_result_from_json's check.
GameResult game_result_from_json(const nlohmann::json& line);
// A result line of the plan's file: its "index" one of the plan's items, a complete game record of
// the plan's rules and board seed, the board and rotation of its index, the plan's players in that
// rotation, their units, and per seat a win of 0 or 1 and one score per hand.
GameResult tournament_result_from_json(const nlohmann::json& line, const TournamentPlan& plan);

// A whole tournament results file, read line by line and checked as above: its plan, how many
// results it holds and their summary. `each` (if given) sees every result line as written and as
// reduced, in index order, for a caller that wants the records themselves.
struct TournamentFile {
    TournamentPlan plan;
    long results = 0;
    TournamentSummary summary;
};
using TournamentLineFn = std::function<void(const nlohmann::json& line, const GameResult& result)>;
TournamentFile read_tournament_file(const std::string& path, const TournamentLineFn& each = {});

// The table `tournament --report` prints for a whole results file.
std::string tournament_report(const std::string& path);

}  // namespace apps
