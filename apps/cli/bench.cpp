// cardgames bench --rules: plays random games of every form and prints games/s and cards/s.
// cardgames bench --nets: network evaluations per second, apps/cli/bench_nets.cpp.
// cardgames bench (no --rules): the search bench, apps/bench_search.cpp.
#include <fmt/format.h>

#include <chrono>
#include <iostream>

#include "apps/cli/bench_nets.hpp"
#include "apps/cli/bench_pimc.hpp"
#include "apps/cli/bench_search.hpp"
#include "apps/cli/common.hpp"
#include "cardgames/cards/error.hpp"
#include "cardgames/rules/game_runner.hpp"
#include "sampling/bot_registry.hpp"

namespace apps {

namespace {

int bench_rules(int games) {
    std::cout << fmt::format("{:<22}{:>8}{:>10}{:>12}{:>14}\n", "form", "games", "hands", "games/s",
                             "cards/s");
    for (const char* preset : {"spades-partnership", "spades-cutthroat4", "spades-cutthroat3",
                               "hearts3", "hearts4", "hearts5", "hearts6"}) {
        const cardgames::Rules rules = cardgames::load_rules(cardgames::preset_path(preset), {});
        long hands = 0, cards = 0;
        const auto start = std::chrono::steady_clock::now();
        for (int g = 0; g < games; ++g) {
            cardgames::Game game(rules, static_cast<std::uint64_t>(g));
            std::vector<std::unique_ptr<cardgames::Player>> players;
            for (int s = 0; s < rules.players; ++s)
                players.push_back(sampling::make_player("random", cardgames::mix_seed(g, s)));
            cardgames::run_game(game, players);
            hands += static_cast<long>(game.finished_hands().size());
            cards += static_cast<long>(game.finished_hands().size()) * rules.deck().size();
        }
        const double secs =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        std::cout << fmt::format("{:<22}{:>8}{:>10}{:>12.0f}{:>14.0f}\n", preset, games, hands,
                                 games / secs, cards / secs);
    }
    return 0;
}

// The --pimc run, with the rules as given, for printing a position that solve can replay.
BenchPimcRun pimc_run(const RulesOptions& ro, const std::string& spec, int hands,
                      std::uint64_t seed) {
    BenchPimcRun run{spec, hands, seed, "", ""};
    if (!ro.game.empty()) {
        run.rules_args = "--game " + ro.game;
        run.rules_python = "game='" + ro.game + "'";
    }
    if (!ro.preset.empty()) {
        run.rules_args += (run.rules_args.empty() ? "" : " ") + ("--preset " + ro.preset);
        run.rules_python += (run.rules_python.empty() ? "" : ", ") + ("preset='" + ro.preset + "'");
    }
    std::string overrides;
    for (const std::string& o : ro.overrides) {
        run.rules_args += " --rule '" + o + "'";
        overrides += (overrides.empty() ? "'" : ", '") + o + "'";
    }
    if (!overrides.empty())
        run.rules_python += (run.rules_python.empty() ? "" : ", ") + ("rules=[" + overrides + "]");
    return run;
}

}  // namespace

int cmd_bench(int argc, char** argv) {
    return guarded("bench", [&] {
        int games = 2000, hands = 4;
        std::uint64_t seed = 1;
        std::string spec = "pimc", model;
        RulesOptions ro;
        BenchSearchOptions search;
        po::options_description desc("bench options");
        desc.add_options()("rules", "play random games of every form (rules engine speed)")(
            "games", number(&games, 1, static_cast<int>(kMaxItems))->default_value(2000),
            "games per form for --rules")("pimc",
                                          "time the Monte-Carlo player's decisions "
                                          "(--game/--preset/--rule, --spec, --hands, --seed)")(
            "spec", po::value(&spec)->default_value("pimc"),
            "for --pimc: the bot spec in every seat")(
            "nets",
            "time a network's evaluations, the accumulator recomputed and updated "
            "(--game/--preset/--rule, --model, --hands, --seed)")(
            "model", po::value(&model),
            "for --nets: the network file (default: random weights of the default shape)")(
            "hands", number(&hands, 1, static_cast<int>(kMaxItems))->default_value(4),
            "for --pimc and --nets: hands to play")(
            "seed", seed_value(&seed)->default_value(1),
            "for --pimc and --nets: seed of the deals and bots");
        ro.add_to(desc);
        add_bench_search_options(desc, search);
        po::variables_map vm;
        if (!parse_args("bench", argc, argv, desc, vm)) return 0;
        // One mode at a time, and no option that only another mode reads.
        const bool rules = vm.count("rules"), pimc = vm.count("pimc"),
                   dds = vm.count("dds-compare"), nets = vm.count("nets");
        if (rules + pimc + dds + nets > 1)
            throw cardgames::InputError(
                "give at most one of --rules, --pimc, --nets and --dds-compare");
        only_with(vm, {"games"}, rules, "with --rules");
        only_with(vm, {"spec"}, pimc, "with --pimc");
        only_with(vm, {"model"}, nets, "with --nets");
        only_with(vm, {"hands", "seed", "game", "preset", "rule"}, pimc || nets,
                  "with --pimc or --nets");
        only_with(vm, {"dds-tricks", "dds-seed", "dds-repeat"}, dds, "with --dds-compare");
        only_with(vm, {"positions", "per-position"}, !rules && !pimc && !dds && !nets,
                  "to the search bench (without --rules, --pimc, --nets or --dds-compare)");
        only_with(vm, {"algorithms", "format"}, !rules && !pimc && !nets,
                  "to the search bench and --dds-compare");
        if (rules) return bench_rules(games);
        if (nets) return bench_nets(ro.resolve(), model, hands, seed);
        if (pimc) {
            const cardgames::Rules r = ro.resolve();
            check_default_threads_available();
            return bench_pimc(r, pimc_run(ro, spec, hands, seed));
        }
        return bench_search(search);
    });
}

}  // namespace apps
