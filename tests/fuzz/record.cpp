// A game-record file, line by line as `cardgames replay` reads it: each line parsed with the depth
// limit, game lines read by the checking reader and re-run through the rules.
#include "cardgames/rules/record.hpp"

#include "cardgames/cards/error.hpp"
#include "cardgames/cards/json_input.hpp"
#include "tests/fuzz/fuzz_target.hpp"

using namespace cardgames;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    for (const std::string& line : fuzz::lines(fuzz::text(data, size))) {
        try {
            const nlohmann::json record = parse_json_line(line);
            if (!is_game_record(record)) continue;
            replay_record(read_game_record(record));
        } catch (const InputError&) {
        }
    }
    return 0;
}
