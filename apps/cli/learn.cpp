// cardgames learn: the learned play-out policy's data and fit (docs/guide/learning.md).
//   learn data: self-play hands; at each card decision of a recorded seat (a pimc bot), the
//     features of every legal card, pimc's value of each and its choice. One JSON line per hand,
//     the same file for any --threads and MPI rank count (seeds derive from the hand's index).
//   learn fit: a conditional logit over the features fitted to pimc's choices (sampling/fit.hpp),
//     measured on held-out hands, written as a model file (sampling/model_file.hpp).
#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <optional>

#include "apps/cli/batch_command.hpp"
#include "apps/cli/common.hpp"
#include "apps/experiments/batch.hpp"
#include "apps/experiments/cluster.hpp"
#include "apps/experiments/results_file.hpp"
#include "apps/learn/holdout.hpp"
#include "cardgames/cards/error.hpp"
#include "cardgames/cards/json_input.hpp"
#include "cardgames/cards/seeds.hpp"
#include "cardgames/cards/text_file.hpp"
#include "cardgames/players/bot_spec.hpp"
#include "cardgames/rules/game_runner.hpp"
#include "sampling/bot_registry.hpp"
#include "sampling/deal_sampler.hpp"
#include "sampling/fit.hpp"
#include "sampling/model_file.hpp"
#include "sampling/pimc.hpp"
#include "sampling/policy.hpp"

namespace apps {

using namespace cardgames;
using nlohmann::json;

namespace {

// A pimc bot whose card decisions are written down: every legal card's features and value.
class RecordingPimc : public Player {
  public:
    RecordingPimc(const std::string& spec, std::uint64_t seed, json* decisions,
                  std::shared_ptr<models::ModelStore> store)
        : bot_(sampling::PimcOptions::from_spec(parse_bot_spec(spec)), seed, std::move(store)),
          decisions_(decisions) {}
    std::string name() const override { return "pimc"; }
    bool blind_nil(const InfoState& info) override { return bot_.blind_nil(info); }
    int bid(const InfoState& info) override { return bot_.bid(info); }
    CardSet pass(const InfoState& info) override { return bot_.pass(info); }
    Card play(const InfoState& info) override {
        sampling::PimcAnalysis a;
        try {
            a = bot_.analyze(info);
        } catch (const sampling::Contradiction&) {
            return bot_.play(info);  // an impossible state: pimc's own fallback, not recorded
        }
        if (a.searched) record(info, a);
        return a.best;
    }

  private:
    void record(const InfoState& info, const sampling::PimcAnalysis& a) {
        const sampling::DecisionFeatures features(info);
        json d;
        d["seat"] = info.seat;
        d["hand_size"] = info.hand.size();
        json cards = json::array(), values = json::array(), rows = json::array();
        int choice = 0, rule = 0;
        sampling::PolicyFeatures f;
        for (std::size_t i = 0; i < a.cards.size(); ++i) {
            const Card c = a.cards[i].card;
            if (c == a.best) choice = static_cast<int>(i);
            if (c == features.rule_card()) rule = static_cast<int>(i);
            cards.push_back(to_string(c));
            values.push_back(rounded_for_file(a.cards[i].mean));
            features.of(c, f);
            json row = json::array();
            for (double x : f) row.push_back(rounded_for_file(x));
            rows.push_back(row);
        }
        d["cards"] = cards;
        d["choice"] = choice;
        d["rule"] = rule;
        d["values"] = values;
        d["features"] = rows;
        decisions_->push_back(d);
    }

    sampling::PimcBot bot_;
    json* decisions_;
};

// Hand `index`: seats whose spec is pimc are recorded.
std::string data_item(const SelfPlayPlan& plan, long index, const std::stop_token& stop,
                      const std::shared_ptr<models::ModelStore>& store) {
    const std::uint64_t game_seed = seeds::training_hand(plan.seed, index);
    json decisions = json::array();
    std::vector<std::unique_ptr<Player>> players;
    for (int s = 0; s < plan.rules.players; ++s) {
        const std::string& spec = plan.specs[static_cast<std::size_t>(s)];
        const std::uint64_t bot_seed = seeds::playout_training_bot(game_seed, s);
        if (parse_bot_spec(spec).name == "pimc")
            players.push_back(std::make_unique<RecordingPimc>(spec, bot_seed, &decisions, store));
        else
            players.push_back(sampling::make_player(spec, bot_seed, {}, store));
    }
    Game game(plan.rules, game_seed);
    game.stop_after_hand();
    while (!game.over()) {
        if (stop.stop_requested()) throw Interrupted{};
        step_game(game, players);
    }
    json line;
    line["index"] = index;
    line["decisions"] = decisions;
    return line.dump();
}

std::optional<int> parse_data(const MpiSession& mpi, int argc, char** argv, SelfPlayPlan& plan,
                              BatchRunOptions& run) {
    SelfPlayArgs args;
    if (!args.parse("learn data", argc, argv, plan, run,
                    "one bot spec per seat (default: pimc in every seat); the pimc seats are "
                    "recorded",
                    "print what an existing data file holds and exit"))
        return 0;
    if (!run.report_file.empty()) {
        only_option(args.vm, "report");
        if (mpi.rank() == 0) {
            long hands = 0, decisions = 0, cards = 0;
            const json header = read_results(
                run.report_file, "learn-data", [](const json&) {},
                [&](const json& line) {
                    ++hands;
                    for (const json& d : line.at("decisions")) {
                        ++decisions;
                        cards += static_cast<long>(d.at("cards").size());
                    }
                });
            std::cout << fmt::format(
                "{}: {} hands of {}, {} decisions, {} legal cards\n", run.report_file, hands,
                header["options"]["rules"].get<std::string>(), decisions, cards);
        }
        return 0;
    }
    plan.rules = args.rules.resolve();
    args.check(plan, run, "pimc");
    const bool any = std::any_of(plan.specs.begin(), plan.specs.end(), [](const std::string& spec) {
        return parse_bot_spec(spec).name == "pimc";
    });
    if (!any) throw InputError("--players '" + args.players_text + "': no pimc seat to record");
    return std::nullopt;
}

int learn_data(const MpiSession& mpi, int argc, char** argv) {
    SelfPlayPlan plan;
    BatchRunOptions run(mpi);
    if (const auto done = parse_on_every_rank(
            mpi, "learn data", [&] { return parse_data(mpi, argc, argv, plan, run); }))
        return *done;
    const std::unique_ptr<ResultsFile> out = open_results(
        mpi, run.run.out,
        results_header("learn-data", plan.options(names_json(sampling::policy_feature_names()))),
        run.run.resume, [](const json&) {}, plan.models);
    if (mpi.rank() == 0)
        spdlog::info("learn data: {} hands of {} on {}, to {}", plan.hands,
                     sampling::form_name(plan.rules), mpi.workers_text(run.run.threads),
                     run.run.out);
    const auto store = std::make_shared<models::ModelStore>();
    if (const int status = run_data_batch(
            mpi, run, out.get(), plan.hands, "learn data",
            [&](long i, const std::stop_token& stop) { return data_item(plan, i, stop, store); }))
        return status;
    if (mpi.rank() != 0) return 0;
    return 0;
}

// One recorded decision, as the fit and its measures use it.
struct Decision {
    sampling::ChoiceGroup group;
    int choice = 0, rule = 0;
    std::vector<double> values;
    bool held_out = false;
};

struct FitData {
    std::vector<Decision> decisions;
    std::string form;
    std::vector<std::string> files;     // "path (seed S, N hands, fnv1a X)"
    std::vector<std::string> commands;  // the learn data command that makes each file's hands
    long hands = 0;
};

// The target of a decision: pimc's choice (temperature 0), or a softmax of pimc's values at that
// temperature, which asks less where the values are close and more where a card is dear.
void set_target(Decision& d, double temperature) {
    const std::size_t n = d.values.size();
    d.group.target.assign(n, 0.0);
    if (temperature <= 0) {
        d.group.target[static_cast<std::size_t>(d.choice)] = 1;
        return;
    }
    const double top = *std::max_element(d.values.begin(), d.values.end());
    double sum = 0;
    for (std::size_t i = 0; i < n; ++i)
        sum += d.group.target[i] = std::exp((d.values[i] - top) / temperature);
    for (double& t : d.group.target) t /= sum;
}

// Reads one data file, checking every field; decisions of hands whose index is a multiple of
// `holdout` are held out.
void read_data(const std::string& path, long holdout, double temperature, FitData& data) {
    auto check = [&](const json& line, int) {
        const JsonField l(line, "");
        const long index = static_cast<long>(l["index"].integer(0, kMaxItems));
        const JsonField ds = l["decisions"];
        for (std::size_t k = 0; k < ds.array(); ++k) {
            const JsonField d = ds[k];
            Decision dec;
            const int rows = static_cast<int>(d["cards"].array(1, 64));
            dec.group.rows = rows;
            dec.choice = static_cast<int>(d["choice"].integer(0, rows - 1));
            dec.rule = static_cast<int>(d["rule"].integer(0, rows - 1));
            if (d["values"].array(rows, rows) != static_cast<std::size_t>(rows) ||
                d["features"].array(rows, rows) != static_cast<std::size_t>(rows))
                d.fail("cards, values and features differ in length");
            for (int i = 0; i < rows; ++i) {
                dec.values.push_back(d["values"][i].number(-1e9, 1e9));
                const JsonField row = d["features"][i];
                row.array(sampling::kPolicyFeatures, sampling::kPolicyFeatures);
                for (int j = 0; j < sampling::kPolicyFeatures; ++j)
                    dec.group.x.push_back(row[j].number(-1e6, 1e6));
            }
            set_target(dec, temperature);
            dec.held_out = held_out(index, holdout);
            data.decisions.push_back(std::move(dec));
        }
    };
    const DataFileSource source = read_data_file(
        path, "learn data", "learn-data",
        [](const std::string&) { return names_json(sampling::policy_feature_names()); }, data.form,
        check);
    data.hands += source.hands;
    data.files.push_back(source.file);
    data.commands.push_back(source.command);
}

// Agreement with pimc's choice and the pimc value lost by a chooser, over some decisions.
struct Measure {
    long decisions = 0, agree = 0;
    double regret = 0;
    std::string text() const {
        return fmt::format("agrees with pimc {:.1f}%, loses {:.3f} of pimc's value per decision",
                           decisions ? 100.0 * agree / decisions : 0.0,
                           decisions ? regret / decisions : 0.0);
    }
};

template <class Choose>
Measure measure(const std::vector<Decision>& decisions, bool held_out, Choose choose) {
    Measure m;
    for (const Decision& d : decisions) {
        if (d.held_out != held_out) continue;
        const int c = choose(d);
        ++m.decisions;
        m.agree += c == d.choice ? 1 : 0;
        m.regret +=
            d.values[static_cast<std::size_t>(d.choice)] - d.values[static_cast<std::size_t>(c)];
    }
    return m;
}

int argmax_of(const sampling::ChoiceGroup& g, const std::vector<double>& w) {
    const std::vector<double> p = sampling::choice_probabilities(g, w);
    int best = 0;
    for (int i = 1; i < g.rows; ++i)
        if (p[static_cast<std::size_t>(i)] > p[static_cast<std::size_t>(best)]) best = i;
    return best;
}

int learn_fit(const MpiSession& mpi, int argc, char** argv) {
    if (mpi.ranks() > 1) throw InputError("'cardgames learn fit' runs as one process");
    std::vector<std::string> data_files;
    std::string out_path;
    double l2 = 1.0, temperature = 0;
    long holdout = kDefaultHoldout;
    po::options_description desc("learn fit options");
    add_fit_file_options(desc, data_files, out_path, holdout, "learn data",
                         "data/models/<form>-playout.txt");
    desc.add_options()("l2", po::value(&l2)->default_value(1.0), "L2 penalty on the weights")(
        "temperature", po::value(&temperature)->default_value(0.0),
        "0: fit pimc's choices; T > 0: fit a softmax of pimc's card values at temperature T");
    po::variables_map vm;
    if (!parse_args("learn fit", argc, argv, desc, vm)) return 0;
    require_fit_files(data_files, out_path, "learn data");
    if (!std::isfinite(l2) || l2 < 0) throw InputError("--l2 must be a number >= 0");
    if (!std::isfinite(temperature) || temperature < 0)
        throw InputError("--temperature must be a number >= 0");
    check_model_out(out_path, data_files);

    FitData data;
    for (const std::string& f : data_files) read_data(f, holdout, temperature, data);
    std::vector<sampling::ChoiceGroup> train;
    for (const Decision& d : data.decisions)
        if (!d.held_out) train.push_back(d.group);
    if (train.empty()) throw InputError("--data: no decisions to fit outside the held-out hands");
    const sampling::FitResult fit =
        sampling::fit_conditional_logit(train, sampling::kPolicyFeatures, l2);

    auto by_model = [&](const Decision& d) { return argmax_of(d.group, fit.weights); };
    auto by_rule = [](const Decision& d) { return d.rule; };
    const Measure model_train = measure(data.decisions, false, by_model);
    const Measure model_held = measure(data.decisions, true, by_model);
    const Measure rule_held = measure(data.decisions, true, by_rule);

    sampling::ModelFile m;
    m.where = "model '" + out_path + "'";
    m.kind = "playout-policy";
    m.comments = {
        "A play-out policy for " + data.form +
            ": a linear card scorer, p(card) proportional to exp(sum of weight x feature) over "
            "the legal cards,",
        "fitted (conditional logit, L2 " + fmt::format("{}", l2) + ") to " +
            (temperature > 0
                 ? fmt::format("a softmax at temperature {} of pimc's card values", temperature)
                 : std::string("pimc's choices")) +
            " in self-play (cardgames learn data). Features: sampling/policy.cpp.",
        fmt::format("Fitted on {} decisions of {} hands ({} Newton steps, {}), held out every "
                    "{}th hand:",
                    train.size(), data.hands, fit.iterations,
                    fit.converged ? "converged" : "not converged", holdout),
        "  model, training decisions: " + model_train.text(),
        fmt::format("  model, {} held-out decisions: ", model_held.decisions) + model_held.text(),
        "  rule player, held out: " + rule_held.text(),
    };
    m.meta =
        model_metadata(data.form, "cardgames learn fit", argc, argv, data.files, data.commands);
    for (std::string_view n : sampling::policy_feature_names()) m.names.emplace_back(n);
    m.weights = fit.weights;
    write_model_file(out_path, m);
    std::cout << fmt::format("{} decisions of {} hands, {} held out; {} Newton steps\n",
                             data.decisions.size(), data.hands, model_held.decisions,
                             fit.iterations)
              << "model, training:  " << model_train.text() << "\n"
              << "model, held out:  " << model_held.text() << "\n"
              << "rule,  held out:  " << rule_held.text() << "\n"
              << "wrote " << out_path << "\n";
    return 0;
}

}  // namespace

int cmd_learn(const MpiSession& mpi, int argc, char** argv) {
    return guarded("learn", [&] {
        const std::string sub = argc >= 2 ? argv[1] : "";
        if (sub == "data") return learn_data(mpi, argc - 1, argv + 1);
        if (sub == "fit") return learn_fit(mpi, argc - 1, argv + 1);
        if (sub == "selfplay") return learn_selfplay(mpi, argc - 1, argv + 1);
        if (sub == "bids-data" || sub == "bids-fit")
            return learn_bids(mpi, sub, argc - 1, argv + 1);
        if (sub == "cutoff-data" || sub == "cutoff-fit")
            return learn_cutoff(mpi, sub, argc - 1, argv + 1);
        throw InputError(
            "learn: give 'data' (self-play decisions to a file), 'fit' (a play-out model from "
            "them), 'bids-data' or 'bids-fit' (the Spades bid model), 'cutoff-data' or "
            "'cutoff-fit' (the Hearts cut-off evaluation), 'selfplay' (decision records for "
            "networks), not '" +
            sub + "'");
    });
}

}  // namespace apps
