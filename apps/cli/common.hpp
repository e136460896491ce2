#pragma once
// What the subcommands share: the rule options (--game, --preset, --rule), command-line parsing
// that turns every bad option into a clear message, and the error policy: bad input prints
// "cardgames <command>: <message>" and exits with status 2.

#include <boost/program_options.hpp>
#include <charconv>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "apps/experiments/run.hpp"
#include "cardgames/rules/info_state.hpp"
#include "cardgames/rules/position.hpp"
#include "cardgames/rules/rules.hpp"

namespace apps {

namespace po = boost::program_options;

// A whole-number option that takes exactly lo..hi: the digits of a number, an optional '-', nothing
// else ("1e3", "12abc", " 5" and "+5" are refused), and no wrap-around or overflow ("-1" for an
// unsigned option, 99999999999 for an int). A refusal names the option, the text and the range.
// The help shows the range as the value's name.
template <class T>
class NumberValue : public po::typed_value<T> {
  public:
    NumberValue(T* target, T lo, T hi) : po::typed_value<T>(target), lo_(lo), hi_(hi) {
        this->value_name(std::to_string(lo) + ".." + std::to_string(hi));
    }
    void xparse(boost::any& store, const std::vector<std::string>& tokens) const override {
        po::validators::check_first_occurrence(store);
        const std::string& text = po::validators::get_single_string(tokens);
        T v{};
        const char* end = text.data() + text.size();
        const auto [ptr, ec] = std::from_chars(text.data(), end, v);
        if (text.empty() || ec != std::errc() || ptr != end || v < lo_ || v > hi_) {
            po::error_with_option_name e(
                "the argument ('%value%') for option '%canonical_option%' is invalid: expected a "
                "whole number from " +
                std::to_string(lo_) + " to " + std::to_string(hi_));
            e.set_substitute("value", text);
            throw e;
        }
        store = v;
    }

  private:
    T lo_, hi_;
};

// The one way commands declare a numeric option: number(&games, 1L, kMaxItems).
template <class T>
NumberValue<T>* number(T* target, T lo = std::numeric_limits<T>::min(),
                       T hi = std::numeric_limits<T>::max()) {
    return new NumberValue<T>(target, lo, hi);
}

// A 64-bit seed: any of 0..2^64-1, nothing that wraps ("-1").
inline NumberValue<std::uint64_t>* seed_value(std::uint64_t* target) {
    return number(target);
}

// True when the option was on the command line (not only its default).
inline bool given(const po::variables_map& vm, const char* name) {
    return vm.count(name) && !vm[name].defaulted();
}

// Refuses, naming them, options given on the command line that mean nothing unless `applies`:
// "--spec applies only with --pimc".
void only_with(const po::variables_map& vm, std::initializer_list<const char*> options,
               bool applies, const std::string& condition);

// Refuses any option on the command line beside `option` and `also` (--report prints a file and
// runs nothing; eval's may be given the input to check the file against).
void only_option(const po::variables_map& vm, const std::string& option,
                 std::initializer_list<const char*> also = {});

// Whether `e` says the run could not have a thread or a process it needed (the system's limit
// reached): a std::system_error from starting one (std::thread, fork, pipe) with EAGAIN, ENOMEM,
// EMFILE or ENFILE, or oneTBB's failure to start a worker. Such a run failed (exit 1, RunError);
// it is neither bad input nor a bug.
bool out_of_threads_or_processes(const std::exception& e);

// The same for the threads oneTBB starts by default (all cores), for commands that run in the
// default arena (play, bot, bench --pimc).
void check_default_threads_available();

struct RulesOptions {
    std::string game;
    std::string preset;
    std::vector<std::string> overrides;
    bool game_given = false;

    void add_to(po::options_description& desc);
    // The rules in force: the preset (or the game's default preset) with the overrides applied.
    // --game beside --preset (or --rule game=...) must name the same game: a disagreement is
    // refused.
    cardgames::Rules resolve() const;
};

// Parses argv (after the subcommand) into vm; prints help and returns false for --help. A word
// that is not an option (and not one of `positional`) is refused, naming it.
bool parse_args(const std::string& command, int argc, char** argv,
                const po::options_description& desc, po::variables_map& vm,
                const po::positional_options_description* positional = nullptr);

// An error message as it goes to the terminal: it may quote text from a file or a bot, so it is
// made one line of valid UTF-8 without control characters (cardgames::safe_text).
inline constexpr std::size_t kMessageBytes = 4000;
std::string terminal_text(const std::string& message);

// Runs a command body; InputError and option errors print a message (when `say`: under mpirun
// every rank meets the same error, and rank 0 alone says it) and give exit status 2.
int guarded(const std::string& command, const std::function<int()>& body, bool say = true);

// Bid lists and seat names live with positions (cardgames/rules/position.hpp).
using cardgames::parse_bid_list;
using cardgames::seat_name;

int cmd_play(int argc, char** argv);
int cmd_replay(int argc, char** argv);
int cmd_bench(int argc, char** argv);
int cmd_solve(int argc, char** argv);
int cmd_bot(int argc, char** argv);
class MpiSession;
int cmd_tournament(const MpiSession& mpi, int argc, char** argv);
int cmd_eval(const MpiSession& mpi, int argc, char** argv);
int cmd_deals(int argc, char** argv);
int cmd_learn(const MpiSession& mpi, int argc, char** argv);
// learn bids-data and bids-fit (learn_bids.cpp), dispatched by cmd_learn.
int learn_bids(const MpiSession& mpi, const std::string& what, int argc, char** argv);
// learn cutoff-data and cutoff-fit (learn_cutoff.cpp), dispatched by cmd_learn.
int learn_cutoff(const MpiSession& mpi, const std::string& what, int argc, char** argv);
// learn selfplay (learn_selfplay.cpp), dispatched by cmd_learn.
int learn_selfplay(const MpiSession& mpi, int argc, char** argv);

}  // namespace apps
