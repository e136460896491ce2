#pragma once
// A seat's decision maker. Every decision is given only that seat's InfoState. Bots are built by
// name from a spec string ("random", "rule", "pimc:worlds=64") through make_player (bots.hpp).

#include <memory>
#include <string>

#include "cardgames/info_state.hpp"

namespace cardgames {

class Player {
public:
    virtual ~Player() = default;
    virtual std::string name() const = 0;

    // Spades, phase kBlindNil: bid blind nil before seeing the cards?
    virtual bool blind_nil(const InfoState& info) = 0;
    // Spades, phase kBid: tricks 0..cards_per_hand; 0 is nil (only when rules allow nil).
    virtual int bid(const InfoState& info) = 0;
    // Phase kPass: exactly info.pass_count cards from info.hand, given to info.pass_to.
    virtual CardSet pass(const InfoState& info) = 0;
    // Phase kPlay: one of info.legal_cards().
    virtual Card play(const InfoState& info) = 0;
};

}  // namespace cardgames
