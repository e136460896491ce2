#include "sampling/pimc.hpp"

#include <oneapi/tbb/enumerable_thread_specific.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <boost/random/mersenne_twister.hpp>
#include <chrono>
#include <cmath>
#include <limits>

#include "cardgames/cards/error.hpp"
#include "cardgames/players/rule_bot.hpp"
#include "engine/search.hpp"
#include "sampling/bid_model.hpp"
#include "sampling/cutoff_model.hpp"
#include "sampling/cutoff_net.hpp"
#include "sampling/deal_sampler.hpp"
#include "sampling/inference.hpp"
#include "sampling/ismcts.hpp"
#include "sampling/moon.hpp"
#include "sampling/net_player.hpp"
#include "sampling/parallel.hpp"
#include "sampling/playout.hpp"
#include "sampling/policy.hpp"
#include "sampling/race.hpp"

namespace sampling {

using namespace cardgames;

engine::SearchOptions world_search_options(const PimcOptions& options, bool to_the_end,
                                           bool two_sided) {
    engine::SearchOptions so;
    so.algorithm = two_sided ? engine::Algorithm::kAlphaBeta : options.search.algorithm;
    so.outcome_tables = options.search.tables && to_the_end;
    // Endgames (at most 6 tricks) need small tables; a world's tables are allocated and cleared
    // for every world, so their size is paid 64 times per decision.
    so.tt_entries = std::size_t{1} << (to_the_end ? 11 : 14);
    so.outcome_cache_entries = std::size_t{1} << (to_the_end ? 9 : 12);
    return so;
}

PimcBot::PimcBot(const PimcOptions& options, std::uint64_t seed,
                 std::shared_ptr<models::ModelStore> store)
    : options_(options),
      seed_(seed),
      store_(store ? std::move(store) : std::make_shared<models::ModelStore>()),
      arena_(std::make_unique<DecisionArena>(options.sampling.threads)) {
    // The model files named are read now, so that a bad one stops a command before it starts.
    if (!options_.valuation.playout_model_path.empty())
        load_model<PolicyModel>(*store_, options_.valuation.playout_model_path);
    if (!options_.valuation.cutoff_path.empty())
        load_model<CutoffModel>(*store_, options_.valuation.cutoff_path);
    if (!options_.valuation.cutoff_net_path.empty())
        CutoffNet(store_->network(options_.valuation.cutoff_net_path));
    if (!options_.valuation.playout_net_path.empty())
        store_->network(options_.valuation.playout_net_path, "", "policy");
    if (!options_.bidding.bid_model_path.empty())
        load_bid_model(*store_, options_.bidding.bid_model_path);
    if (!options_.sampling.infer_net_path.empty())
        store_->network(options_.sampling.infer_net_path, "", "policy");
    if (!options_.bidding.bid_net_path.empty())
        store_->network(options_.bidding.bid_net_path, "", "bid");
    if (!options_.bidding.bid_value_net_path.empty())
        store_->network(options_.bidding.bid_value_net_path, "", "bid_value");
    if (!options_.bidding.pass_net_path.empty())
        store_->network(options_.bidding.pass_net_path, "", "pass");
}

PimcBot::~PimcBot() = default;

std::shared_ptr<const SpadesBidModel> PimcBot::bid_model(const Rules& rules) const {
    return bid_model_for(*store_, options_.bidding.bid_model_path, rules);
}

std::string PimcBot::check(const Rules& rules) const {
    if (options_.utility_for(rules) == Utility::kMargin && !rules.is_partnership())
        throw InputError("pimc: utility=margin is for partnership Spades, not " +
                         std::to_string(rules.players) + "-player cutthroat");
    std::string models;
    const std::string& playout_model = options_.valuation.playout_model_path;
    if (options_.uses_policy())
        models += model_for<PolicyModel>(*store_, playout_model, rules)->fingerprint();
    if (options_.valuation.cutoff_model)
        models +=
            model_for<CutoffModel>(*store_, options_.valuation.cutoff_path, rules)->fingerprint();
    if (options_.valuation.cutoff_net)
        models += cutoff_net_for(*store_, options_.valuation.cutoff_net_path, rules)->fingerprint();
    if (!options_.valuation.playout_net_path.empty() && !options_.uses_net(rules))
        throw InputError(
            "pimc: playout_net= names a network for the play-outs, but playout=auto "
            "plays the rule player in " +
            form_name(rules) + " (give playout=net or fit with it)");
    if (options_.valuation.fit_weight < 1 &&
        options_.playout_for(rules) != PimcOptions::Playout::kFit)
        throw InputError(
            "pimc: fit_weight= goes with playout=fit, and playout=auto plays the "
            "rule player in " +
            form_name(rules));
    if (options_.uses_net(rules))
        models += network_fingerprint(
            *playout_net_for(*store_, options_.valuation.playout_net_path, rules));
    if (options_.sampling.infer == PimcOptions::Infer::kPlay)
        models += inference_policy(*store_, playout_model, rules)->fingerprint();
    if (options_.sampling.infer == PimcOptions::Infer::kNet)
        models +=
            network_fingerprint(*playout_net_for(*store_, options_.sampling.infer_net_path, rules));
    if (rules.game == GameKind::kSpades && (options_.blind_nil_by_model(rules) ||
                                            options_.sampling.infer == PimcOptions::Infer::kBids))
        models += bid_model(rules)->fingerprint();
    if (rules.game == GameKind::kSpades && options_.bidding.bid == PimcOptions::Bid::kNet)
        models += network_fingerprint(*bid_net_for(*store_, options_.bidding.bid_net_path, rules));
    if (rules.game == GameKind::kSpades && options_.bidding.bid == PimcOptions::Bid::kValue)
        models += network_fingerprint(
            *bid_value_net_for(*store_, options_.bidding.bid_value_net_path, rules));
    if (rules.game == GameKind::kHearts && options_.bidding.net_pass)
        models +=
            network_fingerprint(*pass_net_for(*store_, options_.bidding.pass_net_path, rules));
    return models;
}

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

using RootValues = engine::RootAnalysis<Card, TrickGame::kMaxMoves>;

// The most ways a world values its cards: self=switch plays each card's play-outs twice, the
// seat's own later cards by the rule player and by the learned policy, and moon=on once more with
// the seat shooting the moon.
constexpr int kMaxContinuations = 3;

// One world's verdict: the utility each representative card leads to, for the deciding seat, once
// per way of playing on (continuation).
struct WorldResult {
    // By continuation, then card index; only legal cards are filled in.
    std::array<std::array<double, 64>, kMaxContinuations> value{};
    std::array<std::array<double, 64>, kMaxContinuations> shown{};   // as TrickGame::report
    std::array<std::array<double, 64>, kMaxContinuations> others{};  // the other sides' shown
    int continuations = 1;
    bool moon = false;  // the last continuation is the seat shooting the moon (moon=on)
    std::array<bool, 64> optimal{};  // the card's best continuation is the world's best value
    std::uint64_t expansions = 0;
    double weight = 1;     // how likely the world is (infer=on), its copies (infer=play), else 1
    unsigned misfits = 0;  // playout=fit: the other seats whose cards do not fit the rule player
    int thread_slot = -1;  // the TBB thread that searched it
    bool done = false;     // false: the time limit (ms) came first
    bool over_budget = false;   // its exact searches ran out of their budget: later solves value it
    bool played_alone = false;  // and so did those: valued by play-outs alone
};

int exact_threshold(const PimcOptions& o, int players) {
    if (o.search.exact_tricks > 0) return o.search.exact_tricks;
    // Exact search from here on stays well inside the node budget (`cardgames bench`). With six
    // seats four-trick solves are not: up to 1.7 s a decision at the root and 3 s in the play-outs
    // (`cardgames bench --pimc --preset hearts6 --hands 40 --seed 2`, and `--hands 10 --seed 1`).
    return players >= 6 ? 3 : (players == 5 ? 4 : (players == 4 ? 5 : 6));
}

// Whether `seat` bid nil (or blind nil) and has taken no trick yet.
bool nil_stands(const InfoState& info, int seat) {
    const std::size_t i = static_cast<std::size_t>(seat);
    return info.rules->game == GameKind::kSpades &&
           info.bids[i].nil_stands(info.play.tricks_won[i]);
}

// The seats other than info's own whose nil stands, a bit each.
unsigned others_standing_nils(const InfoState& info) {
    unsigned seats = 0;
    for (int s = 0; s < info.rules->players; ++s)
        if (s != info.seat && nil_stands(info, s)) seats |= 1u << s;
    return seats;
}

// Whether the seat's own nil or its partner's stands.
bool own_nil_stands(const InfoState& info) {
    return nil_stands(info, info.seat) || (info.partner() >= 0 && nil_stands(info, info.partner()));
}

// Tricks left at which a play-out hands over to the exact search. Later than the root search does
// where exact solves are dear (measured with `cardgames bench --pimc`): with three players
// six-trick solves in every play-out cost up to a second per decision, and five-trick ones do in
// 4-player cutthroat Spades (four separate scores) and in a partnership hand where a seat bid nil
// (up to 2.7 s, against 0.3 s in hands without a nil).
int rollout_solve_at(const PimcOptions& o, const InfoState& info) {
    const Rules& rules = *info.rules;
    if (o.search.nil_playouts_to_end) {
        for (int s = 0; s < rules.players; ++s)
            if (nil_stands(info, s)) return 0;
    }
    if (o.search.exact_tricks > 0) return o.search.exact_tricks;
    const bool spades = rules.game == GameKind::kSpades;
    const bool nil_bid = std::any_of(info.bids.begin(), info.bids.begin() + rules.players,
                                     [](const Bid& b) { return b.is_nil(); });
    const bool dear = spades && rules.players == 4 && (!rules.is_partnership() || nil_bid);
    return std::min(exact_threshold(o, rules.players), dear ? 4 : 5);
}

// Every legal card in card order, not valued yet.
std::vector<CardValue> legal_cards_in_order(CardSet legal) {
    std::vector<CardValue> cards;
    for (Suit s : kSuitsNotationOrder)
        for (Rank r = kAce; r >= kTwo; --r)
            if (legal.contains(Card(s, r))) cards.push_back({Card(s, r), 0, 0});
    return cards;
}

// Values the legal cards of one decision in one world (a deal of every hand). Holds what all the
// worlds of the decision share; read-only, so the worlds' tasks share one.
// The cut-off evaluation that options name (the learned model or the network), or none.
std::shared_ptr<const CutoffEvaluator> cutoff_evaluator(models::ModelStore& store,
                                                        const PimcOptions& options,
                                                        const Rules& rules) {
    if (options.valuation.cutoff_model)
        return model_for<CutoffModel>(store, options.valuation.cutoff_path, rules);
    if (options.valuation.cutoff_net)
        return cutoff_net_for(store, options.valuation.cutoff_net_path, rules);
    return nullptr;
}

class WorldValuer {
  public:
    // `budget`: the expansions the world's searches may spend together (0: no limit).
    // The cut-off model comes from `store`.
    WorldValuer(const PimcOptions& options, const InfoState& info,
                std::shared_ptr<const PolicyModel> model,
                std::shared_ptr<const models::Network> net, models::ModelStore& store,
                std::uint64_t budget)
        : options_(options),
          budget_(budget),
          model_(std::move(model)),
          net_players_(std::move(net)),
          info_(info),
          rules_(*info.rules),
          legal_(info.legal_cards()),
          utility_(options.utility_for(rules_)),
          two_sided_(utility_ == Utility::kMargin),
          taken_(taken_cards(info)),
          context_(score_context(info, options.bag_value(info))),
          // At its own turn the seat has not played to the trick in progress: one card per trick
          // left.
          tricks_left_(info.hand.size()),
          exact_(options.search.depth == 0 &&
                 tricks_left_ <= exact_threshold(options, rules_.players)),
          // Every search of a world runs to the end of the hand, except eval=search before the
          // endgame.
          to_the_end_(exact_ || options.valuation.eval == PimcOptions::Eval::kPlayout),
          solve_at_(rollout_solve_at(options, info)),
          moon_(options.moon_for(rules_) && moon_open(info, taken_)),
          nil_rule_(options.search.nil_bidder_rule ? others_standing_nils(info) : 0u),
          cutoff_(cutoff_evaluator(store, options, rules_)),
          fit_(options.playout_for(rules_) == PimcOptions::Playout::kFit
                   ? std::make_optional<RuleFit>(info)
                   : std::nullopt) {
        // Every world starts at this point of the hand: its outcomes are scored once, here.
        if (scored_with_bids(utility_)) {
            TrickCounts won{};
            for (int p = 0; p < rules_.players; ++p) won[p] = info.play.tricks_won[p];
            context_.outcomes = std::make_shared<const SpadesOutcomes>(rules_, context_, won,
                                                                       tricks_left_, two_sided_);
        }
    }

    // `later`: the world skips the exact searches and is valued as one over its budget is
    // (pilot=).
    WorldResult value(const Deal& deal, bool later = false) const {
        WorldFit fit{fit_ ? &*fit_ : nullptr, &deal, std::nullopt};
        WorldResult r = valued(deal, fit, later);
        if (fit_ && options_.valuation.fit_weight < 1) r.misfits = fit.misfits();
        return r;
    }

  private:
    // playout=fit: the seats whose cards do not fit the rule player in a world, found once, when
    // first asked (an exact endgame within its budget plays nothing out).
    struct WorldFit {
        const RuleFit* fit = nullptr;  // null: not playout=fit
        const Deal* deal = nullptr;
        std::optional<unsigned> found;
        unsigned misfits() {
            if (!found) found = fit ? fit->misfits(*deal) : 0u;
            return *found;
        }
    };

    // What is left of a world's node budget for its play-outs' solves.
    struct Budget {
        std::uint64_t left = 0;
        bool limited = false;  // false: no limit
        bool exhausted = false;
    };

    // The world's cards valued.
    WorldResult valued(const Deal& deal, WorldFit& fit, bool later) const {
        PlayState state = info_.play;
        state.hands = deal.hands;
        TrickGame game(rules_, state, utility_, taken_, context_);
        if (cutoff_ && !to_the_end_) game.set_cutoff(cutoff_.get());
        game.set_nil_rule(nil_rule_);
        WorldResult r;
        if (settled(game, r)) return r;
        if (later && budget_ > 0 &&
            (exact_ || options_.valuation.eval != PimcOptions::Eval::kSearch))
            return played_out(game, 0, fit);
        engine::Searcher<TrickGame> searcher(
            world_search_options(options_, to_the_end_, two_sided_));
        if (!exact_ && options_.valuation.eval == PimcOptions::Eval::kSearch) {
            add_card_values(game, deepening_values(game, searcher), 0, r);
        } else if (exact_) {
            if (budget_ > 0) searcher.set_node_limit(first_share());
            const RootValues root = searcher.analyze_root(game);
            if (!root.complete) return played_out(game, root.stats.expansions, fit);
            add_card_values(game, root, 0, r);
        } else {
            Budget left{first_share(), budget_ > 0};
            r = continuations(game, &searcher, left, solve_at_, fit);
            if (left.exhausted) return played_out(game, r.expansions, fit);
        }
        mark_optimal(r);
        return r;
    }

    // Every way the world plays on after each card (the seats' players, then self=switch's and
    // the moon's), the engine solving the last `solve_at` tricks when `searcher` is given, within
    // `budget`; with playout=fit the other seats whose cards fit the rule player play it.
    WorldResult continuations(TrickGame& game, engine::Searcher<TrickGame>* searcher,
                              Budget& budget, int solve_at, WorldFit& fit) const {
        WorldResult r;
        // The continuations share the searcher: its tables hold exact endgame values.
        RuleBot rule_bot;
        PolicyBot policy_bot(model_);
        const PimcOptions::Playout playout = options_.playout_for(rules_);
        Player& every =
            playout == PimcOptions::Playout::kModel ? static_cast<Player&>(policy_bot)
            : playout == PimcOptions::Playout::kNet || playout == PimcOptions::Playout::kFit
                ? static_cast<Player&>(net_players_.local())
                : rule_bot;
        Seats seats = every_seat(every);
        if (fit_)
            for (int s = 0; s < rules_.players; ++s)
                if (s != info_.seat && !(fit.misfits() & (1u << s))) seats[s] = &rule_bot;
        if (options_.valuation.self == PimcOptions::Self::kModel) seats[info_.seat] = &policy_bot;
        if (options_.valuation.self == PimcOptions::Self::kRule) seats[info_.seat] = &rule_bot;
        if (options_.valuation.self == PimcOptions::Self::kNet)
            seats[info_.seat] = &net_players_.local();
        add_card_values(game, rollout_values(game, searcher, seats, budget, solve_at), 0, r);
        if (options_.valuation.self == PimcOptions::Self::kSwitch) {
            seats[info_.seat] = &policy_bot;
            add_card_values(game, rollout_values(game, searcher, seats, budget, solve_at), 1, r);
        }
        if (moon_) {
            MoonShooter shooter;
            seats[info_.seat] = &shooter;
            add_card_values(game, rollout_values(game, searcher, seats, budget, solve_at),
                            r.continuations, r);
            r.moon = true;
        }
        return r;
    }

    // The world's exact searches may spend three quarters of its budget; played_out the rest.
    std::uint64_t first_share() const { return budget_ - budget_ / 4; }

    // A world whose exact searches ran out of their part of its budget (`spent` expansions):
    // every card valued by play-outs that hand over to the exact search two tricks later, within
    // the rest of the budget (solves that much shorter are far cheaper); if those run out too, or
    // the hand-over would come at one trick left, by the play-outs alone, each played to the last
    // card with no solve. Either way all the world's cards are valued alike.
    WorldResult played_out(TrickGame& game, std::uint64_t spent, WorldFit& fit) const {
        const int later = std::min(solve_at_, tricks_left_) - 2;
        const std::uint64_t rest = budget_ - std::min(spent, budget_);
        if (later >= 2 && rest > 0) {
            engine::Searcher<TrickGame> searcher(world_search_options(options_, true, two_sided_));
            Budget left{rest, true};
            WorldResult r = continuations(game, &searcher, left, later, fit);
            if (!left.exhausted) return over_budget(r, spent);
            spent += r.expansions;
        }
        Budget none;
        WorldResult r = over_budget(continuations(game, nullptr, none, solve_at_, fit), spent);
        r.played_alone = true;
        return r;
    }

    WorldResult over_budget(WorldResult r, std::uint64_t spent) const {
        r.expansions += spent;
        r.over_budget = true;
        mark_optimal(r);
        return r;
    }

    // A world whose outcome no card can change (its bounds are exact: every penalty card taken,
    // or a moon made): every card gets that value, no search.
    bool settled(const TrickGame& game, WorldResult& r) const {
        engine::Tuple lo, hi;
        game.bounds(lo, hi);
        if (lo != hi) return false;
        RootValues root;
        engine::MoveList<Card, TrickGame::kMaxMoves> moves;
        game.legal_moves(moves);
        for (const Card m : moves) root.moves.push_back({m, lo, lo[info_.seat]});
        root.stats.expansions = 0;
        add_card_values(game, root, 0, r);
        mark_optimal(r);
        return true;
    }

    // Each move played out by `seats`, `searcher` (if any) solving the last `solve_at` tricks
    // within `budget`; once it runs out the budget is exhausted and later play-outs go unsolved.
    RootValues rollout_values(TrickGame& game, engine::Searcher<TrickGame>* searcher,
                              const Seats& seats, Budget& budget, int solve_at) const {
        RootValues values;
        std::uint64_t spent = 0;
        engine::MoveList<Card, TrickGame::kMaxMoves> moves;
        game.legal_moves(moves);
        for (int i = 0; i < moves.size(); ++i) {
            engine::RootMoveValue<Card> v;
            v.move = moves[i];
            SeatViews views(info_);
            engine::Searcher<TrickGame>* solver = budget.exhausted ? nullptr : searcher;
            if (solver && budget.limited) solver->set_node_limit(budget.left);
            std::uint64_t used = 0;
            v.value = play_out(views, game, moves[i], seats, solve_at, solver, &used);
            spent += used;
            if (solver && budget.limited) {
                // A solve that used all that was left may have been cut short (play_out then
                // plays on): the budget counts as exhausted either way.
                budget.exhausted = used >= budget.left;
                budget.left -= std::min(used, budget.left);
            }
            values.moves.push_back(v);
        }
        values.stats.expansions = spent;
        return values;
    }

    // eval=search: iterative deepening by trick within the node budget, the deepest complete
    // answer.
    RootValues deepening_values(TrickGame& game, engine::Searcher<TrickGame>& searcher) const {
        const int max_depth = options_.search.depth > 0 ? options_.search.depth : tricks_left_;
        searcher.set_node_limit(options_.search.nodes);
        const RootValues deepest = engine::iterative_deepening_root(searcher, game, max_depth);
        if (deepest.complete) return deepest;
        // Not even one trick deep within the budget: take the shallowest search whole.
        searcher.set_node_limit(engine::kNoNodeLimit);
        searcher.set_depth_limit(1);
        RootValues shallowest = searcher.analyze_root(game);
        shallowest.stats += deepest.stats;
        return shallowest;
    }

    // Each legal card gets the value of its representative (the move the search valued), as
    // continuation k of `r`.
    void add_card_values(const TrickGame& game, const RootValues& root, int k,
                         WorldResult& r) const {
        r.continuations = k + 1;
        r.expansions += root.stats.expansions;
        for (Card c : legal_) {
            const Card rep = game.representative(c);
            for (const auto& m : root.moves)
                if (m.move == rep) {
                    const SeatValue v =
                        seat_value(rules_, game, m.value, info_.seat, options_.margin(rules_));
                    r.value[k][c.index()] = v.value;
                    r.shown[k][c.index()] = v.shown;
                    r.others[k][c.index()] = v.others;
                }
        }
    }

    // A card is optimal in the world when its best continuation reaches the world's best value.
    void mark_optimal(WorldResult& r) const {
        auto best = [&](Card c) {
            double v = r.value[0][c.index()];
            for (int k = 1; k < r.continuations; ++k) v = std::max(v, r.value[k][c.index()]);
            return v;
        };
        double top = -1e18;
        for (Card c : legal_) top = std::max(top, best(c));
        for (Card c : legal_) r.optimal[c.index()] = best(c) == top;
    }

    const PimcOptions& options_;
    std::uint64_t budget_;                      // the world's node budget (0: no limit)
    std::shared_ptr<const PolicyModel> model_;  // null: the rule player plays the play-outs
    // playout=net: each thread's player of the network (made on a thread's first world), so that
    // its accumulators are allocated once and follow a play-out card by card.
    mutable tbb::enumerable_thread_specific<NetPlayer> net_players_;
    const InfoState& info_;
    const Rules& rules_;
    CardSet legal_;
    Utility utility_;
    bool two_sided_;  // partnership Spades by its margin: alphabeta searches it
    std::array<CardSet, kMaxPlayers> taken_;
    ScoreContext context_;
    int tricks_left_;
    bool exact_;
    bool to_the_end_;
    int solve_at_;
    bool moon_;          // moon=on and the seat could still shoot: a continuation with it shooting
    unsigned nil_rule_;  // nil_bidder=rule: the other seats whose nil stands (TrickGame)
    // null: the horizon shares what is left evenly
    std::shared_ptr<const CutoffEvaluator> cutoff_;
    std::optional<RuleFit> fit_;  // playout=fit
};

// The learned play-out policy when the play-outs use it (playout=model, or self=model or switch
// for the seat's own cards), else none: the rule player.
std::shared_ptr<const PolicyModel> playout_model(const PimcOptions& options, const InfoState& info,
                                                 models::ModelStore& store) {
    return options.card_playouts_use_policy()
               ? model_for<PolicyModel>(store, options.valuation.playout_model_path, *info.rules)
               : nullptr;
}

// The policy network when some seat of the card play-outs plays it (playout=net or self=net),
// else none.
std::shared_ptr<const models::Network> playout_net(const PimcOptions& options,
                                                   const InfoState& info,
                                                   models::ModelStore& store) {
    return options.card_playouts_use_net(*info.rules)
               ? playout_net_for(store, options.valuation.playout_net_path, *info.rules)
               : nullptr;
}

// infer=play deals this many times `worlds` worlds, weighs them all and values `worlds` drawn from
// them by weight. Weighting the `worlds` worlds themselves degenerates once the plays are many: a
// handful of worlds carry nearly all the weight and the rest, each valued at full cost, count for
// nothing (in 4-player Hearts a pool of 256 was worth a median of 85 equally weighted worlds, so
// 64 weighted directly are worth about 21). Drawn from the pool, the valued worlds are as many
// likely ones as it holds, and a world drawn k times is valued once with weight k. Dealing and
// weighing the pool costs well under a millisecond at the defaults, next to the play-outs' 5 to
// 20 ms a decision (docs/results/2026-11-25-inference-from-play.md).
constexpr int kInferPool = 4;

// A world to value and its weight.
struct WeightedWorld {
    Deal deal;
    double weight = 1;
};

// infer=play and net: the pool's worlds (world w dealt from the decision's seed as infer=off deals
// it), weighted by how likely they make the bids, passes and plays seen, then `worlds` of them
// drawn by systematic resampling, in pool order. When every weight is the same (nothing seen that
// tells worlds apart) the draw is the first `worlds` worlds, infer=off's own.
std::vector<WeightedWorld> drawn_worlds(const InfoState& info, const PimcOptions& options,
                                        std::uint64_t base, const DealSampler& sampler,
                                        DecisionArena& arena, models::ModelStore& store) {
    const PlayLikelihood likelihood =
        options.sampling.infer == PimcOptions::Infer::kNet
            ? PlayLikelihood(info,
                             playout_net_for(store, options.sampling.infer_net_path, *info.rules))
            : PlayLikelihood(
                  info, inference_policy(store, options.valuation.playout_model_path, *info.rules));
    const int pool = kInferPool * options.sampling.worlds;
    std::vector<Deal> deals(static_cast<std::size_t>(pool));
    std::vector<double> log_weight(static_cast<std::size_t>(pool));
    arena.parallel_for_index(pool, [&](int w) {
        boost::random::mt19937_64 rng(seeds::world(base, w));
        const std::size_t i = static_cast<std::size_t>(w);
        deals[i] = sampler.sample(rng, info.hand);
        log_weight[i] = std::log(world_weight(info, deals[i]));
    });
    const std::vector<double> plays = likelihood.of(deals, arena);
    for (std::size_t i = 0; i < log_weight.size(); ++i) log_weight[i] += plays[i];
    std::vector<WeightedWorld> out;
    const auto [low, high] = std::minmax_element(log_weight.begin(), log_weight.end());
    if (*low == *high) {
        for (int w = 0; w < options.sampling.worlds; ++w)
            out.push_back({deals[static_cast<std::size_t>(w)]});
        return out;
    }
    std::vector<double> weight(log_weight.size());
    for (std::size_t i = 0; i < weight.size(); ++i) weight[i] = std::exp(log_weight[i] - *high);
    const double u = static_cast<double>(seeds::resample(base) >> 11) * 0x1.0p-53;
    const std::vector<int> copies = systematic_resample(weight, options.sampling.worlds, u);
    for (std::size_t i = 0; i < copies.size(); ++i)
        if (copies[i] > 0) out.push_back({deals[i], static_cast<double>(copies[i])});
    if (spdlog::should_log(spdlog::level::debug)) {
        // The pool's effective sample size, (sum w)^2 / sum w^2: how many equally weighted worlds
        // it is worth.
        double sum = 0, squares = 0;
        for (double w : weight) {
            sum += w;
            squares += w * w;
        }
        spdlog::debug("pimc seat {} infer=play: {} worlds worth {:.1f}, {} drawn, {} distinct",
                      info.seat, pool, sum * sum / squares, options.sampling.worlds, out.size());
    }
    return out;
}

// playout=fit, fit_weight: the worlds done weighed by how the seats' cards fit the rule player
// (fit_factors).
void weigh_by_fit(std::vector<WorldResult>& worlds, int seat, double fit_weight) {
    std::vector<unsigned> misfits;
    // A world the time limit cut off counts in no mean; caught everywhere, it fits no seat.
    for (const WorldResult& r : worlds) misfits.push_back(r.done ? r.misfits : ~0u);
    const std::vector<double> factors = fit_factors(misfits, seat, fit_weight);
    for (std::size_t w = 0; w < worlds.size(); ++w) worlds[w].weight *= factors[w];
}

// What every round of a decision's worlds shares, built once a decision: the deal sampler, the
// drawn worlds of infer=play and net, the world valuer with its models, and infer=bids' model.
class WorldRounds {
  public:
    WorldRounds(const InfoState& info, const PimcOptions& options, std::uint64_t base,
                DecisionArena& arena, models::ModelStore& store)
        : info_(info),
          options_(options),
          base_(base),
          arena_(arena),
          // Throws Contradiction when the state is impossible.
          sampler_(constraints_from(info)),
          rotation_(options.sampling.rotate ? std::optional<HandRotation>(sampler_.constraints())
                                            : std::nullopt),
          drawn_(options.sampling.infers_from_plays()
                     ? drawn_worlds(info, options, base, sampler_, arena, store)
                     : std::vector<WeightedWorld>()),
          count_(options.sampling.infers_from_plays() ? static_cast<int>(drawn_.size())
                                                      : options.sampling.worlds),
          valuer_(options, info, playout_model(options, info, store),
                  playout_net(options, info, store), store, options.search.world_budget(count_)),
          bids_model_(options.sampling.infer == PimcOptions::Infer::kBids &&
                              info.rules->game == GameKind::kSpades
                          ? bid_model_for(store, options.bidding.bid_model_path, *info.rules)
                          : nullptr) {}

    // Deals the round of worlds from number `first` on and values the legal cards in each,
    // farmed over the arena; a world the time limit cut off is left not done. Each world has a
    // round's share of the node budget.
    // With pilot=, the first round's first worlds are valued before the others, which skip the
    // exact searches when most of the pilot's ran over their budget (later_after_pilot).
    std::vector<WorldResult> value(int first, const Deadline& deadline) const {
        std::vector<WorldResult> results(static_cast<std::size_t>(count_));
        const int pilot = first == 0 ? std::min(options_.search.pilot, count_) : 0;
        value_worlds(results, first, 0, pilot, false, deadline);
        value_worlds(results, first, pilot, count_, later_after_pilot(results, pilot), deadline);
        return results;
    }

  private:
    // Values the round's worlds `from` to `to` (later: skipping the exact searches), farmed over
    // the arena. Each world is dealt by its own task from its own seed (the sampler is
    // read-only), so the deals do not depend on which thread deals them.
    void value_worlds(std::vector<WorldResult>& results, int first, int from, int to, bool later,
                      const Deadline& deadline) const {
        arena_.parallel_for_index(to - from, [&](int i) {
            const int w = from + i;
            if (deadline.passed() && first + w > 0) return;
            const WeightedWorld world = dealt(first + w, w);
            WorldResult& r = results[static_cast<std::size_t>(w)];
            r = valuer_.value(world.deal, later);
            r.weight = world.weight;
            r.thread_slot = current_thread_slot();
            r.done = true;
        });
    }

    // Whether more than half of the `pilot` worlds done ran over their budget: the decision's
    // other worlds would mostly waste three quarters of theirs on exact searches that stop short.
    static bool later_after_pilot(const std::vector<WorldResult>& results, int pilot) {
        int done = 0, over = 0;
        for (int w = 0; w < pilot; ++w) {
            const WorldResult& r = results[static_cast<std::size_t>(w)];
            done += r.done ? 1 : 0;
            over += r.done && r.over_budget ? 1 : 0;
        }
        return 2 * over > done;
    }

    // World `number` of the decision, the round's `w`th, with its weight.
    WeightedWorld dealt(int number, int w) const {
        if (options_.sampling.infers_from_plays()) return drawn_[static_cast<std::size_t>(w)];
        WeightedWorld world;
        // rotate=on: world `number` is its set's first world turned; every set is dealt from the
        // seed its first world would have had.
        const int period = rotation_ ? rotation_->period() : 1;
        const int first = number - number % period;
        boost::random::mt19937_64 rng(seeds::world(base_, first));
        world.deal = sampler_.sample(rng, info_.hand);
        if (number != first) world.deal = rotation_->turned(world.deal, number - first);
        if (bids_model_)
            world.weight = bid_model_weight(*bids_model_, info_, world.deal);
        else if (options_.sampling.infer != PimcOptions::Infer::kOff)
            world.weight = world_weight(info_, world.deal);
        return world;
    }

    const InfoState& info_;
    const PimcOptions& options_;
    std::uint64_t base_;
    DecisionArena& arena_;
    DealSampler sampler_;
    std::optional<HandRotation> rotation_;
    std::vector<WeightedWorld> drawn_;
    int count_;
    WorldValuer valuer_;
    std::shared_ptr<const SpadesBidModel> bids_model_;
};

// Whether the moon continuation of card `c` gains over the rule player's (continuation 0) by
// more than kClearMargin standard errors of their paired difference over the worlds done. Its
// values are all or nothing (no points, or many), so over 64 worlds its mean often leads by luck,
// and a lead taken by luck is a moon tried and failed.
bool moon_clear(const std::vector<WorldResult>& worlds, int c) {
    CandidateValues values(2);
    for (const WorldResult& r : worlds) {
        if (!r.done) continue;
        values[0].push_back(r.value[0][c]);
        values[1].push_back(r.value[static_cast<std::size_t>(r.continuations - 1)][c]);
    }
    const Gain g = gain_over_first(values, 1);
    return g.mean > kClearMargin * g.se;
}

// The weighted means of the cards over the worlds done, reduced in world order. Where the worlds
// value each card by more than one continuation (self=switch, moon=on), a card takes the
// continuation of highest mean, the first on a tie (the moon's only where it is clear:
// moon_clear): the seat picks how it will play on once for all worlds, as it will have to without
// knowing which world is true.
PimcAnalysis aggregate(std::vector<CardValue> cards, const std::vector<WorldResult>& worlds) {
    PimcAnalysis out;
    out.cards = std::move(cards);
    out.searched = true;
    double total_weight = 0;
    std::vector<int> slots;
    int continuations = 1;
    bool moon = false;
    std::vector<std::array<double, kMaxContinuations>> mean(out.cards.size()), shown(mean.size()),
        others(mean.size());
    for (const WorldResult& r : worlds) {
        if (!r.done) continue;
        if (std::find(slots.begin(), slots.end(), r.thread_slot) == slots.end())
            slots.push_back(r.thread_slot);
        total_weight += r.weight;
        ++out.worlds;
        out.expansions += r.expansions;
        out.over_budget += r.over_budget ? 1 : 0;
        out.played_alone += r.played_alone ? 1 : 0;
        continuations = r.continuations;
        moon = r.moon;
        for (std::size_t i = 0; i < out.cards.size(); ++i) {
            const int c = out.cards[i].card.index();
            for (int k = 0; k < r.continuations; ++k) {
                mean[i][k] += r.weight * r.value[k][c];
                shown[i][k] += r.weight * r.shown[k][c];
                others[i][k] += r.weight * r.others[k][c];
            }
            out.cards[i].votes += r.optimal[c] ? 1 : 0;
        }
    }
    out.threads_used = static_cast<int>(slots.size());
    if (total_weight <= 0) return out;
    for (std::size_t i = 0; i < out.cards.size(); ++i) {
        const int usable = moon && !moon_clear(worlds, out.cards[i].card.index())
                               ? continuations - 1
                               : continuations;
        int best = 0;
        for (int k = 1; k < usable; ++k)
            if (mean[i][k] > mean[i][best] + 1e-9 * total_weight) best = k;
        out.cards[i].mean = mean[i][best] / total_weight;
        out.cards[i].expected = shown[i][best] / total_weight;
        out.cards[i].others = others[i][best] / total_weight;
    }
    return out;
}

// Whether the card of best mean leads the next best by more than kClearMargin standard errors of
// their paired difference over the worlds done (the first continuation's values).
bool clear_choice(const std::vector<CardValue>& cards, const std::vector<WorldResult>& worlds) {
    const PimcAnalysis a = aggregate(cards, worlds);
    std::size_t best = 0, second = 1;
    if (a.cards[second].mean > a.cards[best].mean) std::swap(best, second);
    for (std::size_t i = 2; i < a.cards.size(); ++i) {
        if (a.cards[i].mean > a.cards[best].mean) {
            second = best;
            best = i;
        } else if (a.cards[i].mean > a.cards[second].mean) {
            second = i;
        }
    }
    CandidateValues values(2);
    for (const WorldResult& r : worlds) {
        if (!r.done) continue;
        values[0].push_back(r.value[0][a.cards[second].card.index()]);
        values[1].push_back(r.value[0][a.cards[best].card.index()]);
    }
    const Gain g = gain_over_first(values, 1);
    // Equal in every world: more worlds would not part them either.
    return g.mean > kClearMargin * g.se || g.se == 0;
}

// The decision's worlds: a round of `worlds`, then (worlds_max) more rounds while the choice is
// not clear, within the time limit; with playout=fit and fit_weight, weighed by fit over them all.
std::vector<WorldResult> decision_worlds(const InfoState& info, const std::vector<CardValue>& cards,
                                         const PimcOptions& options, std::uint64_t base,
                                         DecisionArena& arena, models::ModelStore& store) {
    const Deadline deadline(options.sampling.ms);
    const WorldRounds rounds(info, options, base, arena, store);
    std::vector<WorldResult> worlds = rounds.value(0, deadline);
    const int most = options.sampling.worlds_max;
    while (static_cast<int>(worlds.size()) < most && !deadline.passed() &&
           !clear_choice(cards, worlds)) {
        const std::vector<WorldResult> more =
            rounds.value(static_cast<int>(worlds.size()), deadline);
        worlds.insert(worlds.end(), more.begin(), more.end());
    }
    if (options.playout_for(*info.rules) == PimcOptions::Playout::kFit &&
        options.valuation.fit_weight < 1)
        weigh_by_fit(worlds, info.seat, options.valuation.fit_weight);
    return worlds;
}

// The options of this card decision: with nil_worlds, while the side's nil stands, that many
// worlds.
PimcOptions options_for_decision(const PimcOptions& options, const InfoState& info) {
    PimcOptions out = options;
    if (options.sampling.nil_worlds > 0 && own_nil_stands(info))
        out.sampling.worlds = options.sampling.nil_worlds;
    return out;
}

// eval=ismcts: the decisions before the exact endgame (at the endgame every world is solved).
bool by_ismcts(const PimcOptions& options, const InfoState& info) {
    return options.valuation.eval == PimcOptions::Eval::kIsmcts &&
           info.hand.size() > exact_threshold(options, info.rules->players);
}

// eval=ismcts: as many play-outs as pimc's worlds give (worlds x legal cards), handing over to
// the exact search where pimc's do, within the decision's node budget.
IsmctsSettings ismcts_settings(const PimcOptions& options, const InfoState& info) {
    IsmctsSettings s;
    s.worlds = options.sampling.worlds;
    s.solve_at = rollout_solve_at(options, info);
    s.budget = options.search.budget;
    s.utility = options.utility_for(*info.rules);
    s.solve = world_search_options(options, true, s.utility == Utility::kMargin);
    s.bags = options.bag_value(info);
    s.margin = options.margin(*info.rules);
    return s;
}

// Best: highest mean (or votes, then mean); ties to the first card in card order, or with
// tie=rule to the rule player's card where it ties.
Card best_card(const std::vector<CardValue>& cards, const PimcOptions& options,
               const InfoState& info) {
    const bool vote = options.sampling.vote;
    auto better = [&](const CardValue& a, const CardValue& b) {
        return vote ? (a.votes > b.votes || (a.votes == b.votes && a.mean > b.mean + 1e-9))
                    : a.mean > b.mean + 1e-9;
    };
    const CardValue* best = &cards.front();
    for (const CardValue& cv : cards)
        if (better(cv, *best)) best = &cv;
    if (!options.sampling.tie_rule) return best->card;
    const Card rule = RuleBot().play(info);
    for (const CardValue& cv : cards)
        if (cv.card == rule && !better(*best, cv)) return rule;
    return best->card;
}

// Whether the legal cards are one run of equivalent cards in every world the seat can be in: of
// one suit, every card of it between them that is still out (in a hand or on the trick) is
// among them, and they carry the same points; TrickPlay::representative's test on what the seat
// knows. Every world then values them alike, and the search would pick the first.
bool one_run(const InfoState& info, CardSet legal) {
    const Card low = legal.lowest();
    const Card high = legal.highest();
    if (legal.of_suit(low.suit()) != legal) return false;
    CardSet out = info.rules->deck() - info.play.played;
    for (int i = 0; i < info.play.trick_size; ++i) out |= info.play.trick[i];
    const PlayRules pr = PlayRules::from(*info.rules);
    for (Card c : out.of_suit(low.suit()))
        if (c.rank() > low.rank() && c.rank() < high.rank() && !legal.contains(c)) return false;
    for (Card c : legal)
        if (pr.points[c.index()] != pr.points[low.index()]) return false;
    return true;
}

// A single legal card: nothing to value.
PimcAnalysis forced(std::vector<CardValue> cards) {
    PimcAnalysis out;
    out.cards = std::move(cards);
    out.best = out.cards.front().card;
    return out;
}

}  // namespace

PimcAnalysis PimcBot::decide(const InfoState& info) {
    const CardSet legal = info.legal_cards();
    if (!one_run(info, legal)) return analyze(info);
    // As the search would choose among equals: the first, or (tie=rule) the rule player's.
    PimcAnalysis out = forced(legal_cards_in_order(legal));
    if (options_.sampling.tie_rule) out.best = RuleBot().play(info);
    return out;
}

PimcAnalysis PimcBot::analyze(const InfoState& info) {
    std::vector<CardValue> cards = legal_cards_in_order(info.legal_cards());
    if (cards.size() == 1) return forced(std::move(cards));
    const std::uint64_t base = decision_seed(info, seeds::DecisionKind::kCard);
    const PimcOptions options = options_for_decision(options_, info);
    if (by_ismcts(options, info)) {
        return ismcts_analysis(info, std::move(cards), ismcts_settings(options, info), base,
                               *arena_);
    }
    const std::vector<WorldResult> worlds =
        decision_worlds(info, cards, options, base, *arena_, *store_);
    PimcAnalysis out = aggregate(std::move(cards), worlds);
    out.best = best_card(out.cards, options_, info);
    return out;
}

PimcAnalysis analyze_world(const PimcOptions& options, const InfoState& info, const Deal& world,
                           models::ModelStore& store) {
    std::vector<CardValue> cards = legal_cards_in_order(info.legal_cards());
    if (cards.size() == 1) return forced(std::move(cards));
    // The one world has the whole decision's budget.
    WorldResult r =
        WorldValuer(options, info, playout_model(options, info, store),
                    playout_net(options, info, store), store, options.search.world_budget(1))
            .value(world);
    r.thread_slot = current_thread_slot();
    r.done = true;
    PimcAnalysis out = aggregate(std::move(cards), {r});
    out.best = best_card(out.cards, options, info);
    return out;
}

Card PimcBot::play(const InfoState& info) {
    try {
        const auto start = std::chrono::steady_clock::now();
        const PimcAnalysis a = decide(info);
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

}  // namespace sampling
