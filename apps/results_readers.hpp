#pragma once
// The readers of the two results files, one place per kind: the header's options and one result
// line of `cardgames tournament` and of `cardgames eval`, each checked for types, required keys and
// value ranges against the header (a board that is not the index's, 3 seats in a 4-player file, a
// line of the other mode) before anything is used. All throw cardgames::InputError naming the key;
// ResultsFile and read_results add the file and the line.

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "apps/stats.hpp"
#include "cardgames/rules/rules.hpp"

namespace apps {

// A tournament run: everything in options() decides the results, so it is the file's header.
struct TournamentPlan {
    cardgames::Rules rules;
    std::vector<std::string> specs;  // entry e sits at seat e in rotation 0
    bool by_hands = false;           // each item one hand from zero scores, else one whole game
    long count = 0;                  // games or hands (boards in duplicate mode)
    bool duplicate = false;
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
// A result line of the plan's file: its "index" one of the plan's items, a complete game record of
// the plan's rules and board seed, the board and rotation of its index, the plan's players in that
// rotation, their units, and per seat a win of 0 or 1 and one score per hand.
GameResult tournament_result_from_json(const nlohmann::json& line, const TournamentPlan& plan);

// What an eval results line is checked against: its header's options.
struct EvalOptions {
    bool bid_mode = true;
    std::vector<std::string> policies;
    long count = 0;
    int players = 4;  // bid mode: the rules' seats and hand size
    int cards_per_hand = 13;
};
EvalOptions eval_options_from_header(const nlohmann::json& header);
// The loss of each policy on a result line, after the line's other keys are checked for its mode:
// bid (deal, seat, values, best_bid, bids) or play (record_line, hand, trick, seat, legal, values,
// best, choices).
std::vector<double> eval_result_from_json(const nlohmann::json& line, const EvalOptions& options);

// The table `--report` prints for a whole results file, every line read and checked as above.
std::string tournament_report(const std::string& file);
std::string eval_report(const std::string& file);
// The table of eval losses, one line of losses per decision, one loss per policy.
std::string eval_summary_table(const std::vector<std::string>& policies,
                               const std::vector<std::vector<double>>& lines, bool bid_mode);

}  // namespace apps
