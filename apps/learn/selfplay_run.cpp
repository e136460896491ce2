#include "apps/learn/selfplay_run.hpp"

#include <spdlog/spdlog.h>

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "apps/experiments/batch.hpp"
#include "cardgames/models/model_store.hpp"
#include "sampling/model_file.hpp"

namespace apps {

std::vector<std::string> default_selfplay_players(const cardgames::Rules& rules) {
    return std::vector<std::string>(static_cast<std::size_t>(rules.players), "rule");
}

std::vector<int> default_selfplay_seats(const cardgames::Rules& rules) {
    std::vector<int> seats;
    for (int s = 0; s < rules.players; ++s) seats.push_back(s);
    return seats;
}

bool run_selfplay(const MpiSession& mpi, const SelfplayPlan& plan, const BatchRun& run,
                  RunObserver& observer, std::stop_token stop) {
    plan.check();
    const std::unique_ptr<ShardWriter> out = open_selfplay(mpi, plan, run.out, run.resume);
    if (mpi.rank() == 0) {
        if (!out->note().empty()) observer.note(out->note());
        spdlog::info("learn selfplay: {} hands of {} on {}, to {}", plan.hands,
                     sampling::form_name(plan.rules), mpi.workers_text(run.threads), run.out);
    }
    const auto store = std::make_shared<cardgames::models::ModelStore>();
    BatchOptions options;
    options.total = plan.hands;
    options.threads = run.threads;
    options.unit = "hands";
    return run_batch(
        mpi, options, out.get(), observer, std::move(stop),
        [&](long i, const std::stop_token& s) { return selfplay_hand(plan, i, s, store); },
        [](long, const std::string&) {});
}

}  // namespace apps
