// cardgames learn: the learned play-out policy's data and fit (docs/guide/learning.md). This file
// only parses the options, calls the learning library (apps/learn/policy_fit.hpp) and prints.
#include <fmt/format.h>

#include <iostream>
#include <optional>

#include "apps/cli/batch_command.hpp"
#include "apps/cli/common.hpp"
#include "apps/experiments/cluster.hpp"
#include "apps/learn/data_runs.hpp"
#include "apps/learn/model_convert.hpp"
#include "apps/learn/policy_fit.hpp"
#include "cardgames/cards/error.hpp"

namespace apps {

using namespace cardgames;

namespace {

std::optional<int> parse_data(const MpiSession& mpi, int argc, char** argv, SelfPlayPlan& plan,
                              BatchRunOptions& run) {
    SelfPlayArgs args;
    if (!args.parse("learn data", argc, argv, plan, run,
                    "one bot spec per seat (default: pimc in every seat); the pimc seats are "
                    "recorded",
                    "print what an existing data file holds and exit"))
        return 0;
    if (!run.report_file.empty()) {
        only_option(args.vm, "report");
        if (mpi.rank() == 0) std::cout << report_policy_data(run.report_file).text() << "\n";
        return 0;
    }
    plan.rules = args.rules.resolve();
    args.check(plan, run, kPolicyDataBot);
    check_policy_data_plan(plan, args.players_text);
    return std::nullopt;
}

int learn_data(const MpiSession& mpi, int argc, char** argv) {
    SelfPlayPlan plan;
    BatchRunOptions run(mpi);
    if (const auto done = parse_on_every_rank(
            mpi, "learn data", [&] { return parse_data(mpi, argc, argv, plan, run); }))
        return *done;
    return run_data_batch(mpi, run, "learn data", [&](RunObserver& observer, std::stop_token stop) {
        return run_policy_data(mpi, plan, run.run, observer, std::move(stop));
    });
}

int learn_fit(const MpiSession& mpi, int argc, char** argv) {
    if (mpi.ranks() > 1) throw InputError("'cardgames learn fit' runs as one process");
    PolicyFitOptions options;
    po::options_description desc("learn fit options");
    add_fit_file_options(desc, options.data, options.out, options.holdout, "learn data",
                         "data/models/<form>-playout.txt");
    desc.add_options()("l2", po::value(&options.l2)->default_value(1.0),
                       "L2 penalty on the weights")(
        "temperature", po::value(&options.temperature)->default_value(0.0),
        "0: fit pimc's choices; T > 0: fit a softmax of pimc's card values at temperature T");
    po::variables_map vm;
    if (!parse_args("learn fit", argc, argv, desc, vm)) return 0;
    options.made_by = command_line("cardgames learn fit", argc, argv);
    std::cout << learn_policy_fit(options).text() << "\n";
    return 0;
}

int learn_convert(int argc, char** argv) {
    std::string in, out;
    po::options_description desc("learn convert options");
    desc.add_options()("in", po::value(&in), "a linear model file, version 1 or 2")(
        "out", po::value(&out), "the model file to write, version 2 (may be --in)");
    po::variables_map vm;
    if (!parse_args("learn convert", argc, argv, desc, vm)) return 0;
    std::cout << convert_model(in, out).text() << "\n";
    return 0;
}

}  // namespace

int cmd_learn(const MpiSession& mpi, int argc, char** argv) {
    return guarded("learn", [&] {
        const std::string sub = argc >= 2 ? argv[1] : "";
        if (sub == "data") return learn_data(mpi, argc - 1, argv + 1);
        if (sub == "fit") return learn_fit(mpi, argc - 1, argv + 1);
        if (sub == "selfplay") return learn_selfplay(mpi, argc - 1, argv + 1);
        if (sub == "convert") return learn_convert(argc - 1, argv + 1);
        if (sub == "bids-data" || sub == "bids-fit")
            return learn_bids(mpi, sub, argc - 1, argv + 1);
        if (sub == "cutoff-data" || sub == "cutoff-fit")
            return learn_cutoff(mpi, sub, argc - 1, argv + 1);
        throw InputError(
            "learn: give 'data' (self-play decisions to a file), 'fit' (a play-out model from "
            "them), 'bids-data' or 'bids-fit' (the Spades bid model), 'cutoff-data' or "
            "'cutoff-fit' (the Hearts cut-off evaluation), 'selfplay' (decision records for "
            "networks), 'convert' (a model file to the current version), not '" +
            sub + "'");
    });
}

}  // namespace apps
