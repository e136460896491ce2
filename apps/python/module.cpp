// The `cardgames._cardgames` extension: Rules, State, bots and the solver for Python, over the
// engine, cardgames and sampling libraries. A front end: it converts, forwards and returns; the
// game's decisions are the libraries'. Long C++ calls (a bot thinking, a solve) release the GIL.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <memory>
#include <optional>
#include <stdexcept>
#include <tuple>

#include "apps/python/convert.hpp"
#include "apps/python/game_state.hpp"
#include "apps/python/models.hpp"
#include "apps/python/runs.hpp"
#include "apps/python/tensors.hpp"
#include "cardgames/cards/error.hpp"
#include "cardgames/rules/record.hpp"
#include "cardgames/solve/solve.hpp"
#include "sampling/bot_registry.hpp"
#include "sampling/pimc.hpp"

namespace py = pybind11;
using namespace cardgames;
using pycards::GameState;
using pycards::kPhaseNames;
using pycards::to_python;

namespace {

// A Python value as the text of a `--rule key=value` override: booleans as true/false.
std::string override_text(const std::string& key, const py::handle& value) {
    std::string text;
    if (py::isinstance<py::bool_>(value))
        text = value.cast<bool>() ? "true" : "false";
    else
        text = py::str(value).cast<std::string>();
    return key + "=" + text;
}

// Rules as Python sees them: the rule set and the tensor layouts it implies.
struct PyRules {
    Rules rules;

    static PyRules make(const std::optional<std::string>& preset,
                        const std::optional<std::string>& game, const py::kwargs& overrides) {
        std::vector<std::string> texts;
        for (const auto& [k, v] : overrides) texts.push_back(override_text(py::str(k), v));
        return PyRules{resolve_rules(game, preset.value_or(""), texts)};
    }
    // The rules as `key=value` pairs (what records store); Rules(**pairs) rebuilds them.
    py::dict to_dict() const {
        py::dict d;
        for (const auto& [k, v] : rules_to_pairs(rules)) d[py::str(k)] = v;
        return d;
    }
    static PyRules from_pairs(const py::dict& pairs) {
        std::string ini;
        for (const auto& [k, v] : pairs)
            ini += py::str(k).cast<std::string>() + " = " + py::str(v).cast<std::string>() + "\n";
        return PyRules{parse_rules(ini, "rules", {})};
    }
};

py::dict layout_dict(const std::vector<pycards::Slice>& layout) {
    py::dict d;
    for (const pycards::Slice& s : layout)
        d[py::str(s.name)] = py::slice(s.start, s.start + s.size(), 1);
    return d;
}

py::dict shape_dict(const std::vector<pycards::Slice>& layout) {
    py::dict d;
    for (const pycards::Slice& s : layout) d[py::str(s.name)] = py::tuple(py::cast(s.shape));
    return d;
}

int checked_seat(const GameState& s, int seat) {
    if (seat < 0 || seat >= s.rules().players)
        throw InputError("seat " + std::to_string(seat) + ": expected 0.." +
                         std::to_string(s.rules().players - 1));
    return seat;
}

py::array_t<float> tensor(const GameState& s, int seat, bool info) {
    checked_seat(s, seat);
    const auto layout = info ? pycards::information_state_layout(s.rules())
                             : pycards::observation_layout(s.rules());
    py::array_t<float> out(pycards::layout_size(layout));
    float* p = out.mutable_data();
    std::fill(p, p + out.size(), 0.0f);
    if (info)
        pycards::information_state_tensor(s, seat, p);
    else
        pycards::observation_tensor(s, seat, p);
    return out;
}

py::dict state_info_dict(const GameState& s, int seat) {
    const bool choosing = s.game().phase() == Phase::kPass && s.game().to_act() == seat;
    return pycards::info_dict(s.info_state(checked_seat(s, seat)), choosing, s.pending_pass(),
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

// A bot from the project's table (sampling::make_player) that acts for the player to move of any
// State. A Player may keep history between hands (Player::hand_over, as the game runner tells it):
// before each decision the bot is told the hands of the State's game it has not been told yet,
// and a bot asked about another game (or an earlier point of one) starts afresh from its spec.
class PyBot {
  public:
    PyBot(std::string spec, std::uint64_t seed)
        : spec_(std::move(spec)), seed_(seed), player_(sampling::make_player(spec_, seed_)) {}

    std::string name() const { return player_->name(); }
    const std::string& spec() const { return spec_; }

    int act(const GameState& s) {
        if (s.terminal()) throw InputError("the game is over: no player is to act");
        sync(s);
        Rules rules = s.rules();
        InfoState info = s.info_state(s.current_player());
        info.rules = &rules;
        return decide(info, s.pending_pass(), {s.game().seed(), info.hand_number, info.seat});
    }

    // A Python player's observation in a run (its "view"): the bot decides from what the seat
    // knows, with no history of earlier hands.
    int act_on(const py::dict& observation) {
        if (!observation.contains("view"))
            throw InputError("act: expected a State or an observation of a run (with \"view\")");
        const pycards::SeatView& v = observation["view"].cast<const pycards::SeatView&>();
        return decide(v.info, v.pending, {v.info.dealt.bits(), v.info.hand_number, v.info.seat});
    }

    py::dict analyze(const GameState& s) {
        auto* pimc = dynamic_cast<sampling::PimcBot*>(player_.get());
        if (!pimc) throw InputError("analyze: only a pimc bot analyzes, not '" + spec_ + "'");
        if (s.terminal() || s.game().phase() != Phase::kPlay)
            throw InputError("analyze: no card is due now");
        sync(s);
        Rules rules = s.rules();
        InfoState info = s.info_state(s.current_player());
        info.rules = &rules;
        sampling::PimcAnalysis a;
        {
            py::gil_scoped_release release;
            a = pimc->analyze(info);
        }
        py::list cards;
        for (const sampling::CardValue& cv : a.cards)
            cards.append(py::dict(py::arg("action") = pycards::card_number(cv.card),
                                  py::arg("card") = to_string(cv.card), py::arg("mean") = cv.mean,
                                  py::arg("expected") = cv.expected, py::arg("votes") = cv.votes));
        return py::dict(py::arg("best") = pycards::card_number(a.best),
                        py::arg("best_card") = to_string(a.best), py::arg("cards") = cards,
                        py::arg("worlds") = a.worlds, py::arg("searched") = a.searched,
                        py::arg("expansions") = a.expansions);
    }

  private:
    using PassKey = std::tuple<std::uint64_t, int, int>;  // game (seed or deal), hand, seat

    int decide(const InfoState& info, CardSet pending, const PassKey& key) {
        py::gil_scoped_release release;
        switch (info.phase) {
            case Phase::kBlindNil:
                return player_->blind_nil(info) ? pycards::kBlindNil : pycards::kNoBlindNil;
            case Phase::kBid:
                return pycards::kBidBase + player_->bid(info);
            case Phase::kPass: {
                // Passes go one card at a time, the bot's pass chosen once (as the game runner
                // asks for it) and handed out card by card.
                if (pending.empty() || pass_key_ != key || !pass_.contains_all(pending)) {
                    pass_ = player_->pass(info);
                    pass_key_ = key;
                }
                const CardSet rest = (pass_ & info.hand) - pending;
                const CardSet any = info.hand - pending;
                return pycards::kPassBase +
                       pycards::card_number(rest.empty() ? any.lowest() : rest.lowest());
            }
            case Phase::kPlay:
                return pycards::card_number(player_->play(info));
            case Phase::kGameOver:
                break;
        }
        throw std::logic_error("no decision");
    }

    void sync(const GameState& s) {
        const Game& g = s.game();
        const std::size_t done = g.finished_hands().size();
        if (told_seed_ != g.seed() || done < told_) {
            if (told_seed_ || told_ > 0) player_ = sampling::make_player(spec_, seed_);
            told_ = 0;
            told_seed_ = g.seed();
        }
        for (; told_ < done; ++told_) {
            const bool last = told_ + 1 == done && g.over();
            player_->hand_over(g.finished_hands()[told_], last,
                               last ? g.winners() : std::vector<int>{});
        }
    }

    std::string spec_;
    std::uint64_t seed_;
    std::unique_ptr<Player> player_;
    std::optional<std::uint64_t> told_seed_;
    std::size_t told_ = 0;
    std::optional<PassKey> pass_key_;
    CardSet pass_;  // the pass chosen for pass_key_
};

py::dict py_solve(const std::optional<std::string>& game, const std::optional<std::string>& preset,
                  const std::optional<std::vector<std::string>>& rules, const std::string& deal,
                  const std::optional<std::string>& leader, const std::string& trick,
                  const std::optional<bool>& broken, const std::string& algorithm, bool leaf_tables,
                  bool no_tt, const std::string& utility, const std::optional<std::string>& bids,
                  int depth, std::uint64_t nodes) {
    if (depth < 0 || depth > kMaxTricks)
        throw InputError("depth " + std::to_string(depth) + ": expected a whole number from 0 to " +
                         std::to_string(kMaxTricks));
    const Rules r =
        resolve_rules(game, preset.value_or(""), rules.value_or(std::vector<std::string>{}));
    SolveOptions o;
    o.deal = deal;
    o.leader = leader;
    o.trick = trick;
    o.broken = broken ? (*broken ? "true" : "false") : "";
    o.algorithm = algorithm;
    o.leaf_tables = leaf_tables;
    o.no_tt = no_tt;
    o.utility = utility;
    o.bids = bids;
    o.depth = depth;
    o.nodes = nodes;
    const SolveRequest request = solve_request(r, o);
    Solution sol;
    {
        py::gil_scoped_release release;
        sol = solve(request);
    }
    return to_python(solution_json(sol));
}

}  // namespace

PYBIND11_MODULE(_cardgames, m) {
    m.doc() = "The cardgames engine (Spades and Hearts) for Python; see the package docstring.";
    py::register_exception<InputError>(m, "InputError", PyExc_ValueError);
    py::register_exception<pycards::IllegalAction>(m, "IllegalActionError", PyExc_ValueError);

    m.attr("NUM_CARDS") = pycards::kNumCards;
    m.attr("PASS_BASE") = pycards::kPassBase;
    m.attr("BID_BASE") = pycards::kBidBase;
    m.attr("NUM_BIDS") = pycards::kNumBids;
    m.attr("NO_BLIND_NIL") = pycards::kNoBlindNil;
    m.attr("BLIND_NIL") = pycards::kBlindNil;
    m.attr("NUM_ACTIONS") = pycards::kNumActions;
    m.def(
        "card_action",
        [](const std::string& card) { return pycards::card_number(parse_card(card)); },
        "The action number of a card ('QS' -> 49): suit * 13 + rank - 2, clubs to spades.");
    m.def(
        "action_card",
        [](int a) {
            if (a < 0 || a >= pycards::kNumCards)
                throw InputError("card number " + std::to_string(a) + ": expected 0..51");
            return to_string(pycards::card_of_number(a));
        },
        "The card of a card number 0..51 (49 -> 'QS').");
    m.def("action_to_string", &pycards::action_name, "What an action does: 'play QS', 'bid 4'.");

    py::class_<PyRules>(m, "Rules")
        .def(py::init(&PyRules::make), py::arg("preset") = py::none(), py::arg("game") = py::none())
        .def_property_readonly("players", [](const PyRules& r) { return r.rules.players; })
        .def_property_readonly("game", [](const PyRules& r) { return game_name(r.rules.game); })
        .def_property_readonly("cards_per_hand",
                               [](const PyRules& r) { return r.rules.cards_per_hand(); })
        .def_property_readonly("num_units", [](const PyRules& r) { return r.rules.num_units(); })
        .def_property_readonly("num_actions", [](const PyRules&) { return pycards::kNumActions; })
        .def_property_readonly(
            "observation_shape",
            [](const PyRules& r) {
                return py::make_tuple(pycards::layout_size(pycards::observation_layout(r.rules)));
            })
        .def_property_readonly("information_state_shape",
                               [](const PyRules& r) {
                                   return py::make_tuple(pycards::layout_size(
                                       pycards::information_state_layout(r.rules)));
                               })
        .def_property_readonly(
            "observation_layout",
            [](const PyRules& r) { return layout_dict(pycards::observation_layout(r.rules)); })
        .def_property_readonly("information_state_layout",
                               [](const PyRules& r) {
                                   return layout_dict(pycards::information_state_layout(r.rules));
                               })
        .def_property_readonly(
            "slice_shapes",
            [](const PyRules& r) { return shape_dict(pycards::information_state_layout(r.rules)); })
        .def("to_dict", &PyRules::to_dict)
        .def("__eq__",
             [](const PyRules& a, const PyRules& b) {
                 return rules_to_pairs(a.rules) == rules_to_pairs(b.rules);
             })
        .def("__repr__",
             [](const PyRules& r) {
                 std::string s = "Rules(game=" + game_name(r.rules.game);
                 for (const auto& [k, v] : rules_to_pairs(r.rules))
                     if (k != "game") s += ", " + k + "=" + v;
                 return s + ")";
             })
        .def(py::pickle([](const PyRules& r) { return r.to_dict(); },
                        [](const py::dict& d) { return PyRules::from_pairs(d); }));

    py::class_<GameState>(m, "State")
        .def("current_player", &GameState::current_player,
             "The seat to act, -1 when the game is over.")
        .def("phase",
             [](const GameState& s) { return kPhaseNames[static_cast<int>(s.game().phase())]; })
        .def("legal_actions", &GameState::legal_actions, "The legal actions now, ascending.")
        .def("legal_actions_mask",
             [](const GameState& s) {
                 py::array_t<std::int8_t> mask(pycards::kNumActions);
                 std::int8_t* p = mask.mutable_data();
                 std::fill(p, p + pycards::kNumActions, 0);
                 for (int a : s.legal_actions()) p[a] = 1;
                 return mask;
             })
        .def("apply_action", &GameState::apply, py::arg("action"),
             "Applies a legal action; IllegalActionError (a ValueError) says why one is not.")
        .def("is_terminal", &GameState::terminal, "Whether the game (every board) is over.")
        .def("returns", &GameState::returns,
             "Per seat: its unit's score (hands=N: the sum of its hand scores); Hearts: points.")
        .def("clone", [](const GameState& s) { return GameState(s); })
        .def("__copy__", [](const GameState& s) { return GameState(s); })
        .def("__deepcopy__", [](const GameState& s, py::dict) { return GameState(s); })
        .def("action_to_string", [](const GameState&, int a) { return pycards::action_name(a); })
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
            "observation_tensor",
            [](const GameState& s, int seat) { return tensor(s, seat, false); }, py::arg("seat"))
        .def(
            "information_state_tensor",
            [](const GameState& s, int seat) { return tensor(s, seat, true); }, py::arg("seat"))
        .def(
            "sample_world",
            [](const GameState& s, int seat, std::uint64_t seed) {
                return s.sample_world(checked_seat(s, seat), seed);
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

    py::class_<PyBot>(m, "Bot")
        .def_property_readonly("name", &PyBot::name)
        .def_property_readonly("spec", &PyBot::spec)
        .def("act", &PyBot::act, py::arg("state"),
             "The action the bot takes for the player to move.")
        .def("act", &PyBot::act_on, py::arg("observation"),
             "The action the bot takes for a Python player of a run, from its observation.")
        .def("analyze", &PyBot::analyze, py::arg("state"),
             "pimc: every legal card's mean and expected value over the worlds, as hint shows.");
    m.def(
        "make_bot",
        [](const std::string& spec, std::uint64_t seed) {
            return std::make_unique<PyBot>(spec, seed);
        },
        py::arg("spec"), py::arg("seed") = 0,
        ("A bot by its spec (" + sampling::known_bot_names() +
         "), seeded; make_bot('pimc:worlds=32'). pimc's options, [default]:\n\n" +
         cardgames::options_listing(sampling::bot_options("pimc")))
            .c_str());
    m.def(
        "tournament_game_seed",
        [](std::uint64_t seed, long board) { return seeds::tournament_game(seed, board); },
        py::arg("seed"), py::arg("board") = 0,
        "The game seed of a board of `cardgames tournament --seed SEED` (what records store).");
    m.def(
        "tournament_bot_seed",
        [](std::uint64_t game_seed, int entry) { return seeds::tournament_bot(game_seed, entry); },
        py::arg("game_seed"), py::arg("entry"),
        "The seed a tournament gives the bot of player entry ENTRY in a game.");

    pycards::bind_runs(m);
    pycards::bind_models(m);

    m.def("solve", &py_solve, py::kw_only(), py::arg("game") = py::none(),
          py::arg("preset") = py::none(), py::arg("rules") = py::none(), py::arg("deal"),
          py::arg("leader") = py::none(), py::arg("trick") = "", py::arg("broken") = py::none(),
          py::arg("algorithm") = "", py::arg("leaf_tables") = false, py::arg("no_tt") = false,
          py::arg("utility") = "", py::arg("bids") = py::none(), py::arg("depth") = 0,
          py::arg("nodes") = 0);
}
