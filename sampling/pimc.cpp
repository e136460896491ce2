#include "sampling/pimc.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <boost/random/mersenne_twister.hpp>
#include <chrono>
#include <limits>

#include "cardgames/cards/error.hpp"
#include "cardgames/players/rule_bot.hpp"
#include "engine/search.hpp"
#include "sampling/deal_sampler.hpp"
#include "sampling/inference.hpp"
#include "sampling/parallel.hpp"
#include "sampling/playout.hpp"

namespace sampling {

using namespace cardgames;

PimcOptions PimcOptions::from_spec(const BotSpec& spec) {
    spec.check_known({"worlds", "algo", "tables", "depth", "nodes", "exact", "threads", "agg",
                      "utility", "rollouts", "infer", "ms", "eval", "pass", "bid"});
    PimcOptions o;
    // The ranges (README): far beyond any useful setting, and small enough for every count and
    // product the bot forms from them.
    constexpr int kMaxWorlds = 100'000;
    o.worlds = spec.get_int("worlds", o.worlds, 1, kMaxWorlds);
    const std::string algo = spec.get_string("algo", "speculative");
    const auto a = engine::parse_algorithm(algo);
    if (!a || !engine::is_maxn_family(*a))
        throw InputError("bot spec '" + spec.text + "': algo=" + algo +
                         " is not one of maxn, shallow, bnb, lastbranch, speculative");
    o.algorithm = *a;
    o.tables = spec.get_bool("tables", o.tables);
    o.depth = spec.get_int("depth", o.depth, 0, kMaxTricks);
    o.nodes = static_cast<std::uint64_t>(
        spec.get_int("nodes", static_cast<int>(o.nodes), 1, std::numeric_limits<int>::max()));
    o.exact_tricks = spec.get_int("exact", o.exact_tricks, 0, kMaxTricks);
    o.threads = spec.get_int("threads", o.threads, 0, kMaxBotThreads);
    const std::string agg = spec.get_string("agg", "mean");
    if (agg != "mean" && agg != "vote")
        throw InputError("bot spec '" + spec.text + "': agg=" + agg + " is not mean or vote");
    o.vote = agg == "vote";
    const std::string utility = spec.get_string("utility", "score");
    if (utility != "score" && utility != "tricks")
        throw InputError("bot spec '" + spec.text + "': utility=" + utility +
                         " is not score or tricks (Spades; Hearts always uses points)");
    o.score_utility = utility == "score";
    const std::string eval = spec.get_string("eval", "rollout");
    if (eval != "rollout" && eval != "search")
        throw InputError("bot spec '" + spec.text + "': eval=" + eval +
                         " is not rollout or search");
    o.rollout = eval == "rollout";
    auto rule_or_search = [&](const char* key, const char* fallback,
                              bool with_auto) -> std::optional<bool> {
        const std::string v = spec.get_string(key, fallback);
        if (with_auto && v == "auto") return std::nullopt;
        if (v != "rule" && v != "search")
            throw InputError("bot spec '" + spec.text + "': " + key + "=" + v + " is not rule" +
                             (with_auto ? ", search or auto" : " or search"));
        return v == "rule";
    };
    o.rule_pass = *rule_or_search("pass", "search", false);
    o.rule_bid = rule_or_search("bid", "auto", true);
    o.rollouts = spec.get_int("rollouts", o.rollouts, 1, kMaxWorlds);
    o.infer = spec.get_bool("infer", o.infer);
    o.ms = spec.get_int("ms", o.ms, 0, kMaxBotMs);
    return o;
}

PimcBot::PimcBot(const PimcOptions& options, std::uint64_t seed)
    : options_(options), seed_(seed), arena_(std::make_unique<DecisionArena>(options.threads)) {}

PimcBot::~PimcBot() = default;

std::uint64_t PimcBot::decision_seed(const InfoState& info, seeds::DecisionKind kind) const {
    return seeds::decision(seed_, info.hand_number, info.plays.size(), kind);
}

std::array<CardSet, kMaxPlayers> taken_cards(const InfoState& info) {
    std::array<CardSet, kMaxPlayers> taken{};
    if (info.plays.empty()) return taken;
    const PlayRules pr = PlayRules::from(*info.rules);
    PlayState s;
    s.players = static_cast<std::int8_t>(info.players());
    s.leader = s.to_move = info.plays.front().seat;
    CardSet trick;
    for (const PlayedCard& p : info.plays) {
        s.hands[p.seat] |= p.card;
        trick |= p.card;
        const int winner = s.play(pr, p.card);
        if (winner >= 0) {
            taken[winner] |= trick;
            trick = CardSet();
        }
    }
    return taken;
}

namespace {

// One world's verdict: the utility each representative card leads to, for the deciding seat.
struct WorldResult {
    std::array<double, 64> value{};  // by card index; only legal cards are filled in
    std::array<double, 64> shown{};  // the same value as TrickGame::report gives it
    std::array<bool, 64> optimal{};
    std::uint64_t expansions = 0;
    int thread_slot = -1;  // the TBB thread that searched it
};

int exact_threshold(const PimcOptions& o, int players) {
    if (o.exact_tricks > 0) return o.exact_tricks;
    // Exact search from here on stays well inside the node budget (`cardgames bench`).
    return players >= 5 ? 4 : (players == 4 ? 5 : 6);
}

// Tricks left at which a play-out hands over to the exact search. Later than the root search does
// where exact solves are dear (measured with `cardgames bench --pimc`): with three players
// six-trick solves in every play-out, and in 4-player cutthroat Spades (four separate scores)
// five-trick ones, cost up to a second per decision.
int rollout_solve_at(const PimcOptions& o, const Rules& rules) {
    if (o.exact_tricks > 0) return o.exact_tricks;
    const bool dear =
        rules.game == GameKind::kSpades && !rules.is_partnership() && rules.players == 4;
    return std::min(exact_threshold(o, rules.players), dear ? 4 : 5);
}

}  // namespace

PimcAnalysis PimcBot::analyze(const InfoState& info) {
    PimcAnalysis out;
    const Rules& rules = *info.rules;
    const CardSet legal = info.legal_cards();
    for (Suit s : kSuitsNotationOrder)
        for (Rank r = kAce; r >= kTwo; --r)
            if (legal.contains(Card(s, r))) out.cards.push_back({Card(s, r), 0, 0});
    if (legal.size() == 1) {
        out.best = legal.lowest();
        return out;
    }
    out.searched = true;
    const Constraints constraints = constraints_from(info);
    const DealSampler sampler(constraints);  // throws Contradiction when the state is impossible
    const int me = info.seat;
    const Utility utility = rules.game == GameKind::kHearts
                                ? Utility::kPoints
                                : (options_.score_utility ? Utility::kScore : Utility::kTricks);
    const auto taken = taken_cards(info);
    ScoreContext context;
    context.bids = info.bids;
    for (int s = 0; s < rules.players; ++s)
        context.bags[rules.unit_of(s)] = info.scores.bags[rules.unit_of(s)];
    // Each world is dealt by its own task from its own seed (the sampler is read-only), so the
    // deals do not depend on which thread deals them.
    const std::uint64_t base = decision_seed(info, seeds::DecisionKind::kCard);
    const int worlds = options_.worlds;
    std::vector<double> weights(static_cast<std::size_t>(worlds), 1.0);
    // At its own turn the seat has not played to the trick in progress: one card per trick left.
    const int tricks_left = info.hand.size();
    const bool exact =
        options_.depth == 0 && tricks_left <= exact_threshold(options_, rules.players);
    // Every search of a world runs to the end of the hand, except eval=search before the endgame.
    const bool to_the_end = exact || options_.rollout;
    const int solve_at = rollout_solve_at(options_, rules);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(options_.ms);

    std::vector<WorldResult> results(static_cast<std::size_t>(worlds));
    std::vector<char> done(static_cast<std::size_t>(worlds),
                           0);  // not vector<bool>: tasks write it
    arena_->parallel_for_index(worlds, [&](int w) {
        if (options_.ms > 0 && std::chrono::steady_clock::now() > deadline && w > 0) return;
        boost::random::mt19937_64 rng(seeds::world(base, w));
        const Deal deal = sampler.sample(rng, info.hand);
        if (options_.infer) weights[static_cast<std::size_t>(w)] = world_weight(info, deal);
        PlayState state = info.play;
        state.hands = deal.hands;
        TrickGame game(rules, state, utility, taken, context);
        engine::SearchOptions so;
        so.algorithm = options_.algorithm;
        so.outcome_tables = options_.tables && to_the_end;
        // Endgames (at most 6 tricks) need small tables; a world's tables are allocated and
        // cleared for every world, so their size is paid 64 times per decision.
        so.tt_entries = std::size_t{1} << (to_the_end ? 11 : 14);
        so.outcome_cache_entries = std::size_t{1} << (to_the_end ? 9 : 12);
        engine::Searcher<TrickGame> searcher(so);
        engine::RootAnalysis<Card, TrickGame::kMaxMoves> best;
        std::uint64_t spent = 0;
        WorldResult& r = results[static_cast<std::size_t>(w)];
        if (exact) {
            best = searcher.analyze_root(game);
            spent = best.stats.expansions;
        } else if (options_.rollout) {
            engine::MoveList<Card, TrickGame::kMaxMoves> moves;
            game.legal_moves(moves);
            RuleBot rule;
            for (int i = 0; i < moves.size(); ++i) {
                engine::RootMoveValue<Card> v;
                v.move = moves[i];
                SeatViews views(info);
                v.value =
                    play_out(views, game, moves[i], every_seat(rule), solve_at, &searcher, &spent);
                best.moves.push_back(v);
            }
        } else {
            // Iterative deepening by trick within the node budget: the deepest complete answer.
            const int max_depth = options_.depth > 0 ? options_.depth : tricks_left;
            for (int d = 1; d <= max_depth; ++d) {
                if (spent >= options_.nodes) break;
                searcher.set_depth_limit(d);
                searcher.set_node_limit(options_.nodes - spent);
                const auto a = searcher.analyze_root(game);
                spent += a.stats.expansions;
                if (!a.complete) break;
                best = a;
                if (a.stats.evaluations == 0) break;
            }
            if (best.moves.empty()) {
                // Not even one trick deep within the budget: take the shallowest search whole.
                searcher.set_node_limit(engine::kNoNodeLimit);
                searcher.set_depth_limit(1);
                best = searcher.analyze_root(game);
                spent += best.stats.expansions;
            }
        }
        r.expansions = spent;
        r.thread_slot = current_thread_slot();
        double top = -1e18;
        for (const auto& m : best.moves) top = std::max(top, static_cast<double>(m.value[me]));
        for (Card c : legal) {
            const Card rep = game.representative(c);
            for (const auto& m : best.moves)
                if (m.move == rep) {
                    r.value[c.index()] = m.value[me];
                    const std::vector<int> shown = game.report(m.value);
                    r.shown[c.index()] =
                        shown[utility == Utility::kPoints ? me : rules.unit_of(me)];
                    r.optimal[c.index()] = m.value[me] == top;
                }
        }
        done[static_cast<std::size_t>(w)] = 1;
    });
    // Reduce in world order.
    double total_weight = 0;
    std::vector<int> slots;
    for (int w = 0; w < worlds; ++w) {
        if (!done[static_cast<std::size_t>(w)]) continue;
        const WorldResult& r = results[static_cast<std::size_t>(w)];
        if (std::find(slots.begin(), slots.end(), r.thread_slot) == slots.end())
            slots.push_back(r.thread_slot);
        const double wt = weights[static_cast<std::size_t>(w)];
        total_weight += wt;
        ++out.worlds;
        out.expansions += r.expansions;
        for (CardValue& cv : out.cards) {
            cv.mean += wt * r.value[cv.card.index()];
            cv.expected += wt * r.shown[cv.card.index()];
            cv.votes += r.optimal[cv.card.index()] ? 1 : 0;
        }
    }
    out.threads_used = static_cast<int>(slots.size());
    for (CardValue& cv : out.cards) {
        cv.mean = total_weight > 0 ? cv.mean / total_weight : 0;
        cv.expected = total_weight > 0 ? cv.expected / total_weight : 0;
    }
    // Best: highest mean (or votes, then mean); ties to the first card in card order.
    const CardValue* best = &out.cards.front();
    for (const CardValue& cv : out.cards) {
        const bool better = options_.vote
                                ? (cv.votes > best->votes ||
                                   (cv.votes == best->votes && cv.mean > best->mean + 1e-9))
                                : cv.mean > best->mean + 1e-9;
        if (better) best = &cv;
    }
    out.best = best->card;
    return out;
}

Card PimcBot::play(const InfoState& info) {
    try {
        const auto start = std::chrono::steady_clock::now();
        const PimcAnalysis a = analyze(info);
        if (a.searched && spdlog::should_log(spdlog::level::debug)) {
            const double ms =
                std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
                    .count();
            std::string values;
            for (const CardValue& cv : a.cards)
                values += " " + to_string(cv.card) + "=" + fmt::format("{:.2f}", cv.expected);
            spdlog::debug(
                "pimc seat {} hand {} card {}: plays {} after {} worlds, {} expansions, {:.1f} "
                "ms;{}",
                info.seat, info.hand_number, info.plays.size() + 1, to_string(a.best), a.worlds,
                a.expansions, ms, values);
        }
        return a.best;
    } catch (const Contradiction& e) {
        // Only an impossible information state gets here; any legal card keeps the game going.
        spdlog::warn("pimc seat {}: {}; the rule player chooses this card", info.seat, e.what());
        RuleBot fallback;
        return fallback.play(info);
    }
}

std::unique_ptr<Player> make_player(const std::string& text, std::uint64_t seed) {
    const BotSpec spec = parse_bot_spec(text);
    if (spec.name == "pimc") return std::make_unique<PimcBot>(PimcOptions::from_spec(spec), seed);
    try {
        return cardgames::make_player(text, seed);
    } catch (const InputError& e) {
        if (std::string(e.what()).find("unknown bot") == std::string::npos) throw;
        throw InputError("bot spec '" + text + "': unknown bot '" + spec.name +
                         "' (known: " + known_bot_names() + ")");
    }
}

std::string known_bot_names() {
    return "pimc, " + cardgames::known_bot_names();
}

}  // namespace sampling
