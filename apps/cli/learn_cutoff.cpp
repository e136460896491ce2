// cardgames learn cutoff-data and cutoff-fit: the predictive cut-off evaluation of
// `pimc:eval=search,cutoff=model` (docs/guide/learning.md). This file only parses the options,
// calls the learning library (apps/learn/cutoff_fit.hpp) and prints.
#include <iostream>
#include <optional>

#include "apps/cli/batch_command.hpp"
#include "apps/cli/common.hpp"
#include "apps/experiments/cluster.hpp"
#include "apps/learn/cutoff_fit.hpp"
#include "apps/learn/data_runs.hpp"
#include "cardgames/cards/error.hpp"

namespace apps {

using namespace cardgames;

namespace {

std::optional<int> parse_data(int argc, char** argv, SelfPlayPlan& plan, BatchRunOptions& run) {
    SelfPlayArgs args;
    if (!args.parse(kCutoffDataCommand, argc, argv, plan, run,
                    "one bot spec per seat (default: rule in every seat, cheap; pimc is dear)",
                    "not used by this command"))
        return 0;
    if (!args.rules.game_given && args.rules.preset.empty()) args.rules.preset = kCutoffDataPreset;
    plan.rules = args.rules.resolve();
    if (!run.report_file.empty()) throw InputError("--report: not used by this command");
    args.check(plan, run, kCutoffDataBot);
    return std::nullopt;
}

int cutoff_data(const MpiSession& mpi, int argc, char** argv) {
    SelfPlayPlan plan;
    BatchRunOptions run(mpi);
    if (const auto done = parse_on_every_rank(mpi, kCutoffDataCommand,
                                              [&] { return parse_data(argc, argv, plan, run); }))
        return *done;
    if (const int status = run_data_batch(
            mpi, run, kCutoffDataCommand, [&](RunObserver& observer, std::stop_token stop) {
                return run_cutoff_data(mpi, plan, run.run, observer, std::move(stop));
            }))
        return status;
    if (mpi.rank() != 0) return 0;
    std::cout << "wrote " << plan.hands << " hands to " << run.run.out << "\n";
    return 0;
}

int cutoff_fit(const MpiSession& mpi, int argc, char** argv) {
    if (mpi.ranks() > 1) throw InputError("'cardgames learn cutoff-fit' runs as one process");
    CutoffFitOptions options;
    po::options_description desc("learn cutoff-fit options");
    add_fit_file_options(desc, options.data, options.out, options.holdout, kCutoffDataCommand,
                         "data/models/<form>-cutoff.txt");
    desc.add_options()("ridge", number(&options.ridge, 0.0, 100.0)->default_value(1e-3),
                       "ridge penalty on standardised weights");
    po::variables_map vm;
    if (!parse_args("learn cutoff-fit", argc, argv, desc, vm)) return 0;
    options.made_by = command_line("cardgames learn cutoff-fit", argc, argv);
    std::cout << learn_cutoff_fit(options).text() << "\n";
    return 0;
}

}  // namespace

int learn_cutoff(const MpiSession& mpi, const std::string& what, int argc, char** argv) {
    if (what == "cutoff-data") return cutoff_data(mpi, argc, argv);
    return cutoff_fit(mpi, argc, argv);
}

}  // namespace apps
