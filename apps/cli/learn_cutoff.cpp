// cardgames learn: the predictive cut-off evaluation of `pimc:eval=search,cutoff=model`.
//   learn cutoff-data: self-play hands (the rule player in every seat by default: cheap, and what
//     the model needs is positions with every hand known and what each seat then took); at every
//     trick boundary, each seat's features (sampling/cutoff_model.hpp) and what it took in the
//     rest of the hand: penalty points (Hearts) or tricks (Spades). One JSON line per hand, the
//     same file for any --threads and MPI rank count (seeds derive from the hand's index).
//   learn cutoff-fit: ridge least squares (sampling/fit.hpp) of what was taken on the features,
//     measured on held-out hands against the even share, written as a model file.
#include <fmt/format.h>

#include <cmath>
#include <iostream>
#include <optional>

#include "apps/cli/batch_command.hpp"
#include "apps/cli/common.hpp"
#include "apps/experiments/batch.hpp"
#include "apps/experiments/cluster.hpp"
#include "apps/experiments/results_file.hpp"
#include "apps/experiments/run.hpp"
#include "apps/learn/holdout.hpp"
#include "apps/learn/training_players.hpp"
#include "cardgames/cards/error.hpp"
#include "cardgames/cards/json_input.hpp"
#include "cardgames/cards/seeds.hpp"
#include "cardgames/cards/text_file.hpp"
#include "cardgames/players/bot_spec.hpp"
#include "cardgames/rules/game.hpp"
#include "cardgames/rules/game_runner.hpp"
#include "cardgames/search/trick_play.hpp"
#include "sampling/bot_registry.hpp"
#include "sampling/cutoff_model.hpp"
#include "sampling/fit.hpp"
#include "sampling/model_file.hpp"
#include "sampling/policy.hpp"

namespace apps {

using namespace cardgames;
using nlohmann::json;

namespace {

const char* const kCutoffDataCommand = "learn cutoff-data";

// What the model predicts, as the model file says it.
std::string taken_name(GameKind game) {
    return game == GameKind::kSpades ? "tricks" : "penalty points";
}

// What `seat` has taken in the hand so far: penalty points (Hearts) or tricks (Spades).
int taken_by(const Game& game, int seat) {
    if (game.rules().game == GameKind::kSpades) return game.hand().tricks[seat];
    int points = 0;
    for (Card c : game.hand().taken[seat]) points += game.play_rules().points[c.index()];
    return points;
}

// One trick boundary: every seat's features and what it has taken so far (the rest is filled in
// when the hand ends).
struct Boundary {
    int tricks_left = 0, left = 0;
    std::array<int, kMaxPlayers> taken{};
    std::array<sampling::CutoffFeatures, kMaxPlayers> features{};
};

Boundary boundary_of(const Game& game) {
    const Rules& rules = game.rules();
    const TrickPlay g(rules, game.play_state(), game.hand().taken);
    ScoreContext context;
    context.bids = game.hand().bids;
    Boundary b;
    b.tricks_left = g.remaining_tricks();
    b.left = sampling::cutoff_left(g);
    for (int s = 0; s < rules.players; ++s) {
        b.taken[s] = taken_by(game, s);
        sampling::cutoff_features(g, context, s, b.features[s]);
    }
    return b;
}

std::string cutoff_data_item(const SelfPlayPlan& plan, long index, const std::stop_token& stop,
                             const std::shared_ptr<models::ModelStore>& store) {
    const Rules& rules = plan.rules;
    const int n = rules.players;
    TrainingHand hand(rules, plan.specs, plan.seed, index, store);
    Game& game = hand.game;
    std::vector<std::unique_ptr<Player>>& players = hand.players;
    std::vector<Boundary> boundaries;
    while (!game.over()) {
        if (stop.stop_requested()) throw Interrupted{};
        if (game.phase() == Phase::kPlay && game.play_state().trick_size == 0 &&
            game.play_state().cards_left() > 0)
            boundaries.push_back(boundary_of(game));
        step_game(game, players);
    }
    json positions = json::array();
    for (const Boundary& b : boundaries) {
        json rest = json::array(), features = json::array();
        for (int s = 0; s < n; ++s) {
            rest.push_back(taken_by(game, s) - b.taken[s]);
            json row = json::array();
            for (double x : b.features[s]) row.push_back(rounded_for_file(x));
            features.push_back(row);
        }
        json position = {{"tricks_left", b.tricks_left}, {"rest", rest}, {"features", features}};
        // What is left to take is the tricks left in Spades; Hearts says its points.
        if (rules.game == GameKind::kHearts) position["points_left"] = b.left;
        positions.push_back(std::move(position));
    }
    return json{{"index", index}, {"positions", positions}}.dump();
}

std::optional<int> parse_data(int argc, char** argv, SelfPlayPlan& plan, BatchRunOptions& run) {
    SelfPlayArgs args;
    if (!args.parse(kCutoffDataCommand, argc, argv, plan, run,
                    "one bot spec per seat (default: rule in every seat, cheap; pimc is dear)",
                    "not used by this command"))
        return 0;
    if (!args.rules.game_given && args.rules.preset.empty()) args.rules.preset = "hearts4";
    plan.rules = args.rules.resolve();
    if (!run.report_file.empty()) throw InputError("--report: not used by this command");
    args.check(plan, run, "rule");
    return std::nullopt;
}

int cutoff_data(const MpiSession& mpi, int argc, char** argv) {
    SelfPlayPlan plan;
    BatchRunOptions run(mpi);
    if (const auto done = parse_on_every_rank(mpi, kCutoffDataCommand,
                                              [&] { return parse_data(argc, argv, plan, run); }))
        return *done;
    const std::unique_ptr<ResultsFile> out = open_results(
        mpi, run.run.out,
        results_header(kCutoffDataCommand,
                       plan.options(names_json(sampling::cutoff_feature_names(plan.rules.game)))),
        run.run.resume, [](const json&) {}, plan.models);
    const auto store = std::make_shared<models::ModelStore>();
    if (const int status = run_data_batch(mpi, run, out.get(), plan.hands, kCutoffDataCommand,
                                          [&](long i, const std::stop_token& stop) {
                                              return cutoff_data_item(plan, i, stop, store);
                                          }))
        return status;
    if (mpi.rank() != 0) return 0;
    std::cout << "wrote " << plan.hands << " hands to " << run.run.out << "\n";
    return 0;
}

// One seat at one trick boundary.
struct Sample {
    sampling::CutoffFeatures x{};
    double rest = 0;
    int left = 0, players = 0, seat = 0;
    long position = 0;  // the boundary it belongs to (its seats are consecutive samples)
    bool held_out = false;
};

struct CutoffData {
    std::vector<Sample> samples;
    std::string form;
    std::vector<std::string> files, commands;
    long hands = 0, positions = 0;
};

json cutoff_names_json(const std::string& form) {
    return names_json(sampling::cutoff_feature_names(sampling::game_of_form(form)));
}

void read_data(const std::string& path, long holdout, CutoffData& data) {
    auto line_check = [&](const json& line, int players) {
        const JsonField l(line, "");
        const long index = static_cast<long>(l["index"].integer(0, kMaxItems));
        const JsonField ps = l["positions"];
        for (std::size_t k = 0; k < ps.array(); ++k) {
            const JsonField p = ps[k];
            const int tricks_left = static_cast<int>(p["tricks_left"].integer(1, kMaxTricks));
            const int left = sampling::game_of_form(data.form) == GameKind::kSpades
                                 ? tricks_left
                                 : static_cast<int>(p["points_left"].integer(0, 1000));
            p["rest"].array(players, players);
            p["features"].array(players, players);
            for (int s = 0; s < players; ++s) {
                Sample smp;
                smp.rest = static_cast<double>(p["rest"][s].integer(0, left));
                const JsonField row = p["features"][s];
                row.array(sampling::kCutoffFeatures, sampling::kCutoffFeatures);
                for (int j = 0; j < sampling::kCutoffFeatures; ++j)
                    smp.x[j] = row[j].number(-1e6, 1e6);
                smp.left = left;
                smp.players = players;
                smp.seat = s;
                smp.position = data.positions;
                smp.held_out = held_out(index, holdout);
                data.samples.push_back(smp);
            }
            ++data.positions;
        }
    };
    const DataFileSource source = read_data_file(path, kCutoffDataCommand, kCutoffDataCommand,
                                                 cutoff_names_json, data.form, line_check);
    data.hands += source.hands;
    data.files.push_back(source.file);
    data.commands.push_back(source.command);
}

// Errors of what each seat takes in the rest of the hand, held out: the raw prediction, the whole
// shares the search uses (cutoff_shares) and the even share.
struct Errors {
    long seats = 0;
    double model_abs = 0, model_sq = 0, shares_abs = 0, even_abs = 0, even_sq = 0;
    std::string text() const {
        const double k = seats ? static_cast<double>(seats) : 1.0;
        return fmt::format(
            "{} held-out seat positions: mean abs error {:.3f} (whole shares {:.3f}), rmse {:.3f}; "
            "even share {:.3f}, rmse {:.3f}",
            seats, model_abs / k, shares_abs / k, std::sqrt(model_sq / k), even_abs / k,
            std::sqrt(even_sq / k));
    }
};

Errors held_out_errors(const CutoffData& data, const std::vector<double>& w) {
    Errors e;
    for (std::size_t i = 0; i < data.samples.size();) {
        const Sample& first = data.samples[i];
        const int n = first.players;
        if (!first.held_out) {
            i += static_cast<std::size_t>(n);
            continue;
        }
        std::array<double, kMaxPlayers> pred{};
        for (int s = 0; s < n; ++s) {
            const Sample& smp = data.samples[i + static_cast<std::size_t>(s)];
            for (int j = 0; j < sampling::kCutoffFeatures; ++j)
                pred[s] += w[static_cast<std::size_t>(j)] * smp.x[j];
        }
        std::array<int, kMaxPlayers> shares{};
        cutoff_shares(pred, n, first.left, shares);
        const double even = static_cast<double>(first.left) / n;
        for (int s = 0; s < n; ++s) {
            const double y = data.samples[i + static_cast<std::size_t>(s)].rest;
            e.model_abs += std::abs(pred[s] - y);
            e.model_sq += (pred[s] - y) * (pred[s] - y);
            e.shares_abs += std::abs(shares[s] - y);
            e.even_abs += std::abs(even - y);
            e.even_sq += (even - y) * (even - y);
            ++e.seats;
        }
        i += static_cast<std::size_t>(n);
    }
    return e;
}

int cutoff_fit(const MpiSession& mpi, int argc, char** argv) {
    if (mpi.ranks() > 1) throw InputError("'cardgames learn cutoff-fit' runs as one process");
    std::vector<std::string> data_files;
    std::string out_path;
    double ridge = 1e-3;
    long holdout = kDefaultHoldout;
    po::options_description desc("learn cutoff-fit options");
    add_fit_file_options(desc, data_files, out_path, holdout, "learn cutoff-data",
                         "data/models/<form>-cutoff.txt");
    desc.add_options()("ridge", number(&ridge, 0.0, 100.0)->default_value(1e-3),
                       "ridge penalty on standardised weights");
    po::variables_map vm;
    if (!parse_args("learn cutoff-fit", argc, argv, desc, vm)) return 0;
    require_fit_files(data_files, out_path, "learn cutoff-data");
    check_model_out(out_path, data_files);

    CutoffData data;
    for (const std::string& f : data_files) read_data(f, holdout, data);
    std::vector<double> x, y;
    for (const Sample& s : data.samples) {
        if (s.held_out) continue;
        x.insert(x.end(), s.x.begin(), s.x.end());
        y.push_back(s.rest);
    }
    if (y.empty()) throw InputError("--data: no positions to fit outside the held-out hands");
    const std::vector<double> w = sampling::fit_ridge(x, y, sampling::kCutoffFeatures, ridge);
    const GameKind game = sampling::game_of_form(data.form);
    const Errors errors = held_out_errors(data, w);

    sampling::ModelFile m;
    m.where = "model '" + out_path + "'";
    m.kind = "cutoff-eval";
    m.comments = {
        "A predictive cut-off evaluation for " + data.form +
            " (pimc:eval=search,cutoff=model): the " + taken_name(game) +
            " a seat takes in the rest of the hand",
        "as the sum of weight x feature over features of the position at a trick boundary "
        "(sampling/cutoff_model.cpp),",
        fmt::format("fitted by ridge least squares (ridge {}) to {} seat positions of {} "
                    "self-play hands, held out every {}th hand:",
                    ridge, y.size(), data.hands, holdout),
        "  " + errors.text(),
    };
    m.meta = model_metadata(data.form, "cardgames learn cutoff-fit", argc, argv, data.files,
                            data.commands);
    for (std::string_view n : sampling::cutoff_feature_names(game)) m.names.emplace_back(n);
    m.weights = w;
    write_model_file(out_path, m);
    std::cout << fmt::format("{} positions of {} hands; fitted on {} seat positions\n",
                             data.positions, data.hands, y.size())
              << errors.text() << "\n"
              << "wrote " << out_path << "\n";
    return 0;
}

}  // namespace

int learn_cutoff(const MpiSession& mpi, const std::string& what, int argc, char** argv) {
    if (what == "cutoff-data") return cutoff_data(mpi, argc, argv);
    return cutoff_fit(mpi, argc, argv);
}

}  // namespace apps
