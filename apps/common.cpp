#include "apps/common.hpp"

#include <iostream>

#include "cardgames/error.hpp"

namespace apps {

using cardgames::InputError;

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

int guarded(const std::string& command, const std::function<int()>& body) {
    try {
        return body();
    } catch (const InputError& e) {
        std::cerr << "cardgames " << command << ": " << e.what() << "\n";
    } catch (const po::error& e) {
        std::cerr << "cardgames " << command << ": " << e.what() << " (see cardgames " << command << " --help)\n";
    }
    return kExitBadInput;
}

std::string seat_name(int seat, int players) {
    static constexpr const char* kNames[] = {"North", "East", "South", "West"};
    if (players == 4) return kNames[seat];
    return "Seat " + std::to_string(seat);
}

}  // namespace apps
