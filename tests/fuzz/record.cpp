// A game-record file, line by line as `cardgames replay` reads it: each line parsed as JSON (a
// line that is not JSON is refused, as replay refuses it), game lines re-run by replay_record.
#include <nlohmann/json.hpp>

#include "cardgames/error.hpp"
#include "cardgames/record.hpp"
#include "tests/fuzz/fuzz_target.hpp"

using namespace cardgames;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    for (const std::string& line : fuzz::lines(fuzz::text(data, size))) {
        nlohmann::json record;
        try {
            record = nlohmann::json::parse(line);
        } catch (const nlohmann::json::exception&) {  // a syntax error, a number out of range
            continue;
        }
        const auto type = record.is_object() ? record.find("type") : record.end();
        if (!record.is_object() || type == record.end() || *type != "game") continue;
        try {
            replay_record(record);
        } catch (const InputError&) {
        }
    }
    return 0;
}
