#pragma once
#include <cstdint>
#include <string>

#include "cardgames/rules/rules.hpp"

namespace apps {

// What `cardgames bench --pimc` runs: `hands` hands with `spec` in every seat, from `seed`.
struct BenchPimcRun {
    std::string spec = "pimc";
    int hands = 4;
    std::uint64_t seed = 1;
    // The rules as the command line gave them ("--preset hearts4 --rule ..."), and as Python's
    // cardgames.solve takes them ("preset='hearts4'"), for printing a position to replay.
    std::string rules_args;
    std::string rules_python;
};

// Plays the run and prints per-decision times by kind and point of the hand (median, 90th and
// 99th percentiles, worst), the most nodes one decision searched, where the worst decision (and
// the one of most nodes) was made, the decision rate and the peak resident memory.
int bench_pimc(const cardgames::Rules& rules, const BenchPimcRun& run);

}  // namespace apps
