#include "apps/learn/bids_fit.hpp"

#include <cmath>
#include <fstream>
#include <iomanip>
#include <optional>
#include <sstream>

#include "apps/experiments/results_file.hpp"
#include "apps/experiments/run.hpp"
#include "apps/learn/data_files.hpp"
#include "apps/learn/training_players.hpp"
#include "cardgames/cards/error.hpp"
#include "cardgames/cards/json_input.hpp"
#include "cardgames/players/rule_bot.hpp"
#include "cardgames/rules/game_runner.hpp"
#include "cardgames/rules/record.hpp"
#include "sampling/bid_exploration.hpp"
#include "sampling/bid_model.hpp"

namespace apps {

using namespace cardgames;
using nlohmann::json;

namespace {

long count_nil(const std::vector<sampling::BidSample>& v) {
    long k = 0;
    for (const auto& s : v) k += s.bid == 0;
    return k;
}

std::string figures_text(const sampling::BidFitFigures& f) {
    std::ostringstream o;
    o << std::fixed << std::setprecision(3) << "held-out: " << f.tricks_samples
      << " bids, tricks mean abs error " << f.tricks_mae << " (rule bid " << f.baseline_mae
      << "), log-loss " << f.tricks_log_loss << "; " << f.nil_samples << " nil bids, made "
      << f.nil_made_share << " (predicted " << f.nil_predicted_share << "), log-loss "
      << f.nil_log_loss;
    return o.str();
}

// Reads one file's hands into `data`: a --data file's (`fit`) into data.train, those held out
// (`hold_out`: every `holdout`-th hand) into data.test, all into data.all; a --test file's into
// data.test. `first` is the first --data file, which sets the rules.
void read_bids_file(const std::string& path, bool fit, bool hold_out, long holdout,
                    const std::string& first, std::optional<Rules>& rules, BidsData& data) {
    // A fit needs every hand at once; the data files are small (a few MB).
    std::vector<json> lines;
    const json header = read_results(
        path, kBidsDataCommand, [](const json&) {},
        [&](const json& line) { lines.push_back(line); });
    const Rules r = [&] {
        try {
            return rules_from_json(JsonField(header, "")["options"]["rules"]);
        } catch (const InputError& e) {
            rethrow_with_context("--data '" + path + "'", e);
        }
    }();
    if (!rules) rules = r;
    if (rules_to_pairs(*rules) != rules_to_pairs(r))
        throw InputError("'" + path + "': other rules than " + first);
    const auto& o = header["options"];
    data.seeds += (data.seeds.empty() ? "" : " ") + o["seed"].dump();
    data.sources.push_back(std::string(fit ? "data" : "test data") + ": cardgames learn bids-data" +
                           (o.contains("preset") ? " --preset " + o["preset"].get<std::string>()
                                                 : std::string(" (rules in its header)")) +
                           " --hands " + o["hands"].dump() + " --seed " + o["seed"].dump() +
                           " --bot " + o["bot"].get<std::string>() + " (" +
                           std::to_string(lines.size()) + " hands in " + path + ")");
    for (std::size_t i = 0; i < lines.size(); ++i) {
        std::vector<sampling::BidSample> s;
        long index = 0;
        try {
            index = static_cast<long>(JsonField(lines[i], "")["index"].integer(0, kMaxItems));
            s = bid_samples_of(lines[i], *rules);
        } catch (const InputError& e) {
            rethrow_with_context(path + " line " + std::to_string(i + 2), e);
        }
        auto& part = !fit || (hold_out && held_out(index, holdout)) ? data.test : data.train;
        part.insert(part.end(), s.begin(), s.end());
        if (fit) data.all.insert(data.all.end(), s.begin(), s.end());
    }
}

}  // namespace

void BidsDataPlan::check() const {
    if (rules.game != GameKind::kSpades)
        throw InputError("learn bids-data: Spades only (the bids are Spades bids)");
    if (hands <= 0) throw InputError("--hands is required");
    if (!seeds::is_training_seed(seed))
        throw InputError("--seed " + std::to_string(seed) +
                         ": not a training seed (1000000 to 1999999999); evaluations use the "
                         "seeds below, so models never see the hands they are measured on");
}

json BidsDataPlan::options() const {
    json rules_json = json::object();
    for (const auto& [k, v] : rules_to_pairs(rules)) rules_json[k] = v;
    return {
        {"rules", rules_json}, {"preset", preset}, {"seed", seed}, {"hands", hands}, {"bot", bot}};
}

std::string bids_data_hand(const BidsDataPlan& plan, long index, const std::stop_token& stop,
                           const std::shared_ptr<models::ModelStore>& store) {
    const int n = plan.rules.players;
    TrainingHand played(plan.rules, std::vector<std::string>(static_cast<std::size_t>(n), plan.bot),
                        plan.seed, index, store);
    Game& game = played.game;
    const std::uint64_t hand_seed = played.seed;
    std::vector<std::unique_ptr<Player>>& players = played.players;
    json seats = json::array();
    for (int s = 0; s < n; ++s) seats.push_back(json::object());
    while (!game.over()) {
        if (stop.stop_requested()) throw Interrupted{};
        if (game.phase() != Phase::kBid) {
            step_game(game, players);
            continue;
        }
        const int s = game.to_act();
        const InfoState view = game.info_state(s);
        const int rule = heuristics::spades_bid(view);
        const int bid =
            sampling::explore_bid(view, rule, seeds::training_bid_variation(hand_seed, s));
        json before = json::array();
        for (int t = 0; t < n; ++t) before.push_back(view.bids[t].tricks);
        seats[s] = {{"seat", s},
                    {"hand", hand_to_string(view.hand)},
                    {"cards", view.hand.bits()},
                    {"bids_before", before},
                    {"rule_bid", rule},
                    {"bid", bid}};
        game.choose_bid(bid);
    }
    const HandRecord& hand = game.finished_hands().back();
    for (int s = 0; s < n; ++s) {
        seats[s]["tricks"] = hand.tricks[s];
        seats[s]["dealer"] = hand.dealer;
        seats[s]["blind"] = hand.bids[s].blind;
    }
    return json{{"index", index}, {"seats", seats}}.dump();
}

std::vector<sampling::BidSample> bid_samples_of(const json& line, const Rules& rules) {
    std::vector<sampling::BidSample> out;
    const JsonField seats = JsonField(line, "")["seats"];
    const int n = rules.players;
    seats.array(static_cast<std::size_t>(n), static_cast<std::size_t>(n));
    const int cards = rules.cards_per_hand();
    for (int s = 0; s < n; ++s) {
        const JsonField f = seats[static_cast<std::size_t>(s)];
        if (f["blind"].boolean()) continue;  // blind nil: the hand was not seen
        sampling::BidSituation sit;
        sit.rules = &rules;
        sit.seat = static_cast<int>(f["seat"].integer(0, n - 1));
        sit.dealer = static_cast<int>(f["dealer"].integer(0, n - 1));
        sit.hand = CardSet(f["cards"].unsigned_integer());
        if (sit.hand.size() != cards) f["cards"].fail("not a hand of " + std::to_string(cards));
        const JsonField before = f["bids_before"];
        before.array(static_cast<std::size_t>(n), static_cast<std::size_t>(n));
        for (int t = 0; t < n; ++t)
            sit.bids[t] = Bid{
                static_cast<int>(before[static_cast<std::size_t>(t)].integer(-1, cards)), false};
        sampling::BidSample sample;
        sample.x = sampling::bid_features(sit);
        sample.sure = sampling::sure_tricks(sit.hand);
        sample.bid = static_cast<int>(f["bid"].integer(0, cards));
        sample.tricks = static_cast<int>(f["tricks"].integer(0, cards));
        out.push_back(std::move(sample));
    }
    return out;
}

BidsData read_bids_data(const std::vector<std::string>& data, const std::vector<std::string>& test,
                        long holdout) {
    BidsData out;
    std::optional<Rules> rules;
    const std::string first = data.empty() ? std::string() : data.front();
    for (const std::string& path : data)
        read_bids_file(path, true, test.empty(), holdout, first, rules, out);
    for (const std::string& path : test)
        read_bids_file(path, false, true, holdout, first, rules, out);
    if (rules) out.rules = *rules;
    return out;
}

void BidsFitOptions::check() const {
    if (data.empty()) throw InputError("--data is required");
    if (out.empty()) throw InputError("--out is required: the model file");
    if (!std::isfinite(ridge) || ridge < 0 || ridge > 100)
        throw InputError("--ridge " + std::to_string(ridge) + ": a number from 0 to 100");
    if (holdout < kMinHoldout)
        throw InputError("--holdout " + std::to_string(holdout) + ": at least " +
                         std::to_string(kMinHoldout));
    std::vector<std::string> inputs = data;
    inputs.insert(inputs.end(), test.begin(), test.end());
    check_model_out(out, inputs);
}

std::optional<sampling::BidFitFigures> bids_held_out(const BidsData& data, double ridge) {
    if (data.test.empty() || count_nil(data.train) == 0) return std::nullopt;
    const sampling::SpadesBidModel held = sampling::fit_bid_model(data.train, data.rules, ridge);
    return sampling::bid_fit_figures(held, data.test);
}

std::string bids_held_out_text(const std::optional<sampling::BidFitFigures>& figures,
                               long train_seats) {
    if (!figures) return "held-out: none (no hand held out, or no nil bid left to fit)";
    return figures_text(*figures) + " (fit on " + std::to_string(train_seats) + " seats)";
}

std::string BidsFitReport::text() const {
    return figures + "\nwrote " + out;
}

BidsFitReport learn_bids_fit(const BidsFitOptions& options) {
    options.check();
    const BidsData data = read_bids_data(options.data, options.test, options.holdout);
    const long nil = count_nil(data.all);
    if (nil == 0 || nil == static_cast<long>(data.all.size()))
        throw InputError("--data: the hands need both nil and other bids to fit the model");
    BidsFitReport r;
    r.held_out = bids_held_out(data, options.ridge);
    r.train_seats = static_cast<long>(data.train.size());
    r.seats = static_cast<long>(data.all.size());
    r.nil = nil;
    r.figures = bids_held_out_text(r.held_out, r.train_seats);
    r.out = options.out;
    sampling::SpadesBidModel model = sampling::fit_bid_model(data.all, data.rules, options.ridge);
    model.meta = {
        {"form", form_name(data.rules)}, {"command", options.made_by}, {"seeds", data.seeds}};
    model.provenance.push_back("made by: " + options.made_by);
    for (const std::string& s : data.sources) model.provenance.push_back(s);
    model.provenance.push_back("samples: " + std::to_string(data.all.size()) + " seats, " +
                               std::to_string(nil) + " nil bids, ridge " +
                               std::to_string(options.ridge));
    model.provenance.push_back(r.figures);
    std::ostringstream text;
    sampling::write_bid_model(model, text);
    std::ofstream f(options.out, std::ios::binary);
    f << text.str();
    f.close();
    if (!f) throw RunError("--out '" + options.out + "': could not write the model");
    return r;
}

}  // namespace apps
