#pragma once
// What the batch commands (tournament, eval) share on the command line: the options that say how
// to run (--threads, --out, --resume, --quiet, --report), parsing on every MPI rank, the progress
// line as the run's observer, and Ctrl-C (SIGINT, SIGTERM) as the run's stop request.

#include <functional>
#include <iostream>
#include <optional>
#include <stop_token>
#include <string>
#include <utility>
#include <vector>

#include "apps/cli/common.hpp"
#include "apps/cli/progress.hpp"
#include "apps/experiments/batch.hpp"
#include "apps/experiments/cluster.hpp"
#include "apps/experiments/run.hpp"
#include "apps/learn/data_files.hpp"
#include "cardgames/cards/seeds.hpp"
#include "cardgames/rules/rules.hpp"

namespace apps {

// The options of every batch command that say how to run it; none of them changes the results.
struct BatchRunOptions {
    BatchRun run;  // --threads (default: the cores shared among the ranks on this machine), --out,
                   // --resume
    std::string report_file;
    bool quiet = false;

    explicit BatchRunOptions(const MpiSession& mpi);
    // `report` says what --report prints; `out` what --out is.
    void add_to(po::options_description& desc, const std::string& report,
                const std::string& out =
                    "results file, JSON Lines (refused if it exists, unless --resume)");
};

// Collective: runs `parse` (the command line and the input files) on every rank and agrees on
// the outcome (agree_on_setup): a status when the command is already done (--help, --report). An
// option error becomes an InputError that points to `command --help`.
std::optional<int> parse_on_every_rank(const MpiSession& mpi, const std::string& command,
                                       const std::function<std::optional<int>()>& parse);

// While it lives, SIGINT and SIGTERM set a flag instead of ending the process (the only thing a
// signal handler may safely do); poll() turns the flag into a stop request through token(). A
// second signal ends the process at once (the default action is back).
class StopOnSignals {
  public:
    StopOnSignals();
    ~StopOnSignals();
    StopOnSignals(const StopOnSignals&) = delete;
    StopOnSignals& operator=(const StopOnSignals&) = delete;

    std::stop_token token() const { return source_.get_token(); }
    void poll();

  private:
    std::stop_source source_;
    void (*int_)(int) = nullptr;
    void (*term_)(int) = nullptr;
};

// The run's observer on the command line: the progress line on stderr (none with --quiet), notes
// on stderr, and Ctrl-C polled on every tick.
class ProgressObserver : public RunObserver {
  public:
    ProgressObserver(bool quiet, StopOnSignals& signals) : quiet_(quiet), signals_(signals) {}
    void tick() override { signals_.poll(); }
    void note(const std::string& message) override;
    void started(long total, long done, const std::string& unit, const std::string& where) override;
    void written(long index, const std::string& line) override;
    void finished(long done) override;

  private:
    bool quiet_;
    StopOnSignals& signals_;
    std::optional<Progress> progress_;
};

// A results command (tournament, eval) from its command line to its exit status: `parse(mpi, argc,
// argv, options, how)` on every rank (a status when already done), then `run(options, observer,
// stop, mpi)` with the progress line and Ctrl-C; rank 0 says how to resume an interrupted run, or
// prints `summary(options, result)`.
template <class Options, class Parse, class Run, class Summary>
int run_results_command(const MpiSession& mpi, const std::string& command, int argc, char** argv,
                        Parse parse, Run run, Summary summary) {
    return guarded(
        command,
        [&] {
            Options options;
            BatchRunOptions how(mpi);
            if (const auto done = parse_on_every_rank(
                    mpi, command, [&] { return parse(mpi, argc, argv, options, how); }))
                return *done;
            StopOnSignals signals;
            ProgressObserver progress(how.quiet, signals);
            const auto result = run(options, progress, signals.token(), mpi);
            if (mpi.rank() != 0) return result.status;
            if (!result.complete()) {
                std::cerr << "cardgames " << command << ": interrupted after " << result.done
                          << " of " << result.total
                          << " results; run the same command with --resume to continue\n";
                return kExitInterrupted;
            }
            std::cout << summary(options, result) << "\n";
            return 0;
        },
        mpi.rank() == 0);
}

// A data command's run (apps/learn/data_runs.hpp: `run(observer, stop)`, true when complete) with
// the progress line and Ctrl-C. Returns the exit status: 0 done, kExitInterrupted (rank 0 says how
// to resume `command`).
int run_data_batch(const MpiSession& mpi, const BatchRunOptions& how, const std::string& command,
                   const std::function<bool(RunObserver&, std::stop_token)>& run);

// The command line of a self-play data command: the rules options, --players, --hands and --seed,
// and the options that say how to run.
struct SelfPlayArgs {
    RulesOptions rules;
    std::string players_text;  // --players as given
    boost::program_options::variables_map vm;

    // Parses argv (after the subcommand) as `command`: the rules into `rules`, --hands and --seed
    // into `plan`, the run's options into `run`; `players_doc` and `report_doc` say what --players
    // and --report do. Prints help and returns false for --help.
    bool parse(const std::string& command, int argc, char** argv, SelfPlayPlan& plan,
               BatchRunOptions& run, const std::string& players_doc, const std::string& report_doc);
    // Checks them once the rules are resolved into plan.rules: --hands and --out given, the specs
    // into plan.specs (`default_bot` in every seat when --players is not given), then a training
    // seed and one bot per seat (check_selfplay_players).
    void check(SelfPlayPlan& plan, const BatchRunOptions& run,
               const std::string& default_bot) const;
};

// A fit's input and model files: --data, repeatable (files of `cardgames <data_command>`), and
// --out (the model file, usually `usual_out`); and --holdout, the hold-out rule's N
// (apps/learn/holdout.hpp).
void add_fit_file_options(po::options_description& desc, std::vector<std::string>& data,
                          std::string& out, long& holdout, const std::string& data_command,
                          const std::string& usual_out);

// The command line that made a model, for its file's header: `command` and the arguments after
// the subcommand (argv[1] on).
std::string command_line(const std::string& command, int argc, char** argv);

}  // namespace apps
