#pragma once
// Changes a value of a parsed JSON document into another of its type that still parses (a number
// moved by -3..+3, a flag flipped, a card's rank or suit changed), so that a target reaches the
// checks of what a file states against the rules and its own values, not only its syntax. Which
// value and how comes from a hash of the input, so a case is reproducible.
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace fuzz {

// FNV-1a of the input: the seed of which values change.
inline std::uint64_t input_hash(const std::string& input) {
    std::uint64_t hash = 14695981039346656037ull;
    for (const char c : input) hash = (hash ^ static_cast<unsigned char>(c)) * 1099511628211ull;
    return hash;
}

// The k-th draw from the hash.
inline std::uint64_t draw(std::uint64_t hash, std::uint64_t k) {
    return hash + k * 0x9E3779B97F4A7C15ull;
}

inline void collect_values(nlohmann::json& j, std::vector<nlohmann::json*>& out) {
    if (j.is_structured()) {
        for (nlohmann::json& v : j) collect_values(v, out);
    } else {
        out.push_back(&j);
    }
}

// Another value of the same type, which still parses: numbers by -3..+3, booleans flipped, a
// rank or suit letter of a string replaced by another.
inline void change_value(nlohmann::json& v, std::uint64_t r) {
    if (v.is_number_integer()) {
        const long long step = static_cast<long long>(r % 7) - 3;
        v = v.get<long long>() + (step == 0 ? 1 : step);
    } else if (v.is_number_float()) {
        const double step = static_cast<double>(r % 7) - 3.0;
        v = v.get<double>() + (step == 0 ? 0.5 : step);
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

// One value of `doc`, chosen by `r`, changed as above; false when it has no value to change.
inline bool change_one_value(nlohmann::json& doc, std::uint64_t r) {
    std::vector<nlohmann::json*> values;
    collect_values(doc, values);
    if (values.empty()) return false;
    change_value(*values[(r >> 8) % values.size()], r);
    return true;
}

}  // namespace fuzz
