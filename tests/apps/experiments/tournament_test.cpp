// The tournament through the experiments library's API, as the Python module calls it: an
// observer sees every result in order, a stop request leaves a file that resume completes to the
// file of an uninterrupted run, and a caller's own players sit at the table through the factory.
#include "apps/experiments/tournament.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "apps/experiments/tournament_results.hpp"
#include "cardgames/cards/error.hpp"
#include "cardgames/rules/rules.hpp"
#include "sampling/bot_registry.hpp"

namespace apps {
namespace {

namespace fs = std::filesystem;

std::string read_file(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

// A fresh directory per test, removed afterwards.
class TempDir {
  public:
    TempDir() {
        path_ = fs::temp_directory_path() /
                ("cardgames_experiments_" + std::to_string(::getpid()) + "_" +
                 ::testing::UnitTest::GetInstance()->current_test_info()->name());
        fs::remove_all(path_);
        fs::create_directories(path_);
    }
    ~TempDir() { fs::remove_all(path_); }
    std::string file(const std::string& name) const { return (path_ / name).string(); }

  private:
    fs::path path_;
};

TournamentOptions hearts_options(const std::string& out, long hands) {
    TournamentOptions o;
    o.plan.rules = cardgames::load_rules(cardgames::preset_path("hearts4"), {});
    o.plan.specs = {"rule", "random", "rule", "random"};
    o.plan.by_hands = true;
    o.plan.count = hands;
    o.plan.seed = 7;
    o.run.threads = 2;
    o.run.out = out;
    return o;
}

// Records what the run reports; optionally requests a stop once result `stop_after` is written.
class Recorder : public RunObserver {
  public:
    explicit Recorder(std::stop_source* stop = nullptr, long stop_after = -1)
        : stop_(stop), stop_after_(stop_after) {}
    void started(long total, long done, const std::string& unit,
                 const std::string& where) override {
        started_ = true;
        total_ = total;
        first_ = done;
        unit_ = unit;
        where_ = where;
    }
    void written(long index, const std::string& line) override {
        indexes_.push_back(index);
        lines_ += line + "\n";
        if (stop_ && index == stop_after_) stop_->request_stop();
    }
    void finished(long done) override { finished_ = done; }

    bool started_ = false;
    long total_ = -1, first_ = -1, finished_ = -1;
    std::string unit_, where_, lines_;
    std::vector<long> indexes_;

  private:
    std::stop_source* stop_;
    long stop_after_;
};

TEST(Tournament, ObserverSeesEveryResultInOrder) {
    const TempDir dir;
    const TournamentOptions options = hearts_options(dir.file("all.jsonl"), 6);
    Recorder seen;
    const TournamentResult result = run_tournament(options, seen);
    EXPECT_TRUE(result.complete());
    EXPECT_EQ(result.done, 6);
    EXPECT_EQ(result.total, 6);
    EXPECT_EQ(result.workers, "2 threads");
    EXPECT_TRUE(seen.started_);
    EXPECT_EQ(seen.total_, 6);
    EXPECT_EQ(seen.first_, 0);
    EXPECT_EQ(seen.unit_, "hands");
    EXPECT_EQ(seen.where_, "2 threads");
    EXPECT_EQ(seen.indexes_, (std::vector<long>{0, 1, 2, 3, 4, 5}));
    EXPECT_EQ(seen.finished_, 6);
    // The lines the observer saw are the file's, after its header.
    const std::string file = read_file(options.run.out);
    EXPECT_EQ(file.substr(file.find('\n') + 1), seen.lines_);
    // The summary is the file's: two specs, each at two seats of its own unit per hand.
    ASSERT_EQ(result.summary.specs.size(), 2u);
    EXPECT_EQ(result.summary.specs[0].spec, "rule");
    EXPECT_EQ(result.summary.specs[0].games, 12);
    EXPECT_EQ(result.summary.specs[1].spec, "random");
    long seen_lines = 0;
    const TournamentFile read =
        read_tournament_file(options.run.out, [&](const nlohmann::json& line, const GameResult&) {
            EXPECT_EQ(line["index"], seen_lines);
            ++seen_lines;
        });
    EXPECT_EQ(read.results, 6);
    EXPECT_EQ(seen_lines, 6);
    EXPECT_EQ(read.summary.specs[1].games, result.summary.specs[1].games);
}

// A player of the caller's (as a Python policy will be): here the rule bot behind a counter,
// optionally slowed down so that a run is still going when it is stopped.
class CountingPlayer : public cardgames::Player {
  public:
    CountingPlayer(std::uint64_t seed, std::atomic<long>& calls,
                   std::chrono::milliseconds delay = {})
        : inner_(sampling::make_player("rule", seed)), calls_(calls), delay_(delay) {}
    std::string name() const override { return "counting"; }
    bool blind_nil(const cardgames::InfoState& info) override {
        ++calls_;
        return inner_->blind_nil(info);
    }
    int bid(const cardgames::InfoState& info) override {
        ++calls_;
        return inner_->bid(info);
    }
    cardgames::CardSet pass(const cardgames::InfoState& info) override {
        ++calls_;
        return inner_->pass(info);
    }
    cardgames::Card play(const cardgames::InfoState& info) override {
        ++calls_;
        std::this_thread::sleep_for(delay_);
        return inner_->play(info);
    }

  private:
    std::unique_ptr<cardgames::Player> inner_;
    std::atomic<long>& calls_;
    std::chrono::milliseconds delay_;
};

TEST(Tournament, StoppedRunResumesToTheUninterruptedFile) {
    const TempDir dir;
    constexpr long kHands = 40;
    // Seat 0 thinks 2 ms per card: the run is far from done when the third result is written.
    std::atomic<long> calls{0};
    const PlayerFactory slow = [&](int entry, const std::string& spec, std::uint64_t seed,
                                   std::stop_token) -> std::unique_ptr<cardgames::Player> {
        if (entry == 0)
            return std::make_unique<CountingPlayer>(seed, calls, std::chrono::milliseconds(2));
        return sampling::make_player(spec, seed);
    };
    TournamentOptions whole = hearts_options(dir.file("whole.jsonl"), kHands);
    whole.make_player = slow;
    Recorder quiet;
    ASSERT_TRUE(run_tournament(whole, quiet).complete());
    const std::string expected = read_file(whole.run.out);

    TournamentOptions part = hearts_options(dir.file("part.jsonl"), kHands);
    part.make_player = slow;
    std::stop_source stop;
    Recorder stopper(&stop, 2);  // stop once the third result is in the file
    const TournamentResult stopped = run_tournament(part, stopper, stop.get_token());
    EXPECT_EQ(stopped.status, kExitInterrupted);
    EXPECT_FALSE(stopped.complete());
    EXPECT_GE(stopped.done, 3);
    EXPECT_LT(stopped.done, kHands);
    EXPECT_EQ(stopper.finished_, stopped.done);
    const std::string prefix = read_file(part.run.out);
    EXPECT_EQ(expected.compare(0, prefix.size(), prefix), 0) << "not a prefix of the whole file";

    part.run.resume = true;
    Recorder resumed;
    const TournamentResult rest = run_tournament(part, resumed);
    EXPECT_TRUE(rest.complete());
    EXPECT_EQ(resumed.first_, stopped.done);
    EXPECT_EQ(rest.done, kHands);
    EXPECT_EQ(read_file(part.run.out), expected);
}

TEST(Tournament, FactorySeatsTheCallersPlayers) {
    const TempDir dir;
    TournamentOptions native = hearts_options(dir.file("native.jsonl"), 4);
    Recorder quiet;
    ASSERT_TRUE(run_tournament(native, quiet).complete());

    TournamentOptions own = hearts_options(dir.file("own.jsonl"), 4);
    own.plan.specs[0] = "python:Counting";
    std::atomic<long> calls{0};
    std::atomic<long> made{0};
    own.make_player = [&](int entry, const std::string& spec, std::uint64_t seed,
                          std::stop_token) -> std::unique_ptr<cardgames::Player> {
        if (spec == "python:Counting") {
            EXPECT_EQ(entry, 0);
            ++made;
            return std::make_unique<CountingPlayer>(seed, calls);
        }
        return sampling::make_player(spec, seed);
    };
    const TournamentResult result = run_tournament(own, quiet);
    ASSERT_TRUE(result.complete());
    EXPECT_GT(calls.load(), 0);
    EXPECT_GE(made.load(), 4);  // one per hand, besides the check of the specs
    EXPECT_EQ(result.summary.specs[0].spec, "python:Counting");
    // The rule bot seated through the factory plays as the "rule" spec does: the same scores.
    std::vector<GameResult> a, b;
    read_tournament_file(native.run.out,
                         [&](const nlohmann::json&, const GameResult& r) { a.push_back(r); });
    read_tournament_file(own.run.out, [&](const nlohmann::json& line, const GameResult& r) {
        EXPECT_EQ(line["players"][0], "python:Counting");
        b.push_back(r);
    });
    ASSERT_EQ(a.size(), b.size());
    for (std::size_t i = 0; i < a.size(); ++i)
        for (std::size_t s = 0; s < a[i].seats.size(); ++s)
            EXPECT_EQ(a[i].seats[s].hand_scores, b[i].seats[s].hand_scores);
}

TEST(Tournament, RefusesASpecCountThatIsNotTheSeats) {
    const TempDir dir;
    TournamentOptions options = hearts_options(dir.file("bad.jsonl"), 2);
    options.plan.specs.pop_back();
    Recorder quiet;
    EXPECT_THROW(run_tournament(options, quiet), cardgames::InputError);
    EXPECT_FALSE(fs::exists(options.run.out));
}

// A player that cannot sit at Hearts tables (as a bot whose model was made for Spades).
class SpadesOnlyPlayer : public CountingPlayer {
  public:
    using CountingPlayer::CountingPlayer;
    std::string check(const cardgames::Rules& rules) const override {
        if (rules.game != cardgames::GameKind::kSpades)
            throw cardgames::InputError("made for Spades, not for Hearts");
        return "";
    }
};

// Issue 45: every player is checked against the rules before the results file is made, so a
// refused run leaves no file and the same run, once fixed, is not refused for "the file exists".
TEST(Tournament, RefusesAPlayerForTheseRulesBeforeTheFile) {
    const TempDir dir;
    TournamentOptions options = hearts_options(dir.file("checked.jsonl"), 2);
    options.plan.specs[1] = "spades-only";
    std::atomic<long> calls{0};
    options.make_player = [&](int, const std::string& spec, std::uint64_t seed,
                              std::stop_token) -> std::unique_ptr<cardgames::Player> {
        if (spec == "spades-only") return std::make_unique<SpadesOnlyPlayer>(seed, calls);
        return sampling::make_player(spec, seed);
    };
    Recorder quiet;
    try {
        run_tournament(options, quiet);
        ADD_FAILURE() << "the run was not refused";
    } catch (const cardgames::InputError& e) {
        EXPECT_EQ(std::string(e.what()), "bot spec 'spades-only': made for Spades, not for Hearts");
    }
    EXPECT_FALSE(fs::exists(options.run.out));
    EXPECT_EQ(calls.load(), 0);
}

}  // namespace
}  // namespace apps
