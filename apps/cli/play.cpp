// cardgames play: a game against bots in the terminal. Reads commands line by line, so it works
// the same with a keyboard or with stdin from a pipe.
#include <unistd.h>

#include <cstdlib>
#include <iostream>
#include <sstream>

#include "apps/cli/common.hpp"
#include "apps/cli/table_view.hpp"
#include "apps/cli/terminal.hpp"
#include "apps/experiments/results_file.hpp"
#include "cardgames/cards/error.hpp"
#include "cardgames/cards/seeds.hpp"
#include "cardgames/players/bot_spec.hpp"
#include "cardgames/rules/game_runner.hpp"
#include "cardgames/rules/position.hpp"
#include "cardgames/rules/record.hpp"
#include "sampling/bot_registry.hpp"

namespace apps {

using namespace cardgames;

int cmd_play(int argc, char** argv) {
    return guarded("play", [&] {
        RulesOptions ro;
        std::uint64_t seed = 0;
        std::string bots = "pimc", helper = "pimc", record_file;
        std::string seat_text;
        bool ascii = false;
        po::options_description desc("play options");
        ro.add_to(desc);
        desc.add_options()("seed", seed_value(&seed),
                           "seed for the deals and the bots (default: from the clock)")(
            "bots", po::value(&bots)->default_value("pimc"),
            "bot spec for the other seats, or a comma list, one per other seat in seat-number "
            "order, yours skipped "
            "(4 players: North, East, South, West)")("helper",
                                                     po::value(&helper)->default_value("pimc"),
                                                     "the bot behind 'hint' and 'auto'")(
            "seat", po::value(&seat_text),
            "your seat: 0..n-1, or N/E/S/W with 4 players (default South, else 0)")(
            "record", po::value(&record_file), "append the game record (JSON Lines) to this file")(
            "ascii", po::bool_switch(&ascii), "plain letters instead of suit symbols and colour");
        po::variables_map vm;
        if (!parse_args("play", argc, argv, desc, vm)) return 0;
        const Rules rules = ro.resolve();
        if (!vm.count("seed")) seed = static_cast<std::uint64_t>(time(nullptr));
        const int n = rules.players;
        int seat = n == 4 ? 2 : 0;
        if (!seat_text.empty()) try {
                seat = parse_seat(seat_text, n);
            } catch (const InputError& e) {
                rethrow_with_context("--seat", e);
            }

        std::vector<std::string> specs = split_player_list(bots);
        if (specs.size() == 1) specs.assign(n - 1, specs[0]);
        if (static_cast<int>(specs.size()) != n - 1)
            throw InputError("--bots '" + bots + "': give one spec, or one per other seat (" +
                             std::to_string(n - 1) + ")");

        if (sampling::make_player(helper, 0)->sees_all_hands())
            throw InputError("--helper " + helper +
                             ": it sees every hand, and a hint must come from yours alone");
        const bool tty = isatty(STDOUT_FILENO);
        Display display(tty && !ascii && !std::getenv("NO_COLOR"), !ascii && utf8_terminal());
        check_default_threads_available();
        Game game(rules, seed);
        TableView table(game, seat, display);
        std::vector<std::unique_ptr<Player>> players;
        std::vector<std::string> names;
        const auto store = std::make_shared<models::ModelStore>();
        for (int s = 0, k = 0; s < n; ++s) {
            if (s == seat) {
                players.push_back(std::make_unique<TerminalPlayer>(
                    std::cin, std::cout, display, table,
                    sampling::make_player(helper, seeds::play_hint_bot(seed, s), {}, store)));
                names.push_back("human");
            } else {
                std::unique_ptr<Player> bot =
                    sampling::make_player(specs[k], seeds::play_bot(seed, s), {}, store);
                if (tty)
                    bot = std::make_unique<ShowThinking>(std::move(bot), table.seat(s), std::cout);
                players.push_back(std::move(bot));
                names.push_back(specs[k++]);
            }
        }
        // Opened before the game, so that a path that cannot be a file is refused before any play.
        std::unique_ptr<LineFile> record_out;
        if (!record_file.empty())
            record_out =
                std::make_unique<LineFile>(record_file, "--record", "the game is not recorded");

        std::vector<std::string> shown = names;  // a seat that sees every hand says so
        for (int s : cheating_seats(players))
            shown[static_cast<std::size_t>(s)] += " (sees all hands)";
        std::cout << table.opening(seed, shown);
        game.set_observer([&](const Game&, const GameEvent& e) { table.print(std::cout, e); });
        table.print(std::cout, GameEvent(GameEvent::Kind::kHandStart));
        int status = 0;
        try {
            run_game(game, players);
        } catch (const QuitGame& q) {
            std::cout << (q.end_of_input ? "\nInput ended: game abandoned.\n"
                                         : "Game abandoned.\n");
            status = q.end_of_input ? 1 : 0;
        }
        if (record_out) {
            record_out->append(
                game_record(game, names, collect_fallbacks(players), cheating_seats(players))
                    .dump());
            record_out->close();
        }
        return status;
    });
}

}  // namespace apps
