#include "apps/cli/batch_command.hpp"

#include <atomic>
#include <csignal>
#include <iostream>

#include "cardgames/cards/error.hpp"

namespace apps {

namespace {

// Set by the handler, read by StopOnSignals::poll: a signal handler can only reach a global.
// Lock-free, so writing it from the handler is safe.
std::atomic<bool> g_signalled{false};
static_assert(std::atomic<bool>::is_always_lock_free);

extern "C" void on_signal(int sig) {
    g_signalled.store(true);
    std::signal(sig, SIG_DFL);  // a second Ctrl-C kills at once
}

}  // namespace

BatchRunOptions::BatchRunOptions(const MpiSession& mpi) {
    run.threads = default_batch_threads(mpi.ranks_on_this_machine());
}

void BatchRunOptions::add_to(po::options_description& desc, const std::string& report) {
    desc.add_options()("threads", number(&run.threads, 1, kMaxThreads),
                       "threads per process (default: all cores, shared among the MPI ranks on a "
                       "machine); results do not depend on it")(
        "out", po::value(&run.out),
        "results file, JSON Lines (refused if it exists, unless --resume)")(
        "resume", po::bool_switch(&run.resume), "continue an interrupted run from its --out file")(
        "quiet", po::bool_switch(&quiet), "no progress display")("report", po::value(&report_file),
                                                                 report.c_str());
}

std::optional<int> parse_on_every_rank(const MpiSession& mpi, const std::string& command,
                                       const std::function<std::optional<int>()>& parse) {
    std::optional<int> done;
    std::exception_ptr failed;
    try {
        done = parse();
    } catch (const po::error& e) {
        // As guarded() says it, so that every rank can report it as bad input.
        failed = std::make_exception_ptr(cardgames::InputError(
            std::string(e.what()) + " (see cardgames " + command + " --help)"));
    } catch (...) {
        failed = std::current_exception();
    }
    mpi.agree_on_setup(failed);
    return done;
}

void ProgressObserver::note(const std::string& message) {
    std::cerr << message << "\n";
}

void ProgressObserver::started(long total, long done, const std::string& unit,
                               const std::string& where) {
    progress_.emplace(total, done, unit, where, quiet_);
}

void ProgressObserver::written(long index, const std::string&) {
    if (progress_) progress_->update(index + 1);
}

void ProgressObserver::finished(long done) {
    if (progress_) progress_->finish(done);
}

StopOnSignals::StopOnSignals() {
    g_signalled.store(false);
    int_ = std::signal(SIGINT, on_signal);
    term_ = std::signal(SIGTERM, on_signal);
}

StopOnSignals::~StopOnSignals() {
    std::signal(SIGINT, int_);
    std::signal(SIGTERM, term_);
}

void StopOnSignals::poll() {
    if (g_signalled.load()) source_.request_stop();
}

int run_data_batch(const MpiSession& mpi, const BatchRunOptions& how, ResultsFile* out, long total,
                   const std::string& command,
                   const std::function<std::string(long, const std::stop_token&)>& produce) {
    BatchOptions bo;
    bo.total = total;
    bo.threads = how.run.threads;
    bo.unit = "hands";
    StopOnSignals signals;
    ProgressObserver progress(how.quiet, signals);
    const bool complete = run_batch(mpi, bo, out, progress, signals.token(), produce,
                                    [](long, const std::string&) {});
    if (complete) return 0;
    if (mpi.rank() == 0)
        std::cerr << "cardgames " << command
                  << ": interrupted; run the same command with --resume to continue\n";
    return kExitInterrupted;
}

}  // namespace apps
