#include "apps/python/tensors.hpp"

#include <functional>

namespace pycards {

using namespace cardgames;

int Slice::size() const {
    int s = 1;
    for (int d : shape) s *= d;
    return s;
}

namespace {

constexpr int kPhases = 5;  // blind_nil, bid, pass, play, over (Phase's order)

std::vector<Slice> with_starts(std::vector<Slice> layout) {
    int at = 0;
    for (Slice& s : layout) {
        s.start = at;
        at += s.size();
    }
    return layout;
}

std::vector<Slice> observation_slices(const Rules& rules) {
    const int n = rules.players;
    return {{"phase", 0, {kPhases}},
            {"hand", 0, {kNumCards}},
            {"pass_chosen", 0, {kNumCards}},
            {"passed", 0, {kNumCards}},
            {"received", 0, {kNumCards}},
            {"pass_to", 0, {n}},
            {"dealer", 0, {n}},
            {"to_move", 0, {n}},
            {"leader", 0, {n}},
            {"trick", 0, {n, kNumCards}},
            {"played", 0, {kNumCards}},
            {"tricks_won", 0, {n}},
            {"points_taken", 0, {n}},
            {"bids", 0, {n, kNumBids + 1}},
            {"blind_nil", 0, {n}},
            {"scores", 0, {n}},
            {"bags", 0, {n}},
            {"broken", 0, {1}}};
}

// Where each slice starts in the tensor (a layout's starts, indexed by SliceIndex).
class Writer {
  public:
    Writer(const std::vector<Slice>& layout, float* out) : layout_(layout), out_(out) {}
    float* at(SliceIndex slice) const { return out_ + layout_[slice].start; }

  private:
    const std::vector<Slice>& layout_;
    float* out_;
};

void fill_observation(const GameState& state, int seat, const Writer& w) {
    const Rules& rules = state.rules();
    const int n = rules.players;
    const Game& game = state.game();
    const InfoState info = state.info_state(seat);
    auto rel = [&](int s) { return ((s - seat) % n + n) % n; };
    w.at(kPhaseSlice)[static_cast<int>(game.phase())] = 1;
    for (Card c : info.hand) w.at(kHandSlice)[card_number(c)] = 1;
    if (game.phase() == Phase::kPass && game.to_act() == seat)
        for (Card c : state.pending_pass()) w.at(kPassChosenSlice)[card_number(c)] = 1;
    for (Card c : info.passed) w.at(kPassedSlice)[card_number(c)] = 1;
    for (Card c : info.received) w.at(kReceivedSlice)[card_number(c)] = 1;
    const int to = rules.pass_recipient(seat, info.hand_number);
    if (to != seat &&
        (rules.game == GameKind::kHearts || info.pass_to >= 0 || !info.passed.empty()))
        w.at(kPassToSlice)[rel(to)] = 1;
    w.at(kDealerSlice)[rel(info.dealer)] = 1;
    if (!game.over()) w.at(kToMoveSlice)[rel(game.to_act())] = 1;
    const PlayState& play = info.play;
    if (info.phase == Phase::kPlay) w.at(kLeaderSlice)[rel(play.leader)] = 1;
    for (int i = 0; i < play.trick_size; ++i)
        w.at(kTrickSlice)[rel((play.leader + i) % n) * kNumCards + card_number(play.trick[i])] = 1;
    for (const PlayedCard& p : info.plays) w.at(kPlayedSlice)[card_number(p.card)] = 1;
    const int per_hand = rules.cards_per_hand();
    for (int s = 0; s < n; ++s) {
        const int r = rel(s);
        w.at(kTricksWonSlice)[r] = static_cast<float>(play.tricks_won[s]) / per_hand;
        w.at(kPointsTakenSlice)[r] = static_cast<float>(play.points[s]) / kMoonPoints;
        const Bid& b = info.bids[s];
        w.at(kBidsSlice)[r * (kNumBids + 1) + (b.made() ? 1 + b.tricks : 0)] = 1;
        w.at(kBlindNilSlice)[r] = b.blind ? 1.0f : 0.0f;
        const int unit = rules.unit_of(s);
        const int scale = rules.game == GameKind::kHearts ? rules.end_score : rules.target;
        w.at(kScoresSlice)[r] = static_cast<float>(info.scores.score[unit]) / scale;
        w.at(kBagsSlice)[r] = static_cast<float>(info.scores.bags[unit]) / rules.bags_per_penalty;
    }
    w.at(kBrokenSlice)[0] = play.broken ? 1.0f : 0.0f;
}

}  // namespace

std::vector<Slice> observation_layout(const Rules& rules) {
    return with_starts(observation_slices(rules));
}

std::vector<Slice> information_state_layout(const Rules& rules) {
    std::vector<Slice> layout = observation_slices(rules);
    layout.push_back({"trick_history", 0, {rules.cards_per_hand(), rules.players, kNumCards}});
    return with_starts(layout);
}

int layout_size(const std::vector<Slice>& layout) {
    return layout.empty() ? 0 : layout.back().start + layout.back().size();
}

void observation_tensor(const GameState& state, int seat, float* out) {
    const std::vector<Slice> layout = observation_layout(state.rules());
    fill_observation(state, seat, Writer(layout, out));
}

void information_state_tensor(const GameState& state, int seat, float* out) {
    const std::vector<Slice> layout = information_state_layout(state.rules());
    const Writer w(layout, out);
    fill_observation(state, seat, w);
    const int n = state.rules().players;
    const std::vector<PlayedCard>& plays = state.game().hand().plays;
    float* history = w.at(kTrickHistorySlice);
    if (state.game().phase() == Phase::kPlay || state.game().over())
        for (std::size_t i = 0; i < plays.size(); ++i) {
            const int trick = static_cast<int>(i) / n;
            const int r = ((plays[i].seat - seat) % n + n) % n;
            history[(trick * n + r) * kNumCards + card_number(plays[i].card)] = 1;
        }
}

}  // namespace pycards
