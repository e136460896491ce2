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

// The largest hands= or board or hand number a pickle may name (a whole game has far fewer hands).
constexpr long long kMaxHands = 1'000'000'000;

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

// A pickled State's fields, each checked: a bad one is an InputError naming it and its value.
GameState state_unpickle(const py::tuple& t) {
    const std::string where = "pickled State: ";
    if (t.size() != 5) throw InputError(where + "expected 5 fields");
    if (!py::isinstance<py::dict>(t[0])) throw InputError(where + "rules: expected a dict");
    const Rules rules = PyRules::from_pairs(t[0].cast<py::dict>()).rules;
    const std::uint64_t seed = seed_arg(t[1], where + "seed");
    const int hands = static_cast<int>(whole_number(t[2], where + "hands", 0, kMaxHands));
    if (!py::isinstance<py::list>(t[3]) || !py::isinstance<py::list>(t[4]))
        throw InputError(where + "deals and history: expected lists");
    std::map<std::pair<int, int>, Deal> deals;
    for (const py::handle item : t[3].cast<py::list>()) {
        const std::string what = where + "deal " + py::repr(item).cast<std::string>();
        if (!py::isinstance<py::tuple>(item) || py::len(item) != 3 ||
            !py::isinstance<py::str>(item.cast<py::tuple>()[2]))
            throw InputError(what + ": expected (board, hand, deal text)");
        const py::tuple d = item.cast<py::tuple>();
        const int board = static_cast<int>(whole_number(d[0], what + ": board", 0, kMaxHands));
        const int hand = static_cast<int>(whole_number(d[1], what + ": hand", 0, kMaxHands));
        deals[{board, hand}] = parse_deal(d[2].cast<std::string>());
    }
    std::vector<int> history;
    const py::list actions = t[4].cast<py::list>();
    for (std::size_t i = 0; i < actions.size(); ++i)
        history.push_back(static_cast<int>(
            whole_number(actions[i], where + "action " + std::to_string(i) + " of the history", 0,
                         encoding::kNumActions - 1)));
    return GameState::replay(rules, seed, hands, deals, history);
}

// What __reduce__ gives pickle, at every protocol: what pybind11's own pickling (__getstate__ and
// __setstate__) gives from protocol 2 on, where protocols 0 and 1 would abort the interpreter.
py::tuple state_reduce(const GameState& s) {
    return py::make_tuple(py::module_::import("copyreg").attr("__newobj__"),
                          py::make_tuple(py::type::of<GameState>()), state_pickle(s));
}

}  // namespace

py::class_<GameState> bind_state(py::module_& m) {
    py::class_<GameState> state(m, "State");
    state
        .def("current_player", checked("State", &GameState::current_player),
             "The seat to act, -1 when the game is over.")
        .def("phase",
             [](py::handle self) {
                 const GameState& s = live<GameState>(self, "State");
                 return kPhaseNames[static_cast<int>(s.game().phase())];
             })
        .def("legal_actions", checked("State", &GameState::legal_actions),
             "The legal actions now, ascending.")
        .def("apply_action", checked("State", &GameState::apply), py::arg("action"),
             "Applies a legal action; IllegalActionError (a ValueError) says why one is not.")
        .def("is_terminal", checked("State", &GameState::terminal),
             "Whether the game (every board) is over.")
        .def("returns", checked("State", &GameState::returns),
             "Per seat: its unit's score (hands=N: the sum of its hand scores); Hearts: points.")
        .def("clone",
             [](py::handle self) {
                 const GameState& s = live<GameState>(self, "State");
                 return GameState(s);
             })
        .def("__copy__",
             [](py::handle self) {
                 const GameState& s = live<GameState>(self, "State");
                 return GameState(s);
             })
        .def("__deepcopy__",
             [](py::handle self, py::dict) {
                 const GameState& s = live<GameState>(self, "State");
                 return GameState(s);
             })
        .def("action_to_string", [](const GameState&, int a) { return encoding::action_name(a); })
        .def("history", checked("State", &GameState::history),
             "Every action applied since the start.")
        .def_property_readonly("rules",
                               [](py::handle self) {
                                   const GameState& s = live<GameState>(self, "State");
                                   return PyRules{s.rules()};
                               })
        .def_property_readonly("seed", checked("State", &GameState::seed))
        .def_property_readonly("hands", checked("State", &GameState::hands))
        .def_property_readonly("board", checked("State", &GameState::board))
        .def("hand_number",
             [](py::handle self) {
                 const GameState& s = live<GameState>(self, "State");
                 return s.game().hand().number;
             })
        .def("game_seed",
             [](py::handle self) {
                 const GameState& s = live<GameState>(self, "State");
                 return s.game().seed();
             })
        .def(
            "record",
            [](py::handle self, const std::optional<std::vector<std::string>>& players) {
                const GameState& s = live<GameState>(self, "State");
                return to_python(game_record(s.game(), record_players(s, players)));
            },
            py::arg("players") = py::none())
        .def(
            "records",
            [](py::handle self, const std::optional<std::vector<std::string>>& players) {
                const GameState& s = live<GameState>(self, "State");
                py::list out;
                for (const Game* g : s.games())
                    out.append(to_python(game_record(*g, record_players(s, players))));
                return out;
            },
            py::arg("players") = py::none())
        .def("info_state", checked("State", &state_info_dict), py::arg("seat"),
             "What the seat knows now, as a dict.")
        .def(
            "sample_world",
            [](py::handle self, int seat, const py::object& seed) {
                const GameState& s = live<GameState>(self, "State");
                return sampling::sample_world(s, checked_seat(s, seat), seed_arg(seed, "seed"));
            },
            py::arg("seat"), py::arg("seed"))
        .def("__str__",
             [](py::handle self) {
                 const GameState& s = live<GameState>(self, "State");
                 std::string out = "hand " + std::to_string(s.game().hand().number) + ", " +
                                   kPhaseNames[static_cast<int>(s.game().phase())];
                 for (int p = 0; p < s.rules().players; ++p)
                     out += "\n  seat " + std::to_string(p) + ": " +
                            hand_to_string(s.game().play_state().hands[p]);
                 return out;
             })
        .def("__reduce__", checked("State", &state_reduce))
        .def(py::pickle(checked("State", &state_pickle), &state_unpickle));

    m.def(
        "new_game",
        [](const PyRules& rules, const py::object& seed, std::optional<int> hands) {
            if (hands && *hands < 1)
                throw InputError("hands=" + std::to_string(*hands) + ": expected 1 or more");
            return GameState(rules.rules, seed_arg(seed, "seed"), hands.value_or(0));
        },
        py::arg("rules"), py::arg("seed"), py::arg("hands") = py::none());
    return state;
}

}  // namespace pycards
