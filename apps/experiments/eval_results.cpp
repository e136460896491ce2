#include "apps/experiments/eval_results.hpp"

#include <algorithm>
#include <cstdio>
#include <optional>

#include "apps/experiments/results_file.hpp"
#include "apps/experiments/run.hpp"
#include "cardgames/cards/error.hpp"
#include "cardgames/cards/json_input.hpp"
#include "cardgames/rules/record.hpp"

namespace apps {

using cardgames::InputError;
using cardgames::JsonField;
using nlohmann::json;

namespace {

// What a file may say, wider than what a run may ask (kMaxSamples): a reader refuses only nonsense.
constexpr long long kMaxFileSamples = 1LL << 30;

cardgames::Rules rules_of(const JsonField& f) {
    try {
        return cardgames::rules_from_json(f.object());
    } catch (const InputError& e) {
        cardgames::rethrow_with_context("key \"" + f.path() + "\"", e);
    }
}

cardgames::Card card_of(const JsonField& f) {
    try {
        return cardgames::parse_card(f.string());
    } catch (const InputError& e) {
        cardgames::rethrow_with_context("key \"" + f.path() + "\"", e);
    }
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

json eval_header(const EvalPlan& plan) {
    return results_header("eval", plan.options());
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
        out.rules = rules_of(o["rules"]);
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

std::string eval_bid_line(long index, long deal_index, const cardgames::Deal& deal, int seat,
                          const std::vector<double>& values, int lowest_bid, int best_bid,
                          const std::vector<int>& bids, const std::vector<double>& losses) {
    json vals = json::array();
    for (int b = 0; b < static_cast<int>(values.size()); ++b)
        vals.push_back(b < lowest_bid ? json() : json(values[b]));
    return json{{"index", index},
                {"deal_index", deal_index},
                {"deal", cardgames::deal_to_string(deal)},
                {"seat", seat},
                {"values", vals},
                {"best_bid", best_bid},
                {"bids", bids},
                {"loss", losses}}
        .dump();
}

std::string eval_play_line(long index, long record_line, int hand, int trick, int seat,
                           const std::vector<cardgames::Card>& legal,
                           const std::vector<double>& values, cardgames::Card best,
                           const std::vector<cardgames::Card>& choices,
                           const std::vector<double>& losses) {
    json cards = json::array(), chosen = json::array();
    for (cardgames::Card c : legal) cards.push_back(cardgames::to_string(c));
    for (cardgames::Card c : choices) chosen.push_back(cardgames::to_string(c));
    return json{{"index", index},    {"record_line", record_line},
                {"hand", hand},      {"trick", trick},
                {"seat", seat},      {"legal", cards},
                {"values", values},  {"best", cardgames::to_string(best)},
                {"choices", chosen}, {"loss", losses}}
        .dump();
}

std::vector<double> eval_result_from_json(const json& line, const EvalPlan& plan) {
    const JsonField f(line, "");
    const std::size_t npol = plan.policies.size();
    const int players = plan.bid_mode ? plan.rules.players : cardgames::kMaxPlayers;
    const int cards_per_hand = plan.bid_mode ? plan.rules.cards_per_hand() : 0;
    f["index"].integer(0, kMaxResultCount);
    if (plan.bid_mode) {
        f["deal_index"].integer(0, plan.count - 1);
        try {
            cardgames::parse_deal(f["deal"].string());
        } catch (const InputError& e) {
            cardgames::rethrow_with_context("key \"deal\"", e);
        }
        f["seat"].integer(0, players - 1);
        const JsonField values = f["values"];
        for (std::size_t b = 0, k = values.array(cards_per_hand + 1, cards_per_hand + 1); b < k;
             ++b)
            if (!values[b].json().is_null()) values[b].number(-kMaxHandScore, kMaxHandScore);
        f["best_bid"].integer(0, cards_per_hand);
        for (std::size_t p = 0, k = f["bids"].array(npol, npol); p < k; ++p)
            f["bids"][p].integer(0, cards_per_hand);
    } else {
        f["record_line"].integer(1, kMaxResultCount);
        f["hand"].integer(0, kMaxResultCount);
        f["trick"].integer(0, 51);
        f["seat"].integer(0, cardgames::kMaxPlayers - 1);
        const JsonField legal = f["legal"];
        std::vector<cardgames::Card> cards;
        for (std::size_t i = 0, k = legal.array(2, 52); i < k; ++i)
            cards.push_back(card_of(legal[i]));
        const auto is_legal = [&](const JsonField& c) {
            if (std::find(cards.begin(), cards.end(), card_of(c)) == cards.end())
                c.fail("not one of \"legal\"");
        };
        const JsonField values = f["values"];
        for (std::size_t i = 0, k = values.array(cards.size(), cards.size()); i < k; ++i)
            values[i].number(-kMaxHandScore, kMaxHandScore);
        is_legal(f["best"]);
        for (std::size_t p = 0, k = f["choices"].array(npol, npol); p < k; ++p)
            is_legal(f["choices"][p]);
    }
    const JsonField loss = f["loss"];
    std::vector<double> out;
    for (std::size_t p = 0, k = loss.array(npol, npol); p < k; ++p)
        out.push_back(loss[p].number(0, kMaxHandScore));
    return out;
}

EvalFile read_eval_file(const std::string& path, const EvalLineFn& each) {
    EvalFile file;
    std::optional<EvalTally> tally;
    read_results(
        path, "eval",
        [&](const json& header) {
            file.plan = eval_plan_from_header(header);
            tally.emplace(file.plan.policies);
        },
        [&](const json& line) {
            const std::vector<double> losses = eval_result_from_json(line, file.plan);
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

std::string eval_report(const std::string& path) {
    const EvalFile file = read_eval_file(path);
    return format_eval_summary(file.summary, file.plan.bid_mode);
}

}  // namespace apps
