#pragma once
// A bot's options declared once, as a table: each option's name, group, kind of value (a whole
// number or a number in a range, one of a few words, or any text), default and help. The spec
// parser, the command line's listing (`cardgames help pimc`), the docs' option table and
// Python's make_bot help are all made from the table, so they cannot disagree.
//
// A bot keeps an OptionTable<Settings> of its options, each with the function that stores a
// checked value in its settings struct; parse() checks a spec against it (an unknown option, or a
// value of the wrong kind or out of range, is an InputError naming the option, the value and what
// it may be) and applies every option in table order, given or by default.

#include <string>
#include <string_view>
#include <vector>

#include "cardgames/cards/error.hpp"
#include "cardgames/players/bot_spec.hpp"

namespace cardgames {

struct BotOption {
    enum class Kind { kWhole, kNumber, kChoice, kText };
    std::string_view name = {};
    std::string_view group = {};
    Kind kind = Kind::kText;
    double lo = 0, hi = 0;                       // kWhole, kNumber: the range, both ends included
    std::vector<std::string_view> choices = {};  // kChoice: the words it takes, the default first
    // The value when the spec does not give one; empty: the settings struct's own (the help
    // says what it means in `shown`).
    std::string_view fallback = {};
    std::string_view help = {};             // one line, plain text
    std::string_view shown = {};            // the default as the help shows it, when not `fallback`
    std::string_view more = {};             // the docs' table only: detail and links (Markdown)
    std::string_view placeholder = "PATH";  // kText: what the value is

    // "on"/"off" among the choices also take true/1/yes and false/0/no.
    bool on_off() const;
    // What it takes: "1 to 100000", "on or off", "PATH".
    std::string values() const;
    std::string default_text() const;
};

// A value from a spec, checked against its option. `text` is the value as written, a choice's
// synonym of on/off read as "on" or "off".
struct OptionValue {
    std::string text;
    int whole = 0;
    double number = 0;
};

// Checks `text` (the spec's value, or the fallback) against `option`; throws InputError naming
// the spec, the option, the value and what the option takes.
OptionValue check_option_value(const BotSpec& spec, const BotOption& option,
                               const std::string& text);

// The table as the command line lists it (grouped, one option a line) and as the docs show it
// (a Markdown table in group order).
std::string options_listing(const std::vector<BotOption>& options);
std::string options_markdown(const std::vector<BotOption>& options);

template <class Settings>
struct OptionTable {
    struct Entry {
        BotOption option;
        void (*set)(Settings&, const OptionValue&);
    };
    std::vector<Entry> entries;

    std::vector<BotOption> options() const {
        std::vector<BotOption> out;
        for (const Entry& e : entries) out.push_back(e.option);
        return out;
    }

    // Every option in table order: the spec's value, else the fallback, else left as it is.
    Settings parse(const BotSpec& spec) const {
        spec.check_known(names());
        Settings settings{};
        for (const Entry& e : entries) {
            const auto it = spec.options.find(std::string(e.option.name));
            if (it == spec.options.end() && e.option.fallback.empty()) continue;
            const std::string text =
                it != spec.options.end() ? it->second : std::string(e.option.fallback);
            e.set(settings, check_option_value(spec, e.option, text));
        }
        return settings;
    }

    std::vector<std::string_view> names() const {
        std::vector<std::string_view> out;
        for (const Entry& e : entries) out.push_back(e.option.name);
        return out;
    }
};

}  // namespace cardgames
