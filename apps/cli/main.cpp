// cardgames: one executable, one subcommand per file.
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <string>
#include <vector>

#include "apps/cli/common.hpp"
#include "apps/experiments/cluster.hpp"
#include "cardgames/cards/error.hpp"
#include "sampling/bot_registry.hpp"

namespace {

struct Command {
    const char* name;
    int (*run)(const apps::MpiSession&, int, char**);
    const char* summary;
    bool ranks = false;  // spreads over MPI ranks under mpirun
};

// A command that runs on one process alone, seated in the table of commands.
template <int (*Run)(int, char**)>
int local_command(const apps::MpiSession&, int argc, char** argv) {
    return Run(argc, argv);
}

constexpr Command kCommands[] = {
    {"play", local_command<apps::cmd_play>, "play a game against bots in the terminal"},
    {"replay", local_command<apps::cmd_replay>,
     "re-run game records through the rules and report the first bad event"},
    {"solve", local_command<apps::cmd_solve>,
     "solve a position with perfect information: the value of every legal card"},
    {"bench", local_command<apps::cmd_bench>,
     "measure speed: search on fixed positions (default), --rules, --pimc"},
    {"bot", local_command<apps::cmd_bot>,
     "one of our bots on stdin/stdout, speaking the bot protocol (docs/PROTOCOL.md)"},
    {"tournament", apps::cmd_tournament,
     "self-play between bot specs, resumable, with a results table", true},
    {"eval", apps::cmd_eval,
     "rank bidding or play policies by expected loss over a deal set or records", true},
    {"deals", local_command<apps::cmd_deals>, "print a seeded deal set, one deal per line"},
    {"learn", apps::cmd_learn,
     "learned models: 'learn data' / 'learn fit' (play-out policy), 'learn bids-data' / "
     "'learn bids-fit' (Spades bids), 'learn cutoff-data' / 'learn cutoff-fit' (Hearts cut-off), "
     "'learn selfplay' (decision records for networks), 'learn convert' (a model file to the "
     "current version)",
     true},
};

void usage(std::ostream& out) {
    out << "usage: cardgames [-v|-vv] <command> [options]   (cardgames <command> --help for its "
           "options)\n"
           "       cardgames help BOT   (a bot's spec options: cardgames help pimc)\n"
           "       cardgames --version\n"
           "  -v: log what the bots and runs are doing (info), -vv: every bot decision (debug); on "
           "stderr\n\ncommands:\n";
    for (const Command& c : kCommands)
        out << "  " << c.name << std::string(12 - std::strlen(c.name), ' ') << c.summary << "\n";
}

// `cardgames help BOT [--markdown]`: a bot's spec options, from its table (the docs' table with
// --markdown).
int bot_help(int argc, char** argv) {
    const std::string bot = argv[0];
    const bool markdown = argc == 2 && std::strcmp(argv[1], "--markdown") == 0;
    if (argc > 2 || (argc == 2 && !markdown)) {
        std::cerr << "usage: cardgames help BOT [--markdown]\n";
        return apps::kExitBadInput;
    }
    const std::vector<cardgames::BotOption> options = sampling::bot_options(bot);
    if (markdown) {
        std::cout << cardgames::options_markdown(options);
    } else if (options.empty()) {
        std::cout << bot << " takes no options\n";
    } else {
        std::cout << "a spec is " << bot << ":key=value,...; the options, [default]:\n\n"
                  << cardgames::options_listing(options);
    }
    return 0;
}

bool is_verbosity(const char* arg) {
    return std::strcmp(arg, "-v") == 0 || std::strcmp(arg, "-vv") == 0 ||
           std::strcmp(arg, "--verbose") == 0;
}

// Under mpirun: every rank must run the same command, and only the batch commands spread over
// ranks. Rank 0 says what is wrong; every rank exits 2.
int check_ranks(const apps::MpiSession& mpi, int argc, char** argv) {
    std::string error = mpi.command_line_mismatch(argc, argv);
    if (error.empty() && mpi.ranks() > 1) {
        int i = 1;
        while (i < argc && is_verbosity(argv[i])) ++i;
        const std::string name = i < argc ? argv[i] : "";
        bool spreads = false;
        for (const Command& c : kCommands)
            if (name == c.name) spreads = c.ranks;
        if (!spreads)
            error = "'cardgames " + name +
                    "' runs as one process; only tournament, eval and learn spread over MPI ranks";
    }
    if (error.empty()) return 0;
    if (mpi.rank() == 0) std::cerr << "cardgames: " << error << "\n";
    return apps::kExitBadInput;
}

int run(const apps::MpiSession& mpi, int argc, char** argv) {
    // Logs go to stderr: stdout carries results, and the bot protocol in `cardgames bot`.
    spdlog::set_default_logger(spdlog::stderr_color_mt("cardgames"));
    spdlog::set_level(spdlog::level::warn);
    while (argc >= 2 && is_verbosity(argv[1])) {
        spdlog::set_level(std::strcmp(argv[1], "-vv") == 0 ? spdlog::level::debug
                                                           : spdlog::level::info);
        --argc;
        ++argv;
    }
    if (argc < 2) {
        usage(std::cerr);
        return apps::kExitBadInput;
    }
    const std::string name = argv[1];
    if (name == "help" && argc >= 3) return bot_help(argc - 2, argv + 2);
    if (name == "--help" || name == "-h" || name == "help") {
        usage(std::cout);
        return 0;
    }
    if (name == "--version" || name == "-V") {
        std::cout << "cardgames " << CARDGAMES_VERSION << "\n";
        return 0;
    }
    // The verbosity is the program's, not a command's: say where it goes rather than "unknown
    // option".
    for (int i = 2; i < argc; ++i)
        if (is_verbosity(argv[i])) {
            std::cerr << "cardgames " << name << ": " << argv[i]
                      << " goes before the command: cardgames " << argv[i] << " " << name
                      << " ...\n";
            return apps::kExitBadInput;
        }
    for (const Command& c : kCommands)
        if (name == c.name) return c.run(mpi, argc - 1, argv + 1);
    std::cerr << "cardgames: unknown command '" << name << "'\n";
    usage(std::cerr);
    return apps::kExitBadInput;
}

// No exception ends the program unexplained: bad input is status 2 with its message (the
// commands say it themselves, naming where it was), a failed run 1 with its message, and anything
// else 1 with a message that says it is a bug.
int run_guarded(const apps::MpiSession& mpi, int argc, char** argv) {
    const std::string who =
        mpi.ranks() > 1 ? "cardgames (rank " + std::to_string(mpi.rank()) + "): " : "cardgames: ";
    try {
        return run(mpi, argc, argv);
    } catch (const cardgames::InputError& e) {
        std::cerr << who << apps::terminal_text(e.what()) << "\n";
        return apps::kExitBadInput;
    } catch (const apps::RunError& e) {
        std::cerr << who << apps::terminal_text(e.what()) << "\n";
        return apps::kExitFailed;
    } catch (const std::bad_alloc&) {
        std::cerr << who << "out of memory\n";
        return apps::kExitFailed;
    } catch (const std::exception& e) {
        if (apps::out_of_threads_or_processes(e)) {
            std::cerr << who << "could not start a thread or process ("
                      << apps::terminal_text(e.what())
                      << "): the system's limit on threads or processes is reached; try fewer "
                         "--threads or raise the "
                         "limit (ulimit -u)\n";
            return apps::kExitFailed;
        }
        std::cerr << who
                  << "internal error (a bug; please report it with the command that gave it): "
                  << apps::terminal_text(e.what()) << "\n";
    } catch (...) {
        std::cerr << who
                  << "internal error (a bug; please report it with the command that gave it)\n";
    }
    return apps::kExitFailed;
}

// Whatever a command printed must have reached its standard output: a full disk or /dev/full is
// a failed run (status 1), never a cut table with status 0. Checked once, at the end, for every
// command: the stream's state, then the C buffer's flush and close.
int check_standard_output(int status) {
    errno = 0;
    std::cout.flush();
    const bool stream_failed = std::cout.bad();
    const bool flush_failed = std::fflush(stdout) != 0 || std::ferror(stdout);
    const int error = errno;
    // Closed here so that a failure only the close reports (a full NFS disk) is seen too; nothing
    // writes to stdout after this.
    const bool close_failed = std::fclose(stdout) != 0;
    if (!stream_failed && !flush_failed && !close_failed) return status;
    const int why = error ? error : errno;
    std::cerr << "cardgames: writing to the standard output failed"
              << (why ? std::string(" (") + std::strerror(why) + ")" : std::string()) << "\n";
    return status == 0 ? apps::kExitFailed : status;
}

}  // namespace

int main(int argc, char** argv) {
    const apps::MpiSession mpi(argc, argv);
    if (const int status = check_ranks(mpi, argc, argv)) return check_standard_output(status);
    return check_standard_output(run_guarded(mpi, argc, argv));
}
