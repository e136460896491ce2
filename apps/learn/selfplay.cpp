#include "apps/learn/selfplay.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "apps/experiments/batch.hpp"
#include "apps/learn/training_players.hpp"
#include "cardgames/cards/error.hpp"
#include "cardgames/players/bot_spec.hpp"
#include "cardgames/players/heuristics.hpp"
#include "cardgames/rules/game.hpp"
#include "cardgames/rules/game_runner.hpp"
#include "cardgames/rules/record.hpp"
#include "sampling/bid_exploration.hpp"
#include "sampling/bot_registry.hpp"
#include "sampling/deal_sampler.hpp"
#include "sampling/model_file.hpp"
#include "sampling/pimc.hpp"

namespace apps {

using namespace cardgames;
using nlohmann::json;

namespace {

// The feature set the records are for: the information-state tensor (cardgames/encoding/
// tensors.hpp), rebuilt from a record's deal and history.
constexpr const char* kFeatureSet = "information_state_tensor";
constexpr int kFeatureSetVersion = 1;

std::unique_ptr<sampling::PimcBot> make_pimc(const std::string& spec, std::uint64_t seed,
                                             const std::shared_ptr<models::ModelStore>& store) {
    return std::make_unique<sampling::PimcBot>(
        sampling::PimcOptions::from_spec(parse_bot_spec(spec)), seed, store);
}

// The seats' bots for one hand, and for each recorded seat what values its card plays.
struct HandBots {
    std::vector<std::unique_ptr<Player>> players;
    std::vector<sampling::PimcBot*> own_pimc;                 // the seat's bot, if pimc
    std::vector<std::unique_ptr<sampling::PimcBot>> valuers;  // --values for the others
    std::vector<bool> recorded;

    HandBots(const SelfplayPlan& plan, std::uint64_t hand_seed,
             const std::shared_ptr<models::ModelStore>& store) {
        const int n = plan.rules.players;
        own_pimc.assign(n, nullptr);
        valuers.resize(n);
        recorded.assign(n, false);
        for (int s : plan.seats) recorded[s] = true;
        for (int s = 0; s < n; ++s) {
            const std::string& spec = plan.specs[static_cast<std::size_t>(s)];
            const std::uint64_t seed = seeds::training_bot(hand_seed, s);
            if (is_pimc(spec)) {
                auto bot = make_pimc(spec, seed, store);
                own_pimc[s] = bot.get();
                players.push_back(std::move(bot));
            } else {
                players.push_back(sampling::make_player(spec, seed, {}, store));
                if (recorded[s] && plan.values != "none")
                    valuers[s] =
                        make_pimc(plan.values, seeds::selfplay_valuer(hand_seed, s), store);
            }
        }
    }

    // The seat's bid, with the value of every bid pimc valued (slot k: the k-th legal bid, nil
    // first where the rules have it) into `values` when the seat is recorded and something values
    // it.
    int bid(int seat, const InfoState& info, std::array<float, kMaxValues>& values) {
        sampling::PimcBot* valuer = own_pimc[seat] ? own_pimc[seat] : valuers[seat].get();
        if (!recorded[seat] || !valuer) return players[seat]->bid(info);
        const sampling::BidAnalysis a = valuer->analyze_bid(info);
        const int first = info.rules->nil_allowed ? 0 : 1;
        for (const sampling::BidValue& v : a.values) {
            const int k = v.bid - first;
            if (k >= 0 && k < kMaxValues && !std::isnan(v.expected))
                values[k] = static_cast<float>(v.expected);
        }
        if (own_pimc[seat]) return a.bid;
        return players[seat]->bid(info);
    }

    // The seat's card, with every legal card's value (ascending card order) into `values` when
    // the seat is recorded and something values it.
    Card play(int seat, const InfoState& info, std::array<float, kMaxValues>& values) {
        sampling::PimcBot* valuer = own_pimc[seat] ? own_pimc[seat] : valuers[seat].get();
        if (!recorded[seat] || !valuer) return players[seat]->play(info);
        std::optional<sampling::PimcAnalysis> a;
        try {
            a = valuer->analyze(info);
        } catch (const sampling::Contradiction&) {
            // An impossible state: no values; the seat's bot (pimc: its own fallback) plays.
        }
        if (a && a->searched) {
            // pimc lists the cards in notation order (spades first, high to low); a record in
            // ascending action order: slot k is the k-th legal card by number.
            const CardSet legal = info.legal_cards();
            for (const sampling::CardValue& cv : a->cards) {
                const int number = card_number(cv.card);
                int k = 0;
                for (Card c : legal) k += card_number(c) < number ? 1 : 0;
                if (k < kMaxValues) values[k] = static_cast<float>(cv.mean);
            }
        }
        if (own_pimc[seat] && a) return a->best;
        return players[seat]->play(info);
    }
};

std::array<float, kMaxValues> no_values() {
    std::array<float, kMaxValues> v;
    v.fill(std::numeric_limits<float>::quiet_NaN());
    return v;
}

// The hand's margin for `seat`, as the bid value network learns it: its side's score change less
// the other side's (partnership), or its own less the mean of the others' (cutthroat).
double hand_margin(const Rules& rules, const HandRecord& done, int seat) {
    const int mine = rules.unit_of(seat);
    double others = 0;
    int count = 0;
    for (int u = 0; u < rules.num_units(); ++u) {
        if (u == mine) continue;
        others += done.score.delta[u];
        ++count;
    }
    return done.score.delta[mine] - others / count;
}

// --explore-bids paired: the margin for the seat of `info` (its view of `game`) of each bid
// pimc:bid=value may choose there and of the bot's own bid `own` (slot k: the k-th legal bid, nil
// first where the rules have it), each the hand played on from `game` after that bid by bots seeded
// as the hand's own, so that the bids' outcomes share the deal and the bots' draws and differ only
// by the bid.
std::array<float, kMaxValues> paired_bid_values(const SelfplayPlan& plan, const Game& game,
                                                const InfoState& info, int own,
                                                std::uint64_t hand_seed,
                                                const std::shared_ptr<models::ModelStore>& store,
                                                const std::stop_token& stop) {
    const int seat = info.seat;
    std::vector<int> bids = sampling::explored_bids(info, heuristics::spades_bid(info));
    if (std::find(bids.begin(), bids.end(), own) == bids.end()) bids.push_back(own);
    const int first = plan.rules.nil_allowed ? 0 : 1;
    std::array<float, kMaxValues> values = no_values();
    for (int bid : bids) {
        if (stop.stop_requested()) throw Interrupted{};
        Game outcome = game;
        const std::string why = outcome.choose_bid(bid);
        if (!why.empty())
            throw std::logic_error("--explore-bids paired: bid " + std::to_string(bid) + ": " +
                                   why);
        std::vector<std::unique_ptr<Player>> players =
            training_players(plan.specs, hand_seed, store);
        run_game(outcome, players);
        values[static_cast<std::size_t>(bid - first)] =
            static_cast<float>(hand_margin(plan.rules, outcome.finished_hands().back(), seat));
    }
    return values;
}

}  // namespace

void SelfplayPlan::check() const {
    namespace seeds = cardgames::seeds;
    if (!seeds::is_training_seed(seed))
        throw InputError("--seed " + std::to_string(seed) +
                         ": training data takes a training seed, " +
                         std::to_string(seeds::kTrainingSeedFirst) + ".." +
                         std::to_string(seeds::kTrainingSeedLast) +
                         ", so that it never meets the evaluation seeds");
    if (hands < 1 || hands > kMaxItems)
        throw InputError("--hands " + std::to_string(hands) + ": expected 1.." +
                         std::to_string(kMaxItems));
    if (shard_hands < 1 || shard_hands > kMaxItems)
        throw InputError("--shard-hands " + std::to_string(shard_hands) + ": expected 1.." +
                         std::to_string(kMaxItems));
    const int n = rules.players;
    if (static_cast<int>(specs.size()) != n)
        throw InputError("--players: " + std::to_string(specs.size()) + " specs for " +
                         std::to_string(n) + " seats; give one per seat");
    for (const std::string& spec : specs) sampling::make_player(spec, 0);  // unknown bots fail here
    if (seats.empty()) throw InputError("--seats: no seat to record");
    for (std::size_t i = 0; i < seats.size(); ++i)
        if (seats[i] < 0 || seats[i] >= n || (i && seats[i] <= seats[i - 1]))
            throw InputError("--seats: seat " + std::to_string(seats[i]) + " is not a seat 0.." +
                             std::to_string(n - 1) + " (give each seat once, ascending)");
    if (values != "none") {
        if (!is_pimc(values))
            throw InputError("--values '" + values + "': a pimc bot spec, or none");
        sampling::make_player(values, 0);
    }
    if (explore_bids != ExploreBids::kNone && rules.game != GameKind::kSpades)
        throw InputError("--explore-bids: Spades only (Hearts has no bids)");
}

json SelfplayPlan::options() const {
    json out = {{"rules", rules_to_json(rules)},
                {"form", sampling::form_name(rules)},
                {"players", specs},
                {"seats", seats},
                {"values", values},
                {"hands", hands},
                {"seed", seed},
                {"shard_hands", shard_hands},
                {"features", {{"name", kFeatureSet}, {"version", kFeatureSetVersion}}}};
    // Only when on, so that the headers of runs without it stay what they were.
    if (explore_bids == ExploreBids::kRule) out["explore_bids"] = true;
    if (explore_bids == ExploreBids::kOwn) out["explore_bids"] = "own";
    if (explore_bids == ExploreBids::kPaired) out["explore_bids"] = "paired";
    return out;
}

SelfplayPlan::ExploreBids explore_bids_named(const std::string& text) {
    if (text == "rule") return SelfplayPlan::ExploreBids::kRule;
    if (text == "own") return SelfplayPlan::ExploreBids::kOwn;
    if (text == "paired") return SelfplayPlan::ExploreBids::kPaired;
    throw InputError("--explore-bids '" + text + "': rule, own or paired");
}

std::string selfplay_hand(const SelfplayPlan& plan, long index, const std::stop_token& stop,
                          const std::shared_ptr<models::ModelStore>& store) {
    const std::uint64_t hand_seed = seeds::training_hand(plan.seed, index);
    HandBots bots(plan, hand_seed, store);
    Game game(plan.rules, hand_seed);
    game.stop_after_hand();

    DecisionRecord hand;  // what every record of the hand shares
    hand.hand = static_cast<std::uint32_t>(index);
    hand.deal.fill(kNotDealt);
    for (int s = 0; s < plan.rules.players; ++s)
        for (Card c : game.hand().deal.hands[s])
            hand.deal[card_number(c)] = static_cast<std::uint8_t>(s);
    std::vector<DecisionRecord> records;
    auto push = [&](int code) {
        if (hand.history_size >= kMaxHistory)
            throw std::logic_error("a hand of more than " + std::to_string(kMaxHistory) +
                                   " actions");
        hand.history[hand.history_size++] = static_cast<std::uint8_t>(code);
    };
    // A decision of a recorded seat, taken now (before its action is pushed).
    auto decide = [&](int seat, Phase phase, int action, int legal,
                      const std::array<float, kMaxValues>& values) {
        if (!bots.recorded[seat]) return;
        DecisionRecord r;
        r.seat = seat;
        r.phase = phase;
        r.ply = hand.history_size;
        r.action = action;
        r.legal = legal;
        r.values = values;
        records.push_back(r);
    };

    while (!game.over()) {
        if (stop.stop_requested()) throw Interrupted{};
        const int seat = game.to_act();
        const Phase phase = game.phase();
        const InfoState info = game.info_state(seat);
        Player& player = *bots.players[seat];
        std::string why, choice;
        switch (phase) {
            case Phase::kBlindNil: {
                const bool blind = player.blind_nil(info);
                decide(seat, phase, kBlindNilActionBase + (blind ? 1 : 0), 2, no_values());
                push(blind ? 1 : 0);
                choice = blind ? "blind nil" : "no blind nil";
                why = game.choose_blind_nil(blind);
                break;
            }
            case Phase::kBid: {
                std::array<float, kMaxValues> values = no_values();
                int tricks = bots.bid(seat, info, values);
                if (plan.explore_bids == SelfplayPlan::ExploreBids::kPaired) {
                    if (bots.recorded[seat] && seat == index % plan.rules.players)
                        values =
                            paired_bid_values(plan, game, info, tricks, hand_seed, store, stop);
                } else if (plan.explore_bids != SelfplayPlan::ExploreBids::kNone &&
                           bots.recorded[seat]) {
                    const int rule = heuristics::spades_bid(info);
                    const bool own = plan.explore_bids == SelfplayPlan::ExploreBids::kOwn;
                    tricks = sampling::explore_bid(info, rule,
                                                   seeds::training_bid_variation(hand_seed, seat),
                                                   own ? tricks : rule);
                }
                const int legal = plan.rules.cards_per_hand() + (plan.rules.nil_allowed ? 1 : 0);
                decide(seat, phase, kBidActionBase + tricks, legal, values);
                push(tricks);
                choice = "bid " + std::to_string(tricks);
                why = game.choose_bid(tricks);
                break;
            }
            case Phase::kPass: {
                // One decision per card, in ascending order, as the Python module passes.
                const CardSet cards = player.pass(info);
                CardSet chosen;
                for (Card c : cards) {
                    decide(seat, phase, kPassActionBase + card_number(c),
                           static_cast<int>((info.hand - chosen).size()), no_values());
                    push(card_number(c));
                    chosen |= c;
                }
                choice = "pass " + cards_to_string(cards);
                why = game.choose_pass(cards);
                break;
            }
            case Phase::kPlay: {
                std::array<float, kMaxValues> values = no_values();
                const Card c = bots.play(seat, info, values);
                decide(seat, phase, card_number(c), static_cast<int>(info.legal_cards().size()),
                       values);
                push(card_number(c));
                choice = "card " + to_string(c);
                why = game.choose_card(c);
                break;
            }
            case Phase::kGameOver:
                break;
        }
        if (!why.empty())
            throw std::logic_error("seat " + std::to_string(seat) + " (" + player.name() +
                                   ") chose " + choice + ": " + why);
    }
    const HandRecord& done = game.finished_hands().back();
    for (int s = 0; s < plan.rules.players; ++s)
        hand.result[s] = static_cast<std::int16_t>(done.score.delta[plan.rules.unit_of(s)]);

    std::string out;
    out.reserve(records.size() * kRecordSize);
    for (std::size_t i = 0; i < records.size(); ++i) {
        DecisionRecord r = hand;
        r.seat = records[i].seat;
        r.phase = records[i].phase;
        r.ply = records[i].ply;
        r.action = records[i].action;
        r.legal = records[i].legal;
        r.values = records[i].values;
        r.index = static_cast<int>(i);
        r.count = static_cast<int>(records.size());
        out += encode_record(r);
    }
    return out;
}

std::unique_ptr<ShardWriter> open_selfplay(const MpiSession& mpi, const SelfplayPlan& plan,
                                           const std::string& folder, bool resume) {
    std::exception_ptr failed;
    std::unique_ptr<ShardWriter> out;
    try {
        const int differs = mpi.first_rank_that_differs(plan.options().dump());
        if (differs > 0)
            throw InputError("rank " + std::to_string(differs) +
                             " worked out other self-play options than rank 0: refusing to "
                             "write '" +
                             folder + "'");
        if (mpi.rank() == 0) out = std::make_unique<ShardWriter>(folder, plan.options(), resume);
    } catch (...) {
        failed = std::current_exception();
    }
    mpi.agree_on_setup(failed);
    return out;
}

}  // namespace apps
