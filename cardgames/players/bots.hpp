#pragma once
// Bots by name. A spec is "name" or "name:key=value,key=value" ("pimc:worlds=64,algo=speculative").
// make_player looks the name up in one explicit table (bots.cpp); an unknown name or option is an
// InputError that names it.

#include <cstdint>
#include <map>
#include <memory>
#include <string>

#include "cardgames/rules/player.hpp"

namespace cardgames {

// The longest time limit per decision a spec may set (ms=...): a day.
inline constexpr int kMaxBotMs = 86'400'000;

struct BotSpec {
    std::string name;
    std::map<std::string, std::string> options;
    std::string text;  // the spec as given

    // Typed option access; a bad value throws InputError naming the spec and the option. An
    // integer must be written as one (no "1e3", "12abc", "+5") and lie in lo..hi.
    int get_int(const std::string& key, int fallback, int lo, int hi) const;
    double get_double(const std::string& key, double fallback) const;
    bool get_bool(const std::string& key, bool fallback) const;
    std::string get_string(const std::string& key, const std::string& fallback) const;
    // Throws InputError when an option is not among `known`.
    void check_known(std::initializer_list<const char*> known) const;
};

BotSpec parse_bot_spec(const std::string& text);

// `seed` feeds the bot's own randomness: same seed, same decisions.
std::unique_ptr<Player> make_player(const std::string& spec, std::uint64_t seed);

// The names make_player knows, for help texts.
std::string known_bot_names();

// Splits "pimc:worlds=32,rule,rule,pimc:worlds=128" into player specs: a comma starts a new spec
// unless what follows it is a key=value option of the current one.
std::vector<std::string> split_player_list(const std::string& text);

}  // namespace cardgames
