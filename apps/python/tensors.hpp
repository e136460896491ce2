#pragma once
// The observation and information-state tensors of a seat, as float32 vectors with a documented
// layout of named slices (docs/guide/python.md). Seats are relative to the observer: relative seat
// r is the seat r places to its left (0 is the observer itself). Both hold only what the seat
// knows; the information state adds perfect recall of the hand's tricks (who played what in each
// trick so far).

#include <string>
#include <vector>

#include "apps/python/game_state.hpp"

namespace pycards {

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

std::vector<Slice> observation_layout(const cardgames::Rules& rules);
std::vector<Slice> information_state_layout(const cardgames::Rules& rules);
int layout_size(const std::vector<Slice>& layout);

// Writes the tensor into `out` (layout_size floats, zeroed by the caller): from what the seat knows
// (`info`), the seat to act (-1 when the game is over) and the cards the seat has chosen so far for
// the pass it is making (`pending`, used only when it is that seat's pass).
void observation_tensor(const cardgames::InfoState& info, int to_act, CardSet pending, float* out);
void information_state_tensor(const cardgames::InfoState& info, int to_act, CardSet pending,
                              float* out);
// The same for a seat of a State.
void observation_tensor(const GameState& state, int seat, float* out);
void information_state_tensor(const GameState& state, int seat, float* out);

}  // namespace pycards
