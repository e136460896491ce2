#pragma once
// Playing a hand out from a decision: in one world (every hand dealt), each seat in turn plays the
// card its player chooses from that seat's own information state in the world (view_of), so no
// player sees another's cards. The one play-out of the project: `pimc` values each card by it
// (the rule player in every seat; the mean over worlds is the candidate's value when everyone goes
// on playing by that policy, one step of policy improvement over the rule player, which a
// perfect-information search of the same worlds does not give), its bids and passes by it after
// the bidding and passing of a simulated game, and `cardgames eval` values cards and bids by it
// with the reference player in every seat. Once few enough tricks are left a solver can take over
// and value the rest of the world exactly.

#include <array>
#include <cstdint>

#include "cardgames/rules/game.hpp"
#include "cardgames/rules/info_state.hpp"
#include "cardgames/rules/player.hpp"
#include "cardgames/search/trick_game.hpp"
#include "engine/search.hpp"

namespace sampling {

// The cards a seat knows of its own besides its hand: what it was dealt, passed and received.
struct OwnCards {
    cardgames::CardSet dealt, passed, received;
};

// What every seat of a play-out knows. Public: the bids, the scores, every card played and by
// whom, the trick winners, the trick state. Private: its hand, and its own cards (OwnCards) where
// the play-out knows them; where it does not (the other seats of a sampled world: what they passed
// and received is not part of the world), a seat was dealt its hand and the cards it played, and
// passed and received nothing.
class SeatViews {
  public:
    // From one seat's decision: only `decision.seat`'s own cards are known.
    explicit SeatViews(const cardgames::InfoState& decision);
    // From a decision where every seat's own cards are known (a simulated game's seats).
    SeatViews(const cardgames::InfoState& decision,
              const std::array<OwnCards, cardgames::kMaxPlayers>& own);

    // The information state of `seat` when the hand stands at `world` (after the cards recorded).
    const cardgames::InfoState& view_of(int seat, const cardgames::PlayState& world);
    // Records a card that `seat` played; `after` is the trick state once it was played.
    void record(int seat, cardgames::Card card, const cardgames::PlayState& after);

  private:
    cardgames::InfoState view_;  // the public part grows with each card; the rest is per seat
    std::array<OwnCards, cardgames::kMaxPlayers> own_{};
    unsigned known_ = 0;  // bit s: own_[s] is known
    std::array<cardgames::CardSet, cardgames::kMaxPlayers> played_by_{};
};

// Who plays each seat in a play-out (the same player may sit in several seats).
using Seats = std::array<cardgames::Player*, cardgames::kMaxPlayers>;
inline Seats every_seat(cardgames::Player& player) {
    Seats seats;
    seats.fill(&player);
    return seats;
}

// Plays the hand out from `world` as it stands: `first` (if not kNoCard) for the seat to move,
// then every seat the card `seats` chooses from its view, to the end of the hand; or, with a
// `solver`, until `solve_at` tricks are left at the start of a trick, where the solver (no depth
// limit: exact) values the rest and its expansions are added to `expansions`; a solve that the
// solver's node limit stops is dropped and the seats play on to the end. Returns the world's
// utility tuple; the world is left as it was found. Throws std::logic_error when a player chooses
// an illegal card.
engine::Tuple play_out(SeatViews& views, cardgames::TrickGame& world, cardgames::Card first,
                       const Seats& seats, int solve_at = 0,
                       engine::Searcher<cardgames::TrickGame>* solver = nullptr,
                       std::uint64_t* expansions = nullptr);

// The world of a decision in card play whose hands are `hands`: tricks and points taken, bids and
// bags as the decision's InfoState says; valued by `utility`, Spades bags by `bag_value`.
cardgames::TrickGame world_of(const cardgames::InfoState& info,
                              const std::array<cardgames::CardSet, cardgames::kMaxPlayers>& hands,
                              cardgames::Utility utility,
                              cardgames::BagValue bag_value = cardgames::BagValue::kHand);

// The bids and running bags of a decision, as the Spades score objective needs them.
cardgames::ScoreContext score_context(const cardgames::InfoState& info,
                                      cardgames::BagValue bag_value = cardgames::BagValue::kHand);

// A finished play-out's value for `seat`, as the hand's scoring gives it: its unit's score change
// (Spades, utility kScore, bags valued as the world's ScoreContext says), or minus its penalty
// points (Hearts), so that higher is better.
double hand_value(const cardgames::Rules& rules, const cardgames::TrickGame& world,
                  const engine::Tuple& value, int seat);

// How a deciding seat reads a world's utility tuple `value` (the world's utility).
struct SeatValue {
    double value = 0;   // what the seat maximizes: its own entry; with utility margin, or
                        // `margin`, its side's hand score less the other sides' (mean)
    double shown = 0;   // its side's hand result as TrickGame::report gives it
    double others = 0;  // the other sides' mean, read alike (0 with utility tricks or margin)
};
SeatValue seat_value(const cardgames::Rules& rules, const cardgames::TrickGame& world,
                     const engine::Tuple& value, int seat, bool margin);

// The hand score utility of a game: points in Hearts, the score in Spades.
cardgames::Utility score_utility(const cardgames::Rules& rules);

// Plays out the card play of `game` (a simulated game that has reached it) with `seats`, each
// from its own view, and returns hand_value for `seat` (Spades bags valued by `bag_value`); with a
// `solver`, the exact search values the last `solve_at` tricks (play_out).
double play_card_phase(const cardgames::Game& game, int seat, const Seats& seats, int solve_at = 0,
                       engine::Searcher<cardgames::TrickGame>* solver = nullptr,
                       cardgames::BagValue bag_value = cardgames::BagValue::kHand);

}  // namespace sampling
