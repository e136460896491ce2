// A game-record file, line by line as `cardgames replay` reads it: each line parsed with the depth
// limit, game lines read by the checking reader and re-run through the rules. A record that reads
// is also replayed with one of its values changed into another that parses (a number moved, a
// seat or a flag changed, a card's rank or suit changed), so that the checks of what a record
// states against what the rules give are exercised, not only its syntax. A change may be refused
// (InputError) or reported as an illegal event; it must never crash.
#include "cardgames/rules/record.hpp"

#include <string_view>

#include "cardgames/cards/error.hpp"
#include "cardgames/cards/json_input.hpp"
#include "tests/fuzz/fuzz_target.hpp"

using namespace cardgames;
using nlohmann::json;

namespace {

void collect_values(json& j, std::vector<json*>& out) {
    if (j.is_structured()) {
        for (json& v : j) collect_values(v, out);
    } else {
        out.push_back(&j);
    }
}

// Another value of the same type, which still parses: numbers by -3..+3, booleans flipped, a
// rank or suit letter of a string replaced by another.
void change_value(json& v, std::uint64_t r) {
    if (v.is_number_integer()) {
        const long long step = static_cast<long long>(r % 7) - 3;
        v = v.get<long long>() + (step == 0 ? 1 : step);
    } else if (v.is_boolean()) {
        v = !v.get<bool>();
    } else if (v.is_string()) {
        std::string s = v.get<std::string>();
        if (s.empty()) return;
        constexpr std::string_view kRanks = "23456789TJQKA", kSuits = "SHDC";
        for (std::size_t k = 0; k < s.size(); ++k) {
            char& c = s[(r + k) % s.size()];
            if (kRanks.find(c) != std::string_view::npos) {
                c = kRanks[(kRanks.find(c) + 1 + r % 12) % kRanks.size()];
                break;
            }
            if (kSuits.find(c) != std::string_view::npos) {
                c = kSuits[(kSuits.find(c) + 1 + r % 3) % kSuits.size()];
                break;
            }
        }
        v = s;
    }
}

void replay(const json& record) {
    try {
        replay_record(read_game_record(record));
    } catch (const InputError&) {
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string input = fuzz::text(data, size);
    std::uint64_t hash = 14695981039346656037ull;  // FNV-1a: which values change, from the input
    for (const char c : input) hash = (hash ^ static_cast<unsigned char>(c)) * 1099511628211ull;
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
            std::vector<json*> values;
            collect_values(changed, values);
            if (values.empty()) break;
            const std::uint64_t r = hash + k * 0x9E3779B97F4A7C15ull;
            change_value(*values[(r >> 8) % values.size()], r);
            replay(changed);
        }
    }
    return 0;
}
