#pragma once
// Bot specs. A spec is "name" or "name:key=value,key=value" ("pimc:worlds=64,algo=speculative").
// The bots are made from specs by the one registry, sampling/bot_registry.hpp (it sits above every
// bot, pimc included); here is only the spec text and its typed options: a bad option is an
// InputError that names it.

#include <initializer_list>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace cardgames {

// The longest time limit per decision a spec may set (ms=...): a day.
inline constexpr int kMaxBotMs = 86'400'000;

struct BotSpec {
    std::string name;
    std::map<std::string, std::string> options;
    std::string text;  // the spec as given

    // Typed option access; a bad value throws InputError naming the spec and the option. An
    // integer must be written as one (no "1e3", "12abc", "+5") and lie in lo..hi; a number
    // (not nan) too.
    int get_int(const std::string& key, int fallback, int lo, int hi) const;
    double get_double(const std::string& key, double fallback, double lo, double hi) const;
    bool get_bool(const std::string& key, bool fallback) const;
    std::string get_string(const std::string& key, const std::string& fallback) const;
    // Throws InputError when an option is not among `known`.
    void check_known(std::initializer_list<const char*> known) const;
    void check_known(const std::vector<std::string_view>& known) const;
};

BotSpec parse_bot_spec(const std::string& text);

// Splits "pimc:worlds=32,rule,rule,pimc:worlds=128" into player specs: a comma starts a new spec
// unless what follows it is a key=value option of the current one.
std::vector<std::string> split_player_list(const std::string& text);

}  // namespace cardgames
