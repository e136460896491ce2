#include "cardgames/rules/rules.hpp"

#include <boost/program_options.hpp>
#include <charconv>
#include <dlfcn.h>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <sstream>

#include "cardgames/cards/error.hpp"
#include "cardgames/cards/text_file.hpp"

namespace po = boost::program_options;

namespace cardgames {

CardSet Rules::deck() const {
    CardSet d = CardSet::full_deck();
    if (game == GameKind::kSpades) {
        if (players == 3) d -= Card(Suit::kClubs, 2);
        return d;
    }
    // Hearts: remove low cards so the deck divides evenly; hearts and Q♠ are never removed.
    if (players == 3) d -= Card(Suit::kDiamonds, 2);
    if (players == 5) d -= CardSet(Card(Suit::kDiamonds, 2)) | Card(Suit::kClubs, 2);
    if (players == 6)
        d -= CardSet(Card(Suit::kDiamonds, 2)) | Card(Suit::kClubs, 2) | Card(Suit::kClubs, 3) |
             Card(Suit::kDiamonds, 3);
    return d;
}

int Rules::card_points(Card c) const {
    if (c.suit() == Suit::kHearts) return kHeartPoints;
    if (c == Card(Suit::kSpades, kQueen)) return kQueenOfSpadesPoints;
    if (jack_of_diamonds && c == Card(Suit::kDiamonds, kJack)) return kJackOfDiamondsPoints;
    return 0;
}

int Rules::points(CardSet cards) const {
    int sum = 0;
    for (Card c : cards) sum += card_points(c);
    return sum;
}

Card Rules::first_lead_card() const {
    if (game == GameKind::kSpades && !first_lead_two_clubs) return kNoCard;
    return deck().of_suit(Suit::kClubs).lowest();
}

int Rules::pass_offset(int hand_number) const {
    if (game != GameKind::kHearts || !passing) return 0;
    if (players == 4) {
        static constexpr int kCycle[] = {1, -1, 2, 0};
        return kCycle[hand_number % 4];
    }
    return hand_number % 2 == 0 ? 1 : -1;
}

int Rules::pass_recipient(int seat, int hand_number) const {
    if (game == GameKind::kSpades) return is_partnership() ? (seat + 2) % 4 : seat;
    return (seat + pass_offset(hand_number) + players) % players;
}

int Rules::pass_sender(int seat, int hand_number) const {
    if (game == GameKind::kSpades) return is_partnership() ? (seat + 2) % 4 : seat;
    return ((seat - pass_offset(hand_number)) % players + players) % players;
}

void Rules::validate() const {
    auto bad = [](const std::string& m) { throw InputError(m); };
    if (game == GameKind::kSpades) {
        if (players != 3 && players != 4)
            bad("players=" + std::to_string(players) + ": Spades is for 3 or 4 players");
        if (partnership && players != 4)
            bad("partnership=true needs players=4 (3-player Spades is cutthroat)");
    } else if (players < 3 || players > 6) {
        bad("players=" + std::to_string(players) + ": Hearts is for 3 to 6 players");
    }
    if (pass_count < 1 || pass_count > 4)
        bad("pass_count=" + std::to_string(pass_count) + ": must be 1 to 4");
    if (bags_per_penalty < 1) bad("bags_per_penalty must be at least 1");
    if (target <= 0) bad("target must be positive");
    if (end_score <= 0) bad("end_score must be positive");
    // Score limits far beyond any real game, so that no running score can overflow an int.
    auto within = [&](const char* key, int v, int lo, int hi) {
        if (v < lo || v > hi)
            bad(std::string(key) + "=" + std::to_string(v) + ": must be " + std::to_string(lo) +
                " to " + std::to_string(hi));
    };
    within("target", target, 1, kMaxScoreRule);
    within("end_score", end_score, 1, kMaxScoreRule);
    within("loss_threshold", loss_threshold, -kMaxScoreRule, kMaxScoreRule);
    within("bag_penalty", bag_penalty, 0, kMaxScoreRule);
    within("blind_nil_deficit", blind_nil_deficit, 0, kMaxScoreRule);
    within("bags_per_penalty", bags_per_penalty, 1, 100);
}

namespace {

// One rule key: how to read it from text and print it back.
struct Key {
    const char* name;
    std::function<void(Rules&, const std::string&)> set;
    std::function<std::string(const Rules&)> get;
};

bool parse_bool(const std::string& key, const std::string& v) {
    if (v == "true" || v == "on" || v == "yes" || v == "1") return true;
    if (v == "false" || v == "off" || v == "no" || v == "0") return false;
    throw InputError(key + "=" + v + ": expected true or false");
}

int parse_int(const std::string& key, const std::string& v) {
    int out = 0;
    const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), out);
    if (v.empty() || ec != std::errc() || end != v.data() + v.size())
        throw InputError(key + "=" + v + ": expected a whole number");
    return out;
}

Key bool_key(const char* name, bool Rules::*field, bool inverted = false) {
    return {name,
            [=](Rules& r, const std::string& v) { r.*field = parse_bool(name, v) != inverted; },
            [=](const Rules& r) {
                return (r.*field != inverted) ? std::string("true") : std::string("false");
            }};
}

Key int_key(const char* name, int Rules::*field) {
    return {name, [=](Rules& r, const std::string& v) { r.*field = parse_int(name, v); },
            [=](const Rules& r) { return std::to_string(r.*field); }};
}

const std::vector<Key>& keys() {
    static const std::vector<Key> kKeys = {
        {"game",
         [](Rules& r, const std::string& v) {
             if (v == "spades")
                 r.game = GameKind::kSpades;
             else if (v == "hearts")
                 r.game = GameKind::kHearts;
             else
                 throw InputError("game=" + v + ": expected spades or hearts");
         },
         [](const Rules& r) { return game_name(r.game); }},
        int_key("players", &Rules::players),
        bool_key("partnership", &Rules::partnership),
        bool_key("spades_lead_anytime", &Rules::spades_lead_anytime),
        bool_key("first_lead_two_clubs", &Rules::first_lead_two_clubs),
        bool_key("nil", &Rules::nil_allowed),
        bool_key("blind_nil", &Rules::blind_nil),
        int_key("blind_nil_deficit", &Rules::blind_nil_deficit),
        bool_key("nil_tricks_count_for_partner", &Rules::nil_tricks_count_for_partner),
        int_key("target", &Rules::target),
        int_key("loss_threshold", &Rules::loss_threshold),
        int_key("bags_per_penalty", &Rules::bags_per_penalty),
        int_key("bag_penalty", &Rules::bag_penalty),
        bool_key("no_passing", &Rules::passing, /*inverted=*/true),
        int_key("pass_count", &Rules::pass_count),
        bool_key("first_trick_points_allowed", &Rules::first_trick_points_allowed),
        bool_key("hearts_breaking", &Rules::hearts_breaking),
        bool_key("queen_breaks_hearts", &Rules::queen_breaks_hearts),
        bool_key("moon_subtracts", &Rules::moon_subtracts),
        bool_key("jack_of_diamonds", &Rules::jack_of_diamonds),
        int_key("end_score", &Rules::end_score),
    };
    return kKeys;
}

const Key* find_key(const std::string& name) {
    for (const Key& k : keys())
        if (name == k.name) return &k;
    return nullptr;
}

std::string known_keys() {
    std::string out;
    for (const Key& k : keys()) out += std::string(out.empty() ? "" : ", ") + k.name;
    return out;
}

// The line of `text` on which `key` is set, for error messages (0 when not found).
int line_of(const std::string& text, const std::string& key) {
    std::istringstream in(text);
    std::string line;
    for (int n = 1; std::getline(in, line); ++n) {
        const auto start = line.find_first_not_of(" \t");
        if (start == std::string::npos || line.compare(start, key.size(), key) != 0) continue;
        // The whole key, not the start of a longer one ("nil" vs "nil_tricks_count_for_partner").
        const auto after = line.find_first_not_of(" \t", start + key.size());
        if (after == std::string::npos || line[after] == '=') return n;
    }
    return 0;
}

po::options_description describe() {
    po::options_description desc("rules");
    for (const Key& k : keys()) desc.add_options()(k.name, po::value<std::string>());
    return desc;
}

// What Boost's INI reader reports without a line number: a [section] (presets have none), a
// line that is not key = value, a key set twice. Checked first, so the error says where.
void check_ini_lines(const std::string& text, const std::string& where) {
    std::istringstream in(text);
    std::string line;
    std::vector<std::pair<std::string, int>> seen;
    for (int n = 1; std::getline(in, line); ++n) {
        const auto start = line.find_first_not_of(" \t\r");
        if (start == std::string::npos || line[start] == '#' || line[start] == ';') continue;
        const auto end = line.find_last_not_of(" \t\r");
        const std::string body = line.substr(start, end - start + 1);
        const std::string at = where + " line " + std::to_string(n) + ": ";
        if (body.front() == '[')
            throw InputError(at + "'" + body +
                             "': presets have no [sections], only key = value lines");
        const auto eq = body.find('=');
        if (eq == std::string::npos || eq == 0)
            throw InputError(at + "'" + body + "': expected key = value");
        const std::string key = body.substr(0, body.find_last_not_of(" \t", eq - 1) + 1);
        for (const auto& [k, first] : seen)
            if (k == key)
                throw InputError(at + "rule '" + key + "' is set twice (first on line " +
                                 std::to_string(first) + ")");
        seen.emplace_back(key, n);
    }
}

// Parses INI text into key -> value with Boost.Program_options; unknown keys are errors.
po::variables_map parse_ini(const std::string& text, const std::string& where) {
    check_ini_lines(text, where);
    po::variables_map vm;
    std::istringstream in(text);
    try {
        po::store(po::parse_config_file(in, describe(), /*allow_unregistered=*/false), vm);
    } catch (const po::unknown_option& e) {
        const std::string name = e.get_option_name();
        const int line = line_of(text, name);
        throw InputError(where + (line ? " line " + std::to_string(line) : "") +
                         ": unknown rule '" + name + "' (known: " + known_keys() + ")");
    } catch (const po::error& e) {
        throw InputError(where + ": " + e.what());
    }
    return vm;
}

void apply(Rules& rules, const po::variables_map& vm, const std::string& text,
           const std::string& where) {
    // Game and players first: other keys' defaults depend on them.
    for (const char* first : {"game", "players"}) {
        if (!vm.count(first)) continue;
        try {
            find_key(first)->set(rules, vm[first].as<std::string>());
        } catch (const InputError& e) {
            const int line = line_of(text, first);
            rethrow_with_context(where + (line ? " line " + std::to_string(line) : ""), e);
        }
    }
    for (const Key& k : keys()) {
        if (!vm.count(k.name)) continue;
        try {
            k.set(rules, vm[k.name].as<std::string>());
        } catch (const InputError& e) {
            const int line = line_of(text, k.name);
            rethrow_with_context(where + (line ? " line " + std::to_string(line) : ""), e);
        }
    }
}

}  // namespace

std::vector<std::pair<std::string, std::string>> rules_to_pairs(const Rules& rules) {
    std::vector<std::pair<std::string, std::string>> out;
    for (const Key& k : keys()) out.emplace_back(k.name, k.get(rules));
    return out;
}

Rules parse_rules(const std::string& ini_text, const std::string& where,
                  const std::vector<std::string>& overrides) {
    Rules rules;
    apply(rules, parse_ini(ini_text, where), ini_text, where);
    for (const std::string& o : overrides) {
        const auto eq = o.find('=');
        if (eq == std::string::npos || eq == 0)
            throw InputError("--rule '" + o + "': expected key=value");
        const std::string key = o.substr(0, eq);
        if (!find_key(key))
            throw InputError("--rule '" + o + "': unknown rule '" + key +
                             "' (known: " + known_keys() + ")");
        // No text to search for a line: a command-line override has none.
        apply(rules, parse_ini(key + "=" + o.substr(eq + 1) + "\n", "--rule '" + o + "'"), "",
              "--rule '" + o + "'");
    }
    // Partnership is meaningless with 3 players: the 3-player presets say so, overrides may not.
    try {
        rules.validate();
    } catch (const InputError& e) {
        rethrow_with_context(where, e);
    }
    return rules;
}

Rules load_rules(const std::filesystem::path& preset, const std::vector<std::string>& overrides) {
    return parse_rules(read_text_file(preset, "preset"), "preset " + preset.string(), overrides);
}

namespace {

// The folder of the object this code was loaded from: the executable, or the Python extension
// (a shared object dlopen'ed by the interpreter), whichever links the rules.
std::filesystem::path loaded_from() {
    Dl_info info{};
    if (dladdr(reinterpret_cast<void*>(&data_dir), &info) == 0 || info.dli_fname == nullptr)
        return {};
    std::error_code ec;
    auto path = std::filesystem::canonical(info.dli_fname, ec);
    if (ec) {
        // The main program is reported by the name it was started with; /proc knows its file.
        path = std::filesystem::canonical("/proc/self/exe", ec);
        if (ec) return {};
    }
    return path.parent_path();
}

}  // namespace

std::filesystem::path data_dir() {
    if (const char* env = std::getenv("CARDGAMES_DATA")) return env;
    // An installed copy (cmake --install) keeps its data beside it, wherever the prefix was moved:
    // share/cardgames/data relative to bin/ (the executable) or to the Python package.
    if (const auto from = loaded_from(); !from.empty())
        for (const char* relative : {CARDGAMES_DATA_FROM_BIN, CARDGAMES_DATA_FROM_PYTHON}) {
            const auto candidate = (from / relative).lexically_normal();
            std::error_code ec;
            if (std::filesystem::is_directory(candidate / "rules", ec)) return candidate;
        }
    return CARDGAMES_SOURCE_DATA_DIR;
}

std::filesystem::path preset_path(const std::string& name_or_path) {
    if (name_or_path.find('/') != std::string::npos || name_or_path.ends_with(".ini"))
        return name_or_path;
    const auto p = data_dir() / "rules" / (name_or_path + ".ini");
    if (!std::filesystem::exists(p)) {
        std::string known;
        if (std::filesystem::is_directory(data_dir() / "rules"))
            for (const auto& e : std::filesystem::directory_iterator(data_dir() / "rules"))
                if (e.path().extension() == ".ini")
                    known += (known.empty() ? "" : ", ") + e.path().stem().string();
        throw InputError("preset '" + name_or_path + "': no such preset (known: " + known + ")");
    }
    return p;
}

std::string form_name(const Rules& rules) {
    if (rules.game == GameKind::kHearts) return "hearts" + std::to_string(rules.players);
    if (rules.is_partnership()) return "spades-partnership";
    return "spades-cutthroat" + std::to_string(rules.players);
}

GameKind game_of_form(const std::string& form) {
    return form.starts_with("spades") ? GameKind::kSpades : GameKind::kHearts;
}

std::string default_preset(GameKind game) {
    return game == GameKind::kSpades ? "spades-partnership" : "hearts4";
}

std::string game_name(GameKind g) {
    return g == GameKind::kSpades ? "spades" : "hearts";
}

Rules resolve_rules(const std::optional<std::string>& game, const std::string& preset,
                    const std::vector<std::string>& overrides) {
    const std::string kind = game ? *game : "hearts";
    if (kind != "hearts" && kind != "spades")
        throw InputError("--game '" + kind + "': expected hearts or spades");
    const GameKind g = kind == "spades" ? GameKind::kSpades : GameKind::kHearts;
    const std::string name = preset.empty() ? default_preset(g) : preset;
    Rules rules = load_rules(preset_path(name), overrides);
    // --game only picks a default preset: beside a preset (or a game= override) that plays the
    // other game it would be silently ignored, so it is refused.
    if (game && rules.game != g) {
        const std::string other = game_name(rules.game);
        throw InputError("--game " + kind + " disagrees with " +
                         (preset.empty() ? "--rule game=" + other
                                         : "--preset " + preset + ", a " + other + " preset") +
                         ": give one of them");
    }
    return rules;
}

}  // namespace cardgames
