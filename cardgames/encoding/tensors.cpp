#include "cardgames/encoding/tensors.hpp"

#include <functional>

namespace cardgames::encoding {

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

void fill_observation(const InfoState& info, int to_act, CardSet pending, const Writer& w) {
    const Rules& rules = *info.rules;
    const int n = rules.players;
    const int seat = info.seat;
    auto rel = [&](int s) { return ((s - seat) % n + n) % n; };
    w.at(kPhaseSlice)[static_cast<int>(info.phase)] = 1;
    for (Card c : info.hand) w.at(kHandSlice)[card_number(c)] = 1;
    if (info.phase == Phase::kPass && to_act == seat)
        for (Card c : pending) w.at(kPassChosenSlice)[card_number(c)] = 1;
    for (Card c : info.passed) w.at(kPassedSlice)[card_number(c)] = 1;
    for (Card c : info.received) w.at(kReceivedSlice)[card_number(c)] = 1;
    const int to = rules.pass_recipient(seat, info.hand_number);
    if (to != seat &&
        (rules.game == GameKind::kHearts || info.pass_to >= 0 || !info.passed.empty()))
        w.at(kPassToSlice)[rel(to)] = 1;
    w.at(kDealerSlice)[rel(info.dealer)] = 1;
    if (to_act >= 0) w.at(kToMoveSlice)[rel(to_act)] = 1;
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

void observation_tensor(const InfoState& info, int to_act, CardSet pending, float* out) {
    const std::vector<Slice> layout = observation_layout(*info.rules);
    fill_observation(info, to_act, pending, Writer(layout, out));
}

void information_state_tensor(const InfoState& info, int to_act, CardSet pending, float* out) {
    const Rules& rules = *info.rules;
    const std::vector<Slice> layout = information_state_layout(rules);
    const Writer w(layout, out);
    fill_observation(info, to_act, pending, w);
    const int n = rules.players;
    const int seat = info.seat;
    float* history = w.at(kTrickHistorySlice);
    if (info.phase == Phase::kPlay || info.phase == Phase::kGameOver)
        for (std::size_t i = 0; i < info.plays.size(); ++i) {
            const int trick = static_cast<int>(i) / n;
            const int r = ((info.plays[i].seat - seat) % n + n) % n;
            history[(trick * n + r) * kNumCards + card_number(info.plays[i].card)] = 1;
        }
}

void observation_tensor(const GameState& state, int seat, float* out) {
    observation_tensor(state.info_state(seat), state.current_player(), state.pending_pass(), out);
}

void information_state_tensor(const GameState& state, int seat, float* out) {
    information_state_tensor(state.info_state(seat), state.current_player(), state.pending_pass(),
                             out);
}

}  // namespace cardgames::encoding
