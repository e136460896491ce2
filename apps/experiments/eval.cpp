#include "apps/experiments/eval.hpp"

#include <algorithm>
#include <boost/random/mersenne_twister.hpp>
#include <charconv>
#include <deque>
#include <memory>
#include <sstream>
#include <stdexcept>

#include "apps/experiments/batch.hpp"
#include "apps/experiments/eval_decisions.hpp"
#include "apps/experiments/eval_playout.hpp"
#include "cardgames/cards/error.hpp"
#include "cardgames/cards/json_input.hpp"
#include "cardgames/cards/seeds.hpp"
#include "cardgames/cards/text.hpp"
#include "cardgames/cards/text_file.hpp"
#include "cardgames/rules/dealing.hpp"
#include "sampling/bot_registry.hpp"
#include "sampling/deal_sampler.hpp"

namespace apps {

using namespace cardgames;
using nlohmann::json;

namespace {

// The policies made by the table read their models from `store`, the run's.
PlayerFactory factory_of(const EvalOptions& options,
                         const std::shared_ptr<models::ModelStore>& store) {
    if (options.make_policy) return options.make_policy;
    return [store](int, const std::string& spec, std::uint64_t seed, std::stop_token stop) {
        return sampling::make_player(spec, seed, std::move(stop), store);
    };
}

// What the items read: the plan as it goes into the header, and the inputs.
struct EvalInputs {
    // The model files of the run's players, read once for all of them.
    std::shared_ptr<cardgames::models::ModelStore> store =
        std::make_shared<cardgames::models::ModelStore>();
    EvalPlan plan;
    std::vector<int> seats;
    std::vector<Deal> deals;
    std::deque<Rules> record_rules;  // the rules each decision's record was played under
    std::string models;              // the players' models (Player::check)
    std::vector<PlayDecision> decisions;
    long total = 0;
};

std::vector<Deal> read_deals(const std::string& path, const std::string& text, const Rules& rules,
                             long limit) {
    std::vector<Deal> deals;
    const auto more = [&] { return static_cast<long>(deals.size()) < limit; };
    for_each_input_line(path, text, more, [&](const std::string& line, long) {
        if (line[0] == '#') return;  // a comment
        Deal d = parse_deal(line);
        validate_deal(d, rules);
        deals.push_back(d);
    });
    return deals;
}

// Reads the plan's input file: the deals and seats (bid mode) or the decisions (play mode), and
// the file's fingerprint into the plan.
void read_input(EvalInputs& in, const std::string& path) {
    EvalPlan& plan = in.plan;
    if (plan.bid_mode) {
        const std::string text = read_text_file(path, "--deals");
        in.deals = read_deals(path, text, plan.rules, plan.count);
        if (in.deals.empty())
            throw InputError("--deals '" + path +
                             "': no deals in the deal set; give a file of one deal per line");
        in.seats = parse_seats(plan.seats, plan.rules.players);
        plan.input_fnv1a = input_fingerprint(text);
        in.total = static_cast<long>(in.deals.size() * in.seats.size());
    } else {
        const std::string text = read_text_file(path, "--records");
        in.decisions = collect_decisions(path, text, plan.seats, plan.count, in.record_rules);
        plan.input_fnv1a = input_fingerprint(text);
        in.total = static_cast<long>(in.decisions.size());
    }
}

// What each item is, from the inputs: the keys the item's result line names it by.
EvalItems items_of(std::shared_ptr<const EvalInputs> in) {
    EvalItems items;
    items.total = in->total;
    items.identity = [in](long index) {
        if (in->plan.bid_mode) {
            const std::size_t per_deal = in->seats.size();
            const auto i = static_cast<std::size_t>(index);
            return eval_bid_identity(static_cast<long>(i / per_deal), in->deals[i / per_deal],
                                     in->seats[i % per_deal]);
        }
        const PlayDecision& d = in->decisions[static_cast<std::size_t>(index)];
        std::vector<Card> legal;
        for (Card c : d.info.legal_cards()) legal.push_back(c);
        return eval_play_identity(d.record_line, d.hand,
                                  static_cast<int>(d.info.play.tricks_played), d.info.seat, legal);
    };
    return items;
}

// Checks that every policy and the reference can play at a table of each rules the items are
// played under: the deals' (bid mode) or each record's (play mode). Returns their models.
std::string check_players_for_rules(const EvalInputs& in, const PlayerFactory& make) {
    std::string models;
    std::vector<std::vector<std::pair<std::string, std::string>>> seen;
    auto check = [&](const Rules& rules) {
        const auto pairs = rules_to_pairs(rules);
        if (std::find(seen.begin(), seen.end(), pairs) != seen.end()) return;
        seen.push_back(pairs);
        for (std::size_t p = 0; p < in.plan.policies.size(); ++p)
            models += check_player_for(*make(static_cast<int>(p), in.plan.policies[p], 0, {}),
                                       in.plan.policies[p], rules);
        models += check_player_for(*sampling::make_player(in.plan.reference, 0, {}, in.store),
                                   in.plan.reference, rules);
    };
    if (in.plan.bid_mode)
        check(in.plan.rules);
    else
        for (const Rules& rules : in.record_rules) check(rules);
    return models;
}

// Checks the options and reads the input file.
EvalInputs prepare(const EvalOptions& options) {
    EvalInputs in;
    in.plan = options.plan;
    EvalPlan& plan = in.plan;
    if (plan.policies.empty())
        throw InputError("--policies is required: the bot specs to evaluate");
    if (options.run.out.empty())
        throw InputError("--out is required: the results file (JSON Lines)");
    if (plan.samples < 1 || plan.samples > kMaxSamples)
        throw InputError("samples: expected 1.." + std::to_string(kMaxSamples));
    if (plan.count < 0 || plan.count > kMaxItems)
        throw InputError("count: expected 1.." + std::to_string(kMaxItems));
    const PlayerFactory make = factory_of(options, in.store);
    // Play mode asks for cards at recorded decisions and in play-outs, where only the seat's own
    // cards are known: a player that must see every hand cannot play there.
    for (std::size_t p = 0; p < plan.policies.size(); ++p) {
        const std::unique_ptr<Player> player = make(static_cast<int>(p), plan.policies[p], 0, {});
        if (!player) throw InputError("no player for spec '" + plan.policies[p] + "'");
        if (player->sees_all_hands() && !plan.bid_mode)
            throw InputError("--policies: " + plan.policies[p] +
                             " sees every hand, which --mode play never shows");
    }
    if (sampling::make_player(plan.reference, 0, {}, in.store)->sees_all_hands() && !plan.bid_mode)
        throw InputError("--reference " + plan.reference +
                         ": it sees every hand, which --mode play never shows");
    if (plan.count == 0) plan.count = plan.bid_mode ? 25 : 200;
    if (plan.bid_mode) {
        if (plan.rules.game != GameKind::kSpades)
            throw InputError("--mode bid needs Spades (Hearts has no bidding); use --mode play");
    } else if (options.records.empty()) {
        throw InputError("--mode play needs --records FILE (game records or tournament results)");
    }
    read_input(in, plan.bid_mode ? options.deals : options.records);
    in.models = check_players_for_rules(in, make);
    return in;
}

std::vector<double> losses_of(const std::vector<double>& values, double best,
                              const std::vector<std::size_t>& picks) {
    std::vector<double> loss;
    for (std::size_t pick : picks) loss.push_back(best - values[pick]);
    return loss;
}

// Turns the play-out values of choices lo.. (sums over `samples` samples) into means, and returns
// the best choice: the first of equal ones.
std::size_t mean_and_best(std::vector<double>& values, std::size_t lo, int samples) {
    std::size_t best = lo;
    for (std::size_t i = lo; i < values.size(); ++i) {
        values[i] /= samples;
        if (values[i] > values[best]) best = i;
    }
    return best;
}

std::string bid_item(const EvalInputs& in, const PlayerFactory& make, long index,
                     const std::stop_token& stop) {
    const EvalPlan& plan = in.plan;
    const Rules& rules = plan.rules;
    const std::size_t per_deal = in.seats.size();
    const Deal& deal = in.deals[index / per_deal];
    const int seat = in.seats[index % per_deal];
    const std::uint64_t item_seed = seeds::eval_item(plan.seed, index);
    const int lo = rules.nil_allowed ? 0 : 1, hi = rules.cards_per_hand();
    std::vector<double> values(hi + 1, 0.0);
    for (int k = 0; k < plan.samples; ++k) {
        const std::uint64_t sample_seed = seeds::eval_sample(item_seed, k);
        boost::random::mt19937_64 rng(sample_seed);
        const Deal layout = sampling::redeal_others(deal, seat, rng);
        for (int b = lo; b <= hi; ++b)
            values[b] +=
                bid_playout(rules, layout, seat, b, plan.reference, sample_seed, stop, in.store);
    }
    const int best = static_cast<int>(mean_and_best(values, lo, plan.samples));
    std::vector<std::size_t> picks;
    std::vector<int> bids;
    for (std::size_t p = 0; p < plan.policies.size(); ++p) {
        const std::unique_ptr<Player> policy =
            make(static_cast<int>(p), plan.policies[p], seeds::eval_bidder(item_seed), stop);
        policy->seated(item_seed, index);
        const int b = policy_bid(rules, deal, seat, *policy, plan.reference, item_seed, in.store);
        picks.push_back(static_cast<std::size_t>(b));
        bids.push_back(b);
    }
    return eval_bid_line(index, index / static_cast<long>(per_deal), deal, seat, values, lo, best,
                         bids, losses_of(values, values[best], picks));
}

std::string play_item(const EvalInputs& in, const PlayerFactory& make, long index,
                      const std::stop_token& stop) {
    const EvalPlan& plan = in.plan;
    const PlayDecision& d = in.decisions[index];
    const std::uint64_t item_seed = seeds::eval_item(plan.seed, index);
    std::vector<Card> legal;
    for (Card c : d.info.legal_cards()) legal.push_back(c);
    std::vector<double> values(legal.size(), 0.0);
    for (int k = 0; k < plan.samples; ++k) {
        const std::uint64_t sample_seed = seeds::eval_sample(item_seed, k);
        const auto layout = sample_play_layout(d, sample_seed);
        for (std::size_t i = 0; i < legal.size(); ++i)
            values[i] += card_playout(d, layout, legal[i], plan.reference, sample_seed, in.store);
    }
    const std::size_t best = mean_and_best(values, 0, plan.samples);
    std::vector<std::size_t> picks;
    std::vector<Card> choices;
    for (std::size_t p = 0; p < plan.policies.size(); ++p) {
        const std::unique_ptr<Player> policy =
            make(static_cast<int>(p), plan.policies[p], seeds::eval_policy(item_seed, p), stop);
        policy->seated(item_seed, index);
        const Card c = policy->play(d.info);
        const auto it = std::find(legal.begin(), legal.end(), c);
        if (it == legal.end())
            throw std::logic_error("policy " + plan.policies[p] + " chose an illegal card");
        picks.push_back(static_cast<std::size_t>(it - legal.begin()));
        choices.push_back(c);
    }
    return eval_play_line(index, d.record_line, d.hand, static_cast<int>(d.info.play.tricks_played),
                          d.info.seat, legal, values, legal[best], choices,
                          losses_of(values, values[best], picks));
}

}  // namespace

EvalItems eval_items(const EvalPlan& plan, const std::string& input) {
    auto in = std::make_shared<EvalInputs>();
    in->plan = plan;
    read_input(*in, input);
    if (in->plan.input_fnv1a != plan.input_fnv1a)
        throw InputError("'" + input + "': not the " + (plan.bid_mode ? "deal set" : "records") +
                         " of the results file (its fingerprint is " + in->plan.input_fnv1a +
                         ", the header's " + plan.input_fnv1a + ")");
    return items_of(in);
}

std::vector<int> parse_seats(const std::string& text, int players) {
    std::vector<int> seats;
    if (text == "all") {
        for (int s = 0; s < players; ++s) seats.push_back(s);
        return seats;
    }
    const std::string at = "--seats '" + text + "': ";
    for (const std::string_view word : split_list(text)) {
        const std::string item(word);
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

EvalResult run_eval(const EvalOptions& options, RunObserver& observer, std::stop_token stop,
                    const MpiSession& mpi) {
    auto prepared = std::make_shared<EvalInputs>();
    std::exception_ptr failed;
    try {
        *prepared = prepare(options);
    } catch (...) {
        failed = std::current_exception();
    }
    mpi.agree_on_setup(failed);
    const EvalInputs& in = *prepared;
    const EvalPlan& plan = in.plan;
    const PlayerFactory make = factory_of(options, in.store);
    // Lines read back on resume are the items of this run's input, each with its own values.
    const EvalItems items = items_of(prepared);

    // The table of the whole file as running sums: the results already there, then each new one.
    EvalTally tally(plan.policies);
    const std::unique_ptr<ResultsFile> out = open_results(
        mpi, options.run.out, results_header("eval", plan.options()), options.run.resume,
        [&](const json& line) { tally.add(eval_result_from_json(line, plan, &items)); }, in.models);
    if (out && !out->note().empty()) observer.note(out->note());
    EvalResult result;
    result.total = in.total;
    result.workers = mpi.workers_text(options.run.threads);
    BatchOptions bo;
    bo.total = in.total;
    bo.threads = options.run.threads;
    bo.unit = plan.bid_mode ? "deal-seats" : "decisions";
    const bool complete = run_batch(
        mpi, bo, out.get(), observer, stop,
        [&](long i, const std::stop_token& item_stop) {
            return plan.bid_mode ? bid_item(in, make, i, item_stop)
                                 : play_item(in, make, i, item_stop);
        },
        [&](long, const std::string& line) {
            tally.add(eval_result_from_json(parse_json_line(line), plan, &items));
        });
    set_run_outcome(result, complete, tally, mpi);
    return result;
}

}  // namespace apps
