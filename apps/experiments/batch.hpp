#pragma once
// Runs the numbered items of a batch command (tournament games, evaluation positions) on oneTBB
// and, under mpirun, over several ranks, and writes their result lines in item order.
//
// Items are split over the ranks by number (rank r takes first + r, first + r + ranks, ...); each
// rank farms its share over an arena of --threads threads as a pipeline that starts items in
// order, and a bot that farms its own work (pimc's worlds) joins that arena, so nested work
// shares the cores. Rank 0 alone owns the results file: a finished item waits in memory until all
// earlier items are written, so the file is always a prefix of the complete file. Work in flight is
// bounded: item i starts only when i < written + 4 x threads x ranks (rank 0 sends the other ranks
// its written count), so memory does not grow with the run, a writer that falls behind slows the
// farm, and after a stop request at most that many more results are written. An item's result
// must depend on its number only (seeds derive from it), never on the thread, the rank or the
// timing, which makes the file independent of --threads and of the number of ranks. A stop request
// (the caller's std::stop_token: the command line sets it on SIGINT) stops handing out items on
// every rank and abandons the running ones; what is written stays valid for --resume.

#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <stop_token>
#include <string>

#include "apps/experiments/cluster.hpp"
#include "apps/experiments/results_file.hpp"
#include "apps/experiments/run.hpp"

namespace apps {

struct BatchOptions {
    long total = 0;    // items 0..total-1; those below the file's done() are already written
    int threads = 1;   // per rank
    std::string unit;  // what an item is, for the observer ("games", "positions")
};

// Collective: every rank must have worked out the same results header (the same options and the
// same input files); then rank 0 alone opens the results file (see ResultsFile). A rank that
// disagrees, or a file rank 0 cannot use, is an error on every rank (agree_on_setup), and the
// file is left as it was. Null on the other ranks.
std::unique_ptr<ResultsFile> open_results(const MpiSession& mpi, const std::string& path,
                                          const nlohmann::json& header, bool resume,
                                          const std::function<void(const nlohmann::json&)>& check);

// observer.tick() is called from this thread while it waits, on every rank. produce(i, stop)
// returns the JSON line of item i (called concurrently, on every rank); it checks `stop` between
// steps and throws Interrupted when it is set. On rank 0, written(i, line) and then
// observer.written(i, line) are called in item order after the line is in the file. `out` is the
// results file (or another BatchOutput) on rank 0 and null on the other ranks. Returns false when
// stopped through `stop` (on any rank: rank 0 tells the others). An exception from an item, on any
// rank, stops the batch on every rank and is rethrown on rank 0 (the other ranks throw QuietExit).
bool run_batch(const MpiSession& mpi, const BatchOptions& options, BatchOutput* out,
               RunObserver& observer, std::stop_token stop,
               const std::function<std::string(long, const std::stop_token&)>& produce,
               const std::function<void(long, const std::string&)>& written);

// How a batch command's run ended, into `result` (a TournamentResult, an EvalResult): its status
// from run_batch's `complete`, and on rank 0, the only rank that holds the whole file's table,
// the results in the file and their summary from `tally`.
template <class Result, class Tally>
void set_run_outcome(Result& result, bool complete, const Tally& tally, const MpiSession& mpi) {
    result.status = complete ? 0 : kExitInterrupted;
    if (mpi.rank() != 0) return;
    result.done = tally.results();
    result.summary = tally.summary();
}

}  // namespace apps
