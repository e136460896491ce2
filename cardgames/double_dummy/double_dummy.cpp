// The double-dummy solver's public face: a Solver behind it, and the loop over the root's cards.
#include "cardgames/double_dummy/double_dummy.hpp"

#include "cardgames/double_dummy/solver.hpp"

namespace cardgames {

DoubleDummy::DoubleDummy(int table_log2)
    : solver_(std::make_unique<double_dummy::Solver>(table_log2)) {}
DoubleDummy::~DoubleDummy() = default;

bool DoubleDummy::supports(const PlayRules& rules) {
    return double_dummy::Solver::supports(rules);
}

int DoubleDummy::solve(const PlayRules& rules, const PlayState& state) {
    return solver_->solve(rules, state);
}

std::vector<CardTricks> DoubleDummy::value_cards(const PlayRules& rules, const PlayState& state) {
    const CardSet legal = state.legal_moves(rules);
    std::vector<CardTricks> out;
    for (Suit s : kSuitsNotationOrder)
        for (Rank r = kAce; r >= kTwo; --r) {
            const Card c(s, r);
            if (!legal.contains(c)) continue;
            PlayState next = state;
            next.play(rules, c);
            // The trick the card completes, if it does, counts too: solve() starts after it.
            const int completed =
                next.tricks_won[0] + next.tricks_won[2] - state.tricks_won[0] - state.tricks_won[2];
            out.push_back({c, completed + solver_->solve(rules, next)});
        }
    return out;
}

RootValue DoubleDummy::value_root(const PlayRules& rules, const PlayState& state) {
    RootValue root;
    root.cards = value_cards(rules, state);
    const bool ns = state.to_move % 2 == 0;
    int best = -1;  // tricks for seats 0 and 2 after the best card
    for (const CardTricks& ct : root.cards)
        if (best < 0 || (ns ? ct.tricks > best : ct.tricks < best)) {
            best = ct.tricks;
            root.best = ct.card;
        }
    if (best >= 0) root.value = side_tricks(best, state.hands[state.to_move].size());
    return root;
}

void DoubleDummy::clear() {
    solver_->clear();
}
const DoubleDummyStats& DoubleDummy::stats() const {
    return solver_->stats();
}
void DoubleDummy::reset_stats() {
    solver_->reset_stats();
}

}  // namespace cardgames
