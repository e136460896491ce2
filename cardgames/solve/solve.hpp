#pragma once
// Solving one position: the exact (or depth-limited) value of the position and of every legal
// card. solve_request reads the request from its options as text (what `cardgames solve` and the
// Python module's solve() are given), solve picks the algorithm and runs it, and the answer is
// printed as text or JSON. Bad input throws InputError naming the option.

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "cardgames/rules/play_state.hpp"
#include "cardgames/search/trick_objectives.hpp"
#include "engine/types.hpp"

namespace cardgames {

// An algorithm by its name ("speculative"), InputError listing the known ones otherwise.
engine::Algorithm algorithm_from_name(const std::string& name);

// The options of `cardgames solve` as given (absent: not given).
struct SolveOptions {
    std::string deal;
    std::optional<std::string> leader;
    std::string trick;
    std::string broken;   // "", "true" or "false"
    std::string utility;  // "": the game's default
    std::optional<std::string> bids;
    std::string algorithm;  // "": the fastest exact one for the position
    bool leaf_tables = false, no_tt = false;
    int depth = 0;
    std::uint64_t nodes = 0;
};

// The position to solve, how to value it, and the search's limits.
struct SolveRequest {
    Rules rules;
    PlayState state;
    Utility utility = Utility::kTricks;
    ScoreContext context;
    std::string algorithm;  // empty: the fastest exact one for the position
    int depth = 0;
    bool leaf_tables = false, no_tt = false;
    std::uint64_t node_limit = 0;
};

SolveRequest solve_request(const Rules& rules, const SolveOptions& options);

// What solve answers, whichever search found it: the root value, every legal card's value (in
// notation order), the best card, and the search's counts.
struct Solution {
    std::string heading;  // who is to play, what is valued, by which search
    std::string order;    // what the values count, per whom
    std::vector<int> value;
    Card best = kNoCard;
    std::vector<std::pair<Card, std::vector<int>>> rows;
    std::uint64_t nodes = 0, expansions = 0;
    double ms = 0;
    bool complete = true;
};

// The algorithm: as asked, or the fastest exact one for the position (the double-dummy solver
// where it applies) unless the options ask for a limited search; "dd" only where it applies.
std::string choose_algorithm(const SolveRequest& r);
// --algorithm dd: the double-dummy solver, for partnership Spades under the tricks utility.
Solution solve_double_dummy(const SolveRequest& r);
// Any other algorithm: the engine's search over the hand.
Solution solve_by_search(const SolveRequest& r, const std::string& algorithm);
// choose_algorithm, then the solver it names.
Solution solve(const SolveRequest& r);

// `--format json`: one object (value, best, moves, nodes, expansions, ms, complete).
nlohmann::json solution_json(const Solution& sol);
// `--format text`: the heading, the value, one line per card, the counts.
std::string solution_text(const Solution& sol);

}  // namespace cardgames
