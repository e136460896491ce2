#pragma once
// Runs the numbered items of a batch command (tournament games, evaluation positions) on oneTBB
// and, under mpirun, over several ranks, and writes their result lines in item order.
//
// Items are split over the ranks by number (rank r takes first + r, first + r + ranks, ...); each
// rank farms its share over an arena of --threads threads as a pipeline that starts items in
// order, and a bot that farms its own work (pimc's worlds) joins that arena, so nested work
// shares the cores. Rank 0 alone owns the results file: a finished item waits in memory until all
// earlier items are written, so the file is always a prefix of the complete file. An item's result
// must depend on its number only (seeds derive from it), never on the thread, the rank or the
// timing, which makes the file independent of --threads and of the number of ranks. SIGINT (or
// SIGTERM) stops handing out items on every rank and abandons the running ones; what is written
// stays valid for --resume.

#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "apps/common.hpp"
#include "apps/results_file.hpp"

namespace apps {

// Thrown by an item that noticed the interrupt (stop_requested) part-way.
struct Interrupted {};

// True once SIGINT (or SIGTERM) arrived during run_batch, or rank 0 asked the ranks to stop.
// Items check it between steps.
bool stop_requested();

struct BatchOptions {
    long total = 0;      // items 0..total-1; those below the file's done() are already written
    int threads = 1;     // per rank
    bool quiet = false;  // no progress display
    std::string unit;    // what an item is, for the progress display ("games", "positions")
};

// Collective: every rank must have worked out the same results header (the same options and the
// same input files); then rank 0 alone opens the results file (see ResultsFile). A rank that
// disagrees, or a file rank 0 cannot use, is an error on every rank (agree_on_setup), and the
// file is left as it was. Null on the other ranks.
std::unique_ptr<ResultsFile> open_results(const std::string& path, const nlohmann::json& header,
                                          bool resume,
                                          const std::function<void(const nlohmann::json&)>& check);

// produce(i) returns the JSON line of item i (called concurrently, on every rank); on rank 0,
// written(i, line) is called in item order after the line is in the file. `out` is the results
// file on rank 0 and null on the other ranks. Returns false when interrupted. An exception from
// an item, on any rank, stops the batch on every rank and is rethrown on rank 0 (the other ranks
// throw QuietExit).
bool run_batch(const BatchOptions& options, ResultsFile* out,
               const std::function<std::string(long)>& produce,
               const std::function<void(long, const std::string&)>& written);

// The default --threads of a batch: the machine's cores shared among the ranks it runs.
int default_batch_threads();

// The options of every batch command that say how to run it; none of them changes the results.
struct BatchRunOptions {
    int threads = default_batch_threads();
    std::string out_file, report_file;
    bool resume = false, quiet = false;

    // `report` says what --report prints.
    void add_to(po::options_description& desc, const std::string& report);
};

// Collective: runs `parse` (the command line and the input files) on every rank and agrees on
// the outcome (agree_on_setup): a status when the command is already done (--help, --report).
std::optional<int> parse_on_every_rank(const std::function<std::optional<int>()>& parse);

}  // namespace apps
