// External programs (tests/bots/*.py) at a table, seated by spec through the bot registry: whole
// games, good or bad; a bad answer hands the seat to the fallback bot for the rest of the game.
#include "cardgames/players/external_bot.hpp"

#include <gtest/gtest.h>
#include <sys/wait.h>

#include <chrono>
#include <stop_token>
#include <thread>

#include "cardgames/cards/error.hpp"
#include "cardgames/rules/game_runner.hpp"
#include "cardgames/rules/record.hpp"
#include "sampling/bot_registry.hpp"

namespace sampling {
namespace {

using namespace cardgames;

Rules preset(const std::string& name) {
    return load_rules(preset_path(name), {});
}

std::string bots_dir() {
    return CARDGAMES_TEST_BOTS_DIR;
}

std::string python_bot(const std::string& script, const std::string& args = "") {
    return "python3 " + bots_dir() + "/" + script + (args.empty() ? "" : " " + args);
}

struct TableResult {
    std::vector<FallbackNote> notes;
    nlohmann::json record;
    double seconds = 0;
};

TableResult play_with(const std::string& preset_name, int seat, const std::string& spec,
                      std::uint64_t seed = 3) {
    const Rules rules = preset(preset_name);
    TableResult out;
    const auto start = std::chrono::steady_clock::now();
    {
        std::vector<std::unique_ptr<Player>> players;
        std::vector<std::string> names;
        for (int s = 0; s < rules.players; ++s) {
            names.push_back(s == seat ? spec : "random");
            players.push_back(make_player(names.back(), mix_seed(seed, s)));
        }
        Game game(rules, seed);
        run_game(game, players);
        EXPECT_TRUE(game.over());
        out.notes = collect_fallbacks(players);
        out.record = game_record(game, names, out.notes);
    }
    out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    // Every program was reaped: this process has no child left.
    int status = 0;
    EXPECT_EQ(waitpid(-1, &status, WNOHANG), -1);
    return out;
}

TEST(ExternalBot, APythonBotPlaysWholeGames) {
    for (const char* name : {"hearts4", "spades-partnership", "hearts3", "spades-cutthroat3"}) {
        SCOPED_TRACE(name);
        const TableResult r =
            play_with(name, 1, "external:cmd=\"" + python_bot("simple_bot.py") + "\",ms=20000");
        EXPECT_TRUE(r.notes.empty()) << r.notes.front().reason;
        EXPECT_FALSE(r.record.contains("fallbacks"));
        EXPECT_TRUE(r.record["complete"].get<bool>());
    }
}

void expect_one_fallback(const TableResult& r, int seat, const std::string& reason_start) {
    ASSERT_EQ(r.notes.size(), 1u);
    const FallbackNote& n = r.notes[0];
    EXPECT_EQ(n.seat, seat);
    EXPECT_EQ(n.reason.rfind(reason_start, 0), 0u) << n.reason;
    EXPECT_EQ(n.fallback, "random");
    ASSERT_TRUE(r.record.contains("fallbacks"));
    EXPECT_EQ(r.record["fallbacks"].size(), 1u);
    EXPECT_EQ(r.record["fallbacks"][0]["reason"], n.reason);
    EXPECT_TRUE(r.record["complete"].get<bool>());
}

TEST(ExternalBot, MalformedAnswerFallsBack) {
    const TableResult r = play_with(
        "hearts4", 2, "external:cmd=\"" + python_bot("bad_bot.py", "malformed 3") + "\",ms=20000");
    expect_one_fallback(r, 2, "malformed:");
    EXPECT_EQ(r.notes[0].received, "I think I'll play the best card");
    EXPECT_EQ(r.notes[0].decision, "play");  // pass, play, play, then the 4th decision
    EXPECT_EQ(r.notes[0].hand, 0);
}

TEST(ExternalBot, OutputNobodyAskedForIsMalformed) {
    const TableResult r = play_with(
        "hearts4", 0, "external:cmd=\"" + python_bot("bad_bot.py", "chatty 2") + "\",ms=20000");
    // Found before the next ask when it has arrived by then, else as a malformed answer to it.
    expect_one_fallback(r, 0, "malformed:");
    EXPECT_EQ(r.notes[0].received, "thinking about the next trick...");
}

TEST(ExternalBot, IllegalAnswerFallsBack) {
    const TableResult r =
        play_with("spades-partnership", 1,
                  "external:cmd=\"" + python_bot("bad_bot.py", "illegal 3") + "\",ms=20000");
    expect_one_fallback(r, 1, "illegal:");
    EXPECT_EQ(r.notes[0].decision, "play");
    EXPECT_FALSE(r.notes[0].received.empty());
    // A bid out of range is illegal too.
    const TableResult b =
        play_with("spades-partnership", 3,
                  "external:cmd=\"" + python_bot("bad_bot.py", "illegal 0") + "\",ms=20000");
    expect_one_fallback(b, 3, "illegal:");
    EXPECT_EQ(b.notes[0].decision, "bid");
    EXPECT_EQ(b.notes[0].received, "99");
}

TEST(ExternalBot, LateAnswerFallsBackWithoutWaitingForIt) {
    // The bot sleeps 5 s; the limit is 300 ms, and the program is killed at once.
    const TableResult r = play_with(
        "hearts4", 0, "external:cmd=\"" + python_bot("bad_bot.py", "slow 2") + "\",ms=300");
    expect_one_fallback(r, 0, "late:");
    EXPECT_LT(r.seconds, 4.0);
}

TEST(ExternalBot, StopRequestEndsTheWaitAtOnce) {
    // A program that never answers, with a day to do so: the run's stop request kills it at once,
    // and the fallback finishes the game without a note (the caller abandons that game).
    const Rules rules = preset("hearts4");
    std::stop_source stop;
    const auto start = std::chrono::steady_clock::now();
    std::vector<FallbackNote> notes;
    {
        std::vector<std::unique_ptr<Player>> players;
        players.push_back(
            make_player("external:cmd=\"sleep 300\",ms=86400000", 1, stop.get_token()));
        for (int s = 1; s < rules.players; ++s) players.push_back(make_player("random", s));
        std::thread stopper([&] {
            std::this_thread::sleep_for(std::chrono::milliseconds(300));
            stop.request_stop();
        });
        Game game(rules, 3);
        run_game(game, players);
        stopper.join();
        EXPECT_TRUE(game.over());
        notes = collect_fallbacks(players);
    }
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    EXPECT_LT(seconds, 10.0);
    EXPECT_TRUE(notes.empty());
    int status = 0;
    EXPECT_EQ(waitpid(-1, &status, WNOHANG), -1);  // the program was reaped
}

TEST(ExternalBot, PartialAnswerIsLate) {
    // An answer without its newline is no answer: the limit holds, and the text so far is noted.
    const TableResult r = play_with(
        "hearts4", 2, "external:cmd=\"" + python_bot("bad_bot.py", "partial 2") + "\",ms=3000");
    expect_one_fallback(r, 2, "late:");
    EXPECT_FALSE(r.notes[0].received.empty());
    EXPECT_LT(r.seconds, 15.0);  // the bot sleeps 30 s after its partial line
}

TEST(ExternalBot, EndlessOutputWithoutNewlineIsCut) {
    const TableResult r =
        play_with("spades-partnership", 0,
                  "external:cmd=\"" + python_bot("bad_bot.py", "flood 1") + "\",ms=20000");
    expect_one_fallback(r, 0, "malformed: a line longer than 64 KiB");
    EXPECT_LT(r.seconds, 15.0);  // not the 20 s limit: the flood is cut at 64 KiB
}

TEST(ExternalBot, CrashingBotFallsBack) {
    const TableResult r = play_with(
        "hearts4", 3, "external:cmd=\"" + python_bot("bad_bot.py", "crash 3") + "\",ms=20000");
    expect_one_fallback(r, 3, "died:");
    EXPECT_NE(r.notes[0].reason.find("exited with status 3"), std::string::npos)
        << r.notes[0].reason;
    const TableResult s = play_with(
        "hearts4", 1, "external:cmd=\"" + python_bot("bad_bot.py", "silent 1") + "\",ms=20000");
    expect_one_fallback(s, 1, "died:");
    EXPECT_LT(s.seconds, 4.0);
}

// A program that is not there cannot be started: the bot is refused when it is made, before any
// game, rather than every game falling back. One that starts and dies still gets its fallback.
TEST(ExternalBot, MissingProgramIsRefusedAtOnce) {
    for (const char* cmd : {"/nonexistent/bot --x", "no-such-program-here", "/"}) {
        try {
            make_player(std::string("external:cmd=\"") + cmd + "\",fallback=rule", 1);
            ADD_FAILURE() << cmd << " was accepted";
        } catch (const InputError& e) {
            EXPECT_NE(std::string(e.what()).find("cannot be started"), std::string::npos)
                << e.what();
        }
    }
    const TableResult r = play_with("spades-cutthroat4", 0, "external:cmd=\"false\",fallback=rule");
    ASSERT_EQ(r.notes.size(), 1u);
    EXPECT_NE(r.notes[0].reason.find("exited with status 1"), std::string::npos)
        << r.notes[0].reason;
    EXPECT_EQ(r.notes[0].fallback, "rule");
}

TEST(ExternalBot, BadSpecsAreInputErrors) {
    for (const char* spec :
         {"external", "external:cmd=\"true\",speed=3", "external:cmd=\"true\",ms=0",
          "external:cmd=\"true\",fallback=nosuchbot", "external:cmd=\"true\",fallback=external"})
        EXPECT_THROW(make_player(spec, 1), InputError) << spec;
    // Building one starts nothing: the program runs from the first decision.
    EXPECT_NO_THROW(make_player("external:cmd=\"true\",ms=50,fallback=rule", 1));
}

TEST(ExternalBot, OnePlayerCanSitThroughTwoGames) {
    const Rules rules = preset("hearts4");
    std::vector<std::unique_ptr<Player>> players;
    players.push_back(
        make_player("external:cmd=\"" + python_bot("simple_bot.py") + "\",ms=20000", 1));
    for (int s = 1; s < 4; ++s) players.push_back(make_player("random", s));
    for (std::uint64_t seed : {11, 12}) {
        Game game(rules, seed);
        run_game(game, players);
        EXPECT_TRUE(game.over());
    }
    EXPECT_TRUE(collect_fallbacks(players).empty());
}

}  // namespace
}  // namespace sampling
