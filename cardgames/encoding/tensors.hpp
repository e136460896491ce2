#pragma once
// The observation and information-state tensors of a seat: float32 vectors of named slices, laid
// out in the order below. Seats are relative to the observer: relative seat r is the seat r places
// to its left (0 is the observer itself); n is the number of players. Both hold only what the seat
// knows.
//
//   slice         shape       what
//   phase         5           one-hot: blind_nil, bid, pass, play, over (Phase's order)
//   hand          52          the cards held
//   pass_chosen   52          cards chosen so far for the pass this seat is making
//   passed        52          the cards this seat passed this hand (Hearts pass, blind-nil
//   exchange) received      52          the cards it received pass_to       n           the seat
//   its pass goes to (all zero when hands are held) dealer        n           one-hot to_move n
//   one-hot (all zero when the game is over) leader        n           one-hot: the leader of the
//   trick in progress (play phase only) trick         n x 52      the card each seat has put on the
//   current trick played        52          every card played this hand tricks_won    n tricks won
//   this hand / cards per hand points_taken  n           Hearts penalty points taken this hand / 26
//   bids          n x 19      one-hot: 0 no bid yet, 1 + t a bid of t tricks (nil is t = 0)
//   blind_nil     n           the seat bid blind nil
//   scores        n           its unit's score / target (Hearts: / end score)
//   bags          n           its unit's bags / bags per penalty
//   broken        1           spades (Hearts: hearts) broken
//
// The information state is the observation followed by perfect recall of the hand's tricks:
//
//   trick_history cards per hand x n x 52   who (relative seat) played what in each trick so far
//
// (4 players: 586 and 3,290 values.) Cards are numbered as actions.hpp numbers them.

#include <string>
#include <vector>

#include "cardgames/encoding/game_state.hpp"

namespace cardgames::encoding {

struct Slice {
    std::string name;
    int start = 0;
    std::vector<int> shape;  // the slice's own shape (its size is their product)
    int size() const;
};

// The slices in layout order (observation_layout's, then trick_history).
enum SliceIndex {
    kPhaseSlice,
    kHandSlice,
    kPassChosenSlice,
    kPassedSlice,
    kReceivedSlice,
    kPassToSlice,
    kDealerSlice,
    kToMoveSlice,
    kLeaderSlice,
    kTrickSlice,
    kPlayedSlice,
    kTricksWonSlice,
    kPointsTakenSlice,
    kBidsSlice,
    kBlindNilSlice,
    kScoresSlice,
    kBagsSlice,
    kBrokenSlice,
    kTrickHistorySlice,
};

std::vector<Slice> observation_layout(const Rules& rules);
std::vector<Slice> information_state_layout(const Rules& rules);
int layout_size(const std::vector<Slice>& layout);

// Writes the tensor into `out` (layout_size floats, zeroed by the caller): from what the seat knows
// (`info`), the seat to act (-1 when the game is over) and the cards the seat has chosen so far for
// the pass it is making (`pending`, used only when it is that seat's pass).
void observation_tensor(const InfoState& info, int to_act, CardSet pending, float* out);
void information_state_tensor(const InfoState& info, int to_act, CardSet pending, float* out);
// The same for a seat of a GameState.
void observation_tensor(const GameState& state, int seat, float* out);
void information_state_tensor(const GameState& state, int seat, float* out);

}  // namespace cardgames::encoding
