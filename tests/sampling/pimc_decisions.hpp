#pragma once
// Test helpers shared by the sampling tests.
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "cardgames/rules/game_runner.hpp"
#include "sampling/bot_registry.hpp"
#include "sampling/pimc.hpp"

namespace sampling {

// The rule player in each of n seats.
inline std::vector<std::unique_ptr<cardgames::Player>> rule_players(int n) {
    std::vector<std::unique_ptr<cardgames::Player>> out;
    for (int s = 0; s < n; ++s) out.push_back(make_player("rule", s));
    return out;
}

// 4-player Hearts (seed 5) dealt `deal`, at the pass (checked): the pass decisions of a
// hand-built deal.
inline cardgames::Game hearts4_at_pass(const char* deal) {
    cardgames::Game game(cardgames::load_rules(cardgames::preset_path("hearts4"), {}), 5);
    game.set_deal(cardgames::parse_deal(deal));
    if (game.phase() != cardgames::Phase::kPass)
        throw std::logic_error(std::string("not at the pass after dealing ") + deal);
    return game;
}

// Plays a hand with pimc in every seat and returns every decision as text.
inline std::string decisions(const std::string& spec, const char* preset, std::uint64_t seed) {
    using namespace cardgames;
    const Rules rules = load_rules(preset_path(preset), {});
    Game game(rules, seed);
    game.stop_after_hand();
    std::vector<std::unique_ptr<Player>> players;
    for (int s = 0; s < rules.players; ++s) players.push_back(make_player(spec, mix_seed(seed, s)));
    std::string out;
    game.set_observer([&](const Game& g, const GameEvent& e) {
        if (e.kind == GameEvent::Kind::kCard) out += to_string(e.card) + " ";
        if (e.kind == GameEvent::Kind::kBid) out += "b" + std::to_string(e.value) + " ";
        if (e.kind == GameEvent::Kind::kPassesDone)
            for (int s = 0; s < g.rules().players; ++s)
                out += "p" + cards_to_string(g.hand().passed[s]) + " ";
    });
    run_game(game, players);
    return out;
}

}  // namespace sampling
