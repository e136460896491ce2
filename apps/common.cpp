#include "apps/common.hpp"

#include <cstdlib>
#include <iostream>
#include <sstream>

#include "apps/cluster.hpp"
#include "cardgames/error.hpp"
#include "cardgames/text.hpp"

namespace apps {

using cardgames::InputError;

std::array<cardgames::Bid, cardgames::kMaxPlayers> parse_bid_list(const std::string& text, int players,
                                                                   const std::string& label) {
    std::array<cardgames::Bid, cardgames::kMaxPlayers> bids{};
    const std::string at = label + " '" + text + "': ";
    std::istringstream in(text);
    std::string w;
    int i = 0;
    while (std::getline(in, w, ',')) {
        const auto b = w.find_first_not_of(" \t\r");
        w = b == std::string::npos ? "" : w.substr(b, w.find_last_not_of(" \t\r") - b + 1);
        if (i >= players) throw InputError(at + "more than " + std::to_string(players) + " bids");
        if (w == "nil") bids[i] = {0, false};
        else if (w == "bnil") bids[i] = {0, true};
        else {
            char* end = nullptr;
            const long v = std::strtol(w.c_str(), &end, 10);
            if (w.empty() || *end || v < 0 || v > 17) throw InputError(at + "'" + w + "' is not a bid (0-13, nil, bnil)");
            bids[i] = {static_cast<int>(v), false};
        }
        ++i;
    }
    if (i != players) throw InputError(at + "give one bid per seat (" + std::to_string(players) + ")");
    return bids;
}

void RulesOptions::add_to(po::options_description& desc) {
    desc.add_options()
        ("game", po::value(&game)->default_value("hearts"), "hearts or spades")
        ("preset", po::value(&preset), "rule preset: a name under data/rules (hearts4, spades-partnership, ...) or a .ini path")
        ("rule", po::value(&overrides)->composing(), "override one rule, key=value (repeatable)");
}

cardgames::Rules RulesOptions::resolve() const {
    std::string name = preset;
    if (name.empty()) {
        if (game == "hearts") name = cardgames::default_preset(cardgames::GameKind::kHearts);
        else if (game == "spades") name = cardgames::default_preset(cardgames::GameKind::kSpades);
        else throw InputError("--game '" + game + "': expected hearts or spades");
    }
    return cardgames::load_rules(cardgames::preset_path(name), overrides);
}

bool parse_args(const std::string& command, int argc, char** argv, const po::options_description& desc,
                po::variables_map& vm, const po::positional_options_description* positional) {
    po::options_description all(desc);
    all.add_options()("help,h", "show this help");
    auto parser = po::command_line_parser(argc, argv).options(all);
    if (positional) parser.positional(*positional);
    po::store(parser.run(), vm);
    if (vm.count("help")) {
        std::cout << "usage: cardgames " << command << " [options]\n" << all << "\n";
        return false;
    }
    po::notify(vm);
    return true;
}

std::uint64_t fnv1a(const std::string& text) {
    std::uint64_t hash = 0xcbf29ce484222325ULL;
    for (unsigned char c : text) hash = (hash ^ c) * 0x100000001b3ULL;
    return hash;
}

std::string terminal_text(const std::string& message) { return cardgames::safe_text(message, kMessageBytes); }

int guarded(const std::string& command, const std::function<int()>& body) {
    // Under mpirun every rank meets the same error; rank 0 alone says it.
    const bool say = rank() == 0;
    try {
        return body();
    } catch (const QuietExit& q) {
        return q.status;
    } catch (const InputError& e) {
        if (say) std::cerr << "cardgames " << command << ": " << terminal_text(e.what()) << "\n";
    } catch (const po::error& e) {
        if (say)
            std::cerr << "cardgames " << command << ": " << terminal_text(e.what()) << " (see cardgames " << command
                      << " --help)\n";
    }
    return kExitBadInput;
}

std::string seat_name(int seat, int players) {
    static constexpr const char* kNames[] = {"North", "East", "South", "West"};
    if (players == 4) return kNames[seat];
    return "Seat " + std::to_string(seat);
}

}  // namespace apps
