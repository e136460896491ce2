#pragma once
// The `oracle`: a bot that cheats. It sees every hand (the game runner shows them to it,
// Player::sees_all_hands) and values each legal card in the one true world exactly as `pimc`
// values each of its sampled worlds (analyze_world: play-outs by the rule player, the exact solve
// at the end; the same options). Against `rule` it measures how far pimc's card play could go if
// its sampling found the true world every time: the share of the oracle's margin that pimc
// reaches is how much of that bound pimc's inference from what it sees gets
// (docs/results/strength.md).
//
// Bids, blind nil and passes are pimc's own, from the seat's information only, with the same seed:
// the bound is on card play, the one decision pimc makes by valuing worlds, and a pimc and an
// oracle in the same seat of the same board bid and pass alike, so that a pair of runs on the same
// boards differs in card play alone. (Valuing bids in the one true world would be a different
// procedure from pimc's, whose partnership bids are the rule player's.)

#include <cstdint>
#include <optional>
#include <string>

#include "cardgames/rules/player.hpp"
#include "sampling/pimc.hpp"

namespace sampling {

class OracleBot : public cardgames::Player {
  public:
    // The models come from `store` (null: the bot's own), as PimcBot's.
    OracleBot(const PimcOptions& options, std::uint64_t seed,
              std::shared_ptr<cardgames::models::ModelStore> store = nullptr);
    std::string name() const override { return "oracle"; }
    bool sees_all_hands() const override { return true; }
    void see_all_hands(const cardgames::PlayState& world) override { world_ = world; }

    bool blind_nil(const cardgames::InfoState& info) override;
    int bid(const cardgames::InfoState& info) override;
    cardgames::CardSet pass(const cardgames::InfoState& info) override;
    cardgames::Card play(const cardgames::InfoState& info) override;
    std::string check(const cardgames::Rules& rules) const override { return pimc_.check(rules); }

    // The values behind play(), in the world last shown. Throws InputError when no world was
    // shown for this decision (a command that does not run the game itself: the bot protocol,
    // eval's recorded decisions, hints).
    PimcAnalysis analyze(const cardgames::InfoState& info);

  private:
    PimcBot pimc_;  // bids, blind nil and passes
    std::optional<cardgames::PlayState> world_;
};

}  // namespace sampling
