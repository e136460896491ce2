// cardgames bench --pimc: how long the Monte-Carlo player takes per decision, at every point of a
// hand: the median, the tail (90th and 99th percentiles, the worst) and the most nodes one
// decision searched, the position of the worst decision, and the peak memory. A measurement
// program, never a test.
#include "apps/cli/bench_pimc.hpp"

#include <fmt/format.h>
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <iostream>
#include <map>

#include "cardgames/cards/error.hpp"
#include "cardgames/rules/game.hpp"
#include "sampling/bot_registry.hpp"
#include "sampling/pimc.hpp"

namespace apps {

using namespace cardgames;

namespace {

// One decision as measured: what it was, what it cost, and where in the run it was made.
struct Decision {
    std::string kind;
    double ms = 0;
    std::uint64_t nodes = 0;  // expansions of a pimc card decision's searches (else 0)
    int over_budget = 0;      // of its worlds, those whose share of the node budget ran out
    int played_alone = 0;     // and of those, the ones valued by play-outs alone
    int hand = 0;             // the bench's hand index
    int seat = 0;
    InfoState info;   // what the seat knew (its rules pointer dies with the hand's game)
    PlayState world;  // every hand as it stood
};

// The decision kind as the table names it.
std::string kind_of(const InfoState& info) {
    switch (info.phase) {
        case Phase::kBlindNil:
            return "blind nil";
        case Phase::kBid:
            return "bid";
        case Phase::kPass:
            return "pass";
        case Phase::kPlay:
            return fmt::format("card, {:2d} tricks left", info.hand.size());
        case Phase::kGameOver:
            break;
    }
    return "?";
}

// Makes the decision `d` of the seat to act in `game` and applies it; where the player is pimc
// and the decision a card (PimcBot::decide is what play() runs), sets the nodes its searches
// spent and its worlds over budget.
void decide(Game& game, Player& player, Decision& d) {
    const InfoState& info = d.info;
    if (player.sees_all_hands()) player.see_all_hands(game.play_state());
    switch (game.phase()) {
        case Phase::kBlindNil:
            game.choose_blind_nil(player.blind_nil(info));
            return;
        case Phase::kBid:
            game.choose_bid(player.bid(info));
            return;
        case Phase::kPass:
            game.choose_pass(player.pass(info));
            return;
        case Phase::kPlay:
            if (auto* pimc = dynamic_cast<sampling::PimcBot*>(&player)) {
                const sampling::PimcAnalysis a = pimc->decide(info);
                game.choose_card(a.best);
                d.nodes = a.expansions;
                d.over_budget = a.over_budget;
                d.played_alone = a.played_alone;
                return;
            }
            game.choose_card(player.play(info));
            return;
        case Phase::kGameOver:
            break;
    }
}

// The value at fraction `q` of the sorted `v` (nearest rank).
double percentile(const std::vector<double>& v, double q) {
    const auto rank = static_cast<std::size_t>(std::ceil(q * static_cast<double>(v.size())));
    return v[std::min(v.size(), std::max<std::size_t>(rank, 1)) - 1];
}

void print_row(const std::string& label, std::vector<double> ms, std::uint64_t nodes) {
    std::sort(ms.begin(), ms.end());
    std::cout << fmt::format("{:<24}{:>8}{:>10.1f}{:>10.1f}{:>10.1f}{:>10.1f}{:>12}\n", label,
                             ms.size(), percentile(ms, 0.5), percentile(ms, 0.9),
                             percentile(ms, 0.99), ms.back(), nodes);
}

// Spades bids as `solve --bids` reads them: '3,nil,bnil,4'.
std::string bids_text(const InfoState& info, int players) {
    std::string out;
    for (int s = 0; s < players; ++s) {
        const Bid& b = info.bids[static_cast<std::size_t>(s)];
        if (s > 0) out += ",";
        out += b.blind ? "bnil" : (b.tricks == 0 ? "nil" : std::to_string(b.tricks));
    }
    return out;
}

// Where the decision `d` was made, so that it can be found again: the run's seeds and the hand,
// and for a card the position of the true world as `cardgames solve` and Python's
// `cardgames.solve` read it (the hands left, the trick on the table; the points and tricks taken
// before are not part of a solve position).
// The utility the bots searched a Spades world by, for `solve` to value it alike.
Utility solve_utility(const std::string& spec_text, const Rules& rules) {
    const BotSpec spec = parse_bot_spec(spec_text);
    if (spec.name != "pimc" && spec.name != "oracle") return Utility::kScore;
    return sampling::PimcOptions::from_spec(spec).utility_for(rules);
}

void print_position(const std::string& what, const Decision& d, const Rules& rules,
                    const BenchPimcRun& run) {
    const std::uint64_t game_seed = mix_seed(run.seed, 7000 + static_cast<std::uint64_t>(d.hand));
    std::cout << fmt::format(
        "{}: {} by seat {} in hand {} (game seed {}, bot seed {}), {:.1f} ms, {} nodes\n", what,
        d.kind, d.seat, d.hand, game_seed, mix_seed(run.seed, static_cast<std::uint64_t>(d.seat)),
        d.ms, d.nodes);
    if (d.info.phase != Phase::kPlay) {
        Deal deal;
        deal.players = rules.players;
        deal.hands = d.world.hands;
        std::cout << fmt::format("  the deal: {}\n", deal_to_string(deal));
        return;
    }
    Deal left;
    left.players = rules.players;
    left.hands = d.world.hands;
    std::string trick;
    for (int i = 0; i < d.world.trick_size; ++i)
        trick += (i ? " " : "") + to_string(d.world.trick[static_cast<std::size_t>(i)]);
    const bool spades = rules.game == GameKind::kSpades;
    std::string cli =
        fmt::format("cardgames solve {} --deal '{}' --leader {} --broken {}", run.rules_args,
                    deal_to_string(left), d.world.leader, d.world.broken ? "true" : "false");
    std::string py =
        fmt::format("cardgames.solve({}deal='{}', leader='{}', broken={}",
                    run.rules_python.empty() ? "" : run.rules_python + ", ", deal_to_string(left),
                    d.world.leader, d.world.broken ? "True" : "False");
    if (!trick.empty()) {
        cli += fmt::format(" --trick '{}'", trick);
        py += fmt::format(", trick='{}'", trick);
    }
    if (spades) {
        const std::string utility = utility_name(solve_utility(run.spec, rules));
        cli += fmt::format(" --utility {} --bids '{}'", utility, bids_text(d.info, rules.players));
        py += fmt::format(", utility='{}', bids='{}'", utility, bids_text(d.info, rules.players));
    }
    std::cout << "  solve it: " << cli << "\n  in Python: " << py << ")\n";
}

}  // namespace

int bench_pimc(const Rules& rules, const BenchPimcRun& run) {
    std::vector<std::unique_ptr<Player>> players;
    const auto store = std::make_shared<models::ModelStore>();
    for (int s = 0; s < rules.players; ++s)
        players.push_back(sampling::make_player(run.spec, mix_seed(run.seed, s), {}, store));
    std::map<std::string, std::vector<double>> times;  // by decision kind, in ms
    std::map<std::string, std::uint64_t> most_nodes;
    std::vector<double> all;
    Decision worst, heaviest;
    long cut_decisions = 0, cut_worlds = 0, alone_worlds = 0;
    worst.ms = -1;
    const auto start = std::chrono::steady_clock::now();
    for (int h = 0; h < run.hands; ++h) {
        Game game(rules, mix_seed(run.seed, 7000 + static_cast<std::uint64_t>(h)));
        game.stop_after_hand();
        while (!game.over()) {
            Decision d;
            d.seat = game.to_act();
            d.hand = h;
            d.info = game.info_state(d.seat);
            d.world = game.play_state();
            d.kind = kind_of(d.info);
            const auto t0 = std::chrono::steady_clock::now();
            decide(game, *players[static_cast<std::size_t>(d.seat)], d);
            d.ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0)
                       .count();
            times[d.kind].push_back(d.ms);
            all.push_back(d.ms);
            most_nodes[d.kind] = std::max(most_nodes[d.kind], d.nodes);
            if (d.ms > worst.ms) worst = d;
            if (d.nodes > heaviest.nodes) heaviest = d;
            if (d.over_budget > 0) ++cut_decisions;
            cut_worlds += d.over_budget;
            alone_worlds += d.played_alone;
        }
    }
    const double secs =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::cout << fmt::format("{} {} players, {} hands, bots {}\n", game_name(rules.game),
                             rules.players, run.hands, run.spec);
    std::cout << fmt::format("{:<24}{:>8}{:>10}{:>10}{:>10}{:>10}{:>12}\n", "decision (ms)",
                             "count", "median", "90%", "99%", "worst", "most nodes");
    for (const auto& [kind, v] : times) print_row(kind, v, most_nodes[kind]);
    print_row("all decisions", all, heaviest.nodes);
    std::cout << fmt::format(
        "decisions with a world over its node budget: {} ({} worlds valued by later solves, {} "
        "by play-outs alone)\n",
        cut_decisions, cut_worlds - alone_worlds, alone_worlds);
    print_position("worst decision", worst, rules, run);
    if (heaviest.nodes > 0 && heaviest.nodes != worst.nodes)
        print_position("most nodes", heaviest, rules, run);
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    std::cout << fmt::format("decisions/s {:.2f}, peak resident memory {} MiB\n",
                             static_cast<double>(all.size()) / secs, usage.ru_maxrss / 1024);
    return 0;
}

}  // namespace apps
