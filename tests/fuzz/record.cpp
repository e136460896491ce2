// A game-record file, line by line as `cardgames replay` reads it: each line parsed with the depth
// limit, game lines read by the checking reader and re-run through the rules. A record that reads
// is also replayed with one of its values changed into another that parses (a number moved, a
// seat or a flag changed, a card's rank or suit changed), so that the checks of what a record
// states against what the rules give are exercised, not only its syntax. A change may be refused
// (InputError) or reported as an illegal event; it must never crash.
#include "cardgames/rules/record.hpp"

#include "cardgames/cards/error.hpp"
#include "cardgames/cards/json_input.hpp"
#include "tests/fuzz/fuzz_target.hpp"
#include "tests/fuzz/mutate.hpp"

using namespace cardgames;
using nlohmann::json;

namespace {

void replay(const json& record) {
    try {
        replay_record(read_game_record(record));
    } catch (const InputError&) {
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string input = fuzz::text(data, size);
    const std::uint64_t hash = fuzz::input_hash(input);
    for (const std::string& line : fuzz::lines(input)) {
        json record;
        try {
            record = parse_json_line(line);
            if (!is_game_record(record)) continue;
        } catch (const InputError&) {
            continue;
        }
        replay(record);
        for (std::uint64_t k = 0; k < 4; ++k) {
            json changed = record;
            if (!fuzz::change_one_value(changed, fuzz::draw(hash, k))) break;
            replay(changed);
        }
    }
    return 0;
}
