// Bot side of the bot protocol: a session of table lines, handled as `cardgames bot` handles them
// (protocol::run_bot_session): each line checked against the seat's view of the game, the rule bot
// deciding at each `ask`. A table that makes no sense is an InputError (the bot's exit 2).
#include <sstream>

#include "cardgames/cards/error.hpp"
#include "cardgames/players/protocol.hpp"
#include "cardgames/players/rule_bot.hpp"
#include "tests/fuzz/fuzz_target.hpp"

using namespace cardgames;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    std::istringstream in(fuzz::text(data, size));
    std::ostringstream out;
    try {
        protocol::run_bot_session(
            in, out, [](std::uint64_t seed) { return std::make_unique<RuleBot>(seed); });
    } catch (const InputError&) {
    }
    return 0;
}
