#include "cardgames/encoding/game_state.hpp"

#include <stdexcept>

#include "cardgames/cards/error.hpp"
#include "cardgames/cards/seeds.hpp"
#include "cardgames/rules/dealing.hpp"

namespace cardgames::encoding {

GameState::GameState(const Rules& rules, std::uint64_t seed, int hands)
    : rules_(rules), seed_(seed), hands_(hands), game_(rules, seeds::tournament_game(seed, 0)) {
    if (hands_ < 0) throw InputError("hands=" + std::to_string(hands) + ": expected 1 or more");
    if (hands_ > 0) game_.stop_after_hand();
}

std::vector<const Game*> GameState::games() const {
    std::vector<const Game*> out;
    for (const Game& g : finished_) out.push_back(&g);
    out.push_back(&game_);
    return out;
}

void GameState::start_board(int board) {
    finished_.push_back(game_);
    board_ = board;
    game_ = Game(rules_, seeds::tournament_game(seed_, board));
    game_.stop_after_hand();
    game_start_ = hand_start_ = history_.size();
    apply_deal_override();
}

// A deal that sample_world set for the hand now starting replaces the seed's deal.
void GameState::apply_deal_override() {
    const auto it = deals_.find({board_, game_.hand().number});
    if (it != deals_.end()) game_.set_deal(it->second);
}

std::vector<int> GameState::legal_actions() const {
    const Phase phase = game_.phase();
    if (phase == Phase::kGameOver) return {};
    return legal_actions_in(
        rules_, phase, game_.play_state().hands[game_.to_act()], pending_,
        phase == Phase::kPlay ? game_.play_state().legal_moves(game_.play_rules()) : CardSet());
}

std::string GameState::pass_card(Card card) {
    if (game_.phase() != Phase::kPass) return game_.choose_pass(CardSet());  // the Game's reason
    if (pending_.contains(card)) return to_string(card) + " is already chosen to pass";
    if (!game_.play_state().hands[game_.to_act()].contains(card))
        return "you do not hold " + to_string(card);
    pending_ |= card;
    const int want = rules_.game == GameKind::kHearts ? rules_.pass_count : 2;
    if (pending_.size() < want) return "";
    const std::string why = game_.choose_pass(pending_);
    if (!why.empty()) throw std::logic_error("a checked pass refused: " + why);
    pending_ = CardSet();
    return "";
}

void GameState::apply(int action) {
    std::string why;
    const std::size_t hands_before = game_.finished_hands().size();
    // The Game checks each choice and changes nothing when it refuses one.
    if (action < 0 || action >= kNumActions)
        why = "not an action (0.." + std::to_string(kNumActions - 1) + ")";
    else if (terminal())
        why = "the game is over";
    else if (action < kPassBase)
        why = game_.choose_card(card_of_number(action));
    else if (action < kBidBase)
        why = pass_card(card_of_number(action - kPassBase));
    else if (action < kNoBlindNil)
        why = game_.choose_bid(action - kBidBase);
    else
        why = game_.choose_blind_nil(action == kBlindNil);
    if (!why.empty())
        throw IllegalAction((action >= 0 && action < kNumActions ? action_name(action) : "action") +
                            " (" + std::to_string(action) + "): " + why);
    history_.push_back(action);
    after_decision(hands_before);
}

void GameState::after_decision(std::size_t hands_before) {
    if (game_.finished_hands().size() == hands_before) return;
    if (game_.over()) {
        if (hands_ > 0 && board_ + 1 < hands_) start_board(board_ + 1);
        return;
    }
    hand_start_ = history_.size();
    apply_deal_override();
}

std::vector<int> GameState::returns() const {
    std::vector<int> out(rules_.players, 0);
    for (const Game* g : games())
        for (int s = 0; s < rules_.players; ++s) {
            const int unit = rules_.unit_of(s);
            if (hands_ == 0)
                out[s] = g->scores().score[unit];
            else
                for (const HandRecord& h : g->finished_hands()) out[s] += h.score.delta[unit];
        }
    return out;
}

InfoState GameState::info_state(int seat) const {
    if (seat < 0 || seat >= rules_.players)
        throw InputError("seat " + std::to_string(seat) + ": expected 0.." +
                         std::to_string(rules_.players - 1));
    return game_.info_state(seat);
}

GameState GameState::replay(const Rules& rules, std::uint64_t seed, int hands,
                            const std::map<std::pair<int, int>, Deal>& deals,
                            const std::vector<int>& actions) {
    GameState s(rules, seed, hands);
    s.deals_ = deals;
    for (const auto& [key, deal] : deals) {
        if (key.first < 0 || key.second < 0 || (hands > 0 && key.first >= hands))
            throw InputError("deal of board " + std::to_string(key.first) + " hand " +
                             std::to_string(key.second) + ": no such hand");
        validate_deal(deal, rules);
    }
    s.apply_deal_override();
    for (std::size_t i = 0; i < actions.size(); ++i) try {
            s.apply(actions[i]);
        } catch (const IllegalAction& e) {
            throw InputError("action " + std::to_string(i) + " of the history: " + e.what());
        }
    return s;
}

}  // namespace cardgames::encoding
