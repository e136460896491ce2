#include "apps/learn/cutoff_fit.hpp"

#include <fmt/format.h>

#include <cmath>

#include "apps/experiments/run.hpp"
#include "apps/learn/training_players.hpp"
#include "cardgames/cards/error.hpp"
#include "cardgames/cards/json_input.hpp"
#include "cardgames/rules/game.hpp"
#include "cardgames/rules/game_runner.hpp"
#include "cardgames/search/trick_play.hpp"
#include "sampling/fit.hpp"

namespace apps {

using namespace cardgames;
using nlohmann::json;

namespace {

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

void read_cutoff_file(const std::string& path, long holdout, CutoffData& data) {
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
                CutoffSample smp;
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
                                                 cutoff_feature_names_json, data.form, line_check);
    data.hands += source.hands;
    data.sources.push_back(source);
}

CutoffErrors held_out_errors(const CutoffData& data, const std::vector<double>& w) {
    CutoffErrors e;
    for (std::size_t i = 0; i < data.samples.size();) {
        const CutoffSample& first = data.samples[i];
        const int n = first.players;
        if (!first.held_out) {
            i += static_cast<std::size_t>(n);
            continue;
        }
        std::array<double, kMaxPlayers> pred{};
        for (int s = 0; s < n; ++s) {
            const CutoffSample& smp = data.samples[i + static_cast<std::size_t>(s)];
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

}  // namespace

json cutoff_feature_names_json(const std::string& form) {
    return names_json(sampling::cutoff_feature_names(sampling::game_of_form(form)));
}

std::string cutoff_data_hand(const SelfPlayPlan& plan, long index, const std::stop_token& stop,
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

CutoffData read_cutoff_data(const std::vector<std::string>& files, long holdout) {
    CutoffData data;
    for (const std::string& f : files) read_cutoff_file(f, holdout, data);
    return data;
}

std::string CutoffErrors::text() const {
    const double k = seats ? static_cast<double>(seats) : 1.0;
    return fmt::format(
        "{} held-out seat positions: mean abs error {:.3f} (whole shares {:.3f}), rmse {:.3f}; "
        "even share {:.3f}, rmse {:.3f}",
        seats, model_abs / k, shares_abs / k, std::sqrt(model_sq / k), even_abs / k,
        std::sqrt(even_sq / k));
}

CutoffFit fit_cutoff(const CutoffData& data, double ridge) {
    std::vector<double> x, y;
    for (const CutoffSample& s : data.samples) {
        if (s.held_out) continue;
        x.insert(x.end(), s.x.begin(), s.x.end());
        y.push_back(s.rest);
    }
    if (y.empty()) throw InputError("--data: no positions to fit outside the held-out hands");
    CutoffFit fit;
    fit.weights = sampling::fit_ridge(x, y, sampling::kCutoffFeatures, ridge);
    fit.train_seats = static_cast<long>(y.size());
    fit.held_out = held_out_errors(data, fit.weights);
    return fit;
}

void CutoffFitOptions::check() const {
    require_fit_files(data, out, kCutoffDataCommand);
    if (!std::isfinite(ridge) || ridge < 0 || ridge > 100)
        throw InputError(fmt::format("--ridge {}: a number from 0 to 100", ridge));
    if (holdout < kMinHoldout)
        throw InputError(fmt::format("--holdout {}: at least {}", holdout, kMinHoldout));
    check_model_out(out, data);
}

sampling::ModelFile cutoff_model_file(const CutoffFitOptions& options, const CutoffData& data,
                                      const CutoffFit& fit) {
    const GameKind game = sampling::game_of_form(data.form);
    sampling::ModelFile m;
    m.where = "model '" + options.out + "'";
    m.kind = "cutoff-eval";
    m.comments = {
        "A predictive cut-off evaluation for " + data.form +
            " (pimc:eval=search,cutoff=model): the " + taken_name(game) +
            " a seat takes in the rest of the hand",
        "as the sum of weight x feature over features of the position at a trick boundary "
        "(sampling/cutoff_model.cpp),",
        fmt::format("fitted by ridge least squares (ridge {}) to {} seat positions of {} "
                    "self-play hands, held out every {}th hand:",
                    options.ridge, fit.train_seats, data.hands, options.holdout),
        "  " + fit.held_out.text(),
    };
    m.meta = model_metadata(data.form, options.made_by, data.sources);
    for (std::string_view n : sampling::cutoff_feature_names(game)) m.names.emplace_back(n);
    m.weights = fit.weights;
    return m;
}

std::string CutoffFitReport::text() const {
    return fmt::format("{} positions of {} hands; fitted on {} seat positions\n", positions, hands,
                       fit.train_seats) +
           fit.held_out.text() + "\n" + "wrote " + out;
}

CutoffFitReport learn_cutoff_fit(const CutoffFitOptions& options) {
    options.check();
    const CutoffData data = read_cutoff_data(options.data, options.holdout);
    CutoffFitReport r;
    r.fit = fit_cutoff(data, options.ridge);
    write_model_file(options.out, cutoff_model_file(options, data, r.fit));
    r.positions = data.positions;
    r.hands = data.hands;
    r.out = options.out;
    return r;
}

}  // namespace apps
