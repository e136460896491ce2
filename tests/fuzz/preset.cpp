// A preset (INI text), read as `--preset FILE` reads it. Accepted rules must write back to pairs
// that read again to the same rules.
#include "cardgames/cards/error.hpp"
#include "cardgames/rules/rules.hpp"
#include "tests/fuzz/fuzz_target.hpp"

using namespace cardgames;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    try {
        const auto pairs = rules_to_pairs(parse_rules(fuzz::text(data, size), "preset fuzz", {}));
        std::string again;
        for (const auto& [key, value] : pairs) again += key + " = " + value + "\n";
        fuzz::require(rules_to_pairs(parse_rules(again, "preset again", {})) == pairs,
                      "preset round trip");
    } catch (const InputError&) {
    }
    return 0;
}
