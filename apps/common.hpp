#pragma once
// What the subcommands share: the rule options (--game, --preset, --rule), command-line parsing
// that turns every bad option into a clear message, and the error policy: bad input prints
// "cardgames <command>: <message>" and exits with status 2.

#include <boost/program_options.hpp>
#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "cardgames/info_state.hpp"
#include "cardgames/rules.hpp"

namespace apps {

namespace po = boost::program_options;

// Exit statuses: 0 done, 1 a bug or a failed run, 2 bad input, 130 interrupted.
inline constexpr int kExitFailed = 1;
inline constexpr int kExitBadInput = 2;
inline constexpr int kExitInterrupted = 130;

// A run that cannot go on through no fault of its input or of the program: a write that failed
// (a full disk), threads that could not be had. Exit status 1, with the message as it is.
class RunError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

struct RulesOptions {
    std::string game;
    std::string preset;
    std::vector<std::string> overrides;

    void add_to(po::options_description& desc);
    // The rules in force: the preset (or the game's default preset) with the overrides applied.
    cardgames::Rules resolve() const;
};

// FNV-1a, 64 bits: a fingerprint of an input file, or of what each MPI rank worked out.
std::uint64_t fnv1a(const std::string& text);

// Parses argv (after the subcommand) into vm; prints help and returns false for --help.
bool parse_args(const std::string& command, int argc, char** argv, const po::options_description& desc,
                po::variables_map& vm, const po::positional_options_description* positional = nullptr);

// An error message as it goes to the terminal: it may quote text from a file or a bot, so it is
// made one line of valid UTF-8 without control characters (cardgames::safe_text).
inline constexpr std::size_t kMessageBytes = 4000;
std::string terminal_text(const std::string& message);

// Runs a command body; InputError and option errors print a message and give exit status 2.
int guarded(const std::string& command, const std::function<int()>& body);

// One bid per seat, comma-separated: 0-13 (17 in 3-player hands), nil, bnil (blind nil); spaces
// around a bid are ignored. Errors name `label` (the option or field) and the text.
std::array<cardgames::Bid, cardgames::kMaxPlayers> parse_bid_list(const std::string& text, int players,
                                                                   const std::string& label);

// Seat names for printing: North, East, South, West for 4 players, else "Seat 0".
std::string seat_name(int seat, int players);

int cmd_play(int argc, char** argv);
int cmd_replay(int argc, char** argv);
int cmd_bench(int argc, char** argv);
int cmd_solve(int argc, char** argv);
int cmd_bot(int argc, char** argv);
int cmd_tournament(int argc, char** argv);
int cmd_eval(int argc, char** argv);
int cmd_deals(int argc, char** argv);

}  // namespace apps
