#include "cardgames/players/bot_spec.hpp"

#include <charconv>
#include <sstream>
#include <vector>

#include "cardgames/cards/error.hpp"

namespace cardgames {

BotSpec parse_bot_spec(const std::string& text) {
    BotSpec spec;
    spec.text = text;
    const auto colon = text.find(':');
    spec.name = text.substr(0, colon);
    if (spec.name.empty()) throw InputError("bot spec '" + text + "': no bot name");
    if (colon == std::string::npos) return spec;
    std::string rest = text.substr(colon + 1);
    std::size_t start = 0;
    while (start <= rest.size()) {
        std::size_t comma = rest.find(',', start);
        // A quoted value (external:cmd="a, b") may hold commas.
        const auto quote = rest.find('"', start);
        if (quote != std::string::npos && quote < comma) {
            const auto close = rest.find('"', quote + 1);
            if (close == std::string::npos)
                throw InputError("bot spec '" + text + "': unclosed quote");
            comma = rest.find(',', close);
        }
        const std::string item =
            rest.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
        const auto eq = item.find('=');
        if (eq == std::string::npos || eq == 0)
            throw InputError("bot spec '" + text + "': option '" + item + "' is not key=value");
        std::string value = item.substr(eq + 1);
        if (value.size() >= 2 && value.front() == '"' && value.back() == '"')
            value = value.substr(1, value.size() - 2);
        spec.options[item.substr(0, eq)] = value;
        if (comma == std::string::npos) break;
        start = comma + 1;
    }
    return spec;
}

void BotSpec::check_known(std::initializer_list<const char*> known) const {
    check_known(std::vector<std::string_view>(known.begin(), known.end()));
}

void BotSpec::check_known(const std::vector<std::string_view>& known) const {
    for (const auto& [key, value] : options) {
        bool ok = false;
        std::string list;
        for (std::string_view k : known) {
            ok = ok || key == k;
            list += (list.empty() ? "" : ", ") + std::string(k);
        }
        if (!ok)
            throw InputError("bot spec '" + text + "': unknown option '" + key + "' for " + name +
                             (list.empty() ? " (it takes none)" : " (known: " + list + ")"));
    }
}

std::string BotSpec::get_string(const std::string& key, const std::string& fallback) const {
    const auto it = options.find(key);
    return it == options.end() ? fallback : it->second;
}

int BotSpec::get_int(const std::string& key, int fallback, int lo, int hi) const {
    const auto it = options.find(key);
    if (it == options.end()) return fallback;
    const std::string& s = it->second;
    int v = 0;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (s.empty() || ec != std::errc() || end != s.data() + s.size() || v < lo || v > hi)
        throw InputError("bot spec '" + text + "': " + key + "=" + s +
                         " is not a whole number from " + std::to_string(lo) + " to " +
                         std::to_string(hi));
    return v;
}

double BotSpec::get_double(const std::string& key, double fallback, double lo, double hi) const {
    const auto it = options.find(key);
    if (it == options.end()) return fallback;
    std::size_t used = 0;
    double v = 0;
    try {
        v = std::stod(it->second, &used);
    } catch (const std::exception&) {
        used = 0;
    }
    if (used == 0 || used != it->second.size() || !(v >= lo && v <= hi)) {
        std::ostringstream range;  // shortest form: 0, 2.5, 10
        range << lo << " to " << hi;
        throw InputError("bot spec '" + text + "': " + key + "=" + it->second +
                         " is not a number from " + range.str());
    }
    return v;
}

bool BotSpec::get_bool(const std::string& key, bool fallback) const {
    const auto it = options.find(key);
    if (it == options.end()) return fallback;
    const std::string& v = it->second;
    if (v == "on" || v == "true" || v == "1" || v == "yes") return true;
    if (v == "off" || v == "false" || v == "0" || v == "no") return false;
    throw InputError("bot spec '" + text + "': " + key + "=" + v + " is not on/off");
}

std::vector<std::string> split_player_list(const std::string& text) {
    std::vector<std::string> out;
    std::string current;
    bool in_quote = false;
    std::size_t i = 0;
    auto flush = [&] {
        out.push_back(current);
        current.clear();
    };
    while (i < text.size()) {
        const char c = text[i];
        if (c == '"') in_quote = !in_quote;
        if (c == ',' && !in_quote) {
            // The next item is an option of this spec when it is key=value and the spec has a ':'.
            const auto next_end = text.find(',', i + 1);
            const std::string next = text.substr(
                i + 1, next_end == std::string::npos ? std::string::npos : next_end - i - 1);
            const auto eq = next.find('='), colon = next.find(':');
            const bool is_option = current.find(':') != std::string::npos &&
                                   eq != std::string::npos &&
                                   (colon == std::string::npos || colon > eq);
            if (!is_option) {
                flush();
                ++i;
                continue;
            }
        }
        current += c;
        ++i;
    }
    flush();
    return out;
}

}  // namespace cardgames
