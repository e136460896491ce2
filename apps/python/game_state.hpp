#pragma once
// The game as the Python module's State sees it: a Game driven one action (a small integer) at a
// time, OpenSpiel style. Actions (docs/guide/python.md): 0-51 play a card, 52-103 pass a card
// (passes and the blind-nil exchange are chosen one card at a time, as OpenSpiel's Hearts does),
// 104-121 bid 0-17 tricks (0 is nil), 122 no blind nil, 123 blind nil. A card's number is suit * 13
// + rank - 2, suits clubs, diamonds, hearts, spades (2C = 0, AS = 51).
//
// A State plays what `cardgames tournament --seed S` plays: a whole game (board 0's game seed), or
// with hands = N the N boards of `--hands N`, each one hand from zero scores. It keeps its action
// history (and any deal set by sample_world), from which it can be rebuilt (pickling).

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "cardgames/rules/game.hpp"

namespace pycards {

using cardgames::Card;
using cardgames::CardSet;

inline constexpr int kNumCards = 52;
inline constexpr int kPassBase = 52;
inline constexpr int kBidBase = 104;
inline constexpr int kNumBids = cardgames::kMaxTricks + 1;
inline constexpr int kNoBlindNil = kBidBase + kNumBids;  // 122
inline constexpr int kBlindNil = kNoBlindNil + 1;        // 123
inline constexpr int kNumActions = kBlindNil + 1;        // 124

inline int card_number(Card c) {
    return static_cast<int>(c.suit()) * 13 + c.rank() - 2;
}
inline Card card_of_number(int n) {
    return Card(static_cast<cardgames::Suit>(n / 13), n % 13 + 2);
}

// An action the rules refuse now; Python's cardgames.IllegalActionError, a ValueError.
class IllegalAction : public std::invalid_argument {
  public:
    using std::invalid_argument::invalid_argument;
};

// "play QS", "pass QS", "bid 4", "bid nil", "blind nil", "no blind nil"; throws InputError for a
// number outside 0..kNumActions-1.
std::string action_name(int action);

// The legal actions, ascending, of the seat to act in `phase`: `hand` its cards, `pending` those it
// has chosen so far for the pass in progress, `playable` its legal cards (phase kPlay).
std::vector<int> legal_actions_in(const cardgames::Rules& rules, cardgames::Phase phase,
                                  CardSet hand, CardSet pending, CardSet playable);

class GameState {
  public:
    // hands = 0: one whole game; hands = N: N independent hands.
    GameState(const cardgames::Rules& rules, std::uint64_t seed, int hands);

    const cardgames::Rules& rules() const { return rules_; }
    std::uint64_t seed() const { return seed_; }
    int hands() const { return hands_; }
    int board() const { return board_; }
    const cardgames::Game& game() const { return game_; }
    // The games of the boards already over (hands mode), then the current one.
    std::vector<const cardgames::Game*> games() const;
    const std::vector<int>& history() const { return history_; }
    const std::map<std::pair<int, int>, cardgames::Deal>& deals() const { return deals_; }
    CardSet pending_pass() const { return pending_; }

    bool terminal() const { return game_.over(); }
    int current_player() const { return terminal() ? -1 : game_.to_act(); }
    std::vector<int> legal_actions() const;
    // Applies a legal action; throws IllegalAction with the reason otherwise (the Game's
    // own reasons, as the terminal table shows them), changing nothing.
    void apply(int action);
    // Per seat: the score of its unit (hands mode: the sum of its hands' scores). Hearts: points.
    std::vector<int> returns() const;
    cardgames::InfoState info_state(int seat) const;

    // A whole state consistent with what `seat` knows: the hidden hands dealt by the exact
    // DealSampler; passes the seat did not see are cards drawn uniformly from what their receiver
    // held after the pass.
    GameState sample_world(int seat, std::uint64_t seed) const;

    // Rebuilds a state from its parts (pickling); InputError when they do not replay.
    static GameState replay(const cardgames::Rules& rules, std::uint64_t seed, int hands,
                            const std::map<std::pair<int, int>, cardgames::Deal>& deals,
                            const std::vector<int>& actions);

  private:
    void start_board(int board);
    std::string pass_card(Card card);
    void apply_deal_override();
    void after_decision(std::size_t hands_before);

    cardgames::Rules rules_;
    std::uint64_t seed_ = 0;
    int hands_ = 0;
    int board_ = 0;
    cardgames::Game game_;
    std::vector<cardgames::Game> finished_;  // boards over (hands mode)
    std::vector<int> history_;               // every action since the start
    std::size_t game_start_ = 0;             // where the current board's actions begin
    std::size_t hand_start_ = 0;             // where the current hand's actions begin
    CardSet pending_;                        // cards chosen so far for the pass in progress
    std::map<std::pair<int, int>, cardgames::Deal> deals_;  // (board, hand) -> deal set
};

}  // namespace pycards
