#pragma once
// Shooting the moon, `pimc:moon=on` (Hearts). A play-out values a pass or a card as if the seat
// went on as the rule player, which ducks and never tries to take every point; so `pimc` shoots
// only where the rule player would by accident or the exact endgame finds it. With moon=on a hand
// holding the ace of hearts also values two passes played out with the seat's cards played by
// MoonShooter, and while the seat could still shoot (moon_open) each card is also played out so;
// a card takes that mean where it leads the rule player's continuation by two standard errors
// over the worlds (chosen once for all worlds, as policy switching does).

#include <array>

#include "cardgames/players/rule_bot.hpp"
#include "cardgames/rules/info_state.hpp"
#include "cardgames/rules/player.hpp"

namespace sampling {

// Plays Hearts cards to take every trick: leads its surest winner (a master card, the longest suit
// first), follows with its highest card when that beats the trick and its lowest when nothing
// does, and discards its lowest card that carries no points. Bids and passes as the rule player
// (play-outs ask it for cards only).
class MoonShooter : public cardgames::RuleBidder {
  public:
    std::string name() const override { return "moon"; }
    cardgames::Card play(const cardgames::InfoState& info) override;
};

// Whether the seat of `info` (card play) could still take every penalty card: Hearts, no other
// seat has taken one (`taken`: each seat's cards won so far), and the seat holds what it cannot
// shoot without, the highest heart still out and a spade that can take the Q♠ (the Q♠ itself or
// a higher spade) unless those are already its own or gone to it.
bool moon_open(const cardgames::InfoState& info,
               const std::array<cardgames::CardSet, cardgames::kMaxPlayers>& taken);

}  // namespace sampling
