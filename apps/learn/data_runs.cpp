#include "apps/learn/data_runs.hpp"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <functional>
#include <memory>
#include <utility>

#include "apps/experiments/batch.hpp"
#include "apps/experiments/results_file.hpp"
#include "apps/learn/cutoff_fit.hpp"
#include "apps/learn/policy_fit.hpp"
#include "cardgames/cards/error.hpp"
#include "cardgames/models/model_store.hpp"
#include "sampling/bot_registry.hpp"
#include "sampling/model_file.hpp"

namespace apps {

using cardgames::InputError;
using nlohmann::json;

namespace {

// Opens (or resumes) the data file with `header` (each line already there checked by
// `check_line`) and writes hands 0..total-1 of `produce`.
bool run_data_file(const MpiSession& mpi, const BatchRun& run, const json& header,
                   const std::function<void(const json&)>& check_line, const std::string& models,
                   long total,
                   const std::function<std::string(long, const std::stop_token&)>& produce,
                   RunObserver& observer, std::stop_token stop) {
    const std::unique_ptr<ResultsFile> out =
        open_results(mpi, run.out, header, run.resume, check_line, models);
    BatchOptions options;
    options.total = total;
    options.threads = run.threads;
    options.unit = "hands";
    return run_batch(mpi, options, out.get(), observer, std::move(stop), produce,
                     [](long, const std::string&) {});
}

}  // namespace

void check_selfplay_players(SelfPlayPlan& plan, const std::string& players_text) {
    namespace seeds = cardgames::seeds;
    if (!seeds::is_training_seed(plan.seed))
        throw InputError(
            fmt::format("--seed {}: training data takes a training seed, {}..{}, so "
                        "that it never meets the evaluation seeds",
                        plan.seed, seeds::kTrainingSeedFirst, seeds::kTrainingSeedLast));
    const int n = plan.rules.players;
    if (static_cast<int>(plan.specs.size()) != n)
        throw InputError("--players '" + players_text + "': " + std::to_string(plan.specs.size()) +
                         " specs for " + std::to_string(n) + " seats; give one per seat");
    // Unknown bots, and bots that cannot play these rules, fail here, not in a worker.
    plan.models.clear();
    for (const std::string& spec : plan.specs)
        plan.models += check_player_for(*sampling::make_player(spec, 0), spec, plan.rules);
}

void check_bids_bot(BidsDataPlan& plan) {
    plan.models = check_player_for(*sampling::make_player(plan.bot, 0), plan.bot, plan.rules);
}

bool run_policy_data(const MpiSession& mpi, const SelfPlayPlan& plan, const BatchRun& run,
                     RunObserver& observer, std::stop_token stop) {
    if (mpi.rank() == 0)
        spdlog::info("learn data: {} hands of {} on {}, to {}", plan.hands,
                     sampling::form_name(plan.rules), mpi.workers_text(run.threads), run.out);
    const auto store = std::make_shared<cardgames::models::ModelStore>();
    return run_data_file(
        mpi, run, results_header(kPolicyDataHeader, plan.options(policy_feature_names_json())),
        [](const json&) {}, plan.models, plan.hands,
        [&](long i, const std::stop_token& s) { return policy_data_hand(plan, i, s, store); },
        observer, std::move(stop));
}

bool run_cutoff_data(const MpiSession& mpi, const SelfPlayPlan& plan, const BatchRun& run,
                     RunObserver& observer, std::stop_token stop) {
    const auto store = std::make_shared<cardgames::models::ModelStore>();
    return run_data_file(
        mpi, run,
        results_header(kCutoffDataCommand,
                       plan.options(cutoff_feature_names_json(cardgames::form_name(plan.rules)))),
        [](const json&) {}, plan.models, plan.hands,
        [&](long i, const std::stop_token& s) { return cutoff_data_hand(plan, i, s, store); },
        observer, std::move(stop));
}

bool run_bids_data(const MpiSession& mpi, const BidsDataPlan& plan, const BatchRun& run,
                   RunObserver& observer, std::stop_token stop) {
    const auto store = std::make_shared<cardgames::models::ModelStore>();
    return run_data_file(
        mpi, run, results_header(kBidsDataCommand, plan.options()),
        [&](const json& line) { bid_samples_of(line, plan.rules); }, plan.models, plan.hands,
        [&](long i, const std::stop_token& s) { return bids_data_hand(plan, i, s, store); },
        observer, std::move(stop));
}

}  // namespace apps
