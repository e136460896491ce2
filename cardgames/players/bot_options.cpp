#include "cardgames/players/bot_options.hpp"

#include <sstream>

namespace cardgames {

namespace {

// "a", "a or b", "a, b or c".
std::string either(const std::vector<std::string_view>& words) {
    std::string out;
    for (std::size_t i = 0; i < words.size(); ++i) {
        if (i > 0) out += i + 1 == words.size() ? " or " : ", ";
        out += words[i];
    }
    return out;
}

std::string shortest(double x) {  // 0, 2.5, 10
    std::ostringstream out;
    out << x;
    return out.str();
}

bool has(const std::vector<std::string_view>& words, std::string_view word) {
    for (std::string_view w : words)
        if (w == word) return true;
    return false;
}

}  // namespace

bool BotOption::on_off() const {
    return kind == Kind::kChoice && has(choices, "on") && has(choices, "off");
}

std::string BotOption::values() const {
    switch (kind) {
        case Kind::kWhole:
            return std::to_string(static_cast<long long>(lo)) + " to " +
                   std::to_string(static_cast<long long>(hi));
        case Kind::kNumber:
            return shortest(lo) + " to " + shortest(hi);
        case Kind::kChoice:
            return either(choices);
        case Kind::kText:
            break;
    }
    return std::string(placeholder);
}

std::string BotOption::default_text() const {
    return std::string(shown.empty() ? fallback : shown);
}

OptionValue check_option_value(const BotSpec& spec, const BotOption& option,
                               const std::string& text) {
    // The numbers are read by the spec's own typed access, which names the option and its range.
    BotSpec one = spec;
    const std::string key(option.name);
    one.options = {{key, text}};
    OptionValue v;
    v.text = text;
    switch (option.kind) {
        case BotOption::Kind::kWhole:
            v.whole = one.get_int(key, 0, static_cast<int>(option.lo), static_cast<int>(option.hi));
            v.number = v.whole;
            break;
        case BotOption::Kind::kNumber:
            v.number = one.get_double(key, 0, option.lo, option.hi);
            break;
        case BotOption::Kind::kChoice:
            if (option.on_off() && !has(option.choices, text)) {
                if (text == "true" || text == "1" || text == "yes") v.text = "on";
                if (text == "false" || text == "0" || text == "no") v.text = "off";
            }
            if (!has(option.choices, v.text))
                throw InputError("bot spec '" + spec.text + "': " + key + "=" + text + " is not " +
                                 either(option.choices));
            break;
        case BotOption::Kind::kText:
            break;
    }
    return v;
}

std::string options_listing(const std::vector<BotOption>& options) {
    std::string out;
    std::string_view group;
    for (const BotOption& o : options) {
        if (o.group != group) {
            group = o.group;
            out += (out.empty() ? "" : "\n") + std::string(group) + ":\n";
        }
        std::string head = "  " + std::string(o.name) + "=" + o.values();
        out += head + " [" + o.default_text() + "]\n      " + std::string(o.help) + "\n";
    }
    return out;
}

std::string options_markdown(const std::vector<BotOption>& options) {
    std::string out = "| option | values [default] | meaning |\n| --- | --- | --- |\n";
    std::string_view group;
    for (const BotOption& o : options) {
        if (o.group != group) {
            group = o.group;
            out += "| **" + std::string(group) + "** | | |\n";
        }
        std::string values = o.values();
        if (o.kind == BotOption::Kind::kChoice) {
            values.clear();
            for (std::string_view c : o.choices)
                values += (values.empty() ? "" : ", ") + ("`" + std::string(c) + "`");
        }
        out += "| `" + std::string(o.name) + "` | " + values + " [" + o.default_text() + "] | " +
               std::string(o.help) + (o.more.empty() ? "" : " " + std::string(o.more)) + " |\n";
    }
    return out;
}

}  // namespace cardgames
