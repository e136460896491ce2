#include "apps/cli/batch_command.hpp"

#include <fmt/format.h>

#include <atomic>
#include <csignal>
#include <iostream>

#include "apps/learn/data_runs.hpp"
#include "apps/learn/holdout.hpp"
#include "cardgames/cards/error.hpp"
#include "cardgames/players/bot_spec.hpp"
#include "sampling/bot_registry.hpp"

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

void BatchRunOptions::add_to(po::options_description& desc, const std::string& report,
                             const std::string& out) {
    desc.add_options()("threads", number(&run.threads, 1, kMaxThreads),
                       "threads per process (default: all cores, shared among the MPI ranks on a "
                       "machine); results do not depend on it")(
        "out", po::value(&run.out), out.c_str())("resume", po::bool_switch(&run.resume),
                                                 "continue an interrupted run from its --out file")(
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

int run_data_batch(const MpiSession& mpi, const BatchRunOptions& how, const std::string& command,
                   const std::function<bool(RunObserver&, std::stop_token)>& run) {
    StopOnSignals signals;
    ProgressObserver progress(how.quiet, signals);
    if (run(progress, signals.token())) return 0;
    if (mpi.rank() == 0)
        std::cerr << "cardgames " << command
                  << ": interrupted; run the same command with --resume to continue\n";
    return kExitInterrupted;
}

void add_fit_file_options(po::options_description& desc, std::vector<std::string>& data,
                          std::string& out, long& holdout, const std::string& data_command,
                          const std::string& usual_out) {
    desc.add_options()("data", po::value(&data)->composing(),
                       ("a `" + data_command + "` file (repeat for several; one form)").c_str())(
        "out", po::value(&out), ("the model file to write (" + usual_out + ")").c_str())(
        "holdout", number(&holdout, kMinHoldout, kMaxItems)->default_value(kDefaultHoldout),
        "hands whose index is a multiple of N are held out to measure the fit");
}

std::string command_line(const std::string& command, int argc, char** argv) {
    std::string line = command;
    for (int i = 1; i < argc; ++i) line += std::string(" ") + argv[i];
    return line;
}

bool SelfPlayArgs::parse(const std::string& command, int argc, char** argv, SelfPlayPlan& plan,
                         BatchRunOptions& run, const std::string& players_doc,
                         const std::string& report_doc) {
    namespace seeds = cardgames::seeds;
    po::options_description desc(command + " options");
    rules.add_to(desc);
    desc.add_options()("players", boost::program_options::value(&players_text),
                       players_doc.c_str())("hands", number(&plan.hands, 1L, kMaxItems),
                                            "self-play hands, each from zero scores")(
        "seed", seed_value(&plan.seed)->default_value(seeds::kTrainingSeedFirst),
        fmt::format("seed of the hands and bots: a training seed, {}..{}",
                    seeds::kTrainingSeedFirst, seeds::kTrainingSeedLast)
            .c_str());
    run.add_to(desc, report_doc);
    return parse_args(command, argc, argv, desc, vm);
}

void SelfPlayArgs::check(SelfPlayPlan& plan, const BatchRunOptions& run,
                         const std::string& default_bot) const {
    using cardgames::InputError;
    if (!vm.count("hands")) throw InputError("--hands is required: the self-play hands to record");
    if (run.run.out.empty()) throw InputError("--out is required: the data file (JSON Lines)");
    const int n = plan.rules.players;
    plan.specs = players_text.empty() ? std::vector<std::string>(n, default_bot)
                                      : cardgames::split_player_list(players_text);
    check_selfplay_players(plan, players_text);
}

}  // namespace apps
