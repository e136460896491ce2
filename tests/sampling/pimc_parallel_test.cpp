// The Monte-Carlo player's worlds run on oneTBB: the decisions are the same for any thread count,
// and the worlds really do spread over several TBB threads. This executable also runs under
// ThreadSanitizer against a oneTBB built with it (label "parallel").
#include <gtest/gtest.h>
#include <oneapi/tbb/task_arena.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <thread>
#include <vector>

#include "cardgames/models/network.hpp"
#include "cardgames/rules/game_runner.hpp"
#include "pimc_decisions.hpp"
#include "sampling/bot_registry.hpp"
#include "sampling/parallel.hpp"
#include "sampling/pimc.hpp"
#include "tests/cardgames/test_helpers.hpp"

namespace sampling {
namespace {

using namespace cardgames;

// The passes race here (from 6 deals a candidate up to 48).
constexpr const char* kQuick = "pimc:worlds=6,nodes=3000,rollouts=6,pass_rollouts=48";

// A policy network of random weights for `form`, written to a temporary file of this process (the
// shards run at once); its path.
std::string policy_net_file(const std::string& form) {
    const auto path = std::filesystem::temp_directory_path() /
                      ("pimc-parallel-" + std::to_string(::getpid()) + "-" + form + ".net");
    models::write_model_file(path, models::random_network_file(form, "policy", 52, 3));
    return path.string();
}

// infer=play farms its pool of worlds and its plays' likelihoods too; self=switch values two
// continuations per world (4-player Hearts ships the policy it needs), moon=on one more where the
// seat could still shoot. playout=net: each thread's network player follows its own play-outs (the
// bid and pass deals' too, rollout_playout=net). infer=net: each thread's evaluator scores the
// plays it is given. rotate=on turns each set of worlds' deal. One test each, so that CTest can
// run them in two shards (CMakeLists.txt).
struct ThreadRun {
    std::string spec;
    const char* preset;
    // When not empty: followed by the path of a random policy network for the preset's form.
    std::string net_option;
};

std::vector<ThreadRun> thread_runs() {
    const std::string quick(kQuick);
    const std::string by_net = ",playout=net,rollout_playout=net,playout_net=";
    return {{quick, "hearts4", ""},
            {quick, "spades-partnership", ""},
            {quick + ",worlds_max=24", "spades-partnership", ""},
            {quick + ",rotate=on", "spades-partnership", ""},
            {quick + ",budget=6000,pilot=3", "spades-partnership", ""},
            {quick + ",infer=play", "hearts4", ""},
            {quick + ",infer=play", "spades-partnership", ""},
            {quick + ",self=switch", "hearts4", ""},
            {quick + ",self=switch,moon=on", "hearts4", ""},
            {quick, "hearts4", by_net},
            {quick + ",bid=search", "spades-partnership", by_net},
            {quick, "hearts4", ",infer=net,infer_net="},
            {quick, "spades-partnership", ",infer=net,infer_net="},
            {quick + ",eval=ismcts", "spades-partnership", ""},
            {quick + ",eval=ismcts", "hearts4", ""}};
}

// Under a sanitizer (ten times slower) only the runs on two threads, where races can happen: the
// plain build compares them with one and three threads too (testing::kSanitized).

class PimcThreads : public ::testing::TestWithParam<int> {};

TEST_P(PimcThreads, SameDecisionsForAnyThreadCount) {
    const ThreadRun run = thread_runs()[static_cast<std::size_t>(GetParam())];
    std::string spec = run.spec;
    std::string net;
    if (!run.net_option.empty()) {
        net = policy_net_file(run.preset);
        spec += run.net_option + net;
    }
    const char* preset = run.preset;
    const std::string two = decisions(spec + ",threads=2", preset, 5);
    if (!cardgames::testing::kSanitized) {
        EXPECT_EQ(two, decisions(spec + ",threads=1", preset, 5)) << preset << " " << spec;
        EXPECT_EQ(two, decisions(spec + ",threads=3", preset, 5)) << preset << " " << spec;
    }
    // threads=0 joins the caller's arena: here one of two threads, as inside a tournament.
    tbb::task_arena outer(2);
    std::string nested;
    outer.execute([&] { nested = decisions(spec + ",threads=0", preset, 5); });
    EXPECT_EQ(two, nested) << preset << " " << spec;
    if (!net.empty()) std::filesystem::remove(net);
}

INSTANTIATE_TEST_SUITE_P(Runs, PimcThreads,
                         ::testing::Range(0, static_cast<int>(thread_runs().size())));

// The node budget counts nodes, not time: with a budget small enough to cut worlds short, every
// decision of a hand is the same on one thread as on two.
TEST(Pimc, SameDecisionsForAnyThreadCountWhenTheBudgetIsHit) {
    const Rules rules = load_rules(preset_path("hearts4"), {"no_passing=true"});
    const std::string spec = "pimc:worlds=6,rollouts=6,budget=3000,threads=";
    PimcBot one(PimcOptions::from_spec(parse_bot_spec(spec + "1")), 3);
    PimcBot two(PimcOptions::from_spec(parse_bot_spec(spec + "2")), 3);
    auto rule = rule_players(4);
    Game game(rules, 3);
    game.stop_after_hand();
    int over = 0;
    while (!game.over()) {
        if (game.phase() == Phase::kPlay) {
            const InfoState info = game.info_state(game.to_act());
            const PimcAnalysis a = one.analyze(info), b = two.analyze(info);
            expect_same_analysis(a, b);
            EXPECT_EQ(a.expansions, b.expansions);
            EXPECT_EQ(a.over_budget, b.over_budget);
            EXPECT_EQ(a.played_alone, b.played_alone);
            over += a.over_budget;
        }
        step_game(game, rule);
    }
    EXPECT_GT(over, 0) << "the budget never cut a world short";
}

// The first decision of a Hearts hand (after the pass) with a real choice of card.
InfoState early_choice(Game& game) {
    auto rule = rule_players(4);
    while (game.phase() != Phase::kPlay ||
           game.play_state().legal_moves(game.play_rules()).size() < 2)
        step_game(game, rule);
    return game.info_state(game.to_act());
}

TEST(Pimc, WorldsRunOnSeveralTbbThreads) {
    const Rules rules = load_rules(preset_path("hearts4"), {});
    // Worlds searched to a node budget take milliseconds each, so the second thread wakes up and
    // steals some of them. On a 2-core machine busy with other work the one TBB worker may not be
    // scheduled within a decision, so decisions go on (for up to a minute) until it has been.
    const std::string spec = "pimc:worlds=16,eval=search,nodes=20000";
    PimcBot one(PimcOptions::from_spec(parse_bot_spec(spec + ",threads=1")), 1);
    PimcBot two(PimcOptions::from_spec(parse_bot_spec(spec + ",threads=2")), 1);
    int most = 0;
    const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    for (std::uint64_t seed = 1; most < 2 && std::chrono::steady_clock::now() < give_up; ++seed) {
        Game game(rules, seed);
        const InfoState info = early_choice(game);
        const PimcAnalysis a = two.analyze(info);
        ASSERT_TRUE(a.searched);
        EXPECT_EQ(a.worlds, 16);
        most = std::max(most, a.threads_used);
        EXPECT_LE(a.threads_used, 2);
        const PimcAnalysis b = one.analyze(info);
        EXPECT_EQ(b.threads_used, 1);
        expect_same_analysis(a, b);
        EXPECT_EQ(a.expansions, b.expansions);
    }
    EXPECT_EQ(most, 2) << "the worlds of a minute of decisions never left one TBB thread";
}

// The farm itself: with two threads, a unit that waits for a second thread to show up gets one
// (bounded, so that a farm that never leaves the calling thread fails instead of hanging).
TEST(DecisionArena, TwoThreadsMeanTwoTbbThreads) {
    DecisionArena arena(2);
    std::atomic<int> first_slot{-1};
    std::atomic<bool> second_seen{false};
    std::vector<int> slot(8, -1);
    const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    arena.parallel_for_index(8, [&](int i) {
        const int me = current_thread_slot();
        slot[static_cast<std::size_t>(i)] = me;
        int expected = -1;
        if (!first_slot.compare_exchange_strong(expected, me) && expected != me) second_seen = true;
        while (!second_seen && std::chrono::steady_clock::now() < give_up)
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
    });
    EXPECT_TRUE(second_seen);
    for (int s : slot) EXPECT_GE(s, 0);
}

}  // namespace
}  // namespace sampling
