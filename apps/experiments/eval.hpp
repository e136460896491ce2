#pragma once
// An evaluation as a library call: bidding or play policies against a reference player.
//   bid mode:  every deal of a deal set and every chosen seat: each policy's bid, and the value of
//              every possible bid (the seat's expected hand score when the reference then plays
//              the hand, over sampled layouts); loss = best value - value of its bid.
//   play mode: every play decision of the chosen seats in game records (tournament results or
//              play --record files): each policy's card and its loss against the reference's
//              valuation of every legal card; agreement = it picked a best-valued card.
// One JSON line per deal-seat or decision (eval_results.hpp), resumable; the summary figures come
// back as data.

#include <stop_token>
#include <string>
#include <vector>

#include "apps/experiments/cluster.hpp"
#include "apps/experiments/eval_results.hpp"
#include "apps/experiments/run.hpp"
#include "apps/experiments/stats.hpp"

namespace apps {

struct EvalOptions {
    // What is evaluated. plan.count 0 means the default (25 deals, 200 decisions); plan.rules are
    // the deals' rules in bid mode (play mode takes each record's); plan.input_fnv1a is filled
    // from the input file by the run.
    EvalPlan plan;
    std::string deals;          // bid mode: the deal set, one deal per line
    std::string records;        // play mode: game records, JSON Lines (tournament results work)
    BatchRun run;               // how: threads, the results file, resume
    PlayerFactory make_policy;  // builds policy p from plan.policies[p]; empty: make_player
};

// How a run ended, on rank 0 (the other ranks have only `status`).
struct EvalResult {
    int status = 0;                      // 0 complete, kExitInterrupted when stopped
    long done = 0;                       // results in the file
    long total = 0;                      // results of the complete run
    std::string workers;                 // what ran it: "2 threads", "3 ranks x 2 threads"
    std::vector<PolicySummary> summary;  // per policy, over every result in the file
    bool complete() const { return status == 0; }
};

// The seats of --seats: "all" (0..players-1) or a list of distinct seat numbers written as such
// ("1", not "01"), comma separated. InputError naming the text otherwise.
std::vector<int> parse_seats(const std::string& text, int players);

// The items of a results file's plan as its input gives them (eval --report with the deal set or
// the records): the input is read as a run reads it and must be the one of the header (its
// fingerprint); an empty deal set is refused. InputError naming the file.
EvalItems eval_items(const EvalPlan& plan, const std::string& input);

// Runs (or, with options.run.resume, continues) the evaluation into options.run.out; stops
// cleanly, leaving a file that resume continues, when `stop` is requested. Under mpirun every rank
// calls it with the same options and `mpi` (collective). Bad options or input files throw
// cardgames::InputError naming them; a failed write RunError.
EvalResult run_eval(const EvalOptions& options, RunObserver& observer, std::stop_token stop = {},
                    const MpiSession& mpi = MpiSession::single_process());

}  // namespace apps
