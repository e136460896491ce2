// The `oracle`: shown every hand by the game runner (and only it), it values the cards of the true
// world exactly as pimc values one sampled world, bids and passes as pimc does, is marked in the
// game record, and decides alike for any thread count.
#include "sampling/oracle.hpp"

#include <gtest/gtest.h>

#include <boost/random/mersenne_twister.hpp>

#include "cardgames/cards/error.hpp"
#include "cardgames/cards/seeds.hpp"
#include "cardgames/rules/game_runner.hpp"
#include "cardgames/rules/record.hpp"
#include "pimc_decisions.hpp"
#include "sampling/bot_registry.hpp"
#include "sampling/deal_sampler.hpp"

namespace sampling {
namespace {

using namespace cardgames;

constexpr const char* kQuickOracle = "oracle:rollouts=6";

// Plays `game` with the rule player in every seat until `plays` cards are down and the seat to
// act has a choice of cards (or the hand is over: false).
bool advance_to_choice(Game& game, int plays) {
    auto rule = rule_players(game.rules().players);
    while (!game.over() &&
           (game.phase() != Phase::kPlay || static_cast<int>(game.hand().plays.size()) < plays ||
            game.play_state().legal_moves(game.play_rules()).size() < 2)) {
        if (game.hand().finished) return false;
        step_game(game, rule);
    }
    return !game.over() && !game.hand().finished;
}

// pimc with one world values exactly the world its sampler deals; shown that world as the truth,
// the oracle gives every card the same value: before the endgame (play-outs) and in it (solves),
// in Hearts (points) and Spades (score, and the tricks utility).
TEST(Oracle, ValuesTheWorldShownAsPimcValuesOneWorld) {
    struct Case {
        const char* preset;
        const char* options;
    };
    for (const Case c : {Case{"hearts4", ""}, Case{"hearts3", ""}, Case{"hearts6", ""},
                         Case{"spades-partnership", ""}, Case{"spades-cutthroat3", ""},
                         Case{"spades-partnership", ",utility=tricks"}}) {
        const Rules rules = load_rules(preset_path(c.preset), {});
        const int n = rules.cards_per_hand();
        for (int plays : {1, 2 * rules.players, (n - 4) * rules.players}) {
            SCOPED_TRACE(std::string(c.preset) + c.options + " after " + std::to_string(plays));
            Game game(rules, 5);
            ASSERT_TRUE(advance_to_choice(game, plays));
            const InfoState info = game.info_state(game.to_act());
            const PimcOptions options =
                PimcOptions::from_spec(parse_bot_spec(std::string("pimc:worlds=1") + c.options));
            PimcBot pimc(options, 77);
            const PimcAnalysis sampled = pimc.analyze(info);
            // The one world pimc drew, from its decision's seed.
            boost::random::mt19937_64 rng(
                seeds::world(seeds::decision(77, info.hand_number, info.plays.size(),
                                             seeds::DecisionKind::kCard),
                             0));
            const Deal world = DealSampler(constraints_from(info)).sample(rng, info.hand);
            PlayState shown = game.play_state();
            shown.hands = world.hands;
            OracleBot oracle(options, 1);
            oracle.see_all_hands(shown);
            const PimcAnalysis truth = oracle.analyze(info);
            ASSERT_TRUE(truth.searched);
            expect_same_analysis(truth, sampled);
        }
    }
}

// Shown the true hands, the oracle plays in the true world, which differs from a sampled one: on
// some decision of a hand its values are not those of pimc's one sampled world.
TEST(Oracle, PlaysInTheTrueWorld) {
    const Rules rules = load_rules(preset_path("hearts4"), {});
    const PimcOptions options = PimcOptions::from_spec(parse_bot_spec("pimc:worlds=1"));
    int differing = 0;
    for (int plays : {4, 12, 20, 28}) {
        Game game(rules, 9);
        ASSERT_TRUE(advance_to_choice(game, plays));
        const InfoState info = game.info_state(game.to_act());
        OracleBot oracle(options, 1);
        oracle.see_all_hands(game.play_state());
        const PimcAnalysis truth = oracle.analyze(info);
        Deal deal;
        deal.players = rules.players;
        deal.hands = game.play_state().hands;
        models::ModelStore store;
        const PimcAnalysis direct = analyze_world(options, info, deal, store);
        expect_same_analysis(truth, direct);
        differing +=
            PimcBot(options, 77).analyze(info).cards.front().mean != truth.cards.front().mean;
    }
    EXPECT_GT(differing, 0);
}

// A player that records what the runner shows it.
class Spy : public Player {
  public:
    explicit Spy(bool cheats) : cheats_(cheats) {}
    std::string name() const override { return "spy"; }
    bool sees_all_hands() const override { return cheats_; }
    void see_all_hands(const PlayState& world) override {
        shown_ = world;
        ++times_shown;
    }
    bool blind_nil(const InfoState& info) override { return rule_->blind_nil(check(info)); }
    int bid(const InfoState& info) override { return rule_->bid(check(info)); }
    CardSet pass(const InfoState& info) override { return rule_->pass(check(info)); }
    Card play(const InfoState& info) override { return rule_->play(check(info)); }

    int times_shown = 0;
    int decisions = 0;
    bool wrong_world = false;

  private:
    const InfoState& check(const InfoState& info) {
        ++decisions;
        if (cheats_) {
            CardSet all = shown_.played;
            for (int s = 0; s < info.players(); ++s) all |= shown_.hands[s];
            // Every seat's cards, this seat's as it holds them (once dealt).
            wrong_world = wrong_world || all != info.rules->deck() ||
                          (info.phase != Phase::kBlindNil && shown_.hands[info.seat] != info.hand);
        }
        return info;
    }
    bool cheats_;
    PlayState shown_;
    std::unique_ptr<Player> rule_ = make_player("rule", 0);
};

TEST(Oracle, TheRunnerShowsEveryHandOnlyToAPlayerThatCheats) {
    for (const char* preset : {"hearts4", "spades-partnership"}) {
        SCOPED_TRACE(preset);
        const Rules rules = load_rules(preset_path(preset), {});
        Game game(rules, 4);
        game.stop_after_hand();
        std::vector<std::unique_ptr<Player>> players;
        for (int s = 0; s < rules.players; ++s) players.push_back(std::make_unique<Spy>(s == 1));
        run_game(game, players);
        const auto& honest = static_cast<const Spy&>(*players[0]);
        const auto& cheat = static_cast<const Spy&>(*players[1]);
        EXPECT_EQ(honest.times_shown, 0);
        EXPECT_GT(cheat.decisions, 0);
        EXPECT_EQ(cheat.times_shown, cheat.decisions);
        EXPECT_FALSE(cheat.wrong_world);
        EXPECT_EQ(cheating_seats(players), std::vector<int>{1});
    }
}

// A card decision without the hands shown (the bot protocol, eval's recorded decisions) is refused
// rather than played in a stale world.
TEST(Oracle, RefusesACardItWasNotShownTheHandsFor) {
    const Rules rules = load_rules(preset_path("hearts4"), {});
    Game game(rules, 9);
    ASSERT_TRUE(advance_to_choice(game, 4));
    auto oracle = make_player(kQuickOracle, 1);
    try {
        oracle->play(game.info_state(game.to_act()));
        ADD_FAILURE() << "played without the hands";
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find("sees every hand"), std::string::npos) << e.what();
    }
    // Shown once, used once.
    oracle->see_all_hands(game.play_state());
    EXPECT_NO_THROW(oracle->play(game.info_state(game.to_act())));
    EXPECT_THROW(oracle->play(game.info_state(game.to_act())), InputError);
}

TEST(Oracle, RefusesSampledWorldOptionsAndTheExternalFallbackSeat) {
    for (const char* spec : {"oracle:worlds=8", "oracle:agg=vote", "oracle:infer=true"}) {
        SCOPED_TRACE(spec);
        EXPECT_THROW(make_player(spec, 1), InputError);
    }
    EXPECT_NO_THROW(
        make_player("oracle:eval=search,exact=4,algo=maxn,tables=false,utility=tricks", 1));
    try {
        make_player("external:cmd=\"true\",fallback=oracle", 1);
        ADD_FAILURE() << "an external bot's fallback that sees every hand";
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find("oracle sees every hand"), std::string::npos)
            << e.what();
    }
}

// Plays one hand with `spec` in every seat: the bids and passes, and the cards, as text.
std::pair<std::string, std::string> bids_and_cards(const std::string& spec, const char* preset,
                                                   std::uint64_t seed) {
    const Rules rules = load_rules(preset_path(preset), {});
    Game game(rules, seed);
    game.stop_after_hand();
    std::vector<std::unique_ptr<Player>> players;
    for (int s = 0; s < rules.players; ++s) players.push_back(make_player(spec, mix_seed(seed, s)));
    std::pair<std::string, std::string> out;
    game.set_observer([&](const Game& g, const GameEvent& e) {
        if (e.kind == GameEvent::Kind::kCard) out.second += to_string(e.card) + " ";
        if (e.kind == GameEvent::Kind::kBid) out.first += std::to_string(e.value) + " ";
        if (e.kind == GameEvent::Kind::kPassesDone)
            for (int s = 0; s < g.rules().players; ++s)
                out.first += cards_to_string(g.hand().passed[s]) + "; ";
    });
    run_game(game, players);
    return out;
}

// Bids and passes are pimc's own with the same seed, so a pimc and an oracle in the same seat of
// the same board bid and pass alike; the card play differs.
TEST(Oracle, BidsAndPassesAsPimcDoes) {
    for (const char* preset : {"hearts4", "spades-cutthroat3"}) {
        SCOPED_TRACE(preset);
        const auto oracle = bids_and_cards(kQuickOracle, preset, 6);
        const auto pimc = bids_and_cards("pimc:worlds=6,rollouts=6", preset, 6);
        EXPECT_FALSE(oracle.first.empty());
        EXPECT_EQ(oracle.first, pimc.first);
        EXPECT_NE(oracle.second, pimc.second);
    }
}

// The same decisions for any thread count (the arena pimc's bids and passes run on).
TEST(Oracle, DecisionsDoNotDependOnThreads) {
    for (const char* preset : {"hearts4", "spades-cutthroat3"}) {
        SCOPED_TRACE(preset);
        const std::string one = decisions("oracle:rollouts=6,threads=1", preset, 8);
        EXPECT_EQ(one, decisions("oracle:rollouts=6,threads=2", preset, 8));
        EXPECT_EQ(one, decisions("oracle:rollouts=6,threads=3", preset, 8));
    }
}

// The record names the seats that saw every hand; the record reader and replay accept it.
TEST(Oracle, TheGameRecordMarksItsSeat) {
    const Rules rules = load_rules(preset_path("spades-cutthroat3"), {});
    Game game(rules, 12);
    game.stop_after_hand();
    std::vector<std::unique_ptr<Player>> players;
    const std::vector<std::string> names = {"rule", kQuickOracle, "rule"};
    for (int s = 0; s < rules.players; ++s) players.push_back(make_player(names[s], s));
    run_game(game, players);
    const nlohmann::json record =
        game_record(game, names, collect_fallbacks(players), cheating_seats(players));
    EXPECT_EQ(record["cheats"], nlohmann::json::array({1}));
    const RecordedGame read = read_game_record(record);
    EXPECT_EQ(read.cheats, std::vector<int>{1});
    EXPECT_TRUE(replay_record(read).ok);
    // No cheat, no key: the records of honest games are as they were.
    const auto honest = rule_players(rules.players);
    EXPECT_FALSE(game_record(game, names, {}, cheating_seats(honest)).contains("cheats"));
}

}  // namespace
}  // namespace sampling
