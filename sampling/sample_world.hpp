#pragma once
// A whole game state consistent with what one seat knows, for belief-based and information-set
// search over the OpenSpiel-style GameState (cardgames/encoding). It lives here, not beside
// GameState, because it deals the hidden hands with the exact DealSampler, which is sampling's,
// and cardgames/ may not depend on sampling/.

#include <cstdint>

#include "cardgames/encoding/game_state.hpp"

namespace sampling {

// The hidden hands are dealt by the exact DealSampler; passes the seat did not see are cards drawn
// uniformly from what their receiver held after the pass. InputError when the game is over.
cardgames::encoding::GameState sample_world(const cardgames::encoding::GameState& state, int seat,
                                            std::uint64_t seed);

}  // namespace sampling
