#pragma once
// A tournament as a library call: self-play between player specs, by games or by independent
// hands, optionally duplicate (each deal replayed with the players rotated through the seats).
// One JSON line per finished game or hand (tournament_results.hpp), resumable; the summary figures
// come back as data (stats.hpp), for the front end to print or to hand on.

#include <stop_token>
#include <string>

#include "apps/experiments/cluster.hpp"
#include "apps/experiments/run.hpp"
#include "apps/experiments/stats.hpp"
#include "apps/experiments/tournament_results.hpp"

namespace apps {

struct TournamentOptions {
    TournamentPlan plan;        // what is played: everything in it goes into the file's header
    BatchRun run;               // how: threads, the results file, resume
    PlayerFactory make_player;  // seats entry e's spec; empty: sampling::make_player
};

// How a run ended, on rank 0 (the other ranks have only `status`).
struct TournamentResult {
    int status = 0;             // 0 complete, kExitInterrupted when stopped
    long done = 0;              // results in the file
    long total = 0;             // results of the complete run
    std::string workers;        // what ran it: "2 threads", "3 ranks x 2 threads"
    TournamentSummary summary;  // of every result in the file
    bool complete() const { return status == 0; }
};

// Refuses options no run can use (a spec count that is not the rules' seats, a spec the factory
// does not know or that cannot play the rules, no results file): cardgames::InputError.
// run_tournament checks them first. Returns the players' models (Player::check).
std::string check_tournament_options(const TournamentOptions& options);

// Runs (or, with options.run.resume, continues) the tournament into options.run.out; stops
// cleanly, leaving a file that resume continues, when `stop` is requested. Under mpirun every rank
// calls it with the same options and `mpi` (collective). Bad options or files throw
// cardgames::InputError; a failed write RunError.
TournamentResult run_tournament(const TournamentOptions& options, RunObserver& observer,
                                std::stop_token stop = {},
                                const MpiSession& mpi = MpiSession::single_process());

}  // namespace apps
