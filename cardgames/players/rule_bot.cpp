#include "cardgames/players/rule_bot.hpp"

namespace cardgames {

using namespace heuristics;

bool RuleBot::blind_nil(const InfoState& info) {
    return info.rules->game == GameKind::kSpades && spades_blind_nil(info);
}

int RuleBot::bid(const InfoState& info) {
    return spades_bid(info);
}

CardSet RuleBot::pass(const InfoState& info) {
    CardSet out = info.rules->game == GameKind::kSpades ? spades_exchange(info) : hearts_pass(info);
    // Whatever the rules above chose, hand back exactly pass_count of our own cards.
    out &= info.hand;
    for (CardSet left = info.hand - out; out.size() < info.pass_count && !left.empty();)
        out |= left.pop_lowest();
    while (out.size() > info.pass_count) out -= out.highest();
    return out;
}

Card RuleBot::play(const InfoState& info) {
    const PlayRules& play_rules = memory_.play_rules(*info.rules);
    // A forced card needs no view.
    const CardSet legal =
        info.phase == Phase::kPlay ? info.play.legal_moves(play_rules) : CardSet();
    if (legal.size() == 1) return legal.lowest();
    const TableView view(info, play_rules, memory_.facts(info.plays), legal);
    const Card c = info.rules->game == GameKind::kSpades ? spades_play(view) : hearts_play(view);
    // Never return an illegal card, whatever a rule above got wrong.
    return view.legal.contains(c) ? c : view.legal.lowest();
}

}  // namespace cardgames
