#include "sampling/cutoff_net.hpp"

#include <algorithm>
#include <optional>
#include <span>

#include "cardgames/models/deal_features.hpp"

namespace sampling {

using namespace cardgames;
using models::ActiveFeatures;

namespace {

// One thread's accumulator at the last leaf it evaluated. It holds the network, so the pointer it
// is keyed by cannot be reused by another network while it is kept.
struct ThreadAccumulator {
    std::shared_ptr<const models::Network> net;
    std::optional<models::Evaluator> eval;
    ActiveFeatures active;
};

ThreadAccumulator& thread_accumulator(const std::shared_ptr<const models::Network>& net) {
    thread_local ThreadAccumulator t;
    if (t.net != net) {
        t.eval.reset();
        t.net = net;
        t.eval.emplace(*net);
        t.active.count = 0;  // the evaluator starts at the bias: no feature on
    }
    return t;
}

// Moves `eval` from the features `from` to `to` (both ascending) by their difference.
void move_accumulator(models::Evaluator& eval, std::span<const int> from, std::span<const int> to) {
    std::size_t i = 0, j = 0;
    while (i < from.size() || j < to.size()) {
        if (j == to.size() || (i < from.size() && from[i] < to[j])) {
            eval.remove(from[i++]);
        } else if (i == from.size() || to[j] < from[i]) {
            eval.add(to[j++]);
        } else {
            ++i;
            ++j;
        }
    }
}

void outputs_to_rest(std::span<const float> out, int players,
                     std::array<double, kMaxPlayers>& rest) {
    rest = {};
    for (int p = 0; p < players; ++p) rest[p] = out[static_cast<std::size_t>(p)];
}

}  // namespace

void deal_features(const TrickPlay& g, const ScoreContext& context, ActiveFeatures& out) {
    const PlayState& ps = g.state();
    const int n = g.players();
    out.count = 0;
    for (int s = 0; s < n; ++s)
        for (Card c : ps.hands[s]) out.push(models::deal_hand_feature(s, c));
    out.push(models::deal_to_move_feature(n, ps.to_move));
    if (ps.broken) out.push(models::deal_broken_feature(n));
    if (g.rules().game == GameKind::kSpades) {
        for (int s = 0; s < n; ++s) {
            const Bid& b = context.bids[s];
            if (b.nil_stands(ps.tricks_won[s])) out.push(models::deal_seat_flag_feature(n, s));
            const int need = b.made() && !b.is_nil() ? std::max(0, b.tricks - ps.tricks_won[s]) : 0;
            out.push(models::deal_need_feature(n, s, need));
        }
    } else if (g.moon_possible()) {
        // Only while the moon is possible do the points taken enter the objective's key.
        for (int s = 0; s < n; ++s)
            if (g.penalty(s) > 0) out.push(models::deal_seat_flag_feature(n, s));
    }
    std::sort(out.index.begin(), out.index.begin() + out.count);
}

std::vector<CutoffNetSample> cutoff_net_samples(const TrickPlay& start, const ScoreContext& context,
                                                std::span<const Card> plays) {
    const bool spades = start.rules().game == GameKind::kSpades;
    TrickPlay g = start;
    const auto taken = [&](int p) { return spades ? g.state().tricks_won[p] : g.penalty(p); };
    std::vector<CutoffNetSample> out;
    std::vector<std::array<int, kMaxPlayers>> before;
    for (std::size_t k = 0; k <= plays.size(); ++k) {
        if (g.state().trick_size == 0 && k < plays.size()) {
            CutoffNetSample s;
            deal_features(g, context, s.features);
            out.push_back(s);
            std::array<int, kMaxPlayers> now{};
            for (int p = 0; p < g.players(); ++p) now[p] = taken(p);
            before.push_back(now);
        }
        if (k < plays.size()) g.apply<true>(plays[k]);
    }
    for (std::size_t i = 0; i < out.size(); ++i)
        for (int p = 0; p < g.players(); ++p) out[i].rest[p] = taken(p) - before[i][p];
    return out;
}

std::filesystem::path CutoffNet::default_path(const Rules& rules) {
    return data_dir() / "models" / (form_name(rules) + "-cutoff-net.net");
}

CutoffNet::CutoffNet(std::shared_ptr<const models::Network> net) : net_(std::move(net)) {
    net_->check("", "cutoff");
}

void CutoffNet::predict(const TrickPlay& g, const ScoreContext& context,
                        std::array<double, kMaxPlayers>& rest) const {
    ThreadAccumulator& t = thread_accumulator(net_);
    ActiveFeatures next;
    deal_features(g, context, next);
    move_accumulator(*t.eval, t.active.view(), next.view());
    t.active = next;
    outputs_to_rest(t.eval->evaluate(), g.players(), rest);
}

void CutoffNet::predict_refreshed(const TrickPlay& g, const ScoreContext& context,
                                  std::array<double, kMaxPlayers>& rest) const {
    ActiveFeatures active;
    deal_features(g, context, active);
    models::Evaluator eval(*net_);
    eval.refresh(active.view());
    outputs_to_rest(eval.evaluate(), g.players(), rest);
}

std::string CutoffNet::fingerprint() const {
    return "network " + net_->task() + " " + net_->form() + ": " + std::to_string(net_->digest());
}

std::shared_ptr<const CutoffNet> cutoff_net_for(models::ModelStore& store, const std::string& path,
                                                const Rules& rules) {
    const std::filesystem::path file =
        path.empty() ? CutoffNet::default_path(rules) : std::filesystem::path(path);
    return std::make_shared<const CutoffNet>(store.network(file, form_name(rules), "cutoff"));
}

}  // namespace sampling
