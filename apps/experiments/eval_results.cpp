#include "apps/experiments/eval_results.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>

#include "apps/experiments/eval.hpp"
#include "apps/experiments/results_file.hpp"
#include "apps/experiments/run.hpp"
#include "cardgames/cards/error.hpp"
#include "cardgames/cards/json_input.hpp"
#include "cardgames/rules/dealing.hpp"
#include "cardgames/rules/record.hpp"

namespace apps {

using cardgames::InputError;
using cardgames::JsonField;
using nlohmann::json;

namespace {

// What a file may say, wider than what a run may ask (kMaxSamples): a reader refuses only nonsense.
constexpr long long kMaxFileSamples = 1LL << 30;

cardgames::Card card_of(const JsonField& f) {
    try {
        return cardgames::parse_card(f.string());
    } catch (const InputError& e) {
        cardgames::rethrow_with_context("key \"" + f.path() + "\"", e);
    }
}

std::vector<int> seats_of(const EvalPlan& plan) {
    return parse_seats(plan.seats, plan.rules.players);
}

// The item count a header allows: bid mode count deals times the seats, play mode count decisions.
long max_items(const EvalPlan& plan) {
    return plan.bid_mode ? plan.count * static_cast<long>(seats_of(plan).size()) : plan.count;
}

// Losses are written as best value minus chosen value from the same doubles; a little slack
// for files written by other means.
bool same_loss(double a, double b) {
    return std::abs(a - b) <= 1e-9 * std::max(1.0, std::abs(b));
}

// The item is the one `items` has at its index, key by key.
void check_identity(const JsonField& f, long index, const EvalItems& items, bool bid_mode) {
    const std::string input = bid_mode ? "the deal set" : "the records";
    if (index >= items.total)
        f["index"].fail("item " + std::to_string(index) + ", but there are only " +
                        std::to_string(items.total) + " items in " + input);
    const json expected = items.identity(index);
    for (const auto& [key, value] : expected.items())
        if (f[key].json() != value)
            f[key].fail("recorded " + f[key].json().dump() + " but item " + std::to_string(index) +
                        " of " + input + " has " + value.dump());
}

// Bid mode without the deal set: the deal index and seat the header's seats give the index.
void check_bid_position(const JsonField& f, long index, const EvalPlan& plan) {
    const std::vector<int> seats = seats_of(plan);
    const auto per_deal = static_cast<long>(seats.size());
    if (f["deal_index"].json() != json(index / per_deal))
        f["deal_index"].fail("expected " + std::to_string(index / per_deal) + " (from the index)");
    if (f["seat"].json() != json(seats[static_cast<std::size_t>(index % per_deal)]))
        f["seat"].fail("expected " +
                       std::to_string(seats[static_cast<std::size_t>(index % per_deal)]) +
                       " (from the index and the header's seats)");
}

// The best choice is one of highest value, and each loss is the best value minus the value of
// the policy's choice (`picks`: indices into `values`).
void check_values(const JsonField& f, const std::vector<double>& values, std::size_t best,
                  const std::vector<std::size_t>& picks, const char* best_key,
                  const std::vector<double>& losses) {
    for (double v : values)
        if (v > values[best])
            f[best_key].fail("not a choice of highest value (" + json(values[best]).dump() + " < " +
                             json(v).dump() + ")");
    for (std::size_t p = 0; p < picks.size(); ++p)
        if (!same_loss(losses[p], values[best] - values[picks[p]]))
            f["loss"][p].fail("recorded " + json(losses[p]).dump() +
                              " but the best value minus the chosen one is " +
                              json(values[best] - values[picks[p]]).dump());
}

}  // namespace

json EvalPlan::options() const {
    json o{{"mode", bid_mode ? "bid" : "play"},
           {"policies", policies},
           {"reference", reference},
           {"samples", samples},
           {"seed", seed},
           {"seats", seats},
           {"count", count}};
    if (bid_mode) {
        o["rules"] = cardgames::rules_to_json(rules);
        o["deals_fnv1a"] = input_fnv1a;
    } else {
        o["records_fnv1a"] = input_fnv1a;
    }
    return o;
}

EvalPlan eval_plan_from_header(const json& header) {
    const JsonField o = JsonField(header, "")["options"];
    EvalPlan out;
    const std::string& mode = o["mode"].string();
    if (mode != "bid" && mode != "play") o["mode"].fail("expected \"bid\" or \"play\"");
    out.bid_mode = mode == "bid";
    for (std::size_t i = 0, n = o["policies"].array(1, 1000); i < n; ++i)
        out.policies.push_back(o["policies"][i].string());
    out.reference = o["reference"].string();
    out.samples = static_cast<int>(o["samples"].integer(1, kMaxFileSamples));
    out.seed = o["seed"].unsigned_integer();
    out.seats = o["seats"].string();
    out.count = static_cast<long>(o["count"].integer(1, kMaxResultCount));
    if (out.bid_mode) {
        out.rules = cardgames::rules_from_json(o["rules"]);
        try {
            parse_seats(out.seats, out.rules.players);  // one seat at least, each in range
        } catch (const InputError& e) {
            cardgames::rethrow_with_context("key \"options.seats\"", e);
        }
        out.input_fnv1a = o["deals_fnv1a"].string();
    } else {
        out.input_fnv1a = o["records_fnv1a"].string();
    }
    return out;
}

std::string input_fingerprint(const std::string& text) {
    char buf[17];
    std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(fnv1a(text)));
    return buf;
}

json eval_bid_identity(long deal_index, const cardgames::Deal& deal, int seat) {
    return json{
        {"deal_index", deal_index}, {"deal", cardgames::deal_to_string(deal)}, {"seat", seat}};
}

json eval_play_identity(long record_line, int hand, int trick, int seat,
                        const std::vector<cardgames::Card>& legal) {
    json cards = json::array();
    for (cardgames::Card c : legal) cards.push_back(cardgames::to_string(c));
    return json{{"record_line", record_line},
                {"hand", hand},
                {"trick", trick},
                {"seat", seat},
                {"legal", cards}};
}

// The keys of a JSON object are written in sorted order, so the identity's keys merged in
// first do not change the line.
std::string eval_bid_line(long index, long deal_index, const cardgames::Deal& deal, int seat,
                          const std::vector<double>& values, int lowest_bid, int best_bid,
                          const std::vector<int>& bids, const std::vector<double>& losses) {
    json vals = json::array();
    for (int b = 0; b < static_cast<int>(values.size()); ++b)
        vals.push_back(b < lowest_bid ? json() : json(values[b]));
    json line = eval_bid_identity(deal_index, deal, seat);
    line["index"] = index;
    line["values"] = vals;
    line["best_bid"] = best_bid;
    line["bids"] = bids;
    line["loss"] = losses;
    return line.dump();
}

std::string eval_play_line(long index, long record_line, int hand, int trick, int seat,
                           const std::vector<cardgames::Card>& legal,
                           const std::vector<double>& values, cardgames::Card best,
                           const std::vector<cardgames::Card>& choices,
                           const std::vector<double>& losses) {
    json chosen = json::array();
    for (cardgames::Card c : choices) chosen.push_back(cardgames::to_string(c));
    json line = eval_play_identity(record_line, hand, trick, seat, legal);
    line["index"] = index;
    line["values"] = values;
    line["best"] = cardgames::to_string(best);
    line["choices"] = chosen;
    line["loss"] = losses;
    return line.dump();
}

std::vector<double> eval_result_from_json(const json& line, const EvalPlan& plan,
                                          const EvalItems* items) {
    const JsonField f(line, "");
    const std::size_t npol = plan.policies.size();
    const long index = static_cast<long>(f["index"].integer(0, kMaxResultCount));
    if (index >= max_items(plan))
        f["index"].fail("item " + std::to_string(index) + ", but the header's count allows " +
                        std::to_string(max_items(plan)) + " items");
    const JsonField loss = f["loss"];
    std::vector<double> out;
    for (std::size_t p = 0, k = loss.array(npol, npol); p < k; ++p)
        out.push_back(loss[p].number(0, kMaxHandScore));
    std::vector<double> values;
    std::vector<std::size_t> picks;
    std::size_t best = 0;
    if (plan.bid_mode) {
        const int players = plan.rules.players;
        const int lo = plan.rules.nil_allowed ? 0 : 1, hi = plan.rules.cards_per_hand();
        f["deal_index"].integer(0, plan.count - 1);
        try {
            cardgames::validate_deal(cardgames::parse_deal(f["deal"].string()), plan.rules);
        } catch (const InputError& e) {
            cardgames::rethrow_with_context("key \"deal\"", e);
        }
        f["seat"].integer(0, players - 1);
        const JsonField vals = f["values"];
        for (std::size_t b = 0, k = vals.array(hi + 1, hi + 1); b < k; ++b) {
            const bool allowed = static_cast<int>(b) >= lo;
            if (vals[b].json().is_null() == allowed)
                vals[b].fail(allowed ? "a value expected: the rules allow this bid"
                                     : "null expected: the rules do not allow this bid");
            values.push_back(allowed ? vals[b].number(-kMaxHandScore, kMaxHandScore) : 0.0);
        }
        best = static_cast<std::size_t>(f["best_bid"].integer(lo, hi));
        for (std::size_t p = 0, k = f["bids"].array(npol, npol); p < k; ++p)
            picks.push_back(static_cast<std::size_t>(f["bids"][p].integer(lo, hi)));
        // Bids the rules do not allow have no value: they take no part in the best.
        std::fill(values.begin(), values.begin() + lo, values[best]);
        if (!items) check_bid_position(f, index, plan);
        check_values(f, values, best, picks, "best_bid", out);
    } else {
        f["record_line"].integer(1, kMaxResultCount);
        f["hand"].integer(0, kMaxResultCount);
        f["trick"].integer(0, 51);
        f["seat"].integer(0, cardgames::kMaxPlayers - 1);
        const JsonField legal = f["legal"];
        std::vector<cardgames::Card> cards;
        for (std::size_t i = 0, k = legal.array(2, 52); i < k; ++i)
            cards.push_back(card_of(legal[i]));
        const auto position = [&](const JsonField& c) {
            const auto it = std::find(cards.begin(), cards.end(), card_of(c));
            if (it == cards.end()) c.fail("not one of \"legal\"");
            return static_cast<std::size_t>(it - cards.begin());
        };
        const JsonField vals = f["values"];
        for (std::size_t i = 0, k = vals.array(cards.size(), cards.size()); i < k; ++i)
            values.push_back(vals[i].number(-kMaxHandScore, kMaxHandScore));
        best = position(f["best"]);
        for (std::size_t p = 0, k = f["choices"].array(npol, npol); p < k; ++p)
            picks.push_back(position(f["choices"][p]));
        check_values(f, values, best, picks, "best", out);
    }
    if (items) check_identity(f, index, *items, plan.bid_mode);
    return out;
}

EvalFile read_eval_file(const std::string& path, const EvalInput& input, const EvalLineFn& each) {
    EvalFile file;
    std::optional<EvalTally> tally;
    std::optional<EvalItems> items;
    read_results(
        path, "eval",
        [&](const json& header) {
            file.plan = eval_plan_from_header(header);
            tally.emplace(file.plan.policies);
            if (!input) return;
            EvalItems got = input(file.plan);
            if (got.identity) items = std::move(got);
        },
        [&](const json& line) {
            const std::vector<double> losses =
                eval_result_from_json(line, file.plan, items ? &*items : nullptr);
            tally->add(losses);
            if (each) each(line, losses);
        });
    file.results = tally->results();
    file.summary = tally->summary();
    return file;
}

std::string format_eval_summary(const std::vector<PolicySummary>& rows, bool bid_mode) {
    return format_policy_summary(rows, bid_mode ? "best bid" : "agreement");
}

std::string eval_report(const std::string& path, const EvalInput& input) {
    const EvalFile file = read_eval_file(path, input);
    return format_eval_summary(file.summary, file.plan.bid_mode);
}

}  // namespace apps
