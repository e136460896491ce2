#include "apps/learn/policy_fit.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <sstream>

#include "apps/experiments/results_file.hpp"
#include "apps/experiments/run.hpp"
#include "apps/learn/training_players.hpp"
#include "cardgames/cards/error.hpp"
#include "cardgames/cards/json_input.hpp"
#include "cardgames/players/bot_spec.hpp"
#include "cardgames/rules/game_runner.hpp"
#include "sampling/bot_registry.hpp"
#include "sampling/deal_sampler.hpp"
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

// Asks less where pimc's values are close and more where a card is dear (temperature > 0).
void set_target(PolicyDecision& d, double temperature) {
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

// Reads one data file into `data`.
void read_policy_file(const std::string& path, long holdout, double temperature, PolicyData& data) {
    auto check = [&](const json& line, int) {
        const JsonField l(line, "");
        const long index = static_cast<long>(l["index"].integer(0, kMaxItems));
        const JsonField ds = l["decisions"];
        for (std::size_t k = 0; k < ds.array(); ++k) {
            const JsonField d = ds[k];
            PolicyDecision dec;
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
        path, "learn data", kPolicyDataHeader,
        [](const std::string&) { return policy_feature_names_json(); }, data.form, check);
    data.hands += source.hands;
    data.sources.push_back(source);
}

template <class Choose>
ChoiceMeasure measure(const std::vector<PolicyDecision>& decisions, bool held_out, Choose choose) {
    ChoiceMeasure m;
    for (const PolicyDecision& d : decisions) {
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

}  // namespace

json policy_feature_names_json() {
    return names_json(sampling::policy_feature_names());
}

std::string policy_data_hand(const SelfPlayPlan& plan, long index, const std::stop_token& stop,
                             const std::shared_ptr<models::ModelStore>& store) {
    const std::uint64_t game_seed = seeds::training_hand(plan.seed, index);
    json decisions = json::array();
    std::vector<std::unique_ptr<Player>> players;
    for (int s = 0; s < plan.rules.players; ++s) {
        const std::string& spec = plan.specs[static_cast<std::size_t>(s)];
        const std::uint64_t bot_seed = seeds::playout_training_bot(game_seed, s);
        if (is_pimc(spec))
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

void check_policy_data_plan(const SelfPlayPlan& plan, const std::string& players_text) {
    if (!std::any_of(plan.specs.begin(), plan.specs.end(), is_pimc))
        throw InputError("--players '" + players_text + "': no pimc seat to record");
}

std::string PolicyDataReport::text() const {
    return fmt::format("{}: {} hands of {}, {} decisions, {} legal cards", path, hands, form,
                       decisions, cards);
}

PolicyDataReport report_policy_data(const std::string& path) {
    PolicyDataReport r;
    r.path = path;
    const json header = read_results(
        path, kPolicyDataHeader, [](const json&) {},
        [&](const json& line) {
            ++r.hands;
            for (const json& d : line.at("decisions")) {
                ++r.decisions;
                r.cards += static_cast<long>(d.at("cards").size());
            }
        });
    r.form = header["options"]["rules"].get<std::string>();
    return r;
}

PolicyData read_policy_data(const std::vector<std::string>& files, long holdout,
                            double temperature) {
    PolicyData data;
    for (const std::string& f : files) read_policy_file(f, holdout, temperature, data);
    return data;
}

std::string ChoiceMeasure::text() const {
    return fmt::format("agrees with pimc {:.1f}%, loses {:.3f} of pimc's value per decision",
                       decisions ? 100.0 * agree / decisions : 0.0,
                       decisions ? regret / decisions : 0.0);
}

PolicyFit fit_policy(const PolicyData& data, double l2) {
    std::vector<sampling::ChoiceGroup> train;
    for (const PolicyDecision& d : data.decisions)
        if (!d.held_out) train.push_back(d.group);
    if (train.empty()) throw InputError("--data: no decisions to fit outside the held-out hands");
    PolicyFit r;
    r.fit = sampling::fit_conditional_logit(train, sampling::kPolicyFeatures, l2);
    r.train_decisions = static_cast<long>(train.size());
    auto by_model = [&](const PolicyDecision& d) { return argmax_of(d.group, r.fit.weights); };
    auto by_rule = [](const PolicyDecision& d) { return d.rule; };
    r.model_train = measure(data.decisions, false, by_model);
    r.model_held = measure(data.decisions, true, by_model);
    r.rule_held = measure(data.decisions, true, by_rule);
    return r;
}

void PolicyFitOptions::check() const {
    require_fit_files(data, out, "learn data");
    if (!std::isfinite(l2) || l2 < 0) throw InputError("--l2 must be a number >= 0");
    if (!std::isfinite(temperature) || temperature < 0)
        throw InputError("--temperature must be a number >= 0");
    if (holdout < kMinHoldout)
        throw InputError(fmt::format("--holdout {}: at least {}", holdout, kMinHoldout));
    check_model_out(out, data);
}

sampling::ModelFile policy_model_file(const PolicyFitOptions& options, const PolicyData& data,
                                      const PolicyFit& fit) {
    sampling::ModelFile m;
    m.where = "model '" + options.out + "'";
    m.kind = "playout-policy";
    const double temperature = options.temperature;
    m.comments = {
        "A play-out policy for " + data.form +
            ": a linear card scorer, p(card) proportional to exp(sum of weight x feature) over "
            "the legal cards,",
        "fitted (conditional logit, L2 " + fmt::format("{}", options.l2) + ") to " +
            (temperature > 0
                 ? fmt::format("a softmax at temperature {} of pimc's card values", temperature)
                 : std::string("pimc's choices")) +
            " in self-play (cardgames learn data). Features: sampling/policy.cpp.",
        fmt::format("Fitted on {} decisions of {} hands ({} Newton steps, {}), held out every "
                    "{}th hand:",
                    fit.train_decisions, data.hands, fit.fit.iterations,
                    fit.fit.converged ? "converged" : "not converged", options.holdout),
        "  model, training decisions: " + fit.model_train.text(),
        fmt::format("  model, {} held-out decisions: ", fit.model_held.decisions) +
            fit.model_held.text(),
        "  rule player, held out: " + fit.rule_held.text(),
    };
    m.meta = model_metadata(data.form, options.made_by, data.sources);
    for (std::string_view n : sampling::policy_feature_names()) m.names.emplace_back(n);
    m.weights = fit.fit.weights;
    return m;
}

std::string PolicyFitReport::text() const {
    return fmt::format("{} decisions of {} hands, {} held out; {} Newton steps\n", decisions, hands,
                       fit.model_held.decisions, fit.fit.iterations) +
           "model, training:  " + fit.model_train.text() + "\n" +
           "model, held out:  " + fit.model_held.text() + "\n" +
           "rule,  held out:  " + fit.rule_held.text() + "\n" + "wrote " + out;
}

PolicyFitReport learn_policy_fit(const PolicyFitOptions& options) {
    options.check();
    const PolicyData data = read_policy_data(options.data, options.holdout, options.temperature);
    PolicyFitReport r;
    r.fit = fit_policy(data, options.l2);
    write_model_file(options.out, policy_model_file(options, data, r.fit));
    r.decisions = static_cast<long>(data.decisions.size());
    r.hands = data.hands;
    r.out = options.out;
    return r;
}

}  // namespace apps
