// The class State (cardgames/encoding's GameState) and new_game: a game driven one action at a
// time with OpenSpiel's names, its records, what a seat knows, sample_world and pickling.
#include <pybind11/stl.h>

#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "apps/python/bindings.hpp"
#include "apps/python/convert.hpp"
#include "cardgames/cards/error.hpp"
#include "cardgames/rules/record.hpp"
#include "sampling/sample_world.hpp"

namespace py = pybind11;
using namespace cardgames;

namespace pycards {

int checked_seat(const GameState& s, int seat) {
    if (seat < 0 || seat >= s.rules().players)
        throw InputError("seat " + std::to_string(seat) + ": expected 0.." +
                         std::to_string(s.rules().players - 1));
    return seat;
}

namespace {

py::dict state_info_dict(const GameState& s, int seat) {
    const bool choosing = s.game().phase() == Phase::kPass && s.game().to_act() == seat;
    return info_dict(s.info_state(checked_seat(s, seat)), choosing, s.pending_pass(),
                     s.current_player() == seat ? s.legal_actions() : std::vector<int>{});
}

std::vector<std::string> record_players(const GameState& s,
                                        const std::optional<std::vector<std::string>>& players) {
    const std::vector<std::string> names =
        players.value_or(std::vector<std::string>(s.rules().players, "python"));
    if (static_cast<int>(names.size()) != s.rules().players)
        throw InputError("players: " + std::to_string(names.size()) + " names for " +
                         std::to_string(s.rules().players) + " seats; give one per seat");
    return names;
}

py::tuple state_pickle(const GameState& s) {
    py::dict rules;
    for (const auto& [k, v] : rules_to_pairs(s.rules())) rules[py::str(k)] = v;
    py::list deals;
    for (const auto& [key, deal] : s.deals())
        deals.append(py::make_tuple(key.first, key.second, deal_to_string(deal)));
    return py::make_tuple(rules, py::int_(s.seed()), s.hands(), deals, s.history());
}

GameState state_unpickle(const py::tuple& t) {
    if (t.size() != 5) throw InputError("pickled State: expected 5 fields");
    const Rules rules = PyRules::from_pairs(t[0].cast<py::dict>()).rules;
    std::map<std::pair<int, int>, Deal> deals;
    for (const auto& item : t[3].cast<py::list>()) {
        const auto d = item.cast<std::tuple<int, int, std::string>>();
        deals[{std::get<0>(d), std::get<1>(d)}] = parse_deal(std::get<2>(d));
    }
    return GameState::replay(rules, t[1].cast<std::uint64_t>(), t[2].cast<int>(), deals,
                             t[4].cast<std::vector<int>>());
}

}  // namespace

py::class_<GameState> bind_state(py::module_& m) {
    py::class_<GameState> state(m, "State");
    state
        .def("current_player", &GameState::current_player,
             "The seat to act, -1 when the game is over.")
        .def("phase",
             [](const GameState& s) { return kPhaseNames[static_cast<int>(s.game().phase())]; })
        .def("legal_actions", &GameState::legal_actions, "The legal actions now, ascending.")
        .def("apply_action", &GameState::apply, py::arg("action"),
             "Applies a legal action; IllegalActionError (a ValueError) says why one is not.")
        .def("is_terminal", &GameState::terminal, "Whether the game (every board) is over.")
        .def("returns", &GameState::returns,
             "Per seat: its unit's score (hands=N: the sum of its hand scores); Hearts: points.")
        .def("clone", [](const GameState& s) { return GameState(s); })
        .def("__copy__", [](const GameState& s) { return GameState(s); })
        .def("__deepcopy__", [](const GameState& s, py::dict) { return GameState(s); })
        .def("action_to_string", [](const GameState&, int a) { return encoding::action_name(a); })
        .def("history", &GameState::history, "Every action applied since the start.")
        .def_property_readonly("rules", [](const GameState& s) { return PyRules{s.rules()}; })
        .def_property_readonly("seed", &GameState::seed)
        .def_property_readonly("hands", &GameState::hands)
        .def_property_readonly("board", &GameState::board)
        .def("hand_number", [](const GameState& s) { return s.game().hand().number; })
        .def("game_seed", [](const GameState& s) { return s.game().seed(); })
        .def(
            "record",
            [](const GameState& s, const std::optional<std::vector<std::string>>& players) {
                return to_python(game_record(s.game(), record_players(s, players)));
            },
            py::arg("players") = py::none())
        .def(
            "records",
            [](const GameState& s, const std::optional<std::vector<std::string>>& players) {
                py::list out;
                for (const Game* g : s.games())
                    out.append(to_python(game_record(*g, record_players(s, players))));
                return out;
            },
            py::arg("players") = py::none())
        .def("info_state", &state_info_dict, py::arg("seat"), "What the seat knows now, as a dict.")
        .def(
            "sample_world",
            [](const GameState& s, int seat, std::uint64_t seed) {
                return sampling::sample_world(s, checked_seat(s, seat), seed);
            },
            py::arg("seat"), py::arg("seed"))
        .def("__str__",
             [](const GameState& s) {
                 std::string out = "hand " + std::to_string(s.game().hand().number) + ", " +
                                   kPhaseNames[static_cast<int>(s.game().phase())];
                 for (int p = 0; p < s.rules().players; ++p)
                     out += "\n  seat " + std::to_string(p) + ": " +
                            hand_to_string(s.game().play_state().hands[p]);
                 return out;
             })
        .def(py::pickle(&state_pickle, &state_unpickle));

    m.def(
        "new_game",
        [](const PyRules& rules, std::uint64_t seed, std::optional<int> hands) {
            if (hands && *hands < 1)
                throw InputError("hands=" + std::to_string(*hands) + ": expected 1 or more");
            return GameState(rules.rules, seed, hands.value_or(0));
        },
        py::arg("rules"), py::arg("seed"), py::arg("hands") = py::none());
    return state;
}

}  // namespace pycards
