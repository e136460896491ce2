// cardgames tournament: self-play between bot specs, by games or by independent hands, optionally
// duplicate (each deal replayed with the players rotated through the seats). One JSON line per
// finished game or hand (a game record plus the tournament fields), resumable; a table at the end.
// The run itself is the experiments library's (apps/experiments/tournament.hpp).
#include "apps/experiments/tournament.hpp"

#include <iostream>
#include <optional>

#include "apps/cli/batch_command.hpp"
#include "apps/cli/common.hpp"
#include "cardgames/cards/error.hpp"
#include "cardgames/players/bot_spec.hpp"
#include "cardgames/rules/scoring.hpp"

namespace apps {

using namespace cardgames;

namespace {

// Parses the command line into options; --help and --report are done here (returned status).
std::optional<int> parse_tournament(const MpiSession& mpi, int argc, char** argv,
                                    TournamentOptions& options, BatchRunOptions& how) {
    TournamentPlan& plan = options.plan;
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
        "seat-seeds", po::bool_switch(&plan.seat_seeds),
        "seed each bot by its seat, not by its entry: with --duplicate, two specs that decide "
        "alike play alike, so a paired comparison differs only where their decisions do")(
        "seed", seed_value(&plan.seed)->default_value(1), "seed of the deals and the bots");
    how.add_to(desc, "print the table of an existing results file and exit");
    po::variables_map vm;
    if (!parse_args("tournament", argc, argv, desc, vm)) return 0;
    if (!how.report_file.empty()) {
        only_option(vm, "report");
        if (mpi.rank() == 0) std::cout << tournament_report(how.report_file);
        return 0;
    }

    plan.rules = ro.resolve();
    const int n = plan.rules.players;
    if (players_text.empty())
        throw InputError("--players is required: one bot spec per seat (" + std::to_string(n) +
                         ")");
    if (how.run.out.empty()) throw InputError("--out is required: the results file (JSON Lines)");
    if (vm.count("games") == vm.count("hands"))
        throw InputError("give exactly one of --games N and --hands N");
    plan.by_hands = vm.count("hands") > 0;
    plan.count = plan.by_hands ? hands : games;
    plan.specs = split_player_list(players_text);
    if (static_cast<int>(plan.specs.size()) != n)
        throw InputError("--players '" + players_text + "': " + std::to_string(plan.specs.size()) +
                         " specs for " + std::to_string(n) + " seats; give one per seat");
    options.run = how.run;
    return std::nullopt;
}

// The table at the end of a complete run.
std::string tournament_summary(const TournamentOptions& options, const TournamentResult& result) {
    return format_summary(result.summary, lower_score_wins(options.plan.rules)) + "\nplayed on " +
           result.workers;
}

}  // namespace

int cmd_tournament(const MpiSession& mpi, int argc, char** argv) {
    return run_results_command<TournamentOptions>(mpi, "tournament", argc, argv, parse_tournament,
                                                  run_tournament, tournament_summary);
}

}  // namespace apps
