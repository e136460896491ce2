#include "sampling/playout.hpp"

#include <stdexcept>
#include <string>

#include "sampling/pimc.hpp"

namespace sampling {

using namespace cardgames;

SeatViews::SeatViews(const InfoState& decision) : view_(decision) {
    view_.phase = Phase::kPlay;
    view_.pass_to = -1;
    view_.pass_count = 0;
    own_[decision.seat] = {decision.dealt, decision.passed, decision.received};
    known_ = 1u << decision.seat;
    for (const PlayedCard& p : decision.plays) played_by_[p.seat] |= p.card;
}

SeatViews::SeatViews(const InfoState& decision, const std::array<OwnCards, kMaxPlayers>& own)
    : SeatViews(decision) {
    own_ = own;
    known_ = (1u << decision.players()) - 1;
}

const InfoState& SeatViews::view_of(int seat, const PlayState& world) {
    view_.seat = seat;
    view_.play = world;
    for (int p = 0; p < world.players; ++p)
        if (p != seat) view_.play.hands[p] = CardSet();
    view_.hand = world.hands[seat];
    if (known_ >> seat & 1) {
        view_.dealt = own_[seat].dealt;
        view_.passed = own_[seat].passed;
        view_.received = own_[seat].received;
    } else {
        view_.dealt = view_.hand | played_by_[seat];
        view_.passed = view_.received = CardSet();
    }
    return view_;
}

void SeatViews::record(int seat, Card card, const PlayState& after) {
    view_.plays.push_back({static_cast<std::int8_t>(seat), card});
    played_by_[seat] |= card;
    if (after.trick_size == 0)
        view_.trick_winners[static_cast<std::size_t>(after.tricks_played - 1)] = after.leader;
}

engine::Tuple play_out(SeatViews& views, TrickGame& world, Card first, const Seats& seats,
                       int solve_at, engine::Searcher<TrickGame>* solver,
                       std::uint64_t* expansions) {
    std::array<Card, 64> applied{};
    int count = 0;
    auto play = [&](int seat, Card c) {
        world.apply(c);
        views.record(seat, c, world.state());
        applied[static_cast<std::size_t>(count++)] = c;
    };
    if (first != kNoCard) play(world.state().to_move, first);
    engine::Tuple out{};
    bool solved = false;
    while (!world.is_terminal()) {
        const PlayState& s = world.state();
        if (solver && solve_at > 0 && s.trick_size == 0 && s.hands[s.to_move].size() <= solve_at) {
            const auto result = solver->search(world);
            if (expansions) *expansions += result.stats.expansions;
            if (result.complete) {
                out = result.value;
                solved = true;
                break;
            }
            solver = nullptr;  // its node limit stopped it: the seats play on to the end
        }
        const int seat = s.to_move;
        const InfoState& view = views.view_of(seat, s);
        const Card c = seats[static_cast<std::size_t>(seat)]->play(view);
        if (!world.all_legal_cards().contains(c))
            throw std::logic_error("seat " + std::to_string(seat) + " (" +
                                   seats[static_cast<std::size_t>(seat)]->name() +
                                   ") chose the illegal card " + to_string(c));
        play(seat, c);
    }
    if (!solved) world.payoff(out);
    while (count > 0) world.undo(applied[static_cast<std::size_t>(--count)]);
    return out;
}

TrickGame world_of(const InfoState& info, const std::array<CardSet, kMaxPlayers>& hands,
                   Utility utility, BagValue bag_value) {
    PlayState state = info.play;
    state.hands = hands;
    return TrickGame(*info.rules, state, utility, taken_cards(info),
                     score_context(info, bag_value));
}

ScoreContext score_context(const InfoState& info, BagValue bag_value) {
    const Rules& rules = *info.rules;
    ScoreContext context;
    context.bids = info.bids;
    context.bag_value = bag_value;
    for (int s = 0; s < rules.players; ++s)
        context.bags[rules.unit_of(s)] = info.scores.bags[rules.unit_of(s)];
    return context;
}

Utility score_utility(const Rules& rules) {
    return rules.game == GameKind::kHearts ? Utility::kPoints : Utility::kScore;
}

double hand_value(const Rules& rules, const TrickGame& world, const engine::Tuple& value,
                  int seat) {
    const std::vector<int> shown = world.report(value);
    // Hearts reports penalty points per seat, which the seat wants few of.
    if (rules.game == GameKind::kHearts) return -shown[static_cast<std::size_t>(seat)];
    return shown[static_cast<std::size_t>(rules.unit_of(seat))];
}

SeatValue seat_value(const Rules& rules, const TrickGame& world, const engine::Tuple& value,
                     int seat, bool margin) {
    const Utility utility = world.utility();
    const std::vector<int> shown = world.report(value);
    const int mine = utility == Utility::kPoints ? seat : rules.unit_of(seat);
    SeatValue out;
    out.shown = shown[static_cast<std::size_t>(mine)];
    out.value = value[static_cast<std::size_t>(seat)];
    if (utility == Utility::kTricks) return out;
    // The side's margin over the other side, whatever `margin` says.
    if (utility == Utility::kMargin) {
        out.value = out.shown;
        return out;
    }
    double sum = 0;
    int count = 0;
    for (int u = 0; u < static_cast<int>(shown.size()); ++u)
        if (u != rules.unit_of(seat)) {
            sum += shown[static_cast<std::size_t>(u)];
            ++count;
        }
    out.others = count > 0 ? sum / count : 0.0;
    if (!margin) return out;
    // Hearts points are penalties: the seat's margin is the others' less its own.
    const double m = out.shown - out.others;
    out.value = utility == Utility::kPoints ? -m : m;
    return out;
}

double play_card_phase(const Game& game, int seat, const Seats& seats, int solve_at,
                       engine::Searcher<TrickGame>* solver, BagValue bag_value) {
    std::array<OwnCards, kMaxPlayers> own{};
    for (int s = 0; s < game.rules().players; ++s) {
        const InfoState v = game.info_state(s);
        own[s] = {v.dealt, v.passed, v.received};
    }
    const InfoState info = game.info_state(seat);
    SeatViews views(info, own);
    TrickGame world =
        world_of(info, game.play_state().hands, score_utility(game.rules()), bag_value);
    return hand_value(game.rules(), world, play_out(views, world, kNoCard, seats, solve_at, solver),
                      seat);
}

}  // namespace sampling
