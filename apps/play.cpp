// cardgames play: a game against bots in the terminal. Reads commands line by line, so it works
// the same with a keyboard or with stdin from a pipe.
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>

#include "apps/common.hpp"
#include "apps/terminal.hpp"
#include "cardgames/bots.hpp"
#include "cardgames/error.hpp"
#include "cardgames/game_runner.hpp"
#include "cardgames/record.hpp"
#include "sampling/pimc.hpp"

namespace apps {

using namespace cardgames;

namespace {

std::string unit_name(const Rules& rules, int unit) {
    if (rules.is_partnership()) return unit == 0 ? "North-South" : "East-West";
    return seat_name(unit, rules.players);
}

void print_scores(std::ostream& out, const Rules& rules, const ScoreBoard& s) {
    out << "Scores:";
    for (int u = 0; u < rules.num_units(); ++u) {
        out << "  " << unit_name(rules, u) << " " << s.score[u];
        if (rules.game == GameKind::kSpades) out << " (bags " << s.bags[u] << ")";
    }
    out << "\n";
}

// Prints what happens at the table, from the human seat's point of view.
void print_event(std::ostream& out, const Display& d, int me, const Game& game, const GameEvent& e) {
    const Rules& rules = game.rules();
    const int n = rules.players;
    auto who = [&](int seat) { return seat == me ? std::string("You") : seat_name(seat, n); };
    switch (e.kind) {
        case GameEvent::Kind::kHandStart: {
            out << "\n=== Hand " << game.hand().number + 1 << " (dealer " << seat_name(game.hand().dealer, n) << ") ===\n";
            if (rules.game == GameKind::kHearts) {
                const int off = game.hand().pass_offset;
                out << (off == 0 ? "No passing this hand.\n"
                                 : "Passing " + std::to_string(rules.pass_count) + " cards " +
                                       (off == 1 ? "to the left" : off == -1 ? "to the right" : "across") + ".\n");
            }
            break;
        }
        case GameEvent::Kind::kBlindNil:
            if (e.value) out << who(e.seat) << (e.seat == me ? " bid" : " bids") << " BLIND NIL.\n";
            break;
        case GameEvent::Kind::kBid:
            if (!game.hand().bids[e.seat].blind)
                out << who(e.seat) << (e.seat == me ? " bid " : " bids ") << (e.value == 0 ? "nil" : std::to_string(e.value)) << ".\n";
            break;
        case GameEvent::Kind::kPassesDone: {
            const InfoState info = game.info_state(me);
            out << "You passed " << d.cards(info.passed) << " and received " << d.cards(info.received) << ".\n";
            break;
        }
        case GameEvent::Kind::kExchange:
            out << who(e.seat) << (e.seat == me ? " gave " + d.cards(e.cards) : " gives 2 cards") << " to "
                << ((e.seat + 2) % 4 == me ? std::string("you") : seat_name((e.seat + 2) % 4, n)) << ".\n";
            break;
        case GameEvent::Kind::kCard:
            out << "  " << who(e.seat) << (e.seat == me ? " play " : " plays ") << d.card(e.card) << "\n";
            break;
        case GameEvent::Kind::kTrick: {
            const auto& plays = game.hand().plays;
            out << "  -> " << who(e.seat) << (e.seat == me ? " win" : " wins") << " the trick:";
            for (std::size_t i = plays.size() - n; i < plays.size(); ++i) out << " " << d.card(plays[i].card);
            int pts = 0;
            for (std::size_t i = plays.size() - n; i < plays.size(); ++i) pts += rules.card_points(plays[i].card);
            if (rules.game == GameKind::kHearts && pts) out << "  (" << pts << " points)";
            out << "\n";
            break;
        }
        case GameEvent::Kind::kHandEnd: {
            const HandRecord& h = game.finished_hands().back();
            out << "\nHand over.";
            if (rules.game == GameKind::kHearts) {
                out << " Points taken:";
                for (int s = 0; s < n; ++s) out << " " << seat_name(s, n) << " " << h.score.points[s];
                if (h.score.moon_shooter >= 0) out << "\n" << who(h.score.moon_shooter) << " shot the moon!";
            } else {
                out << " Tricks:";
                for (int s = 0; s < n; ++s)
                    out << " " << seat_name(s, n) << " " << h.tricks[s] << "/" << (h.bids[s].is_nil() ? "nil" : std::to_string(h.bids[s].tricks));
            }
            out << "\n";
            print_scores(out, rules, game.scores());
            break;
        }
        case GameEvent::Kind::kGameOver: {
            out << "\n=== Game over ===\n";
            print_scores(out, rules, game.scores());
            std::string names;
            bool me_won = false;
            for (int u : game.winners()) {
                names += (names.empty() ? "" : " and ") + unit_name(rules, u);
                me_won = me_won || u == rules.unit_of(me);
            }
            if (names.empty()) out << "The game stopped without a winner.\n";
            else out << (me_won ? "You win! " : "") << "Winner: " << names << "\n";
            break;
        }
    }
}

}  // namespace

int cmd_play(int argc, char** argv) {
    return guarded("play", [&] {
        RulesOptions ro;
        std::uint64_t seed = 0;
        std::string bots = "pimc", helper = "pimc", record_file;
        int seat = -1;
        bool ascii = false;
        po::options_description desc("play options");
        ro.add_to(desc);
        desc.add_options()
            ("seed", seed_value(&seed), "seed for the deals and the bots (default: from the clock)")
            ("bots", po::value(&bots)->default_value("pimc"), "bot spec for the other seats, or a comma list, one per other seat")
            ("helper", po::value(&helper)->default_value("pimc"), "the bot behind 'hint' and 'auto'")
            ("seat", number(&seat, 0, kMaxPlayers - 1), "your seat: 0..n-1 (default South in 4-player games, else 0)")
            ("record", po::value(&record_file), "append the game record (JSON Lines) to this file")
            ("ascii", po::bool_switch(&ascii), "plain letters instead of suit symbols and colour");
        po::variables_map vm;
        if (!parse_args("play", argc, argv, desc, vm)) return 0;
        const Rules rules = ro.resolve();
        if (!vm.count("seed")) seed = static_cast<std::uint64_t>(time(nullptr));
        const int n = rules.players;
        if (seat < 0) seat = n == 4 ? 2 : 0;
        if (seat >= n) throw InputError("--seat " + std::to_string(seat) + ": must be 0.." + std::to_string(n - 1));

        std::vector<std::string> specs = split_player_list(bots);
        if (specs.size() == 1) specs.assign(n - 1, specs[0]);
        if (static_cast<int>(specs.size()) != n - 1)
            throw InputError("--bots '" + bots + "': give one spec, or one per other seat (" + std::to_string(n - 1) + ")");

        const bool tty = isatty(STDOUT_FILENO);
        Display display(tty && !ascii && !std::getenv("NO_COLOR"), !ascii && utf8_terminal());
        std::vector<std::unique_ptr<Player>> players;
        std::vector<std::string> names;
        for (int s = 0, k = 0; s < n; ++s) {
            if (s == seat) {
                players.push_back(std::make_unique<TerminalPlayer>(std::cin, std::cout, display, sampling::make_player(helper, mix_seed(seed, 100 + s))));
                names.push_back("human");
            } else {
                players.push_back(sampling::make_player(specs[k], mix_seed(seed, s)));
                names.push_back(specs[k++]);
            }
        }
        std::ofstream record_out;
        if (!record_file.empty()) {
            record_out.open(record_file, std::ios::app);
            if (!record_out) throw InputError("--record '" + record_file + "': cannot open the file for writing");
        }

        check_default_threads_available();
        Game game(rules, seed);
        std::cout << "Playing " << game_name(rules.game) << " (" << n << " players), seed " << seed << ". You are "
                  << seat_name(seat, n) << ". Type 'help' for commands.\n";
        game.set_observer([&](const Game& g, const GameEvent& e) { print_event(std::cout, display, seat, g, e); });
        print_event(std::cout, display, seat, game, GameEvent(GameEvent::Kind::kHandStart));
        int status = 0;
        try {
            run_game(game, players);
        } catch (const QuitGame& q) {
            std::cout << (q.end_of_input ? "\nInput ended: game abandoned.\n" : "Game abandoned.\n");
            status = q.end_of_input ? 1 : 0;
        }
        if (record_out.is_open()) record_out << game_record(game, names, collect_fallbacks(players)).dump() << "\n" << std::flush;
        return status;
    });
}

}  // namespace apps
