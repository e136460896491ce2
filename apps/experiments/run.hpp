#pragma once
// What every run of the experiments library shares: how it ends (exit statuses, RunError,
// Interrupted), the bounds of what a run and a results file may hold, how it tells its caller what
// it is doing (RunObserver), how a caller seats its own players (PlayerFactory), and the settings
// that say how to run a batch without changing its results (BatchRun).
//
// The library prints nothing and parses no command line: a front end (apps/cli, the Python module)
// fills the options, watches through an observer and stops a run through a std::stop_token.

#include <cstdint>
#include <functional>
#include <memory>
#include <stdexcept>
#include <stop_token>
#include <string>
#include <string_view>

namespace cardgames {
class Player;
}

namespace apps {

// Exit statuses: 0 done, 1 a bug or a failed run, 2 bad input, 130 interrupted.
inline constexpr int kExitFailed = 1;
inline constexpr int kExitBadInput = 2;
inline constexpr int kExitInterrupted = 130;

// A run that cannot go on through no fault of its input or of the program: a write that failed
// (a full disk), threads that could not be had. Exit status 1, with the message as it is.
class RunError : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

// Thrown by an item that noticed the stop request part-way; the batch runner abandons the item.
struct Interrupted {};

// Upper bounds of the numeric options (docs/guide/bad-input.md): large enough for any real run,
// small enough that no count, product or index derived from them can overflow.
inline constexpr long kMaxItems = 1'000'000'000;  // --games, --hands, --count
inline constexpr int kMaxThreads = 1024;          // --threads
inline constexpr int kMaxSamples = 1'000'000;     // eval --samples

// What a batch run tells its caller, from the thread that called the run: tick() on every rank,
// the others on rank 0 only.
class RunObserver {
  public:
    virtual ~RunObserver() = default;
    // Called every few milliseconds (at most 100) while the run waits for results: where a front
    // end turns what it noticed into a stop request (the command line's Ctrl-C flag, Python's
    // KeyboardInterrupt), since a signal handler itself may not call request_stop.
    virtual void tick() {}
    // Something the caller should know but that does not stop the run (a resumed file's
    // unfinished last line was dropped).
    virtual void note(const std::string& /*message*/) {}
    // `total` items, `done` of them already in the file (resume); `unit` says what an item is
    // ("games", "hands", "deal-seats", "decisions"), `where` what runs them ("2 threads",
    // "3 ranks x 2 threads").
    virtual void started(long /*total*/, long /*done*/, const std::string& /*unit*/,
                         const std::string& /*where*/) {}
    // Result `index` was written to the file as `line` (items are written in index order).
    virtual void written(long /*index*/, const std::string& /*line*/) {}
    // The run ended (complete or stopped) with `done` results in the file.
    virtual void finished(long /*done*/) {}
};

// Makes the player of tournament entry `entry` (or eval policy `entry`) from its spec and seed.
// The spec is what goes into the results file; the default is sampling::make_player(spec, seed,
// stop). `stop` is set when the run stops: a player that waits on something outside the process
// (an external bot's program) should give up then, so that the run ends at once. Called
// concurrently from the run's threads.
using PlayerFactory = std::function<std::unique_ptr<cardgames::Player>(
    int entry, const std::string& spec, std::uint64_t seed, std::stop_token stop)>;

// The default --threads of a batch: the machine's cores shared among `ranks_on_this_machine`.
int default_batch_threads(int ranks_on_this_machine = 1);

// How to run a batch; none of it changes the results.
struct BatchRun {
    int threads = default_batch_threads();
    std::string out;      // the results file (JSON Lines); required
    bool resume = false;  // continue the file instead of refusing an existing one
};

// FNV-1a, 64 bits: a fingerprint of an input file, or of what each MPI rank worked out.
std::uint64_t fnv1a(std::string_view text);

// Where a batch's results go, in item order, on rank 0 (batch.hpp): a results file, or the shards
// of self-play data (apps/learn). append() is called once per item, with the item's result.
class BatchOutput {
  public:
    virtual ~BatchOutput() = default;
    // The items whose results are already there (resume): the batch starts at this one.
    virtual long done() const = 0;
    virtual void append(const std::string& result) = 0;
};

// Starts `count` threads side by side and lets them end, so that a run which cannot have the
// threads it will use stops at its start with a RunError naming how many it got. oneTBB starts its
// workers one from another, and a worker that cannot start the next one ends the program with
// std::terminate; after this check oneTBB finds the threads it needs (unless the machine's other
// processes take them in between).
void check_threads_available(int count);

}  // namespace apps
