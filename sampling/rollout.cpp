#include "sampling/rollout.hpp"

#include "cardgames/players/rule_bot.hpp"

namespace sampling {

using namespace cardgames;

engine::Tuple rollout(const InfoState& info, TrickGame& game, Card first, int solve_at,
                      engine::Searcher<TrickGame>& solver, std::uint64_t& expansions) {
    const int me = info.seat;
    InfoState view = info;
    view.phase = Phase::kPlay;
    RuleBot rule;
    std::array<Card, 64> applied{};
    int count = 0;
    auto play = [&](Card c) {
        view.plays.push_back({game.state().to_move, c});
        game.apply(c);
        applied[static_cast<std::size_t>(count++)] = c;
    };
    play(first);
    engine::Tuple out{};
    while (!game.is_terminal()) {
        const PlayState& s = game.state();
        const int tricks_left = s.hands[s.to_move].size();
        if (solve_at > 0 && s.trick_size == 0 && tricks_left <= solve_at) {
            const auto result = solver.search(game);
            out = result.value;
            expansions += result.stats.expansions;
            break;
        }
        const int seat = s.to_move;
        view.seat = seat;
        view.play = s;
        for (int p = 0; p < info.players(); ++p)
            if (p != seat) view.play.hands[p] = CardSet();
        view.hand = s.hands[seat];
        view.dealt = seat == me ? info.dealt : CardSet();
        view.passed = seat == me ? info.passed : CardSet();
        view.received = seat == me ? info.received : CardSet();
        play(rule.play(view));
    }
    if (game.is_terminal()) game.payoff(out);
    while (count > 0) game.undo(applied[static_cast<std::size_t>(--count)]);
    return out;
}

}  // namespace sampling
