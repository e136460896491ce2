#include "sampling/inference.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>
#include <unordered_map>

#include "cardgames/players/rule_bot.hpp"
#include "sampling/deal_sampler.hpp"
#include "sampling/model_file.hpp"
#include "sampling/playout.hpp"

namespace sampling {

using namespace cardgames;

namespace {

// How much a Hearts player wants to be rid of a card, whatever else it holds: the Q♠, then the
// A♠ and K♠ that may catch it, then hearts, then the rest by rank.
int pass_danger(Card c) {
    if (c == Card(Suit::kSpades, kQueen)) return 100;
    if (c.suit() == Suit::kSpades && c.rank() > kQueen) return 60 + c.rank();
    if (c.suit() == Suit::kHearts) return 20 + c.rank();
    return c.rank();
}

// Hearts: the seat that passed to me gave away what it most wanted rid of. A world in which it
// still holds more cards worse than the mildest card it passed than it can have received (the
// pass count) is less likely: k extra such cards weigh exp(-k).
double pass_weight(const InfoState& info, const Deal& world) {
    const Rules& rules = *info.rules;
    if (info.received.empty() || rules.pass_offset(info.hand_number) == 0) return 1.0;
    const int passer = rules.pass_sender(info.seat, info.hand_number);
    int mildest = 1000;
    for (Card c : info.received) mildest = std::min(mildest, pass_danger(c));
    CardSet held = world.hands[passer];
    for (const PlayedCard& p : info.plays)
        if (p.seat == passer) held |= p.card;
    int worse = 0;
    for (Card c : held) worse += pass_danger(c) > mildest ? 1 : 0;
    return std::exp(-static_cast<double>(std::max(0, worse - info.received.size())));
}

// The rule player as a softmax: a play-out policy of `form` whose only weight is on the feature
// "the rule player would play this card".
std::shared_ptr<const PolicyModel> rule_softmax(const std::string& form) {
    ModelFile file;
    file.where = "the rule player as a softmax (no play-out model for " + form + ")";
    file.kind = "playout-policy";
    file.meta = {{"form", form}};
    for (std::string_view name : policy_feature_names()) {
        file.names.emplace_back(name);
        file.weights.push_back(name == "rule" ? kRuleFallbackWeight : 0.0);
    }
    return std::make_shared<const PolicyModel>(file);
}

// log p(played) under `policy` as a softmax over the legal cards of `view`.
double log_softmax(const PolicyModel& policy, const InfoState& view, Card played) {
    const DecisionFeatures decision(view);
    PolicyFeatures f;
    double top = -std::numeric_limits<double>::infinity(), played_score = 0;
    std::array<double, 64> scores{};  // at most a hand of cards
    int n = 0;
    for (Card c : decision.legal()) {
        decision.of(c, f);
        const double s = policy.score(f);
        if (c == played) played_score = s;
        top = std::max(top, s);
        scores[static_cast<std::size_t>(n++)] = s;
    }
    double sum = 0;
    for (int i = 0; i < n; ++i) sum += std::exp(scores[static_cast<std::size_t>(i)] - top);
    return played_score - top - std::log(sum);
}

}  // namespace

std::shared_ptr<const PolicyModel> inference_policy(cardgames::models::ModelStore& store,
                                                    const std::string& path, const Rules& rules) {
    if (path.empty() && !std::filesystem::exists(default_model<PolicyModel>(rules)))
        return rule_softmax(form_name(rules));
    return model_for<PolicyModel>(store, path, rules);
}

PlayLikelihood::PlayLikelihood(const InfoState& info, std::shared_ptr<const PolicyModel> policy)
    : policy_(std::move(policy)), play_rules_(PlayRules::from(*info.rules)) {
    if (info.plays.empty()) return;
    // The hand's public history from its first card, with no hand filled in.
    InfoState start = info;
    start.plays.clear();
    start.trick_winners = {};
    Deal none;
    none.players = info.players();
    start.play = PlayState::start(none, info.plays.front().seat);
    SeatViews views(start);
    PlayState state = start.play;
    for (std::size_t i = 0; i < info.plays.size(); ++i) {
        const PlayedCard& p = info.plays[i];
        if (p.seat != info.seat) {
            CardSet from_here;
            for (std::size_t k = i; k < info.plays.size(); ++k)
                if (info.plays[k].seat == p.seat) from_here |= info.plays[k].card;
            plays_.push_back({p.seat, p.card, from_here, state, views});
        }
        state.play(play_rules_, p.card);
        views.record(p.seat, p.card, state);
    }
}

double PlayLikelihood::log_probability(const Play& play, CardSet hand, SeatViews& views) const {
    PlayState state = play.before;
    state.hands[play.seat] = hand;
    const CardSet legal = state.legal_moves(play_rules_);
    if (!legal.contains(play.card))
        throw Contradiction("seat " + std::to_string(play.seat) + "'s " + to_string(play.card) +
                            " was not legal in a sampled world");
    if (legal.size() == 1) return 0;
    return log_softmax(*policy_, views.view_of(play.seat, state), play.card);
}

double PlayLikelihood::of(const Deal& world) const {
    double log_likelihood = 0;
    for (const Play& play : plays_) {
        SeatViews views = play.views;
        log_likelihood += log_probability(play, world.hands[play.seat] | play.from_here, views);
    }
    return log_likelihood;
}

std::vector<double> PlayLikelihood::of(const std::vector<Deal>& worlds,
                                       DecisionArena& arena) const {
    // by_play[j][w]: play j's term in world w; each task writes only its own play's row.
    std::vector<std::vector<double>> by_play(plays_.size());
    arena.parallel_for_index(static_cast<int>(plays_.size()), [&](int j) {
        const Play& play = plays_[static_cast<std::size_t>(j)];
        SeatViews views = play.views;
        std::unordered_map<std::uint64_t, double> seen;  // by the seat's hand then
        std::vector<double>& row = by_play[static_cast<std::size_t>(j)];
        row.reserve(worlds.size());
        for (const Deal& world : worlds) {
            const CardSet hand = world.hands[play.seat] | play.from_here;
            const auto [it, added] = seen.try_emplace(hand.bits(), 0.0);
            if (added) it->second = log_probability(play, hand, views);
            row.push_back(it->second);
        }
    });
    // Summed in play order for each world, whatever thread scored which play.
    std::vector<double> out(worlds.size(), 0.0);
    for (const std::vector<double>& row : by_play)
        for (std::size_t w = 0; w < worlds.size(); ++w) out[w] += row[w];
    return out;
}

std::vector<int> systematic_resample(const std::vector<double>& weights, int count, double u) {
    std::vector<int> counts(weights.size(), 0);
    double total = 0;
    for (double w : weights) total += w;
    const double step = total / count;
    double cumulative = 0;
    int drawn = 0;
    std::size_t last = 0;  // the last item of positive weight, for draws lost to rounding
    for (std::size_t i = 0; i < weights.size(); ++i) {
        if (weights[i] <= 0) continue;
        last = i;
        cumulative += weights[i];
        while (drawn < count && (u + drawn) * step < cumulative) {
            ++counts[i];
            ++drawn;
        }
    }
    counts[last] += count - drawn;
    return counts;
}

double world_weight(const InfoState& info, const Deal& world) {
    const Rules& rules = *info.rules;
    if (rules.game == GameKind::kHearts) return pass_weight(info, world);
    // Each bidder's hand as it was when it bid: what it holds in the world plus what it has played.
    std::array<CardSet, kMaxPlayers> original = world.hands;
    for (const PlayedCard& p : info.plays) original[p.seat] |= p.card;
    RuleBot model;
    double log_weight = 0;
    for (int s = 0; s < rules.players; ++s) {
        if (s == info.seat || !info.bids[s].made() || info.bids[s].blind) continue;
        InfoState as_bidder;
        as_bidder.rules = info.rules;
        as_bidder.seat = s;
        as_bidder.dealer = info.dealer;
        as_bidder.hand_number = info.hand_number;
        as_bidder.phase = Phase::kBid;
        as_bidder.hand = as_bidder.dealt = original[s];
        as_bidder.play.players = static_cast<std::int8_t>(rules.players);
        as_bidder.play.hands[s] = original[s];
        as_bidder.scores = info.scores;
        // The bids made before this seat's turn, in bidding order from the dealer's left.
        for (int k = 1; k <= rules.players; ++k) {
            const int b = (info.dealer + k) % rules.players;
            if (b == s) break;
            as_bidder.bids[b] = info.bids[b];
        }
        const int model_bid = model.bid(as_bidder);
        log_weight -= std::abs(model_bid - info.bids[s].tricks);
    }
    return std::exp(log_weight);
}

}  // namespace sampling
