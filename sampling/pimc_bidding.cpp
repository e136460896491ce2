// Bids, blind nil and passes for `pimc`: each candidate is valued by its expected score over
// sampled deals consistent with the seat's hand, each deal played out to the end of the hand by
// the rule player in every seat (the candidate fixed for this seat; rollout_playout and
// rollout_exact can have the policy play the cards and the engine solve the last tricks). A
// double-dummy solve of a whole 13-trick deal costs our search seconds (tens of millions of
// expansions), far beyond a bid's time budget, so play-outs stand in for solving here, as they do
// for card play before the endgame (pimc.cpp). Candidates share the same sampled deals (common
// random numbers), so their differences are measured with less noise than their values; Hearts
// passes race (race.hpp), so that the closest candidates get the most deals.

#include <oneapi/tbb/enumerable_thread_specific.h>

#include <algorithm>
#include <array>
#include <boost/random/mersenne_twister.hpp>
#include <cmath>
#include <limits>
#include <optional>
#include <stdexcept>

#include "cardgames/players/rule_bot.hpp"
#include "cardgames/rules/dealing.hpp"
#include "cardgames/rules/game.hpp"
#include "engine/search.hpp"
#include "sampling/bid_model.hpp"
#include "sampling/deal_sampler.hpp"
#include "sampling/moon.hpp"
#include "sampling/net_player.hpp"
#include "sampling/parallel.hpp"
#include "sampling/pimc.hpp"
#include "sampling/playout.hpp"
#include "sampling/policy.hpp"
#include "sampling/race.hpp"

namespace sampling {

using namespace cardgames;

namespace {

// What this seat does in a play-out: a fixed bid or blind nil, or a fixed pass; everything else
// is the rule player's.
struct Candidate {
    int bid = -1;        // Spades: the bid (0 nil); -1: the rule player bids
    bool blind = false;  // Spades: bid blind nil
    CardSet pass;        // Hearts: the pass; empty: the rule player passes
    bool shoot = false;  // Hearts (moon=on): the seat plays its cards to take every point
};

// Who plays the cards of the play-outs that value the candidates, and where the exact search takes
// over (rollout_playout, rollout_exact). Read-only but for each thread's network player, so the
// deals' tasks share one.
struct CardPlay {
    std::shared_ptr<const PolicyModel> policy;  // null: the rule player in every seat
    // rollout_playout=net: each thread's player of the network (made on a thread's first deal).
    bool by_net = false;
    mutable tbb::enumerable_thread_specific<NetPlayer> net_players;
    int solve_at = 0;               // 0: no exact search; play to the last card
    engine::SearchOptions endgame;  // the exact search's
    BagValue bag_value;             // how a play-out's hand values bags

    CardPlay(const PimcOptions& o, const InfoState& info, models::ModelStore& store)
        : policy(o.bidding.playout == PimcOptions::Playout::kModel
                     ? model_for<PolicyModel>(store, o.valuation.playout_model_path, *info.rules)
                     : nullptr),
          by_net(o.bidding.playout == PimcOptions::Playout::kNet),
          net_players(o.bidding.playout == PimcOptions::Playout::kNet
                          ? playout_net_for(store, o.valuation.playout_net_path, *info.rules)
                          : nullptr),
          solve_at(o.bidding.exact),
          endgame(world_search_options(o, true)),
          bag_value(o.bag_value(info)) {
        // Each play-out's solve may spend a card decision's share for one world; one it cuts
        // short is dropped and the play-out goes on to the last card (play_out).
        endgame.node_limit = o.search.world_budget(o.sampling.worlds);
    }

    // Plays out the card phase of `game` for `seat`: hand_value (playout.hpp). `shoot`: the seat
    // plays MoonShooter's cards.
    double play(const Game& game, int seat, bool shoot) const {
        RuleBot rule;
        PolicyBot policy_bot(policy);
        MoonShooter shooter;
        Seats seats = every_seat(by_net   ? static_cast<Player&>(net_players.local())
                                 : policy ? static_cast<Player&>(policy_bot)
                                          : rule);
        if (shoot) seats[static_cast<std::size_t>(seat)] = &shooter;
        if (solve_at == 0) return play_card_phase(game, seat, seats, 0, nullptr, bag_value);
        engine::Searcher<TrickGame> solver(endgame);
        return play_card_phase(game, seat, seats, solve_at, &solver, bag_value);
    }
};

using Passes = std::array<CardSet, kMaxPlayers>;

// The rule player's pass of every seat on `deal`, at a Hearts pass. A seat passes before it sees
// what it receives, so its pass is the same whatever the deciding seat passes, and every
// candidate of a deal shares them (the rule player's pass is most of a pass decision's time).
Passes rule_passes(const InfoState& info, const Deal& deal) {
    Game game(*info.rules, 0, info.hand_number, info.dealer, info.scores);
    game.set_deal(deal);
    game.stop_after_hand();
    RuleBot rule;
    Passes out{};
    while (game.phase() == Phase::kPass) {
        const int s = game.to_act();
        out[s] = rule.pass(game.info_state(s));
        game.choose_pass(out[s]);
    }
    return out;
}

// Plays one hand of `deal` from the seat's current point (bids so far as in `info`) and returns
// the hand's score change for the seat's unit (Hearts: minus its penalty points). The bidding and
// passing are a simulated game's, by the rule player (the other seats' Hearts passes `passes`,
// where given); the card play is `play`'s.
double play_hand(const InfoState& info, const Deal& deal, const Candidate& cand,
                 const CardPlay& play, const std::optional<Passes>& passes, std::uint64_t seed) {
    const Rules& rules = *info.rules;
    Game game(rules, seed, info.hand_number, info.dealer, info.scores);
    game.set_deal(deal);
    game.stop_after_hand();
    RuleBot rule;
    const int me = info.seat;
    while (game.phase() != Phase::kPlay) {
        const int s = game.to_act();
        // The seat's view is built only where the rule player decides: it copies the whole state.
        switch (game.phase()) {
            case Phase::kBlindNil:
                if (s == me)
                    game.choose_blind_nil(cand.blind);
                else if (info.bids[s].made())
                    game.choose_blind_nil(info.bids[s].blind);
                else
                    game.choose_blind_nil(rule.blind_nil(game.info_state(s)));
                break;
            case Phase::kBid:
                if (s == me && cand.bid >= 0)
                    game.choose_bid(cand.bid);
                else if (s != me && info.bids[s].made())
                    game.choose_bid(info.bids[s].tricks);
                else
                    game.choose_bid(rule.bid(game.info_state(s)));
                break;
            case Phase::kPass:
                if (s == me && !cand.pass.empty())
                    game.choose_pass(cand.pass);
                else
                    game.choose_pass(passes ? (*passes)[s] : rule.pass(game.info_state(s)));
                break;
            case Phase::kPlay:
            case Phase::kGameOver:
                throw std::logic_error("a hand ended before its card play");
        }
    }
    return play.play(game, me, cand.shoot);
}

// The play-out value of each candidate of `which` on the deals [first, first + count) (race.hpp),
// farmed over the bot's arena. `hidden_hand`: the seat has not seen its cards (blind nil), so its
// hand is sampled too. Each deal comes from its own seed (the sampler is read-only), so the deals
// do not depend on which thread or round deals them. A deal begun after the `deadline` (other
// than the first) is left unvalued: NaN for every candidate.
void evaluate(const InfoState& info, const std::vector<Candidate>& cands, const CardPlay& play,
              const std::vector<std::size_t>& which, int first, int count, std::uint64_t seed,
              DecisionArena& arena, bool hidden_hand, const Deadline& deadline,
              CandidateValues& values) {
    std::optional<DealSampler> sampler;
    if (!hidden_hand) sampler.emplace(constraints_from(info));
    arena.parallel_for_index(count, [&](int i) {
        const int r = first + i;
        if (r > 0 && deadline.passed()) {
            for (std::size_t c : which)
                values[c][static_cast<std::size_t>(r)] = std::numeric_limits<double>::quiet_NaN();
            return;
        }
        Deal deal;
        if (hidden_hand) {
            deal = deal_from_seed(*info.rules, seed, r);
        } else {
            boost::random::mt19937_64 rng(seeds::world(seed, r));
            deal = sampler->sample(rng, info.hand);
        }
        std::optional<Passes> passes;
        if (info.phase == Phase::kPass && info.rules->game == GameKind::kHearts)
            passes = rule_passes(info, deal);
        for (std::size_t c : which)
            values[c][static_cast<std::size_t>(r)] =
                play_hand(info, deal, cands[c], play, passes, seeds::playout(seed, r));
    });
}

// The index of the candidate to take, valued by play-outs in a race (race.hpp): every candidate
// on `first_round` deals, the closest up to `most`.
std::size_t choose(const InfoState& info, const std::vector<Candidate>& cands,
                   const PimcOptions& options, int first_round, int most, std::uint64_t seed,
                   DecisionArena& arena, models::ModelStore& store, bool hidden_hand,
                   double margin = kClearMargin, CandidateValues* out = nullptr) {
    const CardPlay play(options, info, store);
    const Deadline deadline(options.sampling.ms);
    return race(
        cands.size(), first_round, most,
        [&](const std::vector<std::size_t>& which, int first, int count, CandidateValues& values) {
            evaluate(info, cands, play, which, first, count, seed, arena, hidden_hand, deadline,
                     values);
        },
        margin, out);
}

// Hearts: how much a card hurts to keep, for choosing which passes are worth valuing.
int danger(CardSet hand, Card c) {
    const bool queen = hand.contains(Card(Suit::kSpades, kQueen));
    if (c == Card(Suit::kSpades, kQueen)) return 100;
    if (c.suit() == Suit::kSpades && c.rank() > kQueen) return queen ? 40 : 75;
    const int shortness = hand.count(c.suit()) <= 3 ? 8 : 0;
    if (c.suit() == Suit::kHearts) return 3 * c.rank() + shortness;
    return 2 * c.rank() + shortness;
}

// Adds to `cands` the `ranked` passes the rule player rates best among those not in it yet.
void add_best_rated_passes(const InfoState& info, int ranked, std::vector<Candidate>& cands) {
    if (ranked == 0) return;  // the ranking rates every pass of the hand
    for (CardSet p : heuristics::hearts_passes_by_danger(info)) {
        auto same = [&](const Candidate& c) { return c.pass == p; };
        if (std::none_of(cands.begin(), cands.end(), same)) {
            cands.push_back({-1, false, p});
            if (--ranked == 0) return;
        }
    }
}

// moon=on: a hand that holds the ace of hearts may be worth shooting with. Two more candidates are
// then played out with the seat shooting: passing its lowest cards (keeping the high ones it
// needs), and the rule player's pass.
void add_moon_passes(const InfoState& info, CardSet rule_pass, std::vector<Candidate>& cands) {
    if (!info.hand.contains(info.rules->deck().of_suit(Suit::kHearts).highest())) return;
    CardSet lowest, rest = info.hand;
    for (int k = 0; k < info.pass_count; ++k) {
        const Card c = heuristics::lowest_rank(rest);
        lowest |= c;
        rest -= c;
    }
    cands.push_back({-1, false, lowest, true});
    if (rule_pass != lowest) cands.push_back({-1, false, rule_pass, true});
}

// The passes worth valuing: the rule player's first, then every pass drawn from the most
// dangerous cards, then the `ranked` passes the rule player rates best among the rest, then with
// `moon` the passes to shoot with.
std::vector<Candidate> pass_candidates(const InfoState& info, CardSet rule_pass, int ranked,
                                       bool moon) {
    std::vector<Card> cards(info.hand.begin(), info.hand.end());
    std::stable_sort(cards.begin(), cards.end(),
                     [&](Card a, Card b) { return danger(info.hand, a) > danger(info.hand, b); });
    const std::size_t pool =
        std::min<std::size_t>(cards.size(), static_cast<std::size_t>(info.pass_count) + 3);
    std::vector<Candidate> cands = {Candidate{-1, false, rule_pass}};
    auto rec = [&](auto&& self, std::size_t from, int k, CardSet chosen) -> void {
        if (k == info.pass_count) {
            if (chosen != rule_pass) cands.push_back({-1, false, chosen});
            return;
        }
        for (std::size_t i = from; i < pool; ++i) self(self, i + 1, k + 1, chosen | cards[i]);
    };
    rec(rec, 0, 0, CardSet());
    add_best_rated_passes(info, ranked, cands);
    if (moon) add_moon_passes(info, rule_pass, cands);
    return cands;
}

}  // namespace

bool PimcBot::blind_nil(const InfoState& info) {
    if (options_.blind_nil_by_model(*info.rules))
        return model_blind_nil(*bid_model(*info.rules), info,
                               decision_seed(info, seeds::DecisionKind::kBlindNil),
                               options_.rollouts_for(*info.rules), Deadline(options_.sampling.ms),
                               options_.bag_value(info));
    if (options_.bidding.bid == PimcOptions::Bid::kRule) return RuleBot().blind_nil(info);
    // Valued before seeing the cards: blind nil against bidding normally (the rule player's bid on
    // the hand as it will be dealt), over fully random deals.
    const std::vector<Candidate> cands = {Candidate{-1, false, {}}, Candidate{0, true, {}}};
    const int deals = options_.rollouts_for(*info.rules);
    return choose(info, cands, options_, deals, deals,
                  decision_seed(info, seeds::DecisionKind::kBlindNil), *arena_, *store_, true) == 1;
}

int PimcBot::bid(const InfoState& info) {
    return analyze_bid(info).bid;
}

BidAnalysis PimcBot::analyze_bid(const InfoState& info) {
    if (options_.bids_by_model(*info.rules)) {
        const SpadesBidModel& model = *bid_model(*info.rules);
        const BidSituation situation = BidSituation::from(info);
        return {model_bid(model, situation, options_.bag_value(info)),
                value_bids(model, situation, options_.bag_value(info))};
    }
    if (options_.bidding.bid == PimcOptions::Bid::kNet)
        return {net_bid(*bid_net_for(*store_, options_.bidding.bid_net_path, *info.rules), info),
                {}};
    if (options_.bidding.bid == PimcOptions::Bid::kValue) {
        const std::vector<BidValue> values = value_net_bids(
            *bid_value_net_for(*store_, options_.bidding.bid_value_net_path, *info.rules), info);
        return {best_valued_bid(values), values};
    }
    RuleBot rule;
    if (options_.bidding.bid == PimcOptions::Bid::kRule) return {rule.bid(info), {}};
    // Candidates: the rule player's bid first, then its neighbours. Nil only where the rule
    // player bids it: when play-outs alone proposed nil (partnership Spades, 160 hands), pimc bid
    // it on one hand in eight and made only half of them, so its duplicate result fell from
    // +10 points per hand over `rule` to -1.5.
    const int natural = rule.bid(info);
    const int estimate = std::max(1, natural);
    const int most = info.rules->cards_per_hand();
    std::vector<Candidate> cands;
    if (natural == 0) cands.push_back({0, false, {}});
    for (int delta : {0, -1, 1, -2, 2}) {
        const int b = estimate + delta;
        if (b >= 1 && b <= most) cands.push_back({b, false, {}});
    }
    const int deals = options_.rollouts_for(*info.rules);
    CandidateValues values;
    const std::size_t chosen =
        choose(info, cands, options_, deals, deals, decision_seed(info, seeds::DecisionKind::kBid),
               *arena_, *store_, false, kClearMargin, &values);
    BidAnalysis out{cands[chosen].bid, {}};
    for (std::size_t c = 0; c < cands.size(); ++c)
        out.values.push_back({cands[c].bid, mean_value(values[c])});
    return out;
}

CardSet PimcBot::pass(const InfoState& info) {
    if (info.rules->game == GameKind::kHearts && options_.bidding.net_pass)
        return net_pass(*pass_net_for(*store_, options_.bidding.pass_net_path, *info.rules), info);
    const CardSet rule_pass = RuleBot().pass(info);
    if (info.rules->game == GameKind::kSpades || options_.bidding.rule_pass)
        return rule_pass;  // Spades: the blind-nil exchange
    const std::vector<Candidate> cands = pass_candidates(
        info, rule_pass, options_.bidding.pass_ranked, options_.moon_for(*info.rules));
    return cands[choose(info, cands, options_, options_.rollouts_for(*info.rules),
                        options_.pass_deals(*info.rules),
                        decision_seed(info, seeds::DecisionKind::kPass), *arena_, *store_, false,
                        options_.bidding.pass_margin)]
        .pass;
}

}  // namespace sampling
