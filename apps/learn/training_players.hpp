#pragma once
// A training-data hand as every command that records one deals and seats it.

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "cardgames/cards/seeds.hpp"
#include "cardgames/models/model_store.hpp"
#include "cardgames/players/bot_spec.hpp"
#include "cardgames/rules/game.hpp"
#include "cardgames/rules/player.hpp"
#include "sampling/bot_registry.hpp"

namespace apps {

// Whether a seat's bot spec is a pimc bot (whose decisions the data commands record).
inline bool is_pimc(const std::string& spec) {
    return cardgames::parse_bot_spec(spec).name == "pimc";
}

// Seat s plays specs[s], seeded by seeds::training_bot(hand_seed, s), its models from `store`.
inline std::vector<std::unique_ptr<cardgames::Player>> training_players(
    const std::vector<std::string>& specs, std::uint64_t hand_seed,
    const std::shared_ptr<cardgames::models::ModelStore>& store) {
    std::vector<std::unique_ptr<cardgames::Player>> players;
    for (std::size_t s = 0; s < specs.size(); ++s)
        players.push_back(sampling::make_player(
            specs[s], cardgames::seeds::training_bot(hand_seed, static_cast<int>(s)), {}, store));
    return players;
}

// Hand `index` of a run seeded `run_seed`: its seed, its players and its game, which stops after
// the hand.
struct TrainingHand {
    TrainingHand(const cardgames::Rules& rules, const std::vector<std::string>& specs,
                 std::uint64_t run_seed, long index,
                 const std::shared_ptr<cardgames::models::ModelStore>& store)
        : seed(cardgames::seeds::training_hand(run_seed, index)),
          players(training_players(specs, seed, store)),
          game(rules, seed) {
        game.stop_after_hand();
    }
    std::uint64_t seed;
    std::vector<std::unique_ptr<cardgames::Player>> players;
    cardgames::Game game;
};

}  // namespace apps
