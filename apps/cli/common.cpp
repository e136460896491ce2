#include "apps/cli/common.hpp"

#include <oneapi/tbb/info.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <latch>
#include <sstream>
#include <string_view>
#include <system_error>
#include <thread>

#include "apps/experiments/cluster.hpp"  // QuietExit
#include "cardgames/cards/error.hpp"
#include "cardgames/cards/text.hpp"

namespace apps {

using cardgames::InputError;

void RulesOptions::add_to(po::options_description& desc) {
    desc.add_options()(
        "game", po::value(&game)->notifier([this](const std::string&) { game_given = true; }),
        "hearts or spades (default hearts): the game's default preset; beside --preset it must "
        "name the preset's game")(
        "preset", po::value(&preset),
        "rule preset: a name under data/rules (hearts4, spades-partnership, ...) or a .ini path")(
        "rule", po::value(&overrides)->composing(), "override one rule, key=value (repeatable)");
}

cardgames::Rules RulesOptions::resolve() const {
    return cardgames::resolve_rules(game_given ? std::optional<std::string>(game) : std::nullopt,
                                    preset, overrides);
}

void only_option(const po::variables_map& vm, const std::string& option,
                 std::initializer_list<const char*> also) {
    for (const auto& [name, value] : vm)
        if (name != option && !value.defaulted() &&
            std::find(also.begin(), also.end(), name) == also.end())
            throw InputError("--" + name + " does not apply with --" + option +
                             ", which only prints the file's table");
}

void only_with(const po::variables_map& vm, std::initializer_list<const char*> options,
               bool applies, const std::string& condition) {
    if (applies) return;
    for (const char* o : options)
        if (given(vm, o)) throw InputError("--" + std::string(o) + " applies only " + condition);
}

bool parse_args(const std::string& command, int argc, char** argv,
                const po::options_description& desc, po::variables_map& vm,
                const po::positional_options_description* positional) {
    po::options_description all(desc);
    all.add_options()("help,h", "show this help");
    auto parser = po::command_line_parser(argc, argv).options(all);
    if (positional) parser.positional(*positional);
    const po::parsed_options parsed = parser.run();
    // Without a positional description Boost keeps stray words aside and says nothing.
    for (const po::option& o : parsed.options)
        if (o.string_key.empty() && !o.original_tokens.empty())
            throw InputError("unexpected argument '" + o.original_tokens.front() +
                             "' (options start with --; see cardgames " + command + " --help)");
    po::store(parsed, vm);
    if (vm.count("help")) {
        // The positional words by name ("replay [options] FILE"), as --file and FILE mean the same.
        std::string words;
        for (unsigned i = 0; positional && i < positional->max_total_count() && i < 8; ++i) {
            std::string name = positional->name_for_position(i);
            for (char& c : name) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
            words += " " + name;
        }
        std::cout << "usage: cardgames " << command << " [options]" << words << "\n" << all << "\n";
        return false;
    }
    po::notify(vm);
    return true;
}

bool out_of_threads_or_processes(const std::exception& e) {
    if (const auto* s = dynamic_cast<const std::system_error*>(&e)) {
        const std::error_condition c = s->code().default_error_condition();
        return c == std::errc::resource_unavailable_try_again ||
               c == std::errc::not_enough_memory || c == std::errc::too_many_files_open ||
               c == std::errc::too_many_files_open_in_system;
    }
    // oneTBB reports a worker it could not start as a std::runtime_error (its handle_perror):
    // "pthread_create has failed: Resource temporarily unavailable".
    return std::string_view(e.what()).starts_with("pthread_create");
}

void check_default_threads_available() {
    check_threads_available(tbb::info::default_concurrency() - 1);
}

std::string terminal_text(const std::string& message) {
    return cardgames::safe_text(message, kMessageBytes);
}

int guarded(const std::string& command, const std::function<int()>& body, bool say) {
    try {
        return body();
    } catch (const QuietExit& q) {
        return q.status;
    } catch (const InputError& e) {
        if (say) std::cerr << "cardgames " << command << ": " << terminal_text(e.what()) << "\n";
    } catch (const po::error& e) {
        if (say)
            std::cerr << "cardgames " << command << ": " << terminal_text(e.what())
                      << " (see cardgames " << command << " --help)\n";
    }
    return kExitBadInput;
}

}  // namespace apps
