// cardgames solve: the exact (or depth-limited) value of a position and of every legal card.
#include <fmt/format.h>

#include <chrono>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "apps/common.hpp"
#include "apps/search_options.hpp"
#include "cardgames/cards/error.hpp"
#include "cardgames/double_dummy/double_dummy.hpp"
#include "cardgames/rules/position.hpp"
#include "cardgames/search/trick_game.hpp"
#include "engine/search.hpp"

namespace apps {

using namespace cardgames;

namespace {

std::vector<Card> parse_card_list(const std::string& text, const std::string& what) {
    std::vector<Card> out;
    std::istringstream in(text);
    std::string w;
    while (in >> w) {
        try {
            out.push_back(parse_card(w));
        } catch (const InputError& e) {
            rethrow_with_context(what, e);
        }
    }
    return out;
}

std::string tuple_text(const std::vector<int>& v) {
    std::string s = "[";
    for (std::size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
    return s + "]";
}

// What solve prints, whichever search found it: the root value, every legal card's value (in
// notation order), the best card, and the search's counts.
struct Solution {
    std::vector<int> value;
    Card best = kNoCard;
    std::vector<std::pair<Card, std::vector<int>>> rows;
    std::uint64_t nodes = 0, expansions = 0;
    double ms = 0;
    bool complete = true;
};

void print_solution(const Solution& sol, const std::string& format, const std::string& heading,
                    const std::string& order) {
    if (format == "json") {
        nlohmann::json j;
        j["value"] = sol.value;
        j["best"] = to_string(sol.best);
        j["moves"] = nlohmann::json::array();
        for (const auto& [c, v] : sol.rows)
            j["moves"].push_back({{"card", to_string(c)}, {"value", v}});
        j["nodes"] = sol.nodes;
        j["expansions"] = sol.expansions;
        j["ms"] = static_cast<long>(sol.ms + 0.5);
        j["complete"] = sol.complete;
        std::cout << j.dump() << "\n";
        return;
    }
    std::cout << heading << "\n";
    std::cout << "value " << tuple_text(sol.value) << "  (" << order << ")\n";
    for (const auto& [c, v] : sol.rows)
        std::cout << "  " << to_string(c) << "  " << tuple_text(v)
                  << (c == sol.best ? "  best" : "") << "\n";
    std::cout << fmt::format("{} nodes, {} expansions, {:.0f} ms{}\n", sol.nodes, sol.expansions,
                             sol.ms, sol.complete ? "" : " (node limit reached: not exact)");
}

// --algorithm dd: the double-dummy solver, for partnership Spades under the tricks utility.
void solve_double_dummy(const Rules& rules, const PlayState& state, const std::string& format) {
    DoubleDummy solver;
    const auto start = std::chrono::steady_clock::now();
    const RootValue root = solver.value_root(PlayRules::from(rules), state);
    Solution sol;
    sol.ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    if (root.cards.empty()) throw InputError("no legal move in this position");
    const int left = state.hands[state.to_move].size();
    for (const CardTricks& ct : root.cards) {
        const SideTricks v = side_tricks(ct.tricks, left);
        sol.rows.push_back({ct.card, {v.begin(), v.end()}});
    }
    sol.value = {root.value.begin(), root.value.end()};
    sol.best = root.best;
    sol.nodes = solver.stats().nodes;
    sol.expansions = solver.stats().expansions;
    print_solution(
        sol, format,
        seat_name(state.to_move, rules.players) + " to play; tricks by the double-dummy solver",
        "tricks [N-S, E-W] from here");
}

}  // namespace

int cmd_solve(int argc, char** argv) {
    return guarded("solve", [&] {
        RulesOptions ro;
        std::string deal_text, leader_text = "0", algorithm, utility_text, format = "text",
                               trick_text, bids_text;
        std::string broken_text;
        int depth = 0;
        bool leaf_tables = false, no_tt = false;
        std::uint64_t node_limit = 0;
        po::options_description desc("solve options");
        ro.add_to(desc);
        desc.add_options()("deal", po::value(&deal_text)->required(),
                           "the position: PBN 'N:...' or '<players>:...' (hands may be short)")(
            "leader", po::value(&leader_text),
            "seat on lead (0..n-1 or N/E/S/W; default 0, or the first-lead card's holder)")(
            "trick", po::value(&trick_text),
            "cards already on the table this trick, from the leader on ('QS 2S')")(
            "broken", po::value(&broken_text),
            "spades/hearts broken: true or false (default: true unless a full deal)")(
            "algorithm", po::value(&algorithm),
            "maxn, shallow, bnb, lastbranch, speculative, paranoid, alphabeta, dd (default: dd "
            "where it applies, "
            "else speculative)")("leaf-tables", po::bool_switch(&leaf_tables),
                                 "prune with leaf-value (outcome) tables")(
            "no-tt", po::bool_switch(&no_tt), "no transposition table")(
            "utility", po::value(&utility_text), "tricks or score (Spades), points (Hearts)")(
            "bids", po::value(&bids_text),
            "Spades score utility: one bid per seat, '3,4,nil,2' (bnil: blind nil)")(
            "depth", number(&depth, 0, kMaxTricks),
            "search this many tricks deep (cut-off evaluation beyond); 0 = to the end")(
            "nodes", number(&node_limit), "stop after this many expansions (0 = no limit)")(
            "format", po::value(&format), "text or json");
        po::variables_map vm;
        if (!parse_args("solve", argc, argv, desc, vm)) return 0;
        if (format != "text" && format != "json")
            throw InputError("--format '" + format + "': expected text or json");
        const Rules rules = ro.resolve();
        Deal deal;
        try {
            deal = parse_deal(deal_text);
        } catch (const InputError& e) {
            rethrow_with_context("--deal", e);
        }
        const std::vector<Card> trick = parse_card_list(trick_text, "--trick");
        int leader = 0;
        if (vm.count("leader")) {
            leader = parse_seat(leader_text, rules.players);
        } else if (const Card first = rules.first_lead_card(); first != kNoCard && trick.empty()) {
            for (int s = 0; s < deal.players && s < rules.players; ++s)
                if (deal.hands[s].contains(first)) leader = s;
        }
        std::optional<bool> broken;
        if (!broken_text.empty()) {
            if (broken_text == "true")
                broken = true;
            else if (broken_text == "false")
                broken = false;
            else
                throw InputError("--broken '" + broken_text + "': expected true or false");
        }
        const PlayState state = position_from_deal(rules, deal, leader, trick, broken);
        const Utility utility =
            utility_text.empty() ? default_utility(rules.game) : parse_utility(utility_text);
        ScoreContext context;
        if (utility == Utility::kScore) {
            if (bids_text.empty()) throw InputError("--utility score needs --bids (one per seat)");
            context.bids = parse_bid_list(bids_text, rules.players, "--bids");
        }
        only_with(vm, {"bids"}, utility == Utility::kScore, "with --utility score");
        const bool dd_applies = rules.is_partnership() && utility == Utility::kTricks &&
                                DoubleDummy::supports(PlayRules::from(rules));
        const bool limited = depth > 0 || node_limit > 0 || leaf_tables || no_tt;
        // The fastest exact algorithm for the position, unless the options ask for a limited
        // search.
        if (algorithm.empty()) algorithm = dd_applies && !limited ? "dd" : "speculative";
        if (algorithm == "dd") {
            if (!dd_applies)
                throw InputError(
                    "--algorithm dd is the double-dummy solver: partnership Spades with --utility "
                    "tricks");
            if (limited)
                throw InputError(
                    "--algorithm dd solves to the end: no --depth, --nodes, --leaf-tables or "
                    "--no-tt");
            solve_double_dummy(rules, state, format);
            return 0;
        }

        engine::SearchOptions options;
        options.algorithm = algorithm_from_name(algorithm);
        // The engine reads leaf-value tables only in pruning max^n searches to the end.
        only_with(vm, {"leaf-tables"}, depth == 0, "to searches to the end (no --depth)");
        only_with(vm, {"leaf-tables"},
                  engine::is_maxn_family(options.algorithm) &&
                      options.algorithm != engine::Algorithm::kMaxn,
                  "to shallow, bnb, lastbranch and speculative");
        options.outcome_tables = leaf_tables;
        options.tt_entries = no_tt ? 0 : std::size_t{1} << 20;
        options.depth_limit = depth > 0 ? depth : engine::kNoDepthLimit;
        options.node_limit = node_limit;
        if (options.algorithm == engine::Algorithm::kAlphaBeta &&
            !(rules.is_partnership() && utility == Utility::kTricks))
            throw InputError(
                "--algorithm alphabeta needs two sides: partnership Spades with --utility tricks");

        TrickGame game(rules, state, utility, {}, context);
        engine::Searcher<TrickGame> searcher(options);
        const auto start = std::chrono::steady_clock::now();
        const auto analysis = searcher.analyze_root(game);
        const double ms =
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
                .count();
        if (analysis.moves.empty())
            throw InputError(
                analysis.complete
                    ? "no legal move in this position"
                    : fmt::format("--nodes {}: too few to value even one card", node_limit));

        auto value_of = [&](const engine::RootMoveValue<Card>& m) {
            if (analysis.has_tuple) return game.report(m.value);
            // Two-sided search: the score is side 0's utility sum (both partners carry the side's
            // tricks).
            const int left = game.maxsum() / 2;
            const int ns = m.score / 2;
            return std::vector<int>{ns, left - ns};
        };
        const auto& best = analysis.moves[analysis.best_index];
        Solution sol;
        sol.value = value_of(best);
        sol.best = best.move;
        // Every legal card, equivalent cards taking their representative's value.
        for (Suit s : kSuitsNotationOrder)
            for (Rank r = kAce; r >= kTwo; --r) {
                const Card c(s, r);
                if (!game.all_legal_cards().contains(c)) continue;
                const Card rep = game.representative(c);
                for (const auto& m : analysis.moves)
                    if (m.move == rep) sol.rows.push_back({c, value_of(m)});
            }
        sol.nodes = analysis.stats.nodes;
        sol.expansions = analysis.stats.expansions;
        sol.ms = ms;
        sol.complete = analysis.complete;
        std::string order;
        if (utility == Utility::kPoints)
            order = "penalty points per player (whole hand)";
        else if (rules.is_partnership())
            order = utility == Utility::kTricks ? "tricks [N-S, E-W] from here"
                                                : "hand score [N-S, E-W]";
        else
            order = utility == Utility::kTricks ? "tricks per player from here"
                                                : "hand score per player";
        print_solution(
            sol, format,
            fmt::format("{} to play; {} by {}{}{}", seat_name(state.to_move, rules.players),
                        utility_name(utility), algorithm,
                        leaf_tables ? " with leaf-value tables" : "",
                        depth > 0 ? fmt::format(", {} tricks deep", depth) : std::string()),
            order);
        return 0;
    });
}

}  // namespace apps
