#pragma once
// The `rule` bot: plays Spades and Hearts as a sensible casual player does, from its InfoState
// alone, for every player count. It is the baseline that search bots must beat, so its rules are
// the ones real players use: count tricks to bid, second hand low, third hand high, win cheaply,
// avoid bags once the contract is safe, protect and attack nil bids; in Hearts pass the dangerous
// cards, duck with the highest losing card, dump the Q♠ and high hearts, flush out the Q♠ and stop
// an obvious moon. It is fully deterministic (no randomness is needed) and only ever returns a
// legal choice. Its rules are the public heuristics of heuristics.hpp, which search bots use too.
// It remembers what the histories of its last decisions showed (TableMemory), so one bot is for
// one thread.

#include <cstdint>

#include "cardgames/players/heuristics.hpp"
#include "cardgames/rules/player.hpp"

namespace cardgames {

class RuleBot : public Player {
  public:
    // The seed is accepted for the factory's uniform signature; every decision is a pure
    // function of the InfoState.
    explicit RuleBot(std::uint64_t /*seed*/ = 0) {}
    std::string name() const override { return "rule"; }
    bool blind_nil(const InfoState& info) override;
    int bid(const InfoState& info) override;
    CardSet pass(const InfoState& info) override;
    Card play(const InfoState& info) override;

  private:
    // What the last decisions' histories showed: play-outs ask it for every seat, card after card.
    heuristics::TableMemory memory_;
};

// A player that decides blind nil, bids and passes as the rule bot does, and plays its cards its
// own way: the base of the players that search or learning improve at card play alone.
class RuleBidder : public Player {
  public:
    bool blind_nil(const InfoState& info) override { return rule_.blind_nil(info); }
    int bid(const InfoState& info) override { return rule_.bid(info); }
    CardSet pass(const InfoState& info) override { return rule_.pass(info); }

  private:
    RuleBot rule_;
};

}  // namespace cardgames
