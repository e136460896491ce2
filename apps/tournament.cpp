// cardgames tournament: self-play between bot specs, by games or by independent hands, optionally
// duplicate (each deal replayed with the players rotated through the seats). One JSON line per
// finished game or hand (a game record plus the tournament fields), resumable; a table at the end.
#include <spdlog/spdlog.h>

#include <algorithm>
#include <iostream>
#include <optional>

#include "apps/batch.hpp"
#include "apps/cluster.hpp"
#include "apps/common.hpp"
#include "apps/results_file.hpp"
#include "apps/results_readers.hpp"
#include "apps/stats.hpp"
#include "cardgames/cards/error.hpp"
#include "cardgames/cards/json_input.hpp"
#include "cardgames/cards/seeds.hpp"
#include "cardgames/players/bot_spec.hpp"
#include "cardgames/rules/game_runner.hpp"
#include "cardgames/rules/record.hpp"
#include "cardgames/rules/scoring.hpp"
#include "sampling/bot_registry.hpp"

namespace apps {

using namespace cardgames;
using nlohmann::json;

namespace {

// Item i: board i / rotations, entry e at seat (e + rotation) % n. Seeds come from (seed, board,
// entry) only, so a bot meets the same deals and draws the same randomness in every rotation.
std::string play_item(const TournamentPlan& plan, long index) {
    const Rules& rules = plan.rules;
    const int n = rules.players;
    const long board = index / plan.rotations();
    const int rotation = static_cast<int>(index % plan.rotations());
    const std::uint64_t game_seed = seeds::tournament_game(plan.seed, board);
    const std::vector<std::string> seat_specs = plan.seat_specs(rotation);
    std::vector<std::unique_ptr<Player>> players(n);
    for (int e = 0; e < n; ++e)
        players[(e + rotation) % n] =
            sampling::make_player(plan.specs[e], seeds::tournament_bot(game_seed, e));
    Game game(rules, game_seed);
    if (plan.by_hands) game.stop_after_hand();
    while (!game.over()) {
        if (stop_requested()) throw Interrupted{};
        step_game(game, players);
    }
    const std::vector<int> winners =
        plan.by_hands ? hand_winners(rules, game.finished_hands().back().score) : game.winners();
    json line = game_record(game, seat_specs, collect_fallbacks(players), cheating_seats(players));
    line["index"] = index;
    line["board"] = board;
    line["rotation"] = rotation;
    json units = json::array(), wins = json::array(), scores = json::array();
    for (int s = 0; s < n; ++s) {
        const int unit = rules.unit_of(s);
        units.push_back(unit);
        wins.push_back(std::find(winners.begin(), winners.end(), unit) != winners.end() ? 1 : 0);
        json per_hand = json::array();
        for (const HandRecord& h : game.finished_hands()) per_hand.push_back(h.score.delta[unit]);
        scores.push_back(per_hand);
    }
    line["seat_unit"] = units;
    line["seat_win"] = wins;
    line["seat_hand_scores"] = scores;
    return line.dump();
}

// Parses the command line into a plan; --help and --report are done here (returned status).
std::optional<int> parse_tournament(int argc, char** argv, TournamentPlan& plan,
                                    BatchRunOptions& run) {
    RulesOptions ro;
    std::string players_text;
    long games = 0, hands = 0;
    po::options_description desc("tournament options");
    ro.add_to(desc);
    desc.add_options()(
        "players", po::value(&players_text),
        "one bot spec per seat, comma separated: \"pimc:worlds=32,rule,rule,random\"")(
        "games", number(&games, 1L, kMaxItems), "play N whole games (to the target score)")(
        "hands", number(&hands, 1L, kMaxItems), "play N independent hands, each from zero scores")(
        "duplicate", po::bool_switch(&plan.duplicate),
        "replay each deal with the players rotated through the seats")(
        "seed", seed_value(&plan.seed)->default_value(1), "seed of the deals and the bots");
    run.add_to(desc, "print the table of an existing results file and exit");
    po::variables_map vm;
    if (!parse_args("tournament", argc, argv, desc, vm)) return 0;
    if (!run.report_file.empty()) {
        only_option(vm, "report");
        if (rank() == 0) std::cout << tournament_report(run.report_file);
        return 0;
    }

    plan.rules = ro.resolve();
    const int n = plan.rules.players;
    if (players_text.empty())
        throw InputError("--players is required: one bot spec per seat (" + std::to_string(n) +
                         ")");
    if (run.out_file.empty()) throw InputError("--out is required: the results file (JSON Lines)");
    if (vm.count("games") == vm.count("hands"))
        throw InputError("give exactly one of --games N and --hands N");
    plan.by_hands = vm.count("hands") > 0;
    plan.count = plan.by_hands ? hands : games;
    plan.specs = split_player_list(players_text);
    if (static_cast<int>(plan.specs.size()) != n)
        throw InputError("--players '" + players_text + "': " + std::to_string(plan.specs.size()) +
                         " specs for " + std::to_string(n) + " seats; give one per seat");
    for (int e = 0; e < n; ++e)  // unknown bots fail here, not in a worker
        if (sampling::make_player(plan.specs[e], 0)->sees_all_hands()) plan.cheats.push_back(e);
    return std::nullopt;
}

}  // namespace

int cmd_tournament(int argc, char** argv) {
    return guarded("tournament", [&] {
        TournamentPlan plan;
        BatchRunOptions run;
        if (const auto done =
                parse_on_every_rank([&] { return parse_tournament(argc, argv, plan, run); }))
            return *done;

        const std::unique_ptr<ResultsFile> out =
            open_results(run.out_file, results_header("tournament", plan.options()), run.resume,
                         [&](const json& line) { tournament_result_from_json(line, plan); });
        std::vector<GameResult> results;
        if (out)
            for (const json& line : out->existing())
                results.push_back(tournament_result_from_json(line, plan));
        if (rank() == 0)
            spdlog::info("tournament: {} {} of {} to play on {}, results to {}{}",
                         plan.total() - static_cast<long>(results.size()),
                         plan.by_hands ? "hands" : "games", plan.total(), workers_text(run.threads),
                         run.out_file,
                         results.empty() ? "" : fmt::format(" ({} already there)", results.size()));
        BatchOptions bo;
        bo.total = plan.total();
        bo.threads = run.threads;
        bo.quiet = run.quiet;
        bo.unit = plan.by_hands ? "hands" : "games";
        const bool complete = run_batch(
            bo, out.get(), [&](long i) { return play_item(plan, i); },
            [&](long, const std::string& line) {
                results.push_back(tournament_result_from_json(parse_json_line(line), plan));
            });
        if (rank() != 0) return complete ? 0 : kExitInterrupted;
        if (!complete) {
            std::cerr << "cardgames tournament: interrupted after " << results.size() << " of "
                      << plan.total()
                      << " results; run the same command with --resume to continue\n";
            return kExitInterrupted;
        }
        std::cout << format_summary(summarize(results, plan.rotations()),
                                    lower_score_wins(plan.rules))
                  << "\nplayed on " << workers_text(run.threads) << "\n";
        return 0;
    });
}

}  // namespace apps
