#include "sampling/bot_registry.hpp"

#include <functional>
#include <utility>
#include <vector>

#include "cardgames/cards/error.hpp"
#include "cardgames/players/bot_spec.hpp"
#include "cardgames/players/external_bot.hpp"
#include "cardgames/players/random_bot.hpp"
#include "cardgames/players/rule_bot.hpp"
#include "sampling/oracle.hpp"
#include "sampling/pimc.hpp"
#include "sampling/policy.hpp"

namespace sampling {

using namespace cardgames;

namespace {

using Factory =
    std::function<std::unique_ptr<Player>(const BotSpec&, std::uint64_t, const std::stop_token&)>;

std::unique_ptr<Player> make_pimc(const BotSpec& spec, std::uint64_t seed, const std::stop_token&) {
    return std::make_unique<PimcBot>(PimcOptions::from_spec(spec), seed);
}

// pimc's options that apply to valuing one world and to pimc's bids and passes
// (oracle_option_table): PimcOptions::from_spec reads an `oracle:` spec by the oracle's table.
std::unique_ptr<Player> make_oracle(const BotSpec& spec, std::uint64_t seed,
                                    const std::stop_token&) {
    return std::make_unique<OracleBot>(PimcOptions::from_spec(spec), seed);
}

// A named model is read now, so that a bad file stops the command before it starts.
std::unique_ptr<Player> make_policy(const BotSpec& spec, std::uint64_t /*seed*/,
                                    const std::stop_token&) {
    spec.check_known({"model"});
    const std::string path = spec.get_string("model", "");
    if (!path.empty()) load_policy_model(path);
    return std::make_unique<PolicyBot>(path);
}

std::unique_ptr<Player> make_random(const BotSpec& spec, std::uint64_t seed,
                                    const std::stop_token&) {
    spec.check_known({});
    return std::make_unique<RandomBot>(seed);
}

std::unique_ptr<Player> make_rule(const BotSpec& spec, std::uint64_t seed, const std::stop_token&) {
    spec.check_known({});
    return std::make_unique<RuleBot>(seed);
}

// The fallback is made here, from this same table, so that it may be any bot (pimc included).
std::unique_ptr<Player> make_external(const BotSpec& spec, std::uint64_t seed,
                                      const std::stop_token& stop) {
    spec.check_known({"cmd", "ms", "fallback"});
    const std::string fallback = spec.get_string("fallback", "random");
    return make_external_bot(
        spec.text, spec.get_string("cmd", ""), spec.get_int("ms", 10000, 1, kMaxBotMs), fallback,
        [fallback](std::uint64_t s) { return make_player(fallback, s); }, seed, stop);
}

// In the order the help texts list them.
const std::vector<std::pair<std::string, Factory>>& factories() {
    static const std::vector<std::pair<std::string, Factory>> kTable = {
        {"pimc", make_pimc},     {"oracle", make_oracle}, {"policy", make_policy},
        {"random", make_random}, {"rule", make_rule},     {"external", make_external},
    };
    return kTable;
}

}  // namespace

std::unique_ptr<Player> make_player(const std::string& text, std::uint64_t seed,
                                    std::stop_token stop) {
    const BotSpec spec = parse_bot_spec(text);
    for (const auto& [name, factory] : factories())
        if (name == spec.name) return factory(spec, seed, stop);
    throw InputError("bot spec '" + text + "': unknown bot '" + spec.name +
                     "' (known: " + known_bot_names() + ")");
}

std::vector<BotOption> bot_options(const std::string& name) {
    if (name == "pimc") return pimc_option_table().options();
    if (name == "oracle") return oracle_option_table().options();
    for (const auto& [known, factory] : factories())
        if (known == name) return {};
    throw InputError("unknown bot '" + name + "' (known: " + known_bot_names() + ")");
}

std::string known_bot_names() {
    std::string out;
    for (const auto& [name, factory] : factories()) out += (out.empty() ? "" : ", ") + name;
    return out;
}

}  // namespace sampling
