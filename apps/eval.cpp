// cardgames eval: batch evaluation of bidding or play policies against a reference player.
//   --mode bid:  every deal of a deal set and every chosen seat: each policy's bid, and the value
//                of every possible bid (the seat's expected hand score when the reference then
//                plays the hand, over sampled layouts); loss = best value - value of its bid.
//   --mode play: every play decision of the chosen seats in game records (tournament results or
//                play --record files): each policy's card and its loss against the reference's
//                valuation of every legal card; agreement = it picked a best-valued card.
// One JSON line per deal-seat or decision, resumable like the tournament; a table at the end.
#include <algorithm>
#include <charconv>
#include <cstdio>
#include <deque>
#include <filesystem>
#include <iostream>
#include <optional>
#include <sstream>

#include "apps/batch.hpp"
#include "apps/cluster.hpp"
#include "apps/common.hpp"
#include "apps/eval_decisions.hpp"
#include "apps/eval_playout.hpp"
#include "apps/results_file.hpp"
#include "apps/results_readers.hpp"
#include "apps/stats.hpp"
#include "cardgames/cards/error.hpp"
#include "cardgames/cards/json_input.hpp"
#include "cardgames/cards/seeds.hpp"
#include "cardgames/cards/text_file.hpp"
#include "cardgames/players/bot_spec.hpp"
#include "cardgames/rules/dealing.hpp"
#include "sampling/bot_registry.hpp"
#include "sampling/deal_sampler.hpp"

namespace apps {

using namespace cardgames;
using nlohmann::json;

namespace {

struct EvalPlan {
    bool bid_mode = true;
    std::vector<std::string> policies;
    std::string reference = "rule";
    int samples = 16;
    std::uint64_t seed = 1;
    std::vector<int> seats;
    long count = 0;
    std::string input_fingerprint;
};

// FNV-1a of the input file: --resume must refuse a deal set or records file that changed.
std::string fingerprint(const std::string& text) {
    char buf[17];
    std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(fnv1a(text)));
    return buf;
}

std::vector<Deal> read_deals(const std::string& path, const std::string& text, const Rules& rules,
                             long limit) {
    std::vector<Deal> deals;
    std::istringstream in(text);
    std::string line;
    long line_no = 0;
    while (static_cast<long>(deals.size()) < limit && std::getline(in, line)) {
        ++line_no;
        if (line.find_first_not_of(" \t\r") == std::string::npos || line[0] == '#') continue;
        try {
            Deal d = parse_deal(line);
            validate_deal(d, rules);
            deals.push_back(d);
        } catch (const InputError& e) {
            rethrow_with_context("'" + path + "' line " + std::to_string(line_no), e);
        }
    }
    return deals;
}

std::vector<int> parse_seats(const std::string& text, int players) {
    std::vector<int> seats;
    if (text == "all") {
        for (int s = 0; s < players; ++s) seats.push_back(s);
        return seats;
    }
    std::istringstream in(text + ",");  // so that a trailing comma shows as an empty item
    std::string item;
    const std::string at = "--seats '" + text + "': ";
    while (std::getline(in, item, ',')) {
        int s = -1;
        std::from_chars(item.data(), item.data() + item.size(), s);
        // Written as the number itself ("1", not "01" or "1x"): play mode matches seats by their
        // text.
        if (item != std::to_string(s) || s < 0 || s >= players)
            throw InputError(at + "'" + item +
                             "' is not a seat: expected 'all' or a list of seats 0.." +
                             std::to_string(players - 1));
        if (std::find(seats.begin(), seats.end(), s) != seats.end())
            throw InputError(at + "seat " + item + " twice");
        seats.push_back(s);
    }
    return seats;
}

json losses_line(const EvalPlan& plan, const std::vector<double>& values, double best,
                 const std::vector<std::size_t>& picks) {
    json loss = json::array();
    for (std::size_t p = 0; p < plan.policies.size(); ++p) loss.push_back(best - values[picks[p]]);
    return loss;
}

std::string bid_item(const EvalPlan& plan, const Rules& rules, const std::vector<Deal>& deals,
                     long index) {
    const std::size_t per_deal = plan.seats.size();
    const Deal& deal = deals[index / per_deal];
    const int seat = plan.seats[index % per_deal];
    const std::uint64_t item_seed = seeds::eval_item(plan.seed, index);
    const int lo = rules.nil_allowed ? 0 : 1, hi = rules.cards_per_hand();
    std::vector<double> values(hi + 1, 0.0);
    for (int k = 0; k < plan.samples; ++k) {
        const std::uint64_t sample_seed = seeds::eval_sample(item_seed, k);
        boost::random::mt19937_64 rng(sample_seed);
        const Deal layout = sampling::redeal_others(deal, seat, rng);
        for (int b = lo; b <= hi; ++b)
            values[b] += bid_playout(rules, layout, seat, b, plan.reference, sample_seed);
    }
    int best = lo;
    for (int b = lo; b <= hi; ++b) {
        values[b] /= plan.samples;
        if (values[b] > values[best]) best = b;
    }
    std::vector<std::size_t> picks;
    json bids = json::array();
    for (const std::string& policy : plan.policies) {
        const int b = policy_bid(rules, deal, seat, policy, plan.reference, item_seed);
        picks.push_back(static_cast<std::size_t>(b));
        bids.push_back(b);
    }
    json vals = json::array();
    for (int b = 0; b <= hi; ++b) vals.push_back(b < lo ? json() : json(values[b]));
    json line{{"index", index},
              {"deal_index", index / static_cast<long>(per_deal)},
              {"deal", deal_to_string(deal)},
              {"seat", seat},
              {"values", vals},
              {"best_bid", best},
              {"bids", bids}};
    line["loss"] = losses_line(plan, values, values[best], picks);
    return line.dump();
}

std::string play_item(const EvalPlan& plan, const std::vector<PlayDecision>& decisions,
                      long index) {
    const PlayDecision& d = decisions[index];
    const std::uint64_t item_seed = seeds::eval_item(plan.seed, index);
    std::vector<Card> legal;
    for (Card c : d.info.legal_cards()) legal.push_back(c);
    std::vector<double> values(legal.size(), 0.0);
    for (int k = 0; k < plan.samples; ++k) {
        const std::uint64_t sample_seed = seeds::eval_sample(item_seed, k);
        const auto layout = sample_play_layout(d, sample_seed);
        for (std::size_t i = 0; i < legal.size(); ++i)
            values[i] += card_playout(d, layout, legal[i], plan.reference, sample_seed);
    }
    std::size_t best = 0;
    for (std::size_t i = 0; i < legal.size(); ++i) {
        values[i] /= plan.samples;
        if (values[i] > values[best]) best = i;
    }
    std::vector<std::size_t> picks;
    json choices = json::array(), cards = json::array();
    for (std::size_t p = 0; p < plan.policies.size(); ++p) {
        const Card c =
            sampling::make_player(plan.policies[p], seeds::eval_policy(item_seed, p))->play(d.info);
        const auto it = std::find(legal.begin(), legal.end(), c);
        if (it == legal.end())
            throw std::logic_error("policy " + plan.policies[p] + " chose an illegal card");
        picks.push_back(static_cast<std::size_t>(it - legal.begin()));
        choices.push_back(to_string(c));
    }
    for (Card c : legal) cards.push_back(to_string(c));
    json line{{"index", index},      {"record_line", d.record_line},
              {"hand", d.hand},      {"trick", static_cast<int>(d.info.play.tricks_played)},
              {"seat", d.info.seat}, {"legal", cards},
              {"values", values},    {"best", to_string(legal[best])},
              {"choices", choices}};
    line["loss"] = losses_line(plan, values, values[best], picks);
    return line.dump();
}

// Everything a run needs, read from the command line and the input files.
struct EvalRun {
    EvalPlan plan;
    Rules rules;
    std::vector<Deal> deals;
    std::deque<Rules> record_rules;  // the rules each decision's record was played under
    std::vector<PlayDecision> decisions;
    long total = 0;
    json options;
    BatchRunOptions how;
};

// Parses the command line and reads the inputs; --help and --report are done here (returned
// status).
std::optional<int> parse_eval(int argc, char** argv, EvalRun& run) {
    RulesOptions ro;
    EvalPlan& plan = run.plan;
    std::string mode, policies_text, deals_file, records_file, seats_text = "all";
    long count = 0;
    po::options_description desc("eval options");
    ro.add_to(desc);
    desc.add_options()("mode", po::value(&mode)->default_value("bid"),
                       "bid (Spades: deals and bids) or play (records and cards)")(
        "policies", po::value(&policies_text),
        "the bot specs to evaluate, comma separated: \"rule,random\"")(
        "reference", po::value(&plan.reference)->default_value("rule"),
        "the bot that plays the hands out and values the choices")(
        "deals", po::value(&deals_file),
        "bid mode: deal set, one deal per line (default data/deals/<preset>.txt)")(
        "records", po::value(&records_file),
        "play mode: game records, JSON Lines (tournament results work)")(
        "count", number(&count, 1L, kMaxItems),
        "bid mode: deals to use (default 25); play mode: decisions (default 200)")(
        "seats", po::value(&seats_text)->default_value("all"),
        "seats to evaluate: all, or a list such as 0,2")(
        "samples", number(&plan.samples, 1, kMaxSamples)->default_value(16),
        "sampled layouts per deal-seat or decision")(
        "seed", seed_value(&plan.seed)->default_value(1), "seed of the layouts and the bots");
    run.how.add_to(desc, "print the table of an existing eval results file and exit");
    po::variables_map vm;
    if (!parse_args("eval", argc, argv, desc, vm)) return 0;
    if (!run.how.report_file.empty()) {
        only_option(vm, "report");
        if (rank() == 0) std::cout << eval_report(run.how.report_file);
        return 0;
    }
    if (mode != "bid" && mode != "play")
        throw InputError("--mode '" + mode + "': expected bid or play");
    plan.bid_mode = mode == "bid";
    only_with(vm, {"deals", "game", "preset", "rule"}, plan.bid_mode,
              "with --mode bid (in play mode the records give the rules)");
    only_with(vm, {"records"}, !plan.bid_mode, "with --mode play");
    parse_seats(seats_text, kMaxPlayers);  // the form; the seats against each game's players below
    if (policies_text.empty())
        throw InputError("--policies is required: the bot specs to evaluate");
    if (run.how.out_file.empty())
        throw InputError("--out is required: the results file (JSON Lines)");
    plan.policies = split_player_list(policies_text);
    // Play mode asks for cards at recorded decisions and in play-outs, where only the seat's own
    // cards are known: a player that must see every hand cannot play there.
    for (const std::string& spec : plan.policies)
        if (sampling::make_player(spec, 0)->sees_all_hands() && !plan.bid_mode)
            throw InputError("--policies: " + spec +
                             " sees every hand, which --mode play never shows");
    if (sampling::make_player(plan.reference, 0)->sees_all_hands() && !plan.bid_mode)
        throw InputError("--reference " + plan.reference +
                         ": it sees every hand, which --mode play never shows");
    if (!vm.count("count")) count = plan.bid_mode ? 25 : 200;

    run.options = json{{"mode", mode},
                       {"policies", plan.policies},
                       {"reference", plan.reference},
                       {"samples", plan.samples},
                       {"seed", plan.seed},
                       {"seats", seats_text},
                       {"count", count}};
    if (plan.bid_mode) {
        run.rules = ro.resolve();
        if (run.rules.game != GameKind::kSpades)
            throw InputError("--mode bid needs Spades (Hearts has no bidding); use --mode play");
        if (deals_file.empty()) {
            const std::string preset =
                ro.preset.empty() ? default_preset(run.rules.game) : ro.preset;
            deals_file =
                (data_dir() / "deals" / (std::filesystem::path(preset).stem().string() + ".txt"))
                    .string();
        }
        const std::string text = read_text_file(deals_file, "--deals");
        run.deals = read_deals(deals_file, text, run.rules, count);
        plan.seats = parse_seats(seats_text, run.rules.players);
        json r = json::object();
        for (const auto& [k, v] : rules_to_pairs(run.rules)) r[k] = v;
        run.options["rules"] = r;
        run.options["deals_fnv1a"] = fingerprint(text);
        run.total = static_cast<long>(run.deals.size() * plan.seats.size());
    } else {
        if (records_file.empty())
            throw InputError(
                "--mode play needs --records FILE (game records or tournament results)");
        const std::string text = read_text_file(records_file, "--records");
        run.decisions = collect_decisions(records_file, text, seats_text, count, run.record_rules);
        run.options["records_fnv1a"] = fingerprint(text);
        run.total = static_cast<long>(run.decisions.size());
    }
    return std::nullopt;
}

}  // namespace

int cmd_eval(int argc, char** argv) {
    return guarded("eval", [&] {
        EvalRun run;
        if (const auto done = parse_on_every_rank([&] { return parse_eval(argc, argv, run); }))
            return *done;

        const EvalPlan& plan = run.plan;
        const json header = results_header("eval", run.options);
        const EvalOptions options = eval_options_from_header(header);
        const std::unique_ptr<ResultsFile> out =
            open_results(run.how.out_file, header, run.how.resume,
                         [&](const json& line) { eval_result_from_json(line, options); });
        std::vector<std::vector<double>> lines;
        if (out)
            for (const json& line : out->existing())
                lines.push_back(eval_result_from_json(line, options));
        BatchOptions bo;
        bo.total = run.total;
        bo.threads = run.how.threads;
        bo.quiet = run.how.quiet;
        bo.unit = plan.bid_mode ? "deal-seats" : "decisions";
        const bool complete = run_batch(
            bo, out.get(),
            [&](long i) {
                return plan.bid_mode ? bid_item(plan, run.rules, run.deals, i)
                                     : play_item(plan, run.decisions, i);
            },
            [&](long, const std::string& line) {
                lines.push_back(eval_result_from_json(parse_json_line(line), options));
            });
        if (rank() != 0) return complete ? 0 : kExitInterrupted;
        if (!complete) {
            std::cerr << "cardgames eval: interrupted after " << lines.size() << " of " << run.total
                      << " results; run the same command with --resume to continue\n";
            return kExitInterrupted;
        }
        std::cout << eval_summary_table(plan.policies, lines, plan.bid_mode) << "\nevaluated on "
                  << workers_text(run.how.threads) << "\n";
        return 0;
    });
}

}  // namespace apps
