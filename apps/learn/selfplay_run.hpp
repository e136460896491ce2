#pragma once
// A whole `learn selfplay` run from its plan, as the command line and Python's
// cardgames.selfplay() both start it: the plan's defaults, then the shards opened (or resumed)
// and the hands farmed over the batch runner (selfplay.hpp).

#include <stop_token>
#include <string>
#include <vector>

#include "apps/experiments/cluster.hpp"
#include "apps/experiments/run.hpp"
#include "apps/learn/selfplay.hpp"

namespace apps {

// What `cardgames learn selfplay` plays and records without --players and --seats: the rule
// player in every seat, and every seat.
std::vector<std::string> default_selfplay_players(const cardgames::Rules& rules);
std::vector<int> default_selfplay_seats(const cardgames::Rules& rules);

// Collective: checks the plan, opens the shards of `run.out` (resuming with `run.resume`), and
// plays the hands on `run.threads` threads per rank. `observer` hears the progress and any note
// on opening (a cut hand dropped); `stop` stops the run, leaving shards that resume. True when
// every hand is in the shards.
bool run_selfplay(const MpiSession& mpi, const SelfplayPlan& plan, const BatchRun& run,
                  RunObserver& observer, std::stop_token stop);

}  // namespace apps
