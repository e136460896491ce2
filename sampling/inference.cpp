#include "sampling/inference.hpp"

#include <oneapi/tbb/enumerable_thread_specific.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>
#include <optional>
#include <span>
#include <unordered_map>

#include "cardgames/models/card_features.hpp"
#include "cardgames/players/rule_bot.hpp"
#include "sampling/bid_model.hpp"
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

// log p(played) under a policy network's `logits` (by card number) as a softmax over `legal`.
double log_softmax(std::span<const float> logits, CardSet legal, Card played) {
    const auto logit = [&](Card c) {
        return static_cast<double>(logits[static_cast<std::size_t>(models::card_number(c))]);
    };
    double top = -std::numeric_limits<double>::infinity();
    for (Card c : legal) top = std::max(top, logit(c));
    double sum = 0;
    for (Card c : legal) sum += std::exp(logit(c) - top);
    return logit(played) - top - std::log(sum);
}

}  // namespace

// Scores one play in world after world, given the seat's hand at the play. What all worlds share
// is set up once per play: the seat's public view, which the linear policy reads with the hand
// filled in, or, for the network, the accumulator of that view's public features (the cards
// played, the trick, the voids), to which each world adds its hand. A world changes only the
// hand features, so the accumulator moves from the last world's hand to the next one's by the
// cards that differ: at most the hand's size twice, fewer where the constraints pin cards down
// (and a hand seen before is not scored again). A refresh per world would add every public
// feature again (dozens late in a hand), and following each world along the plays
// (CardFeatureTracker) would cost n + 3 columns a card played between two of the seat's plays.
// Scoring each world alone costs 2.3 to 2.7 times as much (docs/results/2026-11-28-infer-net.md).
// The integer accumulator makes either order exactly a refresh, so a world's figure does not
// depend on the worlds scored before it on the thread.
class PlayLikelihood::Scorer {
  public:
    Scorer(const PlayLikelihood& owner, const OtherPlay& play, models::Evaluator* eval)
        : owner_(owner), play_(play), views_(play.views), eval_(eval) {
        if (!eval_) return;
        models::ActiveFeatures common;  // the view with no hand: the public features alone
        models::card_features(views_.view_of(play.seat, play.before),
                              eval_->network().card_version(), common);
        eval_->refresh(common.view());
    }

    // log p(the play's card) when the seat held `hand` (0 when it was its only legal card).
    double log_probability(CardSet hand) {
        PlayState state = play_.before;
        state.hands[play_.seat] = hand;
        const CardSet legal = state.legal_moves(owner_.play_rules_);
        if (!legal.contains(play_.card))
            throw Contradiction("seat " + std::to_string(play_.seat) + "'s " +
                                to_string(play_.card) + " was not legal in a sampled world");
        if (legal.size() == 1) return 0;
        if (!eval_)
            return log_softmax(*owner_.policy_, views_.view_of(play_.seat, state), play_.card);
        for (Card c : hand_ - hand) eval_->remove(models::hand_feature(c));
        for (Card c : hand - hand_) eval_->add(models::hand_feature(c));
        hand_ = hand;
        return log_softmax(eval_->evaluate(), legal, play_.card);
    }

  private:
    const PlayLikelihood& owner_;
    const OtherPlay& play_;
    SeatViews views_;
    models::Evaluator* eval_;  // null: the linear policy
    CardSet hand_;             // the hand whose features the accumulator holds
};

std::shared_ptr<const PolicyModel> inference_policy(cardgames::models::ModelStore& store,
                                                    const std::string& path, const Rules& rules) {
    if (path.empty() && !std::filesystem::exists(default_model<PolicyModel>(rules)))
        return rule_softmax(form_name(rules));
    return model_for<PolicyModel>(store, path, rules);
}

PlayLikelihood::PlayLikelihood(const InfoState& info, std::shared_ptr<const PolicyModel> policy)
    : policy_(std::move(policy)), play_rules_(PlayRules::from(*info.rules)) {
    plays_ = other_plays(info, play_rules_);
}

PlayLikelihood::PlayLikelihood(const InfoState& info, std::shared_ptr<const models::Network> net)
    : net_(std::move(net)), play_rules_(PlayRules::from(*info.rules)) {
    // Another form's features would not fit the network's first layer.
    net_->check(form_name(*info.rules), "policy");
    plays_ = other_plays(info, play_rules_);
}

std::vector<OtherPlay> other_plays(const InfoState& info, const PlayRules& rules) {
    std::vector<OtherPlay> plays;
    if (info.plays.empty()) return plays;
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
            plays.push_back({p.seat, p.card, from_here, state, views});
        }
        state.play(rules, p.card);
        views.record(p.seat, p.card, state);
    }
    return plays;
}

RuleFit::RuleFit(const InfoState& info)
    : play_rules_(PlayRules::from(*info.rules)), plays_(other_plays(info, play_rules_)) {}

unsigned RuleFit::misfits(const Deal& world) const {
    unsigned out = 0;
    RuleBot rule;
    for (const OtherPlay& play : plays_) {
        if (out & (1u << play.seat)) continue;
        PlayState state = play.before;
        state.hands[play.seat] = world.hands[play.seat] | play.from_here;
        if (state.legal_moves(play_rules_).size() <= 1) continue;
        SeatViews views = play.views;
        if (rule.play(views.view_of(play.seat, state)) != play.card) out |= 1u << play.seat;
    }
    return out;
}

std::vector<double> fit_factors(const std::vector<unsigned>& misfits, int seat, double fit_weight) {
    unsigned fits_somewhere = 0;
    for (unsigned m : misfits) fits_somewhere |= ~m;
    fits_somewhere &= ~(1u << seat);
    std::vector<double> out(misfits.size(), 1.0);
    for (std::size_t w = 0; w < misfits.size(); ++w)
        for (unsigned caught = misfits[w] & fits_somewhere; caught != 0; caught &= caught - 1)
            out[w] *= fit_weight;
    // fit_weight 0 with no world where every such seat fits: nothing tells the worlds apart.
    if (std::all_of(out.begin(), out.end(), [](double f) { return f == 0; }))
        std::fill(out.begin(), out.end(), 1.0);
    return out;
}

double PlayLikelihood::of(const Deal& world) const {
    std::optional<models::Evaluator> eval;
    if (net_) eval.emplace(*net_);
    double log_likelihood = 0;
    for (const OtherPlay& play : plays_) {
        Scorer scorer(*this, play, eval ? &*eval : nullptr);
        log_likelihood += scorer.log_probability(world.hands[play.seat] | play.from_here);
    }
    return log_likelihood;
}

std::vector<double> PlayLikelihood::of(const std::vector<Deal>& worlds,
                                       DecisionArena& arena) const {
    // The network's evaluators, one per thread that scores a play, made on its first.
    std::optional<tbb::enumerable_thread_specific<models::Evaluator>> evaluators;
    if (net_) evaluators.emplace([net = net_.get()] { return models::Evaluator(*net); });
    // by_play[j][w]: play j's term in world w; each task writes only its own play's row.
    std::vector<std::vector<double>> by_play(plays_.size());
    arena.parallel_for_index(static_cast<int>(plays_.size()), [&](int j) {
        const OtherPlay& play = plays_[static_cast<std::size_t>(j)];
        Scorer scorer(*this, play, evaluators ? &evaluators->local() : nullptr);
        std::unordered_map<std::uint64_t, double> seen;  // by the seat's hand then
        std::vector<double>& row = by_play[static_cast<std::size_t>(j)];
        row.reserve(worlds.size());
        for (const Deal& world : worlds) {
            const CardSet hand = world.hands[play.seat] | play.from_here;
            const auto [it, added] = seen.try_emplace(hand.bits(), 0.0);
            if (added) it->second = scorer.log_probability(hand);
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

namespace {

// Each seat's hand as it was dealt in `world`: what it holds there plus what it has played.
std::array<CardSet, kMaxPlayers> dealt_hands(const InfoState& info, const Deal& world) {
    std::array<CardSet, kMaxPlayers> dealt = world.hands;
    for (const PlayedCard& p : info.plays) dealt[p.seat] |= p.card;
    return dealt;
}

// Whether the bid of seat `s` says anything about its hand: another seat's bid, made seeing it.
bool telling_bid(const InfoState& info, int s) {
    return s != info.seat && info.bids[s].made() && !info.bids[s].blind;
}

// Seat `s` about to bid holding `hand`, with the bids made before its turn (in bidding order
// from the dealer's left).
InfoState as_bidder(const InfoState& info, int s, CardSet hand) {
    const Rules& rules = *info.rules;
    InfoState v;
    v.rules = info.rules;
    v.seat = s;
    v.dealer = info.dealer;
    v.hand_number = info.hand_number;
    v.phase = Phase::kBid;
    v.hand = v.dealt = hand;
    v.play.players = static_cast<std::int8_t>(rules.players);
    v.play.hands[s] = hand;
    v.scores = info.scores;
    for (int k = 1; k <= rules.players; ++k) {
        const int b = (info.dealer + k) % rules.players;
        if (b == s) break;
        v.bids[b] = info.bids[b];
    }
    return v;
}

}  // namespace

double world_weight(const InfoState& info, const Deal& world) {
    const Rules& rules = *info.rules;
    if (rules.game == GameKind::kHearts) return pass_weight(info, world);
    const std::array<CardSet, kMaxPlayers> dealt = dealt_hands(info, world);
    RuleBot model;
    double log_weight = 0;
    for (int s = 0; s < rules.players; ++s) {
        if (!telling_bid(info, s)) continue;
        const int model_bid = model.bid(as_bidder(info, s, dealt[s]));
        log_weight -= std::abs(model_bid - info.bids[s].tricks);
    }
    return std::exp(log_weight);
}

double bid_model_weight(const SpadesBidModel& model, const InfoState& info, const Deal& world) {
    const std::array<CardSet, kMaxPlayers> dealt = dealt_hands(info, world);
    double weight = 1;
    for (int s = 0; s < info.rules->players; ++s) {
        if (!telling_bid(info, s)) continue;
        const BidSituation bidder = BidSituation::from(as_bidder(info, s, dealt[s]));
        const Bid bid = info.bids[s];
        const double p = bid.is_nil() ? model.nil_made(bidder)
                                      : model.tricks(bidder)[static_cast<std::size_t>(bid.tricks)];
        weight *= std::max(p, kLeastBidLikelihood);
    }
    return weight;
}

}  // namespace sampling
