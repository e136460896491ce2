// cardgames learn selfplay: self-play decisions into shards of fixed-size records (apps/learn,
// docs/guide/selfplay.md). This file only parses the options and calls the library.
#include <fmt/format.h>

#include <iostream>
#include <optional>
#include <sstream>

#include "apps/cli/batch_command.hpp"
#include "apps/cli/common.hpp"
#include "apps/learn/selfplay.hpp"
#include "apps/learn/selfplay_run.hpp"
#include "cardgames/cards/error.hpp"
#include "cardgames/players/bot_spec.hpp"

namespace apps {

using cardgames::InputError;

namespace {

// "0,2" -> {0, 2}; a word that is not a whole number is refused, naming it.
std::vector<int> parse_seats(const std::string& text) {
    std::vector<int> out;
    std::stringstream in(text);
    for (std::string word; std::getline(in, word, ',');) {
        int v = -1;
        const auto [ptr, ec] = std::from_chars(word.data(), word.data() + word.size(), v);
        if (word.empty() || ec != std::errc() || ptr != word.data() + word.size())
            throw InputError("--seats '" + text + "': '" + word + "' is not a seat number");
        out.push_back(v);
    }
    return out;
}

void print_report(const std::string& folder) {
    const SelfplaySummary s = read_selfplay(folder);
    std::cout << fmt::format(
        "{}: {} shards, {} hands of {}, {} decisions ({} blind nil, {} bids, {} passes, {} "
        "plays); every record checked and replayed\n",
        folder, s.shards, s.hands, s.options["form"].get<std::string>(), s.records, s.by_phase[0],
        s.by_phase[1], s.by_phase[2], s.by_phase[3]);
}

// Parses the command line into `plan` and `run`; a status when the command is already done.
std::optional<int> parse(const MpiSession& mpi, int argc, char** argv, SelfplayPlan& plan,
                         BatchRunOptions& run) {
    namespace seeds = cardgames::seeds;
    RulesOptions rules;
    std::string players, seats, explore_bids;
    po::options_description desc("learn selfplay options");
    rules.add_to(desc);
    desc.add_options()("players", po::value(&players),
                       "one bot spec per seat (default: rule in every seat)")(
        "seats", po::value(&seats),
        "the seats whose decisions are recorded, as 0,2 (default: all)")(
        "values", po::value(&plan.values)->default_value("none"),
        "the pimc bot that values the card plays of a recorded seat whose bot is not pimc, or "
        "none (a pimc seat's values are its own)")("hands", number(&plan.hands, 1L, kMaxItems),
                                                   "self-play hands, each from zero scores")(
        "seed", seed_value(&plan.seed)->default_value(seeds::kTrainingSeedFirst),
        fmt::format("seed of the hands and bots: a training seed, {}..{}",
                    seeds::kTrainingSeedFirst, seeds::kTrainingSeedLast)
            .c_str())("shard-hands",
                      number(&plan.shard_hands, 1L, kMaxItems)->default_value(100000),
                      "hands per shard file")(
        "explore-bids", po::value(&explore_bids)->implicit_value("rule"),
        "Spades: the recorded seats bid as learn bids-data varies the rule player's bid (nil on "
        "weak hands, one more or fewer), for a bid value network; 'own': the draws that keep the "
        "rule player's bid keep the seat's own bot's instead; 'paired': one seat a hand bids "
        "its own bid, and its record values every bid pimc:bid=value may choose there by the "
        "hand played out after it");
    run.add_to(desc, "check every record of a data folder, print what it holds and exit",
               "the folder of shards (refused if it holds shards, unless --resume)");
    po::variables_map vm;
    if (!parse_args("learn selfplay", argc, argv, desc, vm)) return 0;
    if (!run.report_file.empty()) {
        only_option(vm, "report");
        if (mpi.rank() == 0) print_report(run.report_file);
        return 0;
    }
    plan.rules = rules.resolve();
    if (!vm.count("hands")) throw InputError("--hands is required: the self-play hands to play");
    if (run.run.out.empty()) throw InputError("--out is required: the folder of shards");
    plan.specs = players.empty() ? default_selfplay_players(plan.rules)
                                 : cardgames::split_player_list(players);
    plan.seats = seats.empty() ? default_selfplay_seats(plan.rules) : parse_seats(seats);
    if (vm.count("explore-bids")) plan.explore_bids = explore_bids_named(explore_bids);
    plan.check();
    return std::nullopt;
}

}  // namespace

int learn_selfplay(const MpiSession& mpi, int argc, char** argv) {
    SelfplayPlan plan;
    BatchRunOptions run(mpi);
    if (const auto done = parse_on_every_rank(mpi, "learn selfplay",
                                              [&] { return parse(mpi, argc, argv, plan, run); }))
        return *done;
    StopOnSignals signals;
    ProgressObserver progress(run.quiet, signals);
    if (run_selfplay(mpi, plan, run.run, progress, signals.token())) return 0;
    if (mpi.rank() == 0)
        std::cerr << "cardgames learn selfplay: interrupted; run the same command with --resume to "
                     "continue\n";
    return kExitInterrupted;
}

}  // namespace apps
