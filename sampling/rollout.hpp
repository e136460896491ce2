#pragma once
// Play-outs for `pimc`'s card decisions: in one sampled world, the seat plays a candidate card and
// then every seat — the deciding one included — plays the rest of the hand as the rule player
// does, each from its own information state in that world (so nobody sees the other hands). The
// mean over worlds is the candidate's value when everyone goes on playing by that policy: one
// step of policy improvement over the rule player, which a perfect-information search of the
// same worlds does not give (it lets every seat play as if it could see all the cards). Once few
// enough tricks are left, the engine solves the rest of the world exactly instead.

#include "cardgames/rules/info_state.hpp"
#include "cardgames/search/trick_game.hpp"
#include "engine/search.hpp"

namespace sampling {

// `game` is the world at the seat's decision (the same object is left as it was found);
// `solve_at`: tricks left at which `solver` (no depth limit: exact) takes over, 0: never; its
// expansions are added to `expansions`. Returns the utility tuple as TrickGame's payoff gives it.
engine::Tuple rollout(const cardgames::InfoState& info, cardgames::TrickGame& game,
                      cardgames::Card first, int solve_at,
                      engine::Searcher<cardgames::TrickGame>& solver, std::uint64_t& expansions);

}  // namespace sampling
