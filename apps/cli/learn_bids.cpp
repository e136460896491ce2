// cardgames learn bids-data and bids-fit: the learned Spades bids (docs/guide/learning.md). This
// file only parses the options, calls the learning library (apps/learn/bids_fit.hpp) and prints.
#include <fmt/format.h>

#include <iostream>
#include <optional>

#include "apps/cli/batch_command.hpp"
#include "apps/cli/common.hpp"
#include "apps/experiments/cluster.hpp"
#include "apps/learn/bids_fit.hpp"
#include "apps/learn/data_runs.hpp"
#include "cardgames/cards/error.hpp"

namespace apps {

using namespace cardgames;

namespace {

int bids_data(const MpiSession& mpi, int argc, char** argv) {
    BidsDataPlan plan;
    BatchRunOptions run(mpi);
    if (const auto done = parse_on_every_rank(mpi, "learn bids-data", [&]() -> std::optional<int> {
            RulesOptions ro;
            po::options_description desc("learn bids-data options");
            ro.add_to(desc);
            desc.add_options()("hands", number(&plan.hands, 1L, kMaxItems),
                               "hands to play, each from zero scores")(
                "seed", seed_value(&plan.seed)->default_value(seeds::kTrainingSeedFirst),
                fmt::format("run seed: a training seed, {} to {} (apart from evaluation seeds)",
                            seeds::kTrainingSeedFirst, seeds::kTrainingSeedLast)
                    .c_str())("bot", po::value(&plan.bot)->default_value("pimc"),
                              "the bot that plays the cards in every seat");
            run.add_to(desc, "not used by this command");
            po::variables_map vm;
            if (!parse_args("learn bids-data", argc, argv, desc, vm)) return 0;
            if (!ro.game_given && ro.preset.empty()) ro.preset = kBidsDataPreset;
            plan.rules = ro.resolve();
            plan.preset = ro.preset.empty() ? default_preset(plan.rules.game) : ro.preset;
            plan.check();
            if (run.run.out.empty()) throw InputError("--out is required: the data file");
            if (!run.report_file.empty()) throw InputError("--report: not used by this command");
            check_bids_bot(plan);
            return std::nullopt;
        }))
        return *done;
    if (const int status = run_data_batch(
            mpi, run, "learn bids-data", [&](RunObserver& observer, std::stop_token stop) {
                return run_bids_data(mpi, plan, run.run, observer, std::move(stop));
            }))
        return status;
    if (mpi.rank() != 0) return 0;
    std::cout << "wrote " << plan.hands << " hands to " << run.run.out << "\n";
    return 0;
}

int bids_fit(int argc, char** argv) {
    BidsFitOptions options;
    po::options_description desc("learn bids-fit options");
    desc.add_options()("data", po::value(&options.data)->composing(),
                       "a file of `learn bids-data` (repeatable; all of the same rules)")(
        "out", po::value(&options.out), "the model file to write (data/models/spades-bids.txt)")(
        "holdout", number(&options.holdout, kMinHoldout, kMaxItems)->default_value(kDefaultHoldout),
        "hands whose index is a multiple of N are held out for the figures (the model written is "
        "fitted on every hand)")("ridge", number(&options.ridge, 0.0, 100.0),
                                 "ridge penalty on standardised weights")(
        "test", po::value(&options.test)->composing(),
        "held-out figures on these data files instead (every --data hand is fitted)");
    po::variables_map vm;
    if (!parse_args("learn bids-fit", argc, argv, desc, vm)) return 0;
    options.made_by = command_line("cardgames learn bids-fit", argc, argv);
    std::cout << learn_bids_fit(options).text() << "\n";
    return 0;
}

}  // namespace

int learn_bids(const MpiSession& mpi, const std::string& what, int argc, char** argv) {
    if (what == "bids-data") return bids_data(mpi, argc, argv);
    return bids_fit(argc, argv);
}

}  // namespace apps
