// cardgames learn: self-play data and fitted models (issue 25's learned models).
//   learn bids-data: Spades hands played by `pimc` in every seat, bids varied around the rule
//     player's (nil bid on purpose on weak hands, one off either way on others), one JSON line per
//     hand with each seat's hand, the bids before it, its bid and the tricks it took. A batch
//     (apps/batch.hpp): the same file for any --threads or number of ranks.
//   learn bids-fit: the bid model (sampling/bid_model.hpp) fitted to such data, with figures on
//     held-out hands, written as a documented text file (data/models/spades-bids.txt).
#include <fmt/format.h>

#include <boost/random/mersenne_twister.hpp>
#include <boost/random/uniform_real_distribution.hpp>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <sstream>

#include "apps/cli/batch_command.hpp"
#include "apps/cli/common.hpp"
#include "apps/experiments/batch.hpp"
#include "apps/experiments/cluster.hpp"
#include "apps/experiments/results_file.hpp"
#include "apps/learn/holdout.hpp"
#include "apps/learn/training_players.hpp"
#include "cardgames/cards/error.hpp"
#include "cardgames/cards/json_input.hpp"
#include "cardgames/cards/seeds.hpp"
#include "cardgames/players/rule_bot.hpp"
#include "cardgames/rules/game_runner.hpp"
#include "cardgames/rules/record.hpp"
#include "sampling/bid_fit.hpp"
#include "sampling/bid_model.hpp"
#include "sampling/bot_registry.hpp"

namespace apps {

using namespace cardgames;
using nlohmann::json;

namespace {

const char* const kDataCommand = "learn bids-data";

struct BidsDataPlan {
    Rules rules;
    std::uint64_t seed = seeds::kTrainingSeedFirst;
    long hands = 0;
    std::string bot = "pimc";
    std::string preset;  // as given, for the provenance of models
    std::string models;  // the bot's models (Player::check), for open_results

    json options() const {
        json rules_json = json::object();
        for (const auto& [k, v] : rules_to_pairs(rules)) rules_json[k] = v;
        return {{"rules", rules_json},
                {"preset", preset},
                {"seed", seed},
                {"hands", hands},
                {"bot", bot}};
    }
};

// The bid the data records for a seat: the rule player's, varied so that the model sees nil on
// hands the rule player would not risk it on, and bids one off (pimc plays to its contract, so a
// bid shapes the tricks a little). Drawn from the seat's own seed.
int varied_bid(const InfoState& view, int rule, std::uint64_t seed) {
    boost::random::mt19937_64 rng(seed);
    const double u = boost::random::uniform_real_distribution<double>(0, 1)(rng);
    const Rules& rules = *view.rules;
    const int partner = view.partner();
    const bool partner_nil = partner >= 0 && view.bids[partner].is_nil();
    const double estimate = heuristics::spades_trick_estimate(view.hand, rules.players);
    if (rules.nil_allowed && !partner_nil && estimate < 3.5) {
        if (rule == 0) return u < 0.8 ? 0 : std::max(1, static_cast<int>(std::lround(estimate)));
        if (u < 0.4) return 0;
    }
    if (rule == 0) return 0;
    if (u > 0.8 && rule > 1) return rule - 1;
    if (u > 0.6 && u <= 0.8 && rule < rules.cards_per_hand()) return rule + 1;
    return rule;
}

std::string data_item(const BidsDataPlan& plan, long index, const std::stop_token& stop,
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
        const int bid = varied_bid(view, rule, seeds::training_bid_variation(hand_seed, s));
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

// The samples of one data line (checked: a file edited by hand is refused with the key).
std::vector<sampling::BidSample> samples_of(const json& line, const Rules& rules) {
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

int bids_data(const MpiSession& mpi, int argc, char** argv) {
    BidsDataPlan plan;
    BatchRunOptions run(mpi);
    if (const auto done = parse_on_every_rank(mpi, "learn bids-data", [&]() -> std::optional<int> {
            RulesOptions ro;
            po::options_description desc("learn bids-data options");
            ro.add_to(desc);
            desc.add_options()("hands", number(&plan.hands, 1L, kMaxItems),
                               "hands to play, each from zero scores")(
                "seed", seed_value(&plan.seed)->default_value(seeds::kTrainingSeedFirst),
                fmt::format("run seed: a training seed, {} to {} (apart from evaluation seeds)",
                            seeds::kTrainingSeedFirst, seeds::kTrainingSeedLast)
                    .c_str())("bot", po::value(&plan.bot)->default_value("pimc"),
                              "the bot that plays the cards in every seat");
            run.add_to(desc, "not used by this command");
            po::variables_map vm;
            if (!parse_args("learn bids-data", argc, argv, desc, vm)) return 0;
            if (!ro.game_given && ro.preset.empty()) ro.preset = "spades-partnership";
            plan.rules = ro.resolve();
            plan.preset = ro.preset.empty() ? default_preset(plan.rules.game) : ro.preset;
            if (plan.rules.game != GameKind::kSpades)
                throw InputError("learn bids-data: Spades only (the bids are Spades bids)");
            if (plan.hands <= 0) throw InputError("--hands is required");
            if (!seeds::is_training_seed(plan.seed))
                throw InputError("--seed " + std::to_string(plan.seed) +
                                 ": not a training seed (1000000 to 1999999999); evaluations use "
                                 "the seeds below, so models never see the hands they are "
                                 "measured on");
            if (run.run.out.empty()) throw InputError("--out is required: the data file");
            if (!run.report_file.empty()) throw InputError("--report: not used by this command");
            plan.models =
                check_player_for(*sampling::make_player(plan.bot, 0), plan.bot, plan.rules);
            return std::nullopt;
        }))
        return *done;
    const std::unique_ptr<ResultsFile> out = open_results(
        mpi, run.run.out, results_header(kDataCommand, plan.options()), run.run.resume,
        [&](const json& line) { samples_of(line, plan.rules); }, plan.models);
    const auto store = std::make_shared<models::ModelStore>();
    if (const int status = run_data_batch(
            mpi, run, out.get(), plan.hands, "learn bids-data",
            [&](long i, const std::stop_token& stop) { return data_item(plan, i, stop, store); }))
        return status;
    if (mpi.rank() != 0) return 0;
    std::cout << "wrote " << plan.hands << " hands to " << run.run.out << "\n";
    return 0;
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

int bids_fit(int argc, char** argv) {
    std::vector<std::string> data_files, test_files;
    std::string out_file;
    long holdout = kDefaultHoldout;
    double ridge = 1e-3;
    po::options_description desc("learn bids-fit options");
    desc.add_options()("data", po::value(&data_files)->composing(),
                       "a file of `learn bids-data` (repeatable; all of the same rules)")(
        "out", po::value(&out_file), "the model file to write (data/models/spades-bids.txt)")(
        "holdout", number(&holdout, kMinHoldout, kMaxItems)->default_value(kDefaultHoldout),
        "hands whose index is a multiple of N are held out for the figures (the model written is "
        "fitted on every hand)")("ridge", number(&ridge, 0.0, 100.0),
                                 "ridge penalty on standardised weights")(
        "test", po::value(&test_files)->composing(),
        "held-out figures on these data files instead (every --data hand is fitted)");
    po::variables_map vm;
    if (!parse_args("learn bids-fit", argc, argv, desc, vm)) return 0;
    if (data_files.empty()) throw InputError("--data is required");
    if (out_file.empty()) throw InputError("--out is required: the model file");
    {
        std::vector<std::string> inputs = data_files;
        inputs.insert(inputs.end(), test_files.begin(), test_files.end());
        check_model_out(out_file, inputs);
    }

    std::optional<Rules> rules;
    std::vector<sampling::BidSample> train, test, all;
    std::vector<std::string> sources;
    // Each file's hands, those held out (held_out: every `holdout`-th; all of a --test file) apart.
    auto read_data = [&](const std::string& path, bool hold_out,
                         std::vector<sampling::BidSample>* fit,
                         std::vector<sampling::BidSample>* apart) {
        // A fit needs every hand at once; the data files are small (a few MB).
        std::vector<json> lines;
        const json header = read_results(
            path, kDataCommand, [](const json&) {},
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
            throw InputError("'" + path + "': other rules than " + data_files.front());
        const auto& o = header["options"];
        sources.push_back(std::string(fit ? "data" : "test data") + ": cardgames learn bids-data" +
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
                s = samples_of(lines[i], *rules);
            } catch (const InputError& e) {
                rethrow_with_context(path + " line " + std::to_string(i + 2), e);
            }
            auto* part = !fit || (hold_out && held_out(index, holdout)) ? apart : fit;
            if (part) part->insert(part->end(), s.begin(), s.end());
            if (fit) all.insert(all.end(), s.begin(), s.end());
        }
    };
    for (const std::string& path : data_files) read_data(path, test_files.empty(), &train, &test);
    for (const std::string& path : test_files) read_data(path, true, nullptr, &test);
    auto count_nil = [](const std::vector<sampling::BidSample>& v) {
        long k = 0;
        for (const auto& s : v) k += s.bid == 0;
        return k;
    };
    if (count_nil(all) == 0 || count_nil(all) == static_cast<long>(all.size()))
        throw InputError("--data: the hands need both nil and other bids to fit the model");
    std::string figures = "held-out: none (no hand held out, or no nil bid left to fit)";
    if (!test.empty() && count_nil(train) > 0) {
        const sampling::SpadesBidModel held = sampling::fit_bid_model(train, *rules, ridge);
        figures = figures_text(sampling::bid_fit_figures(held, test)) + " (fit on " +
                  std::to_string(train.size()) + " seats)";
    }
    sampling::SpadesBidModel model = sampling::fit_bid_model(all, *rules, ridge);
    std::string command = "cardgames learn bids-fit";
    for (int i = 1; i < argc; ++i) command += std::string(" ") + argv[i];
    model.provenance.push_back("made by: " + command);
    for (const std::string& s : sources) model.provenance.push_back(s);
    model.provenance.push_back("samples: " + std::to_string(all.size()) + " seats, " +
                               std::to_string(count_nil(all)) + " nil bids, ridge " +
                               std::to_string(ridge));
    model.provenance.push_back(figures);
    std::ostringstream text;
    sampling::write_bid_model(model, text);
    std::ofstream f(out_file);
    f << text.str();
    f.close();
    if (!f) throw RunError("--out '" + out_file + "': could not write the model");
    std::cout << figures << "\nwrote " << out_file << "\n";
    return 0;
}

}  // namespace

int learn_bids(const MpiSession& mpi, const std::string& what, int argc, char** argv) {
    if (what == "bids-data") return bids_data(mpi, argc, argv);
    return bids_fit(argc, argv);
}

}  // namespace apps
