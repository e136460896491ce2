#pragma once
// Every bot by name: the one table from a spec ("rule", "pimc:worlds=64",
// "external:cmd=\"python3 bot.py\",fallback=pimc") to a Player, used by every command, every test
// and the external bot's fallback. It lives here, above pimc, because it must reach every bot.
// An unknown name or option is an InputError that names it (and lists the known names).

#include <cstdint>
#include <memory>
#include <stop_token>
#include <string>
#include <vector>

#include "cardgames/models/model_store.hpp"
#include "cardgames/players/bot_options.hpp"
#include "cardgames/rules/player.hpp"

namespace sampling {

// `seed` feeds the bot's own randomness: same seed, same decisions. `stop` is the run's stop
// request: a bot that waits for something outside (external) gives up its wait when it is set.
// `store` holds the model files the bot reads (pimc's and policy's), shared by the players of one
// run so that each file is read once for all of them; null: the bot has a store of its own.
std::unique_ptr<cardgames::Player> make_player(
    const std::string& spec, std::uint64_t seed, std::stop_token stop = {},
    std::shared_ptr<cardgames::models::ModelStore> store = nullptr);

// The options of a bot's spec as its table declares them (bot_options.hpp; pimc's in
// pimc_options.cpp), for the help texts and the docs; empty for a bot that takes none. An unknown
// name is an InputError.
std::vector<cardgames::BotOption> bot_options(const std::string& name);

// The names make_player knows, for help texts: "pimc, random, rule, external".
std::string known_bot_names();

}  // namespace sampling
