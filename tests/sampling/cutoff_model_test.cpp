// The learned cut-off evaluations (pimc:eval=search,cutoff=model and cutoff=net), Hearts and
// Spades: the linear model's files (every form's shipped one read, malformed ones refused naming
// the file and line), the network's deal features and incremental accumulator, whole shares that
// stay inside the bounds, every pruning algorithm agreeing with plain max^n when the leaves use the
// model or the network, the spec options, and pimc's decisions with either the same for any
// thread count.
#include "sampling/cutoff_model.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>

#include "cardgames/cards/error.hpp"
#include "cardgames/models/deal_features.hpp"
#include "cardgames/players/bot_spec.hpp"
#include "cardgames/rules/game.hpp"
#include "cardgames/rules/game_runner.hpp"
#include "cardgames/search/trick_game.hpp"
#include "engine/search.hpp"
#include "pimc_decisions.hpp"
#include "sampling/bot_registry.hpp"
#include "sampling/cutoff_net.hpp"
#include "sampling/fit.hpp"
#include "sampling/pimc.hpp"

namespace sampling {
namespace {

using namespace cardgames;

std::shared_ptr<const CutoffModel> shipped(const Rules& rules) {
    models::ModelStore store;
    return model_for<CutoffModel>(store, "", rules);
}

// A hand of the rule player in every seat, stopped once at most `cards_left` cards are in play.
Game position(const Rules& rules, std::uint64_t seed, int cards_left) {
    std::vector<std::unique_ptr<Player>> players;
    for (int s = 0; s < rules.players; ++s) players.push_back(make_player("rule", seed + s));
    Game game(rules, seed);
    game.stop_after_hand();
    while (!(game.phase() == Phase::kPlay && game.play_state().cards_left() <= cards_left))
        step_game(game, players);
    return game;
}

std::string write_temp(const std::string& name, const std::string& text) {
    const auto p = std::filesystem::temp_directory_path() / name;
    std::ofstream(p) << text;
    return p.string();
}

// Reading the model file at `path` is refused with an error that says `message`.
void expect_refused(const std::string& path, const std::string& message) {
    try {
        models::ModelStore store;
        load_model<CutoffModel>(store, path);
        ADD_FAILURE() << "the malformed model " << path << " was read";
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find(message), std::string::npos) << e.what();
    }
}

// At the first trick of a 4-player Hearts hand, `leaves` predicts that the 26 points left get
// taken, and more of them by the seat holding the Q♠ than by any other.
void expect_the_queen_holder_predicted_most(const Rules& rules, const CutoffEvaluator& leaves) {
    const Game game = position(rules, 11, 52);
    const TrickPlay g(rules, game.play_state(), game.hand().taken);
    std::array<double, kMaxPlayers> rest{};
    leaves.predict(g, kNoScoreContext, rest);
    double sum = 0;
    int queen_seat = -1;
    for (int p = 0; p < 4; ++p) {
        sum += rest[p];
        if (game.play_state().hands[p].contains(Card(Suit::kSpades, kQueen))) queen_seat = p;
    }
    EXPECT_NEAR(sum, 26, 4);
    ASSERT_GE(queen_seat, 0);
    for (int p = 0; p < 4; ++p) {
        if (p != queen_seat) {
            EXPECT_GT(rest[queen_seat], rest[p]);
        }
    }
}

TEST(CutoffModel, TheShippedModelReadsAndPredictsTheRestOfTheHand) {
    const Rules rules = load_rules(preset_path("hearts4"), {});
    const auto model = shipped(rules);
    EXPECT_EQ(model->form(), "hearts4");
    expect_the_queen_holder_predicted_most(rules, *model);
    const Rules hearts3 = load_rules(preset_path("hearts3"), {});
    try {
        models::ModelStore store;
        model_for<CutoffModel>(store, default_model<CutoffModel>(rules).string(), hearts3);
        ADD_FAILURE() << "a hearts4 model taken for hearts3";
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find("made for hearts4, not for hearts3"),
                  std::string::npos)
            << e.what();
    }
}

// Every form ships a model of its own, and reads it.
TEST(CutoffModel, EveryFormShipsItsModel) {
    for (const char* form : {"hearts3", "hearts4", "hearts5", "hearts6", "spades-partnership",
                             "spades-cutthroat3", "spades-cutthroat4"}) {
        const Rules rules = load_rules(preset_path(form), {});
        EXPECT_EQ(shipped(rules)->form(), form);
    }
}

// Spades: the tricks each seat takes in the rest of the hand, given the bids.
TEST(CutoffModel, TheSpadesModelPredictsTheTricksLeftFromTheBids) {
    const Rules rules = load_rules(preset_path("spades-partnership"), {});
    const auto model = shipped(rules);
    for (int i = 0; i < 20; ++i) {
        const Game game = position(rules, 40 + i, 52);
        const TrickPlay g(rules, game.play_state(), game.hand().taken);
        ScoreContext context;
        context.bids = game.hand().bids;
        std::array<double, kMaxPlayers> rest{};
        model->predict(g, context, rest);
        EXPECT_NEAR(rest[0] + rest[1] + rest[2] + rest[3], 13, 1.5) << "seed " << 40 + i;
        // The same cards bid nil are predicted to take fewer tricks than bid for four.
        context.bids[0] = Bid{4, false};
        model->predict(g, context, rest);
        const double four = rest[0];
        context.bids[0] = Bid{0, false};
        model->predict(g, context, rest);
        EXPECT_LT(rest[0], four) << "seed " << 40 + i;
    }
    // A file of this form with Hearts features is refused at the first other name.
    std::string text = "cardgames-model 1\nkind cutoff-eval\nform spades-partnership\nweights 20\n";
    for (std::string_view name : cutoff_feature_names(GameKind::kHearts))
        text += std::string(name) + " 0.5\n";
    text += "end\n";
    expect_refused(write_temp("cutoff-spades-hearts.txt", text),
                   "line 6: weight 2 is 'points_left', expected 'tricks_left'");
}

TEST(CutoffModel, MalformedFilesAreRefusedNamingFileAndLine) {
    std::string text = "cardgames-model 1\nkind cutoff-eval\nform hearts4\nweights 20\n";
    const auto& names = cutoff_feature_names(GameKind::kHearts);
    for (int i = 0; i < kCutoffFeatures; ++i)
        text += std::string(names[i]) + (i == 3 ? " 1.5x\n" : " 0.5\n");
    text += "end\n";
    const std::string bad = write_temp("cutoff-bad-number.txt", text);
    expect_refused(bad, "model '" + bad + "' line 8: '1.5x' is not a number");
    // Another feature where this program has `leads`: named with its line.
    std::string renamed = text;
    renamed.replace(renamed.find("leads 1.5x"), 10, "lead 1.5");
    expect_refused(write_temp("cutoff-bad-name.txt", renamed),
                   "line 8: weight 4 is 'lead', expected 'leads'");
    std::string good = text;
    good.replace(good.find("leads 1.5x"), 10, "leads 1.5");
    models::ModelStore store;
    const auto ok = load_model<CutoffModel>(store, write_temp("cutoff-good.txt", good));
    CutoffFeatures f{};
    f[3] = 2;
    f[0] = 1;
    EXPECT_DOUBLE_EQ(ok->predict_seat(f), 0.5 + 3.0);
}

TEST(CutoffShares, WholeSharesInsideTheBoundsSummingToWhatIsLeft) {
    std::array<int, kMaxPlayers> out{};
    cutoff_shares({3.4, 9.9, -2, 0.6}, 4, 13, out);
    EXPECT_EQ((std::array<int, 4>{out[0], out[1], out[2], out[3]}),
              (std::array<int, 4>{3, 9, 0, 1}));
    cutoff_shares({0, -1, 0, 0}, 4, 7, out);  // nothing predicted: the even share
    EXPECT_EQ((std::array<int, 4>{out[0], out[1], out[2], out[3]}),
              (std::array<int, 4>{2, 2, 2, 1}));
    cutoff_shares({1, 1, 1, 1}, 4, 0, out);
    EXPECT_EQ(out[0] + out[1] + out[2] + out[3], 0);
    for (int total = 0; total <= 26; ++total)
        for (double a : {-3.0, 0.0, 0.4, 7.7, 30.0}) {
            cutoff_shares({a, 2.2, 0.1, std::nan("")}, 4, total, out);
            int sum = 0;
            for (int p = 0; p < 4; ++p) {
                EXPECT_GE(out[p], 0);
                EXPECT_LE(out[p], total);
                sum += out[p];
            }
            EXPECT_EQ(sum, total);
        }
}

// A cut-off evaluation's leaves obey what pruning relies on: each entry inside bounds() and the
// tuple summing to what the even share sums to, at most maxsum.
void expect_leaves_inside_the_bounds(const Rules& rules, const CutoffEvaluator* cutoff,
                                     int positions) {
    for (int i = 0; i < positions; ++i) {
        const Game game = position(rules, 300 + i, 4 * (1 + i % 13));
        TrickGame even(rules, game.play_state(), Utility::kPoints, game.hand().taken);
        TrickGame learned(rules, game.play_state(), Utility::kPoints, game.hand().taken);
        ASSERT_TRUE(learned.set_cutoff(cutoff));
        engine::Tuple a{}, b{}, lo{}, hi{};
        even.evaluate(a);
        learned.evaluate(b);
        learned.bounds(lo, hi);
        engine::Utility sa = 0, sb = 0;
        for (int p = 0; p < 4; ++p) {
            sa += a[p];
            sb += b[p];
            EXPECT_GE(b[p], lo[p]) << "seed " << 300 + i;
            EXPECT_LE(b[p], hi[p]) << "seed " << 300 + i;
        }
        EXPECT_EQ(sa, sb);
        EXPECT_LE(sb, learned.maxsum());
    }
}

TEST(CutoffModel, LeavesLieInsideTheBoundsAndSumAsTheEvenShare) {
    const Rules rules = load_rules(preset_path("hearts4"), {});
    expect_leaves_inside_the_bounds(rules, shipped(rules).get(), 60);
}

// Every pruning configuration of the max^n family returns plain max^n's root tuple and move under
// a depth limit when the horizon leaves are valued by the learned model.
// Plain max^n's root tuple and move, under a depth limit with learned horizon leaves, from every
// pruning configuration, on `count` positions of `form`; returns how many differ from the even
// share's.
int agree_with_maxn_on_learned_leaves(const char* form, Utility utility, int count,
                                      const CutoffEvaluator* evaluator = nullptr) {
    const Rules rules = load_rules(preset_path(form), {});
    const std::shared_ptr<const CutoffEvaluator> model = shipped(rules);
    const CutoffEvaluator* leaves = evaluator ? evaluator : model.get();
    int differ_from_even = 0;
    for (int i = 0; i < count; ++i) {
        const int tricks_left = 5 + i % 3, depth = 1 + i % 2;
        const Game game = position(rules, 9000 + i, tricks_left * 4 - i % 4);
        ScoreContext context;
        context.bids = game.hand().bids;
        auto search = [&](engine::Algorithm a, bool tables, bool tt, bool learned) {
            engine::SearchOptions o;
            o.algorithm = a;
            o.outcome_tables = tables;
            o.tt_entries = tt ? 4096 : 0;
            o.depth_limit = depth;
            TrickGame g(rules, game.play_state(), utility, game.hand().taken, context);
            if (learned) g.set_cutoff(leaves);
            engine::Searcher<TrickGame> s(o);
            return s.search(g);
        };
        const auto want = search(engine::Algorithm::kMaxn, false, false, true);
        EXPECT_TRUE(want.complete);
        differ_from_even +=
            search(engine::Algorithm::kMaxn, false, false, false).value != want.value;
        for (auto a :
             {engine::Algorithm::kMaxn, engine::Algorithm::kShallow, engine::Algorithm::kBnb,
              engine::Algorithm::kLastBranch, engine::Algorithm::kSpeculative})
            for (bool tables : {false, true})
                for (bool tt : {false, true}) {
                    if (a == engine::Algorithm::kMaxn && (tables || !tt)) continue;
                    const auto got = search(a, tables, tt, true);
                    EXPECT_EQ(got.value, want.value)
                        << form << " " << engine::algorithm_name(a) << " tables " << tables
                        << " tt " << tt << " depth " << depth << " seed " << 9000 + i;
                    EXPECT_EQ(got.best_move, want.best_move)
                        << form << " " << engine::algorithm_name(a) << " seed " << 9000 + i;
                }
    }
    return differ_from_even;
}

TEST(CutoffModel, EveryPruningAlgorithmAgreesWithMaxnOnLearnedLeaves) {
    // The learned leaves are not the even share under another name.
    EXPECT_GT(agree_with_maxn_on_learned_leaves("hearts4", Utility::kPoints, 300), 75);
    EXPECT_GT(agree_with_maxn_on_learned_leaves("spades-partnership", Utility::kScore, 200), 50);
}

// A cut-off network of random weights for the form of `rules`, of a fixed seed.
std::shared_ptr<const CutoffNet> random_cutoff_net(const Rules& rules, std::uint64_t seed) {
    return std::make_shared<const CutoffNet>(std::make_shared<const models::Network>(
        models::random_network_file(form_name(rules), "cutoff", rules.players, seed)));
}

// A random cut-off network for `form`, written to a temporary file; returns its path.
std::string random_cutoff_net_file(const std::string& form, const std::string& task,
                                   const std::string& name) {
    const auto path = std::filesystem::temp_directory_path() / name;
    const int players = models::players_of_form(form, "test");
    models::write_model_file(path, models::random_network_file(form, task, players, 5));
    return path.string();
}

TEST(CutoffNet, EveryPruningAlgorithmAgreesWithMaxnOnNetworkLeaves) {
    for (const char* form : {"hearts4", "hearts3", "spades-partnership", "spades-cutthroat3"}) {
        const Rules rules = load_rules(preset_path(form), {});
        const auto net = random_cutoff_net(rules, 17);
        const Utility utility =
            rules.game == GameKind::kSpades ? Utility::kScore : Utility::kPoints;
        const int count = std::string(form) == "hearts4" ? 200 : 80;
        // The network's leaves are not the even share under another name.
        EXPECT_GT(agree_with_maxn_on_learned_leaves(form, utility, count, net.get()), count / 5)
            << form;
    }
    // Partnership Spades by its margin, which alphabeta searches.
    const Rules spades = load_rules(preset_path("spades-partnership"), {});
    EXPECT_GT(agree_with_maxn_on_learned_leaves("spades-partnership", Utility::kMargin, 60,
                                                random_cutoff_net(spades, 3).get()),
              10);
}

// The network's leaves obey what pruning relies on, as the linear model's do.
TEST(CutoffNet, LeavesLieInsideTheBoundsAndSumAsTheEvenShare) {
    const Rules rules = load_rules(preset_path("hearts4"), {});
    expect_leaves_inside_the_bounds(rules, random_cutoff_net(rules, 8).get(), 40);
}

// The accumulator moved from leaf to leaf equals one computed from scratch, bit for bit, however
// the positions follow one another (the hands of two games interleaved, and two networks).
TEST(CutoffNet, IncrementalAccumulatorEqualsRefresh) {
    for (const char* form : {"hearts4", "spades-partnership"}) {
        const Rules rules = load_rules(preset_path(form), {});
        const auto a = random_cutoff_net(rules, 1), b = random_cutoff_net(rules, 2);
        for (int i = 0; i < 12; ++i) {
            for (int cards = 52; cards > 0; cards -= 4) {
                for (std::uint64_t seed : {400 + i, 800 + i}) {
                    const Game game = position(rules, seed, cards);
                    if (game.play_state().trick_size != 0) continue;
                    ScoreContext context;
                    context.bids = game.hand().bids;
                    TrickPlay g(rules, game.play_state(), game.hand().taken);
                    for (const CutoffNet* net : {a.get(), b.get()}) {
                        std::array<double, kMaxPlayers> inc{}, full{};
                        net->predict(g, context, inc);
                        net->predict_refreshed(g, context, full);
                        EXPECT_EQ(inc, full) << form << " seed " << seed << " cards " << cards;
                    }
                }
            }
        }
    }
}

// The deal features: every hand's cards, the leader, and (Hearts) the points taken only while the
// moon is possible, as the objective's key reads them.
TEST(CutoffNet, DealFeaturesAreThePositionsFacts) {
    const Rules rules = load_rules(preset_path("hearts4"), {});
    const Game game = position(rules, 31, 32);
    TrickPlay g(rules, game.play_state(), game.hand().taken);
    ASSERT_EQ(g.state().trick_size, 0);
    models::ActiveFeatures f;
    deal_features(g, kNoScoreContext, f);
    int in_hands = 0, leaders = 0;
    for (int k = 0; k < f.count; ++k) {
        const int x = f.index[static_cast<std::size_t>(k)];
        EXPECT_LT(x, models::deal_feature_count(GameKind::kHearts, 4));
        if (k > 0) {
            EXPECT_LT(f.index[static_cast<std::size_t>(k - 1)], x);
        }
        if (x < 52 * 4) {
            ++in_hands;
            EXPECT_TRUE(
                g.state().hands[x / 52].contains(Card(static_cast<Suit>(x % 52 / 13), x % 13 + 2)));
        }
        if (x >= 52 * 4 && x < 53 * 4) {
            ++leaders;
            EXPECT_EQ(x - 52 * 4, g.state().to_move);
        }
    }
    EXPECT_EQ(in_hands, 32);
    EXPECT_EQ(leaders, 1);
}

TEST(CutoffNet, SpecOptionsAndFilesRefused) {
    const auto o = PimcOptions::from_spec(parse_bot_spec("pimc:eval=search,cutoff=net"));
    EXPECT_TRUE(o.valuation.cutoff_net);
    EXPECT_FALSE(o.valuation.cutoff_model);
    EXPECT_TRUE(o.valuation.cutoff_net_path.empty());
    for (const char* bad : {"pimc:cutoff=net", "pimc:eval=search,cutoff_net=x.net",
                            "pimc:eval=search,cutoff=model,cutoff_net=x.net",
                            "pimc:eval=search,cutoff=net,utility=tricks"})
        EXPECT_THROW(PimcOptions::from_spec(parse_bot_spec(bad)), InputError) << bad;
    expect_spec_refused("pimc:eval=search,cutoff=net,cutoff_net=/no/such/net.net", "hearts4",
                        "/no/such/net.net", "cannot open");
    const std::string value = random_cutoff_net_file("hearts4", "value", "cutoff-net-value.net");
    expect_spec_refused("pimc:eval=search,cutoff=net,cutoff_net=" + value, "hearts4", value,
                        "task");
    const std::string spades =
        random_cutoff_net_file("spades-partnership", "cutoff", "cutoff-net-spades.net");
    expect_spec_refused("pimc:eval=search,cutoff=net,cutoff_net=" + spades, "hearts4", spades,
                        "form");
    const std::string hearts = random_cutoff_net_file("hearts4", "cutoff", "cutoff-net-h4.net");
    EXPECT_NO_THROW(make_player("pimc:eval=search,cutoff=net,cutoff_net=" + hearts, 1)
                        ->check(load_rules(preset_path("hearts4"), {})));
    // hearts5 ships no cut-off network: its default file is refused by name.
    expect_spec_refused("pimc:eval=search,cutoff=net", "hearts5", "hearts5-cutoff-net.net",
                        "cannot open");
}

// 4-player Hearts and partnership Spades ship their networks (data/models/<form>-cutoff-net.net):
// `cutoff=net` reads them by default, they predict what the hand has left to take (the Hearts one,
// as the linear model, gives the Q♠'s holder more than anyone), and pruning agrees with plain
// max^n on their leaves.
TEST(CutoffNet, TheShippedNetworksReadAndPredictTheRestOfTheHand) {
    for (const char* form : {"hearts4", "spades-partnership"}) {
        const Rules rules = load_rules(preset_path(form), {});
        models::ModelStore store;
        const auto net = cutoff_net_for(store, "", rules);
        EXPECT_EQ(net->network().form(), form);
        EXPECT_NO_THROW(make_player("pimc:eval=search,cutoff=net", 1)->check(rules)) << form;
        const bool hearts = rules.game == GameKind::kHearts;
        if (hearts) {
            expect_the_queen_holder_predicted_most(rules, *net);
        } else {
            const Game game = position(rules, 11, 52);
            const TrickPlay g(rules, game.play_state(), game.hand().taken);
            ScoreContext context;
            context.bids = game.hand().bids;
            std::array<double, kMaxPlayers> rest{};
            net->predict(g, context, rest);
            EXPECT_NEAR(rest[0] + rest[1] + rest[2] + rest[3], 13, 1.5);
        }
        const Utility utility = hearts ? Utility::kPoints : Utility::kScore;
        EXPECT_GT(agree_with_maxn_on_learned_leaves(form, utility, 20, net.get()), 0) << form;
    }
}

// The same decisions, card values included, for 1 and 2 threads, with the network.
TEST(CutoffNet, PimcDecisionsTheSameForAnyThreadCount) {
    const Rules rules = load_rules(preset_path("hearts4"), {});
    const std::string path = random_cutoff_net_file("hearts4", "cutoff", "cutoff-net-threads.net");
    PimcOptions one = PimcOptions::from_spec(parse_bot_spec(
        "pimc:eval=search,cutoff=net,worlds=8,nodes=300,threads=1,cutoff_net=" + path));
    PimcOptions two = one;
    two.sampling.threads = 2;
    PimcOptions even =
        PimcOptions::from_spec(parse_bot_spec("pimc:eval=search,worlds=8,nodes=300,threads=1"));
    int differ_from_even = 0;
    for (int i = 0; i < 6; ++i) {
        const Game game = position(rules, 700 + i, 52 - 4 * (i + 1));
        const InfoState info = game.info_state(game.to_act());
        PimcBot a(one, 42), b(two, 42), c(even, 42);
        const PimcAnalysis x = a.analyze(info), y = b.analyze(info), z = c.analyze(info);
        expect_same_analysis(x, y);
        ASSERT_EQ(x.cards.size(), z.cards.size());
        for (std::size_t k = 0; k < x.cards.size(); ++k)
            differ_from_even += x.cards[k].mean != z.cards[k].mean;
        EXPECT_EQ(x.expansions, y.expansions);
    }
    EXPECT_GT(differ_from_even, 0);  // the network is used
}

TEST(CutoffModel, SpecOptions) {
    const auto o = PimcOptions::from_spec(parse_bot_spec("pimc:eval=search,cutoff=model"));
    EXPECT_TRUE(o.valuation.cutoff_model);
    EXPECT_TRUE(o.valuation.cutoff_path.empty());
    EXPECT_FALSE(PimcOptions::from_spec(parse_bot_spec("pimc:eval=search")).valuation.cutoff_model);
    for (const char* bad :
         {"pimc:cutoff=model", "pimc:eval=search,cutoff=magic",
          "pimc:eval=search,cutoff_model=x.txt", "pimc:eval=search,cutoff=model,utility=tricks"})
        EXPECT_THROW(PimcOptions::from_spec(parse_bot_spec(bad)), InputError) << bad;
    // The bot reads the file named when it is made.
    EXPECT_THROW(make_player("pimc:eval=search,cutoff=model,cutoff_model=/no/such/model.txt", 1),
                 InputError);
}

// The same decisions, card values included, for any number of threads.
TEST(CutoffModel, PimcDecisionsTheSameForAnyThreadCount) {
    const Rules rules = load_rules(preset_path("hearts4"), {});
    PimcOptions one = PimcOptions::from_spec(
        parse_bot_spec("pimc:eval=search,cutoff=model,worlds=8,nodes=300,threads=1"));
    PimcOptions three = one;
    three.sampling.threads = 3;
    for (int i = 0; i < 6; ++i) {
        const Game game = position(rules, 700 + i, 52 - 4 * (i + 1));
        const InfoState info = game.info_state(game.to_act());
        PimcBot a(one, 42), b(three, 42);
        const PimcAnalysis x = a.analyze(info), y = b.analyze(info);
        expect_same_analysis(x, y);
        EXPECT_EQ(x.expansions, y.expansions);
    }
}

// Ridge least squares recovers the weights of an exact linear relation.
TEST(FitRidge, RecoversKnownWeights) {
    std::vector<double> x, y;
    for (int i = 0; i < 200; ++i) {
        const double a = (i * 37 % 101) / 10.0, b = (i * 53 % 89) / 7.0;
        x.insert(x.end(), {1.0, a, b});
        y.push_back(2.0 - 0.5 * a + 3.0 * b);
    }
    const std::vector<double> w = fit_ridge(x, y, 3, 0.0);
    EXPECT_NEAR(w[0], 2.0, 1e-6);
    EXPECT_NEAR(w[1], -0.5, 1e-6);
    EXPECT_NEAR(w[2], 3.0, 1e-6);
    EXPECT_THROW(fit_ridge(x, {1.0}, 3, 0.0), std::invalid_argument);
}

}  // namespace
}  // namespace sampling
