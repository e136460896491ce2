#include "sampling/bot_registry.hpp"

#include <functional>
#include <utility>
#include <vector>

#include "cardgames/cards/error.hpp"
#include "cardgames/players/bot_spec.hpp"
#include "cardgames/players/external_bot.hpp"
#include "cardgames/players/random_bot.hpp"
#include "cardgames/players/rule_bot.hpp"
#include "sampling/net_player.hpp"
#include "sampling/oracle.hpp"
#include "sampling/pimc.hpp"
#include "sampling/policy.hpp"

namespace sampling {

using namespace cardgames;

namespace {

using Store = std::shared_ptr<models::ModelStore>;
using Factory = std::function<std::unique_ptr<Player>(const BotSpec&, std::uint64_t,
                                                      const std::stop_token&, const Store&)>;

std::unique_ptr<Player> make_pimc(const BotSpec& spec, std::uint64_t seed, const std::stop_token&,
                                  const Store& store) {
    return std::make_unique<PimcBot>(PimcOptions::from_spec(spec), seed, store);
}

// pimc's options that apply to valuing one world and to pimc's bids and passes
// (oracle_option_table): PimcOptions::from_spec reads an `oracle:` spec by the oracle's table.
std::unique_ptr<Player> make_oracle(const BotSpec& spec, std::uint64_t seed, const std::stop_token&,
                                    const Store& store) {
    return std::make_unique<OracleBot>(PimcOptions::from_spec(spec), seed, store);
}

struct PolicySettings {
    std::string model;
};

const OptionTable<PolicySettings>& policy_option_table() {
    static const OptionTable<PolicySettings> kTable{{
        {{.name = "model",
          .group = "policy",
          .kind = BotOption::Kind::kText,
          .help = "the play-out policy's model file",
          .shown = "the form's data/models/<form>-playout.txt"},
         [](PolicySettings& s, const OptionValue& v) { s.model = v.text; }},
    }};
    return kTable;
}

// A named model is read now, so that a bad file stops the command before it starts.
std::unique_ptr<Player> make_policy(const BotSpec& spec, std::uint64_t /*seed*/,
                                    const std::stop_token&, const Store& store) {
    const PolicySettings s = policy_option_table().parse(spec);
    if (!s.model.empty()) load_model<PolicyModel>(*store, s.model);
    return std::make_unique<PolicyBot>(s.model, store);
}

struct NetSettings {
    std::string model, bid_model, pass_model;
};

const OptionTable<NetSettings>& net_option_table() {
    static const OptionTable<NetSettings> kTable{{
        {{.name = "model",
          .group = "net",
          .kind = BotOption::Kind::kText,
          .help = "the policy network's file",
          .shown = "the form's data/models/<form>-playout-net.net"},
         [](NetSettings& s, const OptionValue& v) { s.model = v.text; }},
        {{.name = "bid_model",
          .group = "net",
          .kind = BotOption::Kind::kText,
          .help = "Spades: the bid network's file, as pimc's bid=net reads it",
          .shown = "none: bids as the rule player"},
         [](NetSettings& s, const OptionValue& v) { s.bid_model = v.text; }},
        {{.name = "pass_model",
          .group = "net",
          .kind = BotOption::Kind::kText,
          .help = "Hearts: the pass network's file, as pimc's pass=net reads it",
          .shown = "none: passes as the rule player"},
         [](NetSettings& s, const OptionValue& v) { s.pass_model = v.text; }},
    }};
    return kTable;
}

// A named network is read now, so that a bad file stops the command before it starts.
std::unique_ptr<Player> make_net(const BotSpec& spec, std::uint64_t /*seed*/,
                                 const std::stop_token&, const Store& store) {
    const NetSettings s = net_option_table().parse(spec);
    if (!s.model.empty()) store->network(s.model, "", "policy");
    if (!s.bid_model.empty()) store->network(s.bid_model, "", "bid");
    if (!s.pass_model.empty()) store->network(s.pass_model, "", "pass");
    return std::make_unique<NetBot>(s.model, store, s.bid_model, s.pass_model);
}

std::unique_ptr<Player> make_random(const BotSpec& spec, std::uint64_t seed, const std::stop_token&,
                                    const Store&) {
    spec.check_known({});
    return std::make_unique<RandomBot>(seed);
}

std::unique_ptr<Player> make_rule(const BotSpec& spec, std::uint64_t seed, const std::stop_token&,
                                  const Store&) {
    spec.check_known({});
    return std::make_unique<RuleBot>(seed);
}

struct ExternalSettings {
    std::string cmd;
    int ms = 0;
    std::string fallback;
};

const OptionTable<ExternalSettings>& external_option_table() {
    using Kind = BotOption::Kind;
    static const OptionTable<ExternalSettings> kTable{{
        {{.name = "cmd",
          .group = "external",
          .kind = Kind::kText,
          .help = "the program to run, speaking the bot protocol (in quotes when it has spaces)",
          .shown = "none: it must be given",
          .placeholder = "COMMAND"},
         [](ExternalSettings& s, const OptionValue& v) { s.cmd = v.text; }},
        {{.name = "ms",
          .group = "external",
          .kind = Kind::kWhole,
          .lo = 1,
          .hi = kMaxBotMs,
          .fallback = "10000",
          .help = "the time limit per decision in milliseconds"},
         [](ExternalSettings& s, const OptionValue& v) { s.ms = v.whole; }},
        {{.name = "fallback",
          .group = "external",
          .kind = Kind::kText,
          .fallback = "random",
          .help = "the bot that takes a decision the program fails (any bot but external)",
          .placeholder = "SPEC"},
         [](ExternalSettings& s, const OptionValue& v) { s.fallback = v.text; }},
    }};
    return kTable;
}

// The fallback is made here, from this same table, so that it may be any bot (pimc included).
std::unique_ptr<Player> make_external(const BotSpec& spec, std::uint64_t seed,
                                      const std::stop_token& stop, const Store& store) {
    const ExternalSettings s = external_option_table().parse(spec);
    const std::string fallback = s.fallback;
    return make_external_bot(
        spec.text, s.cmd, s.ms, fallback,
        [fallback, store](std::uint64_t f) { return make_player(fallback, f, {}, store); }, seed,
        stop);
}

// In the order the help texts list them.
const std::vector<std::pair<std::string, Factory>>& factories() {
    static const std::vector<std::pair<std::string, Factory>> kTable = {
        {"pimc", make_pimc},         {"oracle", make_oracle}, {"policy", make_policy},
        {"net", make_net},           {"random", make_random}, {"rule", make_rule},
        {"external", make_external},
    };
    return kTable;
}

}  // namespace

std::unique_ptr<Player> make_player(const std::string& text, std::uint64_t seed,
                                    std::stop_token stop,
                                    std::shared_ptr<models::ModelStore> store) {
    const BotSpec spec = parse_bot_spec(text);
    if (!store) store = std::make_shared<models::ModelStore>();
    for (const auto& [name, factory] : factories())
        if (name == spec.name) return factory(spec, seed, stop, store);
    throw InputError("bot spec '" + text + "': unknown bot '" + spec.name +
                     "' (known: " + known_bot_names() + ")");
}

std::vector<BotOption> bot_options(const std::string& name) {
    if (name == "pimc") return pimc_option_table().options();
    if (name == "oracle") return oracle_option_table().options();
    if (name == "policy") return policy_option_table().options();
    if (name == "net") return net_option_table().options();
    if (name == "external") return external_option_table().options();
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
