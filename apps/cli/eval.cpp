// cardgames eval: batch evaluation of bidding or play policies against a reference player, over a
// deal set (--mode bid) or game records (--mode play). One JSON line per deal-seat or decision,
// resumable like the tournament; a table at the end. The run itself is the experiments library's
// (apps/experiments/eval.hpp).
#include "apps/experiments/eval.hpp"

#include <filesystem>
#include <iostream>
#include <optional>

#include "apps/cli/batch_command.hpp"
#include "apps/cli/common.hpp"
#include "cardgames/cards/error.hpp"
#include "cardgames/players/bot_spec.hpp"

namespace apps {

using namespace cardgames;

namespace {

// Parses the command line into options; --help and --report are done here (returned status).
std::optional<int> parse_eval(const MpiSession& mpi, int argc, char** argv, EvalOptions& options,
                              BatchRunOptions& how) {
    RulesOptions ro;
    EvalPlan& plan = options.plan;
    std::string mode, policies_text;
    po::options_description desc("eval options");
    ro.add_to(desc);
    desc.add_options()("mode", po::value(&mode)->default_value("bid"),
                       "bid (Spades: deals and bids) or play (records and cards)")(
        "policies", po::value(&policies_text),
        "the bot specs to evaluate, comma separated: \"rule,random\"")(
        "reference", po::value(&plan.reference)->default_value("rule"),
        "the bot that plays the hands out and values the choices")(
        "deals", po::value(&options.deals),
        "bid mode: deal set, one deal per line (default data/deals/<preset>.txt)")(
        "records", po::value(&options.records),
        "play mode: game records, JSON Lines (tournament results work)")(
        "count", number(&plan.count, 1L, kMaxItems),
        "bid mode: deals to use (default 25); play mode: decisions (default 200)")(
        "seats", po::value(&plan.seats)->default_value("all"),
        "seats to evaluate: all, or a list such as 0,2")(
        "samples", number(&plan.samples, 1, kMaxSamples)->default_value(16),
        "sampled layouts per deal-seat or decision")(
        "seed", seed_value(&plan.seed)->default_value(1), "seed of the layouts and the bots");
    how.add_to(desc, "print the table of an existing eval results file and exit");
    po::variables_map vm;
    if (!parse_args("eval", argc, argv, desc, vm)) return 0;
    if (!how.report_file.empty()) {
        only_option(vm, "report", {"deals", "records"});
        // With the run's input, each item is checked to be the input's item of its index.
        const EvalInput input = [&](const EvalPlan& file_plan) -> EvalItems {
            const char* wrong = file_plan.bid_mode ? "records" : "deals";
            if (given(vm, wrong))
                throw InputError("--" + std::string(wrong) + " does not apply to '" +
                                 how.report_file + "', a results file of --mode " +
                                 (file_plan.bid_mode ? "bid" : "play"));
            const std::string& path = file_plan.bid_mode ? options.deals : options.records;
            if (path.empty()) return {};
            return eval_items(file_plan, path);
        };
        if (mpi.rank() == 0) std::cout << eval_report(how.report_file, input);
        return 0;
    }
    if (mode != "bid" && mode != "play")
        throw InputError("--mode '" + mode + "': expected bid or play");
    plan.bid_mode = mode == "bid";
    only_with(vm, {"deals", "game", "preset", "rule"}, plan.bid_mode,
              "with --mode bid (in play mode the records give the rules)");
    only_with(vm, {"records"}, !plan.bid_mode, "with --mode play");
    parse_seats(plan.seats, kMaxPlayers);  // the form; the seats against each game's players later
    if (policies_text.empty())
        throw InputError("--policies is required: the bot specs to evaluate");
    if (how.run.out.empty()) throw InputError("--out is required: the results file (JSON Lines)");
    plan.policies = split_player_list(policies_text);
    if (plan.bid_mode) {
        plan.rules = ro.resolve();
        if (options.deals.empty() && plan.rules.game == GameKind::kSpades) {
            const std::string preset =
                ro.preset.empty() ? default_preset(plan.rules.game) : ro.preset;
            options.deals =
                (data_dir() / "deals" / (std::filesystem::path(preset).stem().string() + ".txt"))
                    .string();
        }
    }
    options.run = how.run;
    return std::nullopt;
}

// The table at the end of a complete run.
std::string eval_summary(const EvalOptions& options, const EvalResult& result) {
    return format_eval_summary(result.summary, options.plan.bid_mode) + "\nevaluated on " +
           result.workers;
}

}  // namespace

int cmd_eval(const MpiSession& mpi, int argc, char** argv) {
    return run_results_command<EvalOptions>(mpi, "eval", argc, argv, parse_eval, run_eval,
                                            eval_summary);
}

}  // namespace apps
