#include "apps/cli/batch_command.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cmath>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <system_error>

#include "apps/experiments/results_file.hpp"
#include "apps/learn/holdout.hpp"
#include "cardgames/cards/error.hpp"
#include "cardgames/cards/json_input.hpp"
#include "cardgames/cards/text_file.hpp"
#include "cardgames/players/bot_spec.hpp"
#include "sampling/bot_registry.hpp"
#include "sampling/policy.hpp"

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

int run_data_batch(const MpiSession& mpi, const BatchRunOptions& how, BatchOutput* out, long total,
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

DataFileSource read_data_file(
    const std::string& path, const std::string& command, const std::string& header_command,
    const std::function<nlohmann::json(const std::string& form)>& features_of, std::string& form,
    const std::function<void(const nlohmann::json&, int)>& on_line) {
    using cardgames::JsonField;
    std::uint64_t seed = 0;
    int players = 0;
    std::string specs;
    auto header_check = [&](const nlohmann::json& header) {
        const JsonField options = JsonField(header, "header")["options"];
        const std::string rules = options["rules"].string();
        if (options["features"].json() != features_of(rules))
            options["features"].fail("not this program's features; regenerate the data");
        if (!form.empty() && rules != form)
            options["rules"].fail("'" + rules + "' data beside '" + form + "' data");
        form = rules;
        seed = options["seed"].unsigned_integer();
        const JsonField list = options["players"];
        players = static_cast<int>(list.array(1, cardgames::kMaxPlayers));
        for (int i = 0; i < players; ++i) specs += (i ? "," : "") + list[i].string();
    };
    long hands = 0;
    std::uint64_t fingerprint = 0;
    read_results(
        path, header_command, header_check,
        [&](const nlohmann::json& line) {
            on_line(line, players);
            ++hands;
        },
        &fingerprint);
    return {fmt::format("{} (seed {}, {} hands, fnv1a {:016x})", path, seed, hands, fingerprint),
            fmt::format("cardgames {} --preset {} --players \"{}\" --hands {} --seed {} --out {}",
                        command, form, specs, hands, seed, path),
            hands};
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

void require_fit_files(const std::vector<std::string>& data, const std::string& out,
                       const std::string& data_command) {
    using cardgames::InputError;
    if (data.empty()) throw InputError("--data is required: a `" + data_command + "` file");
    if (out.empty()) throw InputError("--out is required: the model file to write");
}

void check_model_out(const std::string& out, const std::vector<std::string>& inputs) {
    namespace fs = std::filesystem;
    using cardgames::InputError;
    check_file_path(out, "--out");
    const fs::path folder =
        fs::path(out).parent_path().empty() ? fs::path(".") : fs::path(out).parent_path();
    std::error_code ec;
    if (!fs::is_directory(folder, ec))
        throw InputError("--out '" + out + "': the folder '" + folder.string() + "' " +
                         (fs::exists(folder, ec) ? "is not a folder" : "does not exist") +
                         "; create it or choose another file");
    // A model file is written beside its path and renamed over it (write_model_file): that
    // takes the folder's write permission.
    if (::access(folder.c_str(), W_OK | X_OK) != 0)
        throw InputError("--out '" + out + "': cannot write in the folder '" + folder.string() +
                         "' (" + std::strerror(errno) + ")");
    for (const std::string& in : inputs)
        if (fs::equivalent(out, in, ec))
            throw InputError("--out '" + out + "': the same file as the input '" + in +
                             "'; the model would replace its own data, choose another file");
}

std::vector<std::pair<std::string, std::string>> model_metadata(
    const std::string& form, const std::string& command, int argc, char** argv,
    const std::vector<std::string>& files, const std::vector<std::string>& commands) {
    std::string made_by = command;
    for (int i = 1; i < argc; ++i) made_by += std::string(" ") + argv[i];
    std::vector<std::pair<std::string, std::string>> meta = {{"form", form}, {"command", made_by}};
    for (std::size_t i = 0; i < files.size(); ++i) {
        const std::string suffix = i ? std::to_string(i + 1) : std::string();
        meta.emplace_back("data" + suffix, files[i]);
        meta.emplace_back("data_command" + suffix, commands[i]);
    }
    return meta;
}

nlohmann::json SelfPlayPlan::options(const nlohmann::json& features) const {
    return {{"rules", sampling::form_name(rules)},
            {"players", specs},
            {"hands", hands},
            {"seed", seed},
            {"features", features}};
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
    namespace seeds = cardgames::seeds;
    using cardgames::InputError;
    if (!seeds::is_training_seed(plan.seed))
        throw InputError(
            fmt::format("--seed {}: training data takes a training seed, {}..{}, so "
                        "that it never meets the evaluation seeds",
                        plan.seed, seeds::kTrainingSeedFirst, seeds::kTrainingSeedLast));
    if (!vm.count("hands")) throw InputError("--hands is required: the self-play hands to record");
    if (run.run.out.empty()) throw InputError("--out is required: the data file (JSON Lines)");
    const int n = plan.rules.players;
    plan.specs = players_text.empty() ? std::vector<std::string>(n, default_bot)
                                      : cardgames::split_player_list(players_text);
    if (static_cast<int>(plan.specs.size()) != n)
        throw InputError("--players '" + players_text + "': " + std::to_string(plan.specs.size()) +
                         " specs for " + std::to_string(n) + " seats; give one per seat");
    // Unknown bots, and bots that cannot play these rules, fail here, not in a worker.
    plan.models.clear();
    for (const std::string& spec : plan.specs)
        plan.models += check_player_for(*sampling::make_player(spec, 0), spec, plan.rules);
}

double rounded_for_file(double x) {
    return std::round(x * 1e4) / 1e4;
}

}  // namespace apps
