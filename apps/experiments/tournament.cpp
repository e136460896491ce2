#include "apps/experiments/tournament.hpp"

#include <spdlog/spdlog.h>

#include "apps/experiments/batch.hpp"
#include "cardgames/cards/error.hpp"
#include "cardgames/cards/json_input.hpp"
#include "cardgames/cards/seeds.hpp"
#include "cardgames/rules/game_runner.hpp"
#include "sampling/bot_registry.hpp"

namespace apps {

using namespace cardgames;

namespace {

// The players made by the table share one model store: each model file is read once for the run.
PlayerFactory factory_of(const TournamentOptions& options) {
    if (options.make_player) return options.make_player;
    auto store = std::make_shared<models::ModelStore>();
    return [store](int, const std::string& spec, std::uint64_t seed, std::stop_token stop) {
        return sampling::make_player(spec, seed, std::move(stop), store);
    };
}

// Item i: board i / rotations, entry e at seat (e + rotation) % n. Seeds come from (seed, board,
// entry) only, so a bot meets the same deals and draws the same randomness in every rotation; with
// seat_seeds from (seed, board, seat), so that every spec in a seat draws the same randomness.
std::string play_item(const TournamentPlan& plan, const PlayerFactory& make, long index,
                      const std::stop_token& stop) {
    const int n = plan.rules.players;
    const long board = index / plan.rotations();
    const int rotation = static_cast<int>(index % plan.rotations());
    const std::uint64_t game_seed = seeds::tournament_game(plan.seed, board);
    std::vector<std::unique_ptr<Player>> players(n);
    for (int e = 0; e < n; ++e) {
        const int seat = (e + rotation) % n;
        players[seat] = make(e, plan.specs[e],
                             seeds::tournament_bot(game_seed, plan.seat_seeds ? seat : e), stop);
    }
    for (const std::unique_ptr<Player>& p : players) p->seated(game_seed, board);
    Game game(plan.rules, game_seed);
    if (plan.by_hands) game.stop_after_hand();
    while (!game.over()) {
        if (stop.stop_requested()) throw Interrupted{};
        step_game(game, players);
    }
    return tournament_result_line(plan, index, game, players);
}

// The entries whose players see every hand (the `oracle`): the header and every record say so.
std::vector<int> cheating_entries(const TournamentPlan& plan, const PlayerFactory& make) {
    std::vector<int> cheats;
    for (int e = 0; e < plan.rules.players; ++e)
        if (make(e, plan.specs[e], 0, {})->sees_all_hands()) cheats.push_back(e);
    return cheats;
}

}  // namespace

std::string check_tournament_options(const TournamentOptions& options) {
    const TournamentPlan& plan = options.plan;
    const int n = plan.rules.players;
    if (static_cast<int>(plan.specs.size()) != n)
        throw InputError("players: " + std::to_string(plan.specs.size()) + " specs for " +
                         std::to_string(n) + " seats; give one per seat");
    if (plan.count < 1 || plan.count > kMaxItems)
        throw InputError("the number of " + std::string(plan.by_hands ? "hands" : "games") +
                         " must be 1.." + std::to_string(kMaxItems));
    if (options.run.out.empty())
        throw InputError("--out is required: the results file (JSON Lines)");
    // Unknown bots, and bots that cannot play these rules, fail here, not in a worker.
    const PlayerFactory make = factory_of(options);
    std::string models;
    for (int e = 0; e < n; ++e) {
        const std::unique_ptr<Player> player = make(e, plan.specs[e], 0, {});
        if (!player) throw InputError("no player for spec '" + plan.specs[e] + "'");
        models += check_player_for(*player, plan.specs[e], plan.rules);
    }
    return models;
}

TournamentResult run_tournament(const TournamentOptions& options, RunObserver& observer,
                                std::stop_token stop, const MpiSession& mpi) {
    std::exception_ptr failed;
    std::string models;
    try {
        models = check_tournament_options(options);
    } catch (...) {
        failed = std::current_exception();
    }
    mpi.agree_on_setup(failed);
    const PlayerFactory make = factory_of(options);
    TournamentPlan plan = options.plan;
    plan.cheats = cheating_entries(plan, make);

    // The table of the whole file, as running sums: the results already there (resume), then
    // each one as it is written.
    TournamentTally tally(plan.rotations());
    const std::unique_ptr<ResultsFile> out = open_results(
        mpi, options.run.out, results_header("tournament", plan.options()), options.run.resume,
        [&](const nlohmann::json& line) { tally.add(tournament_result_from_json(line, plan)); },
        models);
    if (out && !out->note().empty()) observer.note(out->note());
    const long existing = tally.results();
    TournamentResult result;
    result.total = plan.total();
    result.workers = mpi.workers_text(options.run.threads);
    if (mpi.rank() == 0)
        spdlog::info("tournament: {} {} of {} to play on {}, results to {}{}",
                     plan.total() - existing, plan.by_hands ? "hands" : "games", plan.total(),
                     result.workers, options.run.out,
                     existing == 0 ? "" : fmt::format(" ({} already there)", existing));
    BatchOptions bo;
    bo.total = plan.total();
    bo.threads = options.run.threads;
    bo.unit = plan.by_hands ? "hands" : "games";
    const bool complete = run_batch(
        mpi, bo, out.get(), observer, stop,
        [&](long i, const std::stop_token& item_stop) {
            return play_item(plan, make, i, item_stop);
        },
        // A line this run just made: its seat fields are all the table needs.
        [&](long, const std::string& line) {
            tally.add(game_result_from_json(parse_json_line(line)));
        });
    set_run_outcome(result, complete, tally, mpi);
    return result;
}

}  // namespace apps
