#include "cardgames/solve/solve.hpp"

#include <fmt/format.h>

#include <chrono>
#include <sstream>

#include "cardgames/cards/error.hpp"
#include "cardgames/double_dummy/double_dummy.hpp"
#include "cardgames/rules/position.hpp"
#include "cardgames/search/trick_game.hpp"
#include "cardgames/search/two_sided.hpp"
#include "engine/search.hpp"

namespace cardgames {

engine::Algorithm algorithm_from_name(const std::string& name) {
    if (const auto a = engine::parse_algorithm(name)) return *a;
    std::string known;
    for (const auto& [a, n] : engine::kAlgorithmNames)
        known += (known.empty() ? "" : ", ") + std::string(n);
    throw InputError("algorithm '" + name + "': expected one of " + known);
}

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

std::optional<bool> parse_broken(const std::string& text) {
    if (text.empty()) return std::nullopt;
    if (text == "true") return true;
    if (text == "false") return false;
    throw InputError("--broken '" + text + "': expected true or false");
}

// The engine's options for `algorithm`, refusing the ones it would ignore.
engine::SearchOptions search_options(const SolveRequest& r, const std::string& algorithm) {
    engine::SearchOptions options;
    options.algorithm = algorithm_from_name(algorithm);
    // The engine reads leaf-value tables only in pruning max^n searches to the end.
    if (r.leaf_tables && r.depth != 0)
        throw InputError("--leaf-tables applies only to searches to the end (no --depth)");
    if (r.leaf_tables && !(engine::is_maxn_family(options.algorithm) &&
                           options.algorithm != engine::Algorithm::kMaxn))
        throw InputError("--leaf-tables applies only to shallow, bnb, lastbranch and speculative");
    options.outcome_tables = r.leaf_tables;
    options.tt_entries = r.no_tt ? 0 : std::size_t{1} << 20;
    options.depth_limit = r.depth > 0 ? r.depth : engine::kNoDepthLimit;
    options.node_limit = r.node_limit;
    if (options.algorithm == engine::Algorithm::kAlphaBeta &&
        !(r.rules.is_partnership() &&
          (r.utility == Utility::kTricks || r.utility == Utility::kMargin)))
        throw InputError(
            "--algorithm alphabeta needs two sides: partnership Spades with --utility tricks or "
            "margin");
    return options;
}

// What the values count, per whom.
std::string value_order(const SolveRequest& r) {
    if (r.utility == Utility::kPoints) return "penalty points per player (whole hand)";
    if (r.utility == Utility::kMargin) return "hand score margin [N-S, E-W]";
    if (r.rules.is_partnership())
        return r.utility == Utility::kTricks ? "tricks [N-S, E-W] from here"
                                             : "hand score [N-S, E-W]";
    return r.utility == Utility::kTricks ? "tricks per player from here" : "hand score per player";
}

}  // namespace

SolveRequest solve_request(const Rules& rules, const SolveOptions& o) {
    SolveRequest r;
    r.rules = rules;
    r.algorithm = o.algorithm;
    r.depth = o.depth;
    r.leaf_tables = o.leaf_tables;
    r.no_tt = o.no_tt;
    r.node_limit = o.nodes;
    Deal deal;
    try {
        deal = parse_deal(o.deal);
    } catch (const InputError& e) {
        rethrow_with_context("--deal", e);
    }
    const std::vector<Card> trick = parse_card_list(o.trick, "--trick");
    int leader = 0;
    if (o.leader) {
        leader = parse_seat(*o.leader, r.rules.players);
    } else if (const Card first = r.rules.first_lead_card(); first != kNoCard && trick.empty()) {
        for (int s = 0; s < deal.players && s < r.rules.players; ++s)
            if (deal.hands[s].contains(first)) leader = s;
    }
    const std::optional<bool> broken = parse_broken(o.broken);
    r.state = position_from_deal(r.rules, deal, leader, trick, broken);
    r.utility = o.utility.empty() ? default_utility(r.rules.game) : parse_utility(o.utility);
    if (scored_with_bids(r.utility)) {
        if (!o.bids || o.bids->empty())
            throw InputError("--utility " + utility_name(r.utility) +
                             " needs --bids (one per seat)");
        r.context.bids = parse_bid_list(*o.bids, r.rules, "--bids");
    }
    if (o.bids && !scored_with_bids(r.utility))
        throw InputError("--bids applies only with --utility score or margin");
    return r;
}

std::string choose_algorithm(const SolveRequest& r) {
    const bool dd_applies = r.rules.is_partnership() && r.utility == Utility::kTricks &&
                            DoubleDummy::supports(PlayRules::from(r.rules));
    const bool limited = r.depth > 0 || r.node_limit > 0 || r.leaf_tables || r.no_tt;
    // The margin is a two-sided game: alphabeta, unless leaf tables (max^n's) are asked for.
    const std::string algorithm = !r.algorithm.empty()                              ? r.algorithm
                                  : dd_applies && !limited                          ? "dd"
                                  : r.utility == Utility::kMargin && !r.leaf_tables ? "alphabeta"
                                                                                    : "speculative";
    if (algorithm == "dd" && !dd_applies)
        throw InputError(
            "--algorithm dd is the double-dummy solver: partnership Spades with --utility tricks");
    if (algorithm == "dd" && limited)
        throw InputError(
            "--algorithm dd solves to the end: no --depth, --nodes, --leaf-tables or --no-tt");
    return algorithm;
}

Solution solve_double_dummy(const SolveRequest& r) {
    DoubleDummy solver;
    const auto start = std::chrono::steady_clock::now();
    const RootValue root = solver.value_root(PlayRules::from(r.rules), r.state);
    Solution sol;
    sol.ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    if (root.cards.empty()) throw InputError("no legal move in this position");
    const int left = r.state.hands[r.state.to_move].size();
    for (const CardTricks& ct : root.cards) {
        const SideTricks v = side_tricks(ct.tricks, left);
        sol.rows.push_back({ct.card, {v.begin(), v.end()}});
    }
    sol.value = {root.value.begin(), root.value.end()};
    sol.best = root.best;
    sol.nodes = solver.stats().nodes;
    sol.expansions = solver.stats().expansions;
    sol.heading =
        seat_name(r.state.to_move, r.rules.players) + " to play; tricks by the double-dummy solver";
    sol.order = "tricks [N-S, E-W] from here";
    return sol;
}

// Paranoid search values the position for the player to move alone, against all the others.
std::string paranoid_order(const SolveRequest& r) {
    const std::string who = seat_name(r.state.to_move, r.rules.players);
    const std::string what =
        r.utility == Utility::kPoints ? "penalty points of " + who + " (whole hand), at most"
        : r.rules.is_partnership()
            ? (r.utility == Utility::kTricks   ? "tricks of " + who + "'s side from here, at least"
               : r.utility == Utility::kMargin ? "hand score margin of " + who + "'s side, at least"
                                               : "hand score of " + who + "'s side, at least")
            : (r.utility == Utility::kTricks ? "tricks of " + who + " from here, at least"
                                             : "hand score of " + who + ", at least");
    return what + ", whatever the others play together";
}

Solution solve_by_search(const SolveRequest& r, const std::string& algorithm) {
    const engine::SearchOptions options = search_options(r, algorithm);
    TrickGame game(r.rules, r.state, r.utility, {}, r.context);
    engine::Searcher<TrickGame> searcher(options);
    const auto start = std::chrono::steady_clock::now();
    const auto analysis = searcher.analyze_root(game);
    const double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    if (analysis.moves.empty())
        throw InputError(
            analysis.complete
                ? "no legal move in this position"
                : fmt::format("--nodes {}: too few to value even one card", r.node_limit));

    const bool paranoid = options.algorithm == engine::Algorithm::kParanoid;
    auto value_of = [&](const engine::RootMoveValue<Card>& m) {
        if (analysis.has_tuple) return game.report(m.value);
        // Paranoid's score is the player to move's own utility, not a side's total.
        if (paranoid) return std::vector<int>{game.report_player(r.state.to_move, m.score)};
        const std::array<int, 2> sides = two_sided_tricks(m.score, game.maxsum());
        return std::vector<int>(sides.begin(), sides.end());
    };
    const auto& best = analysis.moves[analysis.best_index];
    Solution sol;
    sol.value = value_of(best);
    sol.best = best.move;
    // Every legal card, equivalent cards taking their representative's value.
    for (Suit s : kSuitsNotationOrder)
        for (Rank rank = kAce; rank >= kTwo; --rank) {
            const Card c(s, rank);
            if (!game.all_legal_cards().contains(c)) continue;
            const Card rep = game.representative(c);
            for (const auto& m : analysis.moves)
                if (m.move == rep) sol.rows.push_back({c, value_of(m)});
        }
    sol.nodes = analysis.stats.nodes;
    sol.expansions = analysis.stats.expansions;
    sol.ms = ms;
    sol.complete = analysis.complete;
    sol.heading = fmt::format(
        "{} to play; {} by {}{}{}", seat_name(r.state.to_move, r.rules.players),
        utility_name(r.utility), algorithm, r.leaf_tables ? " with leaf-value tables" : "",
        r.depth > 0 ? fmt::format(", {} tricks deep", r.depth) : std::string());
    sol.order = paranoid ? paranoid_order(r) : value_order(r);
    return sol;
}

Solution solve(const SolveRequest& r) {
    const std::string algorithm = choose_algorithm(r);
    return algorithm == "dd" ? solve_double_dummy(r) : solve_by_search(r, algorithm);
}

nlohmann::json solution_json(const Solution& sol) {
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
    return j;
}

std::string solution_text(const Solution& sol) {
    std::string out = sol.heading + "\n";
    out += "value " + tuple_text(sol.value) + "  (" + sol.order + ")\n";
    for (const auto& [c, v] : sol.rows)
        out += "  " + to_string(c) + "  " + tuple_text(v) + (c == sol.best ? "  best" : "") + "\n";
    out += fmt::format("{} nodes, {} expansions, {:.0f} ms{}\n", sol.nodes, sol.expansions, sol.ms,
                       sol.complete ? "" : " (node limit reached: not exact)");
    return out;
}

}  // namespace cardgames
