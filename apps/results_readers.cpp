#include "apps/results_readers.hpp"

#include <algorithm>

#include "apps/results_file.hpp"
#include "cardgames/cards/deal.hpp"
#include "cardgames/cards/error.hpp"
#include "cardgames/cards/json_input.hpp"
#include "cardgames/cards/seeds.hpp"
#include "cardgames/rules/record.hpp"
#include "cardgames/rules/scoring.hpp"

namespace apps {

using cardgames::InputError;
using cardgames::JsonField;
using nlohmann::json;

namespace {

constexpr long long kMaxSamples = 1LL << 30;

json rules_json(const cardgames::Rules& rules) {
    json r = json::object();
    for (const auto& [k, v] : cardgames::rules_to_pairs(rules)) r[k] = v;
    return r;
}

cardgames::Rules rules_of(const JsonField& f) {
    try {
        return cardgames::rules_from_json(f.object());
    } catch (const InputError& e) {
        cardgames::rethrow_with_context("key \"" + f.path() + "\"", e);
    }
}

std::vector<std::string> strings(const JsonField& f, std::size_t lo, std::size_t hi) {
    std::vector<std::string> out;
    for (std::size_t i = 0, n = f.array(lo, hi); i < n; ++i) out.push_back(f[i].string());
    return out;
}

void expect_index(const JsonField& f, long long expected) {
    if (f.integer(0, kMaxResultCount) != expected)
        f.fail("expected " + std::to_string(expected) + " (from the line's index), found " +
               f.json().dump());
}

cardgames::Card card_of(const JsonField& f) {
    try {
        return cardgames::parse_card(f.string());
    } catch (const InputError& e) {
        cardgames::rethrow_with_context("key \"" + f.path() + "\"", e);
    }
}

}  // namespace

std::vector<std::string> TournamentPlan::seat_specs(int rotation) const {
    const int n = rules.players;
    std::vector<std::string> out(n);
    for (int e = 0; e < n; ++e) out[(e + rotation) % n] = specs[e];
    return out;
}

json TournamentPlan::options() const {
    json o{{"rules", rules_json(rules)},
           {"players", specs},
           {by_hands ? "hands" : "games", count},
           {"duplicate", duplicate},
           {"seed", seed},
           {"record_version", cardgames::kRecordVersion}};
    if (!cheats.empty()) o["cheats"] = cheats;
    return o;
}

TournamentPlan tournament_plan_from_header(const json& header) {
    const JsonField o = JsonField(header, "")["options"];
    TournamentPlan plan;
    plan.rules = rules_of(o["rules"]);
    const auto n = static_cast<std::size_t>(plan.rules.players);
    plan.specs = strings(o["players"], n, n);
    if (o.has("games") == o.has("hands")) o.fail("expected exactly one of \"games\" and \"hands\"");
    plan.by_hands = o.has("hands");
    plan.count =
        static_cast<long>(o[plan.by_hands ? "hands" : "games"].integer(1, kMaxResultCount));
    plan.duplicate = o["duplicate"].boolean();
    plan.seed = o["seed"].unsigned_integer();
    if (o.has("cheats")) {
        const JsonField cheats = o["cheats"];
        for (std::size_t i = 0, k = cheats.array(1, n); i < k; ++i) {
            plan.cheats.push_back(static_cast<int>(cheats[i].integer(0, plan.rules.players - 1)));
            if (i > 0 && plan.cheats[i] <= plan.cheats[i - 1])
                cheats[i].fail("entries in increasing order, each once");
        }
    }
    if (o["record_version"].integer(0, kMaxResultCount) != cardgames::kRecordVersion)
        o["record_version"].fail("records of version " + std::to_string(cardgames::kRecordVersion) +
                                 " expected");
    return plan;
}

GameResult tournament_result_from_json(const json& line, const TournamentPlan& plan) {
    const JsonField f(line, "");
    const long index = static_cast<long>(f["index"].integer(0, plan.total() - 1));
    if (!cardgames::is_game_record(line)) f["type"].fail("expected \"game\" (a game result)");
    const cardgames::RecordedGame record = cardgames::read_game_record(line);
    GameResult r = game_result_from_json(line);
    const int n = plan.rules.players;
    const long board = index / plan.rotations();
    const int rotation = static_cast<int>(index % plan.rotations());
    expect_index(f["board"], board);
    expect_index(f["rotation"], rotation);
    if (cardgames::rules_to_pairs(record.rules) != cardgames::rules_to_pairs(plan.rules))
        f["rules"].fail("not the rules of the header");
    if (record.seed != cardgames::seeds::tournament_game(plan.seed, board))
        f["seed"].fail("not the seed of board " + std::to_string(board) + " of this run");
    if (record.players != plan.seat_specs(rotation))
        f["players"].fail("not the header's players in rotation " + std::to_string(rotation));
    if (!plan.cheats.empty()) {
        std::vector<int> seats;
        for (int e : plan.cheats) seats.push_back((e + rotation) % n);
        std::sort(seats.begin(), seats.end());
        if (record.cheats != seats)
            (f.has("cheats") ? f["cheats"] : f["players"])
                .fail("not the seats of the header's players that see every hand in rotation " +
                      std::to_string(rotation));
    }
    if (!record.complete) f["complete"].fail("a result is a finished game");
    if (plan.by_hands && record.hands.size() != 1)
        f["hands"].fail("one hand per result in a run by hands");
    for (int s = 0; s < n; ++s) {
        if (r.seats[s].unit != plan.rules.unit_of(s))
            f["seat_unit"][s].fail("seat " + std::to_string(s) + " plays for unit " +
                                   std::to_string(plan.rules.unit_of(s)));
        if (r.seats[s].hand_scores.size() != record.hands.size())
            f["seat_hand_scores"][s].fail("one score per hand of the record (" +
                                          std::to_string(record.hands.size()) + ")");
    }
    return r;
}

EvalOptions eval_options_from_header(const json& header) {
    const JsonField o = JsonField(header, "")["options"];
    EvalOptions out;
    const std::string& mode = o["mode"].string();
    if (mode != "bid" && mode != "play") o["mode"].fail("expected \"bid\" or \"play\"");
    out.bid_mode = mode == "bid";
    out.policies = strings(o["policies"], 1, 1000);
    o["reference"].string();
    o["samples"].integer(1, kMaxSamples);
    o["seed"].unsigned_integer();
    o["seats"].string();
    out.count = static_cast<long>(o["count"].integer(1, kMaxResultCount));
    if (out.bid_mode) {
        const cardgames::Rules rules = rules_of(o["rules"]);
        out.players = rules.players;
        out.cards_per_hand = rules.cards_per_hand();
        o["deals_fnv1a"].string();
    } else {
        o["records_fnv1a"].string();
    }
    return out;
}

std::vector<double> eval_result_from_json(const json& line, const EvalOptions& options) {
    const JsonField f(line, "");
    const std::size_t npol = options.policies.size();
    f["index"].integer(0, kMaxResultCount);
    if (options.bid_mode) {
        f["deal_index"].integer(0, options.count - 1);
        try {
            cardgames::parse_deal(f["deal"].string());
        } catch (const InputError& e) {
            cardgames::rethrow_with_context("key \"deal\"", e);
        }
        f["seat"].integer(0, options.players - 1);
        const JsonField values = f["values"];
        for (std::size_t b = 0,
                         k = values.array(options.cards_per_hand + 1, options.cards_per_hand + 1);
             b < k; ++b)
            if (!values[b].json().is_null()) values[b].number(-kMaxHandScore, kMaxHandScore);
        f["best_bid"].integer(0, options.cards_per_hand);
        for (std::size_t p = 0, k = f["bids"].array(npol, npol); p < k; ++p)
            f["bids"][p].integer(0, options.cards_per_hand);
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

std::string tournament_report(const std::string& file) {
    TournamentPlan plan;
    std::vector<GameResult> results;
    read_results(
        file, "tournament",
        [&](const nlohmann::json& header) { plan = tournament_plan_from_header(header); },
        [&](const nlohmann::json& line) {
            results.push_back(tournament_result_from_json(line, plan));
        });
    return format_summary(summarize(results, plan.rotations()),
                          cardgames::lower_score_wins(plan.rules));
}

std::string eval_summary_table(const std::vector<std::string>& policies,
                               const std::vector<std::vector<double>>& lines, bool bid_mode) {
    std::vector<std::vector<double>> losses(policies.size());
    for (const std::vector<double>& line : lines)
        for (std::size_t p = 0; p < policies.size(); ++p) losses[p].push_back(line[p]);
    return format_policy_summary(summarize_policies(policies, losses),
                                 bid_mode ? "best bid" : "agreement");
}

std::string eval_report(const std::string& file) {
    EvalOptions options;
    std::vector<std::vector<double>> lines;
    read_results(
        file, "eval",
        [&](const nlohmann::json& header) { options = eval_options_from_header(header); },
        [&](const nlohmann::json& line) { lines.push_back(eval_result_from_json(line, options)); });
    return eval_summary_table(options.policies, lines, options.bid_mode);
}

}  // namespace apps
