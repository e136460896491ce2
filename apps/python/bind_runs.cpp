// Tournaments, evaluations and self-play from Python: cardgames.tournament(), evaluate() and
// selfplay() run the experiments and learning libraries (apps/experiments/, apps/learn/) with the
// command line's options as keyword arguments.
// A seat may be a bot spec or any Python object with act(observation) -> action; such a player is
// held by a C++ Player adaptor and called under the GIL, while the run itself goes with the GIL
// released, so that native bots on other threads keep running. Ctrl-C (KeyboardInterrupt) stops
// a run cleanly, leaving a file that resume=True continues.
#include <pybind11/numpy.h>
#include <pybind11/stl.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <stop_token>
#include <string>
#include <vector>

#include "apps/experiments/eval.hpp"
#include "apps/experiments/tournament.hpp"
#include "apps/learn/cutoff_fit.hpp"
#include "apps/learn/data_runs.hpp"
#include "apps/learn/policy_fit.hpp"
#include "apps/learn/selfplay_run.hpp"
#include "apps/python/bindings.hpp"
#include "apps/python/convert.hpp"
#include "cardgames/cards/error.hpp"
#include "cardgames/cards/seeds.hpp"
#include "cardgames/encoding/tensors.hpp"
#include "cardgames/players/bot_spec.hpp"
#include "cardgames/rules/rules.hpp"
#include "sampling/bot_registry.hpp"

namespace py = pybind11;
using namespace cardgames;
using namespace cardgames::encoding;

namespace pycards {

namespace {

// A Python object with act(observation) -> action at a seat of a run. It is called with the GIL
// held and made and destroyed under the GIL; between calls the run's threads hold no GIL.
class PythonPlayer : public Player {
  public:
    // Under the GIL.
    PythonPlayer(py::object policy, std::string name, std::uint64_t seed)
        : policy_(std::move(policy)), name_(std::move(name)), seed_(seed) {}
    ~PythonPlayer() override {
        py::gil_scoped_acquire gil;
        policy_.release().dec_ref();
    }

    std::string name() const override { return name_; }
    bool blind_nil(const InfoState& info) override { return ask(info, {}) == kBlindNil; }
    int bid(const InfoState& info) override { return ask(info, {}) - kBidBase; }
    // A pass is chosen one card at a time, as State asks for it.
    CardSet pass(const InfoState& info) override {
        CardSet chosen;
        for (int k = 0; k < info.pass_count; ++k)
            chosen |= card_of_number(ask(info, chosen) - kPassBase);
        return chosen;
    }
    Card play(const InfoState& info) override { return card_of_number(ask(info, {})); }
    void seated(std::uint64_t game_seed, long board) override {
        game_seed_ = game_seed;
        board_ = board;
    }

  private:
    int ask(const InfoState& info, CardSet pending) {
        const std::vector<int> legal =
            legal_actions_in(*info.rules, info.phase, info.hand, pending,
                             info.phase == Phase::kPlay ? info.legal_cards() : CardSet());
        py::gil_scoped_acquire gil;
        const py::object answer = policy_.attr("act")(observation(info, pending, legal));
        ++decisions_;
        const long long action = action_number(answer, info.seat);
        if (!std::binary_search(legal.begin(), legal.end(), action)) {
            std::string allowed;
            for (int a : legal) allowed += (allowed.empty() ? "" : ", ") + std::to_string(a);
            throw InputError("python player '" + name_ + "': action " + std::to_string(action) +
                             " is not legal now (seat " + std::to_string(info.seat) + ", " +
                             kPhaseNames[static_cast<int>(info.phase)] + "; legal: " + allowed +
                             ")");
        }
        return static_cast<int>(action);
    }

    // What act returned as a number; InputError, naming the player, its seat and the value, for
    // anything that is not a whole number that fits (checked before any C++ cast, which would
    // only say "Unable to cast").
    long long action_number(const py::object& answer, int seat) const {
        const std::string who =
            "python player '" + name_ + "' at seat " + std::to_string(seat) + ": act returned ";
        if (!py::isinstance<py::int_>(answer) && !py::hasattr(answer, "__index__"))
            throw InputError(who + py::repr(answer).cast<std::string>() + ", not an action number");
        const py::int_ number(answer);
        int overflow = 0;
        const long long action = PyLong_AsLongLongAndOverflow(number.ptr(), &overflow);
        if (overflow != 0)
            throw InputError(who + py::repr(number).cast<std::string>() + ", not an action (0.." +
                             std::to_string(kNumActions - 1) + ")");
        return action;
    }

    // The observation dict: tensor, mask and legal actions, seat, phase, the info_state dict and
    // the view a native bot can act on.
    py::dict observation(const InfoState& info, CardSet pending, const std::vector<int>& legal) {
        py::array_t<float> tensor(layout_size(observation_layout(*info.rules)));
        std::fill(tensor.mutable_data(), tensor.mutable_data() + tensor.size(), 0.0f);
        observation_tensor(info, info.seat, pending, tensor.mutable_data());
        py::array_t<std::int8_t> mask(kNumActions);
        std::fill(mask.mutable_data(), mask.mutable_data() + kNumActions, 0);
        for (int a : legal) mask.mutable_data()[a] = 1;
        py::dict d;
        d["observation"] = tensor;
        d["action_mask"] = mask;
        d["legal_actions"] = legal;
        d["seat"] = info.seat;
        d["phase"] = kPhaseNames[static_cast<int>(info.phase)];
        d["info"] = info_dict(info, info.phase == Phase::kPass, pending, legal);
        d["view"] = SeatView(info, pending);
        // For a stochastic policy to seed from, the same at any number of threads: the game's
        // seed and the run's board (an evaluation: the item's), the seed the run gives this
        // player there (the one a native bot gets) and the index of this decision among the
        // player's decisions in the game (each card of a pass counts).
        d["game_seed"] = game_seed_ ? py::object(py::int_(*game_seed_)) : py::none();
        d["board"] = game_seed_ ? py::object(py::int_(board_)) : py::none();
        d["seed"] = py::int_(seed_);
        d["decision"] = decisions_;
        return d;
    }

    py::object policy_;
    std::string name_;
    std::uint64_t seed_;
    std::optional<std::uint64_t> game_seed_;  // as seated() tells it
    long board_ = 0;
    long decisions_ = 0;  // decisions asked so far
};

// A run's seats or policies: a bot spec, or a Python object whose spec in the file is
// "python:" + its name (its `name` attribute, else its class's name). Made and destroyed by the
// calling thread, under the GIL.
struct Entries {
    std::vector<std::string> specs;
    std::map<int, py::object> objects;  // entry -> the Python player
    // The model files of the run's bots, read once for all of them.
    std::shared_ptr<cardgames::models::ModelStore> store =
        std::make_shared<cardgames::models::ModelStore>();

    explicit Entries(const py::list& given) {
        for (const py::handle& item : given) {
            const int e = static_cast<int>(specs.size());
            if (py::isinstance<py::str>(item)) {
                specs.push_back(item.cast<std::string>());
                continue;
            }
            if (!py::hasattr(item, "act"))
                throw InputError("player " + std::to_string(e) + ": " +
                                 py::repr(item).cast<std::string>() +
                                 " is neither a bot spec nor an object with act(observation)");
            py::object name = py::getattr(item, "name", py::none());
            if (!py::isinstance<py::str>(name)) name = item.get_type().attr("__name__");
            specs.push_back("python:" + name.cast<std::string>());
            objects[e] = py::reinterpret_borrow<py::object>(item);
        }
    }
    // Called from the run's threads, without the GIL.
    apps::PlayerFactory factory() const {
        return [this](int entry, const std::string& spec, std::uint64_t seed,
                      std::stop_token stop) -> std::unique_ptr<Player> {
            const auto it = objects.find(entry);
            if (it == objects.end())
                return sampling::make_player(spec, seed, std::move(stop), store);
            py::gil_scoped_acquire gil;
            return std::make_unique<PythonPlayer>(it->second, spec.substr(7), seed);
        };
    }
    std::string text() const {
        std::string t;
        for (const std::string& s : specs) t += (t.empty() ? "" : ",") + s;
        return t;
    }
};

// The run's observer: Ctrl-C is noticed on the calling thread (PyErr_CheckSignals runs Python's
// signal handlers, which raise KeyboardInterrupt) and turned into a stop request; the exception
// is raised again once the run has returned. Progress goes to sys.stderr unless quiet.
class PyObserver : public apps::RunObserver {
  public:
    PyObserver(bool quiet, std::string command) : quiet_(quiet), command_(std::move(command)) {}

    std::stop_token token() const { return stop_.get_token(); }

    void tick() override {
        py::gil_scoped_acquire gil;
        if (!error_ && PyErr_CheckSignals() != 0) {
            error_.emplace();  // fetches the exception (KeyboardInterrupt)
            stop_.request_stop();
        }
    }
    void note(const std::string& message) override { say(command_ + ": " + message); }
    void started(long total, long done, const std::string& unit,
                 const std::string& where) override {
        total_ = total;
        unit_ = unit;
        say(command_ + ": " + std::to_string(total - done) + " " + unit + " of " +
            std::to_string(total) + " to run on " + where);
        last_ = std::chrono::steady_clock::now();
    }
    void written(long index, const std::string&) override {
        const auto now = std::chrono::steady_clock::now();
        if (now - last_ < std::chrono::seconds(5)) return;
        last_ = now;
        say(command_ + ": " + std::to_string(index + 1) + " of " + std::to_string(total_) + " " +
            unit_);
    }
    void finished(long done) override {
        say(command_ + ": " + std::to_string(done) + " of " + std::to_string(total_) + " " + unit_ +
            " in the file");
    }

    // Raises what tick() caught, if anything (under the GIL).
    void raise_if_interrupted() {
        if (error_) {
            py::error_already_set e = std::move(*error_);
            error_.reset();
            throw e;
        }
    }

  private:
    void say(const std::string& line) {
        if (quiet_) return;
        py::gil_scoped_acquire gil;
        py::module_::import("sys").attr("stderr").attr("write")(line + "\n");
    }

    bool quiet_;
    std::string command_;
    std::stop_source stop_;
    std::optional<py::error_already_set> error_;
    long total_ = 0;
    std::string unit_;
    std::chrono::steady_clock::time_point last_;
};

// A keyword argument that takes lo..hi, refused as the command line refuses the option.
template <class T>
T checked_number(const std::string& name, T value, T lo, T hi) {
    if (value < lo || value > hi)
        throw InputError("the argument ('" + std::to_string(value) + "') for option '" + name +
                         "' is invalid: expected a whole number from " + std::to_string(lo) +
                         " to " + std::to_string(hi));
    return value;
}

apps::BatchRun batch_run(std::optional<int> threads, const std::string& out, bool resume) {
    apps::BatchRun run;
    if (threads) run.threads = checked_number("threads", *threads, 1, apps::kMaxThreads);
    if (out.empty()) throw InputError("--out is required: the results file (JSON Lines)");
    run.out = out;
    run.resume = resume;
    return run;
}

// Runs the run with the GIL released (numpy's C API was looked up when the module was imported:
// module.cpp).
template <class Run>
auto without_gil(const Run& run) {
    py::gil_scoped_release release;
    return run();
}

py::dict interval_dict(const apps::Interval& iv) {
    return py::dict(py::arg("estimate") = iv.estimate, py::arg("low") = iv.low,
                    py::arg("high") = iv.high, py::arg("n") = iv.n);
}

py::dict tournament_summary_dict(const apps::TournamentSummary& s) {
    py::list players, pairs;
    for (const apps::SpecSummary& p : s.specs)
        players.append(py::dict(py::arg("player") = p.spec, py::arg("games") = p.games,
                                py::arg("wins") = p.wins,
                                py::arg("win_rate") = interval_dict(p.win_rate),
                                py::arg("score_per_hand") = interval_dict(p.score_per_hand)));
    for (const apps::PairedComparison& c : s.pairs)
        pairs.append(py::dict(py::arg("a") = c.a, py::arg("b") = c.b,
                              py::arg("difference") = interval_dict(c.difference)));
    return py::dict(py::arg("players") = players, py::arg("pairs") = pairs,
                    py::arg("boards") = s.boards);
}

py::dict eval_summary_dict(const std::vector<apps::PolicySummary>& rows) {
    py::list policies;
    for (const apps::PolicySummary& r : rows)
        policies.append(py::dict(py::arg("policy") = r.policy,
                                 py::arg("best_rate") = interval_dict(r.best_rate),
                                 py::arg("loss") = interval_dict(r.loss)));
    return py::dict(py::arg("policies") = policies);
}

// Runs a results command (`run`: apps::run_tournament or apps::run_eval) without the GIL, with the
// progress line and Ctrl-C, and returns what the Python wrapper takes (cardgames/results.py builds
// the result object), with `summary` of the run's table.
template <class Options, class Run, class Summary>
py::dict run_results(const std::string& command, bool quiet, const Options& options, Run run,
                     Summary summary) {
    PyObserver observer(quiet, command);
    const auto result = without_gil([&] {
        return run(options, observer, observer.token(), apps::MpiSession::single_process());
    });
    observer.raise_if_interrupted();
    return py::dict(py::arg("command") = command, py::arg("complete") = result.status == 0,
                    py::arg("done") = result.done, py::arg("total") = result.total,
                    py::arg("workers") = result.workers,
                    py::arg("summary") = summary(result.summary));
}

py::dict py_tournament(const py::list& players, const std::optional<std::string>& preset,
                       const std::optional<std::string>& game,
                       const std::vector<std::string>& rules, std::optional<long> games,
                       std::optional<long> hands, bool duplicate, bool seat_seeds,
                       const py::object& seed, std::optional<int> threads, const std::string& out,
                       bool resume, bool quiet) {
    apps::TournamentOptions options;
    apps::TournamentPlan& plan = options.plan;
    plan.rules = resolve_rules(game, preset.value_or(""), rules);
    const int n = plan.rules.players;
    const Entries entries(players);
    if (entries.specs.empty())
        throw InputError("--players is required: one bot spec per seat (" + std::to_string(n) +
                         ")");
    options.run = batch_run(threads, out, resume);
    if (games.has_value() == hands.has_value())
        throw InputError("give exactly one of --games N and --hands N");
    plan.by_hands = hands.has_value();
    plan.count = checked_number<long>(plan.by_hands ? "hands" : "games",
                                      plan.by_hands ? *hands : *games, 1, apps::kMaxItems);
    plan.duplicate = duplicate;
    plan.seat_seeds = seat_seeds;
    plan.seed = seed_arg(seed, "seed");
    plan.specs = entries.specs;
    if (static_cast<int>(plan.specs.size()) != n)
        throw InputError("--players '" + entries.text() +
                         "': " + std::to_string(plan.specs.size()) + " specs for " +
                         std::to_string(n) + " seats; give one per seat");
    options.make_player = entries.factory();
    return run_results("tournament", quiet, options, apps::run_tournament, tournament_summary_dict);
}

py::dict py_evaluate(const std::string& mode, const py::list& policies,
                     const std::string& reference, const std::optional<std::string>& deals,
                     const std::optional<std::string>& records, std::optional<long> count,
                     const std::string& seats, int samples, const py::object& seed,
                     const std::optional<std::string>& preset,
                     const std::optional<std::string>& game,
                     const std::optional<std::vector<std::string>>& rules,
                     std::optional<int> threads, const std::string& out, bool resume, bool quiet) {
    apps::EvalOptions options;
    apps::EvalPlan& plan = options.plan;
    if (mode != "bid" && mode != "play")
        throw InputError("--mode '" + mode + "': expected bid or play");
    plan.bid_mode = mode == "bid";
    if (!plan.bid_mode) {
        const std::pair<const char*, bool> bid_only[] = {{"deals", deals.has_value()},
                                                         {"game", game.has_value()},
                                                         {"preset", preset.has_value()},
                                                         {"rule", rules.has_value()}};
        for (const auto& [name, given] : bid_only)
            if (given)
                throw InputError("--" + std::string(name) +
                                 " applies only with --mode bid (in play mode the records give "
                                 "the rules)");
    } else if (records) {
        throw InputError("--records applies only with --mode play");
    }
    plan.reference = reference;
    plan.seats = seats;
    apps::parse_seats(plan.seats, kMaxPlayers);  // the form; the seats against the game later
    plan.samples = checked_number("samples", samples, 1, apps::kMaxSamples);
    if (count) plan.count = checked_number<long>("count", *count, 1, apps::kMaxItems);
    plan.seed = seed_arg(seed, "seed");
    const Entries entries(policies);
    if (entries.specs.empty())
        throw InputError("--policies is required: the bot specs to evaluate");
    options.run = batch_run(threads, out, resume);
    plan.policies = entries.specs;
    options.records = records.value_or("");
    if (plan.bid_mode) {
        plan.rules =
            resolve_rules(game, preset.value_or(""), rules.value_or(std::vector<std::string>{}));
        options.deals = deals.value_or("");
        if (options.deals.empty() && plan.rules.game == GameKind::kSpades) {
            const std::string name = preset.value_or(default_preset(plan.rules.game));
            options.deals =
                (data_dir() / "deals" / (std::filesystem::path(name).stem().string() + ".txt"))
                    .string();
        }
    }
    options.make_policy = entries.factory();
    return run_results("eval", quiet, options, apps::run_eval, eval_summary_dict);
}

// The command and summary of a results file the command line (or a run from Python) wrote, read
// through the library's checked readers: a bad file is an InputError with their message.
py::dict py_read_results(const std::string& path) {
    std::string command;
    {
        std::ifstream in(path);
        std::string first;
        if (in && std::getline(in, first)) try {
                const nlohmann::json header = nlohmann::json::parse(first);
                if (header.is_object() && header.contains("command") &&
                    header["command"].is_string())
                    command = header["command"].get<std::string>();
            } catch (const nlohmann::json::exception&) {
            }
    }
    if (command == "eval") {
        const apps::EvalFile file = apps::read_eval_file(path);
        return py::dict(py::arg("command") = command,
                        py::arg("summary") = eval_summary_dict(file.summary));
    }
    // Anything else is read as a tournament file, whose reader says what is wrong with it.
    const apps::TournamentFile file = apps::read_tournament_file(path);
    return py::dict(py::arg("command") = "tournament",
                    py::arg("summary") = tournament_summary_dict(file.summary));
}

// A run's players: a list of bot specs, or the command line's comma-separated text.
std::vector<std::string> spec_list(const py::object& players) {
    if (py::isinstance<py::str>(players)) return split_player_list(players.cast<std::string>());
    std::vector<std::string> specs;
    for (const py::handle& p : players) {
        if (!py::isinstance<py::str>(p))
            throw InputError("players: " + py::repr(p).cast<std::string>() + " is not a bot spec");
        specs.push_back(p.cast<std::string>());
    }
    return specs;
}

// The players as the command line's --players would give them ("" when not given), for messages.
std::string players_text(const py::object& players, const std::vector<std::string>& specs) {
    std::string text;
    if (!players.is_none())
        for (const std::string& spec : specs) text += (text.empty() ? "" : ",") + spec;
    return text;
}

// How a data command runs: threads (None: every core), its output (`what` it is), resume.
apps::BatchRun data_run(const py::object& threads, const std::string& out, bool resume,
                        const std::string& what) {
    apps::BatchRun run;
    if (!threads.is_none())
        run.threads = static_cast<int>(whole_number(threads, "threads", 1, apps::kMaxThreads));
    if (out.empty()) throw InputError("out is required: " + what);
    run.out = out;
    run.resume = resume;
    return run;
}

// Runs a data command (`run(observer, stop)`, apps/learn/data_runs.hpp) without the GIL, with the
// progress on sys.stderr and Ctrl-C; whether it completed.
template <class Run>
bool run_data(const std::string& command, bool quiet, const Run& run) {
    PyObserver observer(quiet, command);
    const bool complete = without_gil([&] { return run(observer, observer.token()); });
    observer.raise_if_interrupted();
    return complete;
}

// `cardgames learn data` and `learn cutoff-data` with their options as keyword arguments: the plan
// (`usual_preset` when neither a preset nor a game is given, `usual_bot` in every seat when
// no players are), checked as the command line checks it, before the file is touched.
apps::SelfPlayPlan data_plan(const py::object& hands, const std::optional<std::string>& preset,
                             const std::optional<std::string>& game,
                             const std::vector<std::string>& rules, const py::object& players,
                             const py::object& seed, const std::string& usual_preset,
                             const std::string& usual_bot) {
    apps::SelfPlayPlan plan;
    plan.rules = resolve_rules(game, preset.value_or(game ? "" : usual_preset), rules);
    plan.hands = static_cast<long>(whole_number(hands, "hands", 1, apps::kMaxItems));
    if (!seed.is_none()) plan.seed = seed_arg(seed, "seed");
    if (players.is_none())
        plan.specs.assign(static_cast<std::size_t>(plan.rules.players), usual_bot);
    else
        plan.specs = spec_list(players);
    apps::check_selfplay_players(plan, players_text(players, plan.specs));
    return plan;
}

py::dict data_result(const std::string& out, long hands, bool complete) {
    return py::dict(py::arg("out") = out, py::arg("hands") = hands, py::arg("complete") = complete);
}

py::dict py_policy_data(const std::string& out, const py::object& hands,
                        const std::optional<std::string>& preset,
                        const std::optional<std::string>& game,
                        const std::vector<std::string>& rules, const py::object& players,
                        const py::object& seed, const py::object& threads, bool resume,
                        bool quiet) {
    const apps::SelfPlayPlan plan =
        data_plan(hands, preset, game, rules, players, seed, "", apps::kPolicyDataBot);
    apps::check_policy_data_plan(plan, players_text(players, plan.specs));
    const apps::BatchRun run = data_run(threads, out, resume, "the data file (JSON Lines)");
    const bool complete =
        run_data("learn data", quiet, [&](apps::RunObserver& o, std::stop_token s) {
            return apps::run_policy_data(apps::MpiSession::single_process(), plan, run, o, s);
        });
    return data_result(out, plan.hands, complete);
}

py::dict py_cutoff_data(const std::string& out, const py::object& hands,
                        const std::optional<std::string>& preset,
                        const std::optional<std::string>& game,
                        const std::vector<std::string>& rules, const py::object& players,
                        const py::object& seed, const py::object& threads, bool resume,
                        bool quiet) {
    const apps::SelfPlayPlan plan = data_plan(hands, preset, game, rules, players, seed,
                                              apps::kCutoffDataPreset, apps::kCutoffDataBot);
    const apps::BatchRun run = data_run(threads, out, resume, "the data file (JSON Lines)");
    const bool complete =
        run_data(apps::kCutoffDataCommand, quiet, [&](apps::RunObserver& o, std::stop_token s) {
            return apps::run_cutoff_data(apps::MpiSession::single_process(), plan, run, o, s);
        });
    return data_result(out, plan.hands, complete);
}

py::dict py_bids_data(const std::string& out, const py::object& hands,
                      const std::optional<std::string>& preset,
                      const std::optional<std::string>& game, const std::vector<std::string>& rules,
                      const std::optional<std::string>& bot, const py::object& seed,
                      const py::object& threads, bool resume, bool quiet) {
    apps::BidsDataPlan plan;
    const std::string given = preset.value_or(game ? "" : apps::kBidsDataPreset);
    plan.rules = resolve_rules(game, given, rules);
    plan.preset = given.empty() ? default_preset(plan.rules.game) : given;
    plan.hands = static_cast<long>(whole_number(hands, "hands", 1, apps::kMaxItems));
    if (!seed.is_none()) plan.seed = seed_arg(seed, "seed");
    if (bot) plan.bot = *bot;
    plan.check();
    const apps::BatchRun run = data_run(threads, out, resume, "the data file");
    apps::check_bids_bot(plan);
    const bool complete =
        run_data("learn bids-data", quiet, [&](apps::RunObserver& o, std::stop_token s) {
            return apps::run_bids_data(apps::MpiSession::single_process(), plan, run, o, s);
        });
    return data_result(out, plan.hands, complete);
}

// What a self-play folder holds (`cardgames learn selfplay --report`), every record checked.
py::dict selfplay_summary_dict(const std::string& folder) {
    const apps::SelfplaySummary s = apps::read_selfplay(folder);
    return py::dict(
        py::arg("folder") = folder, py::arg("form") = s.options["form"].get<std::string>(),
        py::arg("shards") = s.shards, py::arg("hands") = s.hands, py::arg("records") = s.records,
        py::arg("by_phase") =
            py::dict(py::arg("blind_nil") = s.by_phase[0], py::arg("bid") = s.by_phase[1],
                     py::arg("pass") = s.by_phase[2], py::arg("play") = s.by_phase[3]),
        py::arg("options") = to_python(s.options));
}

// `explore_bids`: False, True (the rule player's bid varied), "rule", "own" or "paired".
apps::SelfplayPlan::ExploreBids explore_bids_arg(const py::object& value) {
    if (py::isinstance<py::bool_>(value))
        return value.cast<bool>() ? apps::SelfplayPlan::ExploreBids::kRule
                                  : apps::SelfplayPlan::ExploreBids::kNone;
    if (py::isinstance<py::str>(value)) return apps::explore_bids_named(value.cast<std::string>());
    throw cardgames::InputError("explore_bids: False, True, 'rule', 'own' or 'paired', not " +
                                py::repr(value).cast<std::string>());
}

// `cardgames learn selfplay` with its options as keyword arguments (players: a list of specs or
// the command line's comma-separated text; seats: seat numbers). The plan is checked before the
// folder is touched; the run goes without the GIL.
py::dict py_selfplay(const std::string& out, const py::object& hands,
                     const std::optional<std::string>& preset,
                     const std::optional<std::string>& game, const std::vector<std::string>& rules,
                     const py::object& players, const py::object& seats, const std::string& values,
                     const py::object& seed, const py::object& shard_hands,
                     const py::object& threads, bool resume, bool quiet,
                     const py::object& explore_bids) {
    apps::SelfplayPlan plan;
    plan.rules = resolve_rules(game, preset.value_or(""), rules);
    plan.hands = static_cast<long>(whole_number(hands, "hands", 1, apps::kMaxItems));
    if (!seed.is_none()) plan.seed = seed_arg(seed, "seed");
    if (!shard_hands.is_none())
        plan.shard_hands =
            static_cast<long>(whole_number(shard_hands, "shard_hands", 1, apps::kMaxItems));
    plan.values = values;
    plan.explore_bids = explore_bids_arg(explore_bids);
    plan.specs =
        players.is_none() ? apps::default_selfplay_players(plan.rules) : spec_list(players);
    if (seats.is_none())
        plan.seats = apps::default_selfplay_seats(plan.rules);
    else
        for (const py::handle& seat : seats)
            plan.seats.push_back(
                static_cast<int>(whole_number(seat, "seats", 0, std::numeric_limits<int>::max())));
    const apps::BatchRun run = data_run(threads, out, resume, "the folder of shards");
    plan.check();
    PyObserver observer(quiet, "learn selfplay");
    const bool complete = without_gil([&] {
        return apps::run_selfplay(apps::MpiSession::single_process(), plan, run, observer,
                                  observer.token());
    });
    observer.raise_if_interrupted();
    return data_result(out, plan.hands, complete);
}

}  // namespace

void bind_runs(py::module_& m) {
    // The library logs at info level what the command line shows only with -v.
    spdlog::set_level(spdlog::level::warn);
    py::class_<SeatView>(m, "SeatView",
                         "What a Python player of a run is asked about; make_bot(spec).act() "
                         "takes the observation that carries it.");
    m.def("_tournament", &py_tournament, py::kw_only(), py::arg("players"),
          py::arg("preset") = py::none(), py::arg("game") = py::none(),
          py::arg("rules") = std::vector<std::string>{}, py::arg("games") = py::none(),
          py::arg("hands") = py::none(), py::arg("duplicate") = false,
          py::arg("seat_seeds") = false, py::arg("seed") = 1, py::arg("threads") = py::none(),
          py::arg("out") = "", py::arg("resume") = false, py::arg("quiet") = false);
    m.def("_evaluate", &py_evaluate, py::kw_only(), py::arg("mode") = "bid", py::arg("policies"),
          py::arg("reference") = "rule", py::arg("deals") = py::none(),
          py::arg("records") = py::none(), py::arg("count") = py::none(), py::arg("seats") = "all",
          py::arg("samples") = 16, py::arg("seed") = 1, py::arg("preset") = py::none(),
          py::arg("game") = py::none(), py::arg("rules") = py::none(),
          py::arg("threads") = py::none(), py::arg("out") = "", py::arg("resume") = false,
          py::arg("quiet") = false);
    m.def("_read_results", &py_read_results, py::arg("path"));
    m.def("_selfplay", &py_selfplay, py::kw_only(), py::arg("out"), py::arg("hands"),
          py::arg("preset") = py::none(), py::arg("game") = py::none(),
          py::arg("rules") = std::vector<std::string>{}, py::arg("players") = py::none(),
          py::arg("seats") = py::none(), py::arg("values") = "none", py::arg("seed") = py::none(),
          py::arg("shard_hands") = py::none(), py::arg("threads") = py::none(),
          py::arg("resume") = false, py::arg("quiet") = false,
          py::arg("explore_bids") = py::bool_(false));
    m.def("_selfplay_report", &selfplay_summary_dict, py::arg("folder"));
    for (const auto& [name, run] :
         {std::pair{"_policy_data", &py_policy_data}, std::pair{"_cutoff_data", &py_cutoff_data}})
        m.def(name, run, py::kw_only(), py::arg("out"), py::arg("hands"),
              py::arg("preset") = py::none(), py::arg("game") = py::none(),
              py::arg("rules") = std::vector<std::string>{}, py::arg("players") = py::none(),
              py::arg("seed") = py::none(), py::arg("threads") = py::none(),
              py::arg("resume") = false, py::arg("quiet") = false);
    m.def("_bids_data", &py_bids_data, py::kw_only(), py::arg("out"), py::arg("hands"),
          py::arg("preset") = py::none(), py::arg("game") = py::none(),
          py::arg("rules") = std::vector<std::string>{}, py::arg("bot") = py::none(),
          py::arg("seed") = py::none(), py::arg("threads") = py::none(), py::arg("resume") = false,
          py::arg("quiet") = false);
    m.def(
        "tournament_game_seed",
        [](const py::object& seed, long board) {
            return seeds::tournament_game(seed_arg(seed, "seed"), board);
        },
        py::arg("seed"), py::arg("board") = 0,
        "The game seed of a board of `cardgames tournament --seed SEED` (what records store).");
    m.def(
        "tournament_bot_seed",
        [](const py::object& game_seed, int entry) {
            return seeds::tournament_bot(seed_arg(game_seed, "game_seed"), entry);
        },
        py::arg("game_seed"), py::arg("entry"),
        "The seed a tournament gives the bot of player entry ENTRY in a game.");
}

}  // namespace pycards
