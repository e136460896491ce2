#pragma once
// Runs the numbered items of a batch command (tournament games, evaluation positions) in parallel
// on --threads workers and writes their result lines in item order: a finished item waits in memory until all
// earlier items are written, so the results file is always a prefix of the complete file. An item's
// result must depend on its number only (seeds derive from it), never on the thread or the timing,
// which makes the file independent of --threads. SIGINT stops handing out items and abandons the
// running ones; what is written stays valid for --resume.

#include <functional>
#include <string>

#include "apps/results_file.hpp"

namespace apps {

// Thrown by an item that noticed the interrupt (stop_requested) part-way.
struct Interrupted {};

// True once SIGINT (or SIGTERM) arrived during run_batch. Items check it between steps.
bool stop_requested();

struct BatchOptions {
    long total = 0;      // items 0..total-1; those below out.done() are already in the file
    int threads = 1;
    bool quiet = false;  // no progress display
    std::string unit;    // what an item is, for the progress display ("games", "positions")
};

// produce(i) returns the JSON line of item i (called concurrently); written(i, line) is called in
// item order after the line is in the file. Returns false when interrupted. An exception from an
// item stops the batch and is rethrown.
bool run_batch(const BatchOptions& options, ResultsFile& out, const std::function<std::string(long)>& produce,
               const std::function<void(long, const std::string&)>& written);

}  // namespace apps
