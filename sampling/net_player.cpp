#include "sampling/net_player.hpp"

#include <algorithm>
#include <stdexcept>

#include "cardgames/cards/error.hpp"
#include "cardgames/encoding/actions.hpp"
#include "cardgames/models/network.hpp"
#include "cardgames/players/heuristics.hpp"
#include "sampling/bid_exploration.hpp"

namespace sampling {

using namespace cardgames;

std::filesystem::path default_playout_net(const Rules& rules) {
    return data_dir() / "models" / (form_name(rules) + "-playout-net.net");
}

std::shared_ptr<const models::Network> playout_net_for(models::ModelStore& store,
                                                       const std::string& path,
                                                       const Rules& rules) {
    const std::filesystem::path file =
        path.empty() ? default_playout_net(rules) : std::filesystem::path(path);
    return store.network(file, form_name(rules), "policy");
}

std::filesystem::path default_choice_net(const Rules& rules, const std::string& task) {
    return data_dir() / "models" / (form_name(rules) + "-" + task + "-net.net");
}

namespace {

// The network of a choice task at `path` (empty: the form's default), with `outputs` outputs.
std::shared_ptr<const models::Network> choice_net_for(models::ModelStore& store,
                                                      const std::string& path, const Rules& rules,
                                                      const std::string& task, int outputs) {
    const std::filesystem::path file =
        path.empty() ? default_choice_net(rules, task) : std::filesystem::path(path);
    std::shared_ptr<const models::Network> net = store.network(file, form_name(rules), task);
    if (net->outputs() != outputs)
        throw InputError(net->where() + ": tensor 'out.weight': " + std::to_string(net->outputs()) +
                         " outputs, a " + task + " network has " + std::to_string(outputs));
    return net;
}

// The outputs of `net` over the seat's card features, computed from scratch; at least `outputs`
// of them (the loaders checked the count: this guards the indexing).
std::vector<float> choice_outputs(const models::Network& net, const InfoState& info, int outputs) {
    if (info.players() != net.players() || net.outputs() < outputs)
        throw std::logic_error("a " + std::to_string(info.players()) + "-player decision of " +
                               std::to_string(outputs) + " choices for a network of " +
                               std::to_string(net.players()) + " players and " +
                               std::to_string(net.outputs()) + " outputs");
    models::ActiveFeatures active;
    models::card_features(info, net.card_version(), active);
    models::Evaluator eval(net);
    eval.refresh(active.view());
    const std::span<const float> out = eval.evaluate();
    return {out.begin(), out.end()};
}

}  // namespace

std::shared_ptr<const models::Network> bid_net_for(models::ModelStore& store,
                                                   const std::string& path, const Rules& rules) {
    return choice_net_for(store, path, rules, "bid", encoding::kNumBids);
}

std::shared_ptr<const models::Network> bid_value_net_for(models::ModelStore& store,
                                                         const std::string& path,
                                                         const Rules& rules) {
    return choice_net_for(store, path, rules, "bid_value", encoding::kNumBids);
}

std::shared_ptr<const models::Network> pass_net_for(models::ModelStore& store,
                                                    const std::string& path, const Rules& rules) {
    return choice_net_for(store, path, rules, "pass", 52);
}

int net_bid(const models::Network& net, const InfoState& info) {
    const std::vector<float> out = choice_outputs(net, info, info.rules->cards_per_hand() + 1);
    int best = -1;
    for (int b = info.rules->nil_allowed ? 0 : 1; b <= info.rules->cards_per_hand(); ++b)
        if (best < 0 || out[static_cast<std::size_t>(b)] > out[static_cast<std::size_t>(best)])
            best = b;
    return best;
}

std::vector<BidValue> value_net_bids(const models::Network& net, const InfoState& info) {
    const std::vector<float> out = choice_outputs(net, info, info.rules->cards_per_hand() + 1);
    std::vector<BidValue> values;
    for (int b : explored_bids(info, heuristics::spades_bid(info)))
        values.push_back({b, out[static_cast<std::size_t>(b)]});
    return values;
}

int best_valued_bid(const std::vector<BidValue>& values) {
    const BidValue* best = nullptr;
    for (const BidValue& v : values)
        if (!best || v.expected > best->expected) best = &v;  // ascending: ties to the lower bid
    if (!best) throw std::logic_error("no bid to choose from");
    return best->bid;
}

CardSet net_pass(const models::Network& net, const InfoState& info) {
    const std::vector<float> out = choice_outputs(net, info, 52);
    CardSet chosen;
    for (int k = 0; k < info.pass_count; ++k) chosen |= best_legal_card(out, info.hand - chosen);
    return chosen;
}

std::string network_fingerprint(const models::Network& net) {
    return "network " + net.task() + " " + net.form() + ": " + std::to_string(net.digest());
}

Card best_legal_card(std::span<const float> logits, CardSet legal) {
    Card best = kNoCard;
    int best_number = 0;
    float best_logit = 0;
    for (Card c : legal) {
        const int n = models::card_number(c);
        const float v = logits[static_cast<std::size_t>(n)];
        if (best == kNoCard || v > best_logit || (v == best_logit && n < best_number)) {
            best = c;
            best_number = n;
            best_logit = v;
        }
    }
    return best;
}

NetPlayer::NetPlayer(std::shared_ptr<const models::Network> net) : net_(std::move(net)) {
    net_->check("", "policy");
    seats_.reserve(static_cast<std::size_t>(net_->players()));
    for (int s = 0; s < net_->players(); ++s)
        seats_.push_back(SeatAccumulator{models::Evaluator(*net_), std::nullopt, -1, CardSet()});
}

std::span<const std::int16_t> NetPlayer::accumulator(int seat) const {
    return seats_.at(static_cast<std::size_t>(seat)).eval.accumulator();
}

void NetPlayer::follow_history(const InfoState& info) {
    const int shared = seen_.follow(info.plays);
    for (SeatAccumulator& a : seats_)
        if (a.synced > shared) a.synced = -1;
}

bool NetPlayer::continues(const SeatAccumulator& a, const InfoState& info) const {
    if (a.synced < 0) return false;
    CardSet had = info.hand;
    for (std::size_t i = static_cast<std::size_t>(a.synced); i < info.plays.size(); ++i)
        if (info.plays[i].seat == info.seat) had |= info.plays[i].card;
    return had == a.hand;
}

Card NetPlayer::play(const InfoState& info) {
    // The network's form was checked against the table's rules before play.
    if (info.players() != net_->players())
        throw std::logic_error("net player: a " + std::to_string(info.players()) +
                               "-player decision for a network of " +
                               std::to_string(net_->players()) + " players");
    follow_history(info);
    // A forced card needs no forward pass; the seat's accumulator catches up at its next choice.
    const CardSet legal = info.legal_cards();
    if (legal.size() == 1) return legal.lowest();
    SeatAccumulator& a = seats_[static_cast<std::size_t>(info.seat)];
    bring_up_to_date(a, info);
    return best_legal_card(a.eval.evaluate(), legal);
}

void NetPlayer::bring_up_to_date(SeatAccumulator& a, const InfoState& info) {
    ++decisions_;
    if (continues(a, info)) {
        for (std::size_t i = static_cast<std::size_t>(a.synced); i < info.plays.size(); ++i)
            a.tracker->play(info.plays[i].seat, info.plays[i].card, a.eval);
    } else {
        models::ActiveFeatures active;
        models::card_features(info, net_->card_version(), active);
        a.eval.refresh(active.view());
        a.tracker.emplace(info, net_->card_version());
        ++refreshes_;
    }
    a.synced = static_cast<int>(info.plays.size());
    a.hand = info.hand;
}

Card NetBot::play(const InfoState& info) {
    const std::shared_ptr<const models::Network> net = playout_net_for(*store_, path_, *info.rules);
    if (!player_ || player_->network() != net) player_.emplace(net);
    return player_->play(info);
}

int NetBot::bid(const InfoState& info) {
    if (bid_path_.empty()) return RuleBidder::bid(info);
    return net_bid(*bid_net_for(*store_, bid_path_, *info.rules), info);
}

CardSet NetBot::pass(const InfoState& info) {
    if (pass_path_.empty() || info.rules->game != GameKind::kHearts) return RuleBidder::pass(info);
    return net_pass(*pass_net_for(*store_, pass_path_, *info.rules), info);
}

std::string NetBot::check(const Rules& rules) const {
    std::string out = network_fingerprint(*playout_net_for(*store_, path_, rules));
    if (!bid_path_.empty() && rules.game == GameKind::kSpades)
        out += network_fingerprint(*bid_net_for(*store_, bid_path_, rules));
    if (!pass_path_.empty() && rules.game == GameKind::kHearts)
        out += network_fingerprint(*pass_net_for(*store_, pass_path_, rules));
    return out;
}

}  // namespace sampling
