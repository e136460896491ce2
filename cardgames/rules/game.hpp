#pragma once
// A whole game, hand after hand, as a state machine that takes one decision at a time: a blind-nil
// choice, a bid, a pass or a card, always from the seat to_act(). Each step checks legality and
// returns why a choice is illegal (changing nothing) so that a terminal game can re-ask, a replay
// can report the first bad event, and a bot protocol can fall back. The driver that asks Players
// for decisions is run_game (game_runner.hpp).

#include <array>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "cardgames/cards/deal.hpp"
#include "cardgames/rules/info_state.hpp"
#include "cardgames/rules/play_state.hpp"
#include "cardgames/rules/rules.hpp"
#include "cardgames/rules/scoring.hpp"

namespace cardgames {

// Everything that happened in one hand, as records store it.
struct HandRecord {
    int number = 0;
    int dealer = 0;
    Deal deal;
    std::array<Bid, kMaxPlayers> bids{};
    int pass_offset = 0;                             // Hearts: +1 left, -1 right, 2 across, 0 hold
    std::array<CardSet, kMaxPlayers> passed{};       // Hearts: the cards each seat passed
    std::vector<std::pair<int, CardSet>> exchanges;  // blind nil: (giving seat, cards) in order
    std::vector<PlayedCard> plays;
    std::vector<int> trick_winners;
    std::array<int, kMaxPlayers> tricks{};
    std::array<CardSet, kMaxPlayers> taken{};  // cards won in tricks, per seat
    HandScore score;
    ScoreBoard scores_after;
    bool finished = false;
};

// The blind nil card exchanges of a hand, as (giver, receiver) in the order they are made: for each
// blind nil bidder in bidding order (from the dealer's left), the partner gives two cards, then
// the bidder gives two back. Empty when no seat bid blind nil.
std::vector<std::pair<int, int>> blind_nil_exchanges(const Rules& rules, int dealer,
                                                     const std::array<Bid, kMaxPlayers>& bids);

struct GameEvent {
    enum class Kind {
        kHandStart,
        kBlindNil,
        kBid,
        kPassesDone,
        kExchange,
        kCard,
        kTrick,
        kHandEnd,
        kGameOver
    };
    GameEvent(Kind k, int s = -1, Card c = kNoCard, int v = 0, CardSet cs = {})
        : kind(k), seat(s), card(c), value(v), cards(cs) {}
    Kind kind;
    int seat = -1;  // who acted or who won the trick
    Card card = kNoCard;
    int value = 0;  // bid tricks, blind nil yes/no
    CardSet cards;  // exchanged cards
};

class Game {
  public:
    Game(const Rules& rules, std::uint64_t seed);
    // A game that starts at hand `hand_number` with this dealer and these running scores (for
    // simulations from the middle of a game).
    Game(const Rules& rules, std::uint64_t seed, int hand_number, int dealer,
         const ScoreBoard& scores);

    // Replaces the deal of the current hand; only before its first decision (replays, tests).
    void set_deal(const Deal& deal);
    // Sets the running scores (tests and positions that start mid-game); before the first decision.
    void set_scores(const ScoreBoard& scores);
    void set_observer(std::function<void(const Game&, const GameEvent&)> observer) {
        observer_ = std::move(observer);
    }

    const Rules& rules() const { return rules_; }
    std::uint64_t seed() const { return seed_; }
    Phase phase() const { return phase_; }
    int to_act() const { return to_act_; }
    bool over() const { return phase_ == Phase::kGameOver; }
    const ScoreBoard& scores() const { return scores_; }
    const std::vector<int>& winners() const { return winners_; }  // units
    const HandRecord& hand() const { return hand_; }              // the current (or last) hand
    const std::vector<HandRecord>& finished_hands() const { return history_; }
    const PlayState& play_state() const { return play_; }
    const PlayRules& play_rules() const { return play_rules_; }
    InfoState info_state(int seat) const;
    // After the current hand ends, do not deal another: the game stops (tournaments by hands).
    void stop_after_hand() { stop_after_hand_ = true; }

    // Each returns "" when the choice was legal and applied, else why it is illegal.
    std::string choose_blind_nil(bool blind);
    std::string choose_bid(int tricks);
    std::string choose_pass(CardSet cards);
    std::string choose_card(Card card);

  private:
    void start_hand(int number, int dealer);
    void next_bidder();
    void start_exchange_or_play();
    void start_play();
    void finish_hand();
    void emit(const GameEvent& e);
    int first_bidder() const { return (hand_.dealer + 1) % rules_.players; }

    Rules rules_;
    PlayRules play_rules_;
    std::uint64_t seed_;
    Phase phase_ = Phase::kPlay;
    int to_act_ = 0;
    int bids_done_ = 0;
    bool decided_ = false;  // a decision was taken this hand (set_deal is refused after)
    bool stop_after_hand_ = false;
    std::vector<std::pair<int, int>> exchange_steps_;  // (giver, receiver) still to do
    std::array<CardSet, kMaxPlayers> dealt_{};
    std::array<CardSet, kMaxPlayers> received_{};
    PlayState play_;
    ScoreBoard scores_;
    HandRecord hand_;
    std::vector<HandRecord> history_;
    std::vector<int> winners_;
    std::function<void(const Game&, const GameEvent&)> observer_;
};

}  // namespace cardgames
