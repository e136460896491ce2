// `cardgames bot` at our own table: each seat's bot runs as a separate `cardgames bot --spec X`
// process behind `external:cmd=...`, and the game must be identical, card for card, to the one the
// same bots play in-process with the same seed.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include "cardgames/rules/game_runner.hpp"
#include "cardgames/rules/record.hpp"
#include "sampling/bot_registry.hpp"
#include "tests/cardgames/test_helpers.hpp"

namespace cardgames {
namespace {

std::string through_protocol(const std::string& bot) {
    return std::string("external:cmd=\"") + CARDGAMES_BIN + " bot --spec " + bot + "\",ms=30000";
}

// Plays one game; seat s uses specs[s] seeded as our tables do (mix_seed(game seed, seat)).
nlohmann::json play(const Rules& rules, std::uint64_t seed, const std::vector<std::string>& specs,
                    std::vector<FallbackNote>& notes) {
    std::vector<std::unique_ptr<Player>> players;
    for (int s = 0; s < rules.players; ++s)
        players.push_back(sampling::make_player(specs[s], mix_seed(seed, s)));
    Game game(rules, seed);
    run_game(game, players);
    notes = collect_fallbacks(players);
    nlohmann::json record = game_record(game, std::vector<std::string>(rules.players, "x"));
    return record;
}

// The bot plays all seats through `cardgames bot`, then the even seats only: both games must equal
// the in-process one.
void expect_same_games(const char* preset, const std::string& bot) {
    SCOPED_TRACE(std::string(preset) + " " + bot);
    const Rules rules = load_rules(preset_path(preset), {});
    const std::uint64_t seed = 21;
    std::vector<std::string> direct(rules.players, bot),
        external(rules.players, through_protocol(bot));
    std::vector<std::string> mixed = direct;
    for (int s = 0; s < rules.players; s += 2) mixed[s] = through_protocol(bot);
    std::vector<FallbackNote> notes;
    const nlohmann::json expected = play(rules, seed, direct, notes);
    EXPECT_TRUE(expected["complete"].get<bool>());
    for (const auto* specs : {&external, &mixed}) {
        const nlohmann::json got = play(rules, seed, *specs, notes);
        EXPECT_TRUE(notes.empty()) << notes.front().reason;
        EXPECT_EQ(got.dump(), expected.dump());
    }
    int status = 0;
    EXPECT_EQ(waitpid(-1, &status, WNOHANG), -1) << "a bot process was left behind";
}

// Under a sanitizer one form of each game: the protocol's code is the same for every form, which
// the plain build plays through.
TEST(BotCommand, PlaysTheSameGameAsInProcess) {
    for (const char* preset :
         {"hearts4", "spades-partnership", "hearts3", "spades-cutthroat4", "hearts6"}) {
        const std::string form = preset;
        if (testing::kSanitized && form != "hearts4" && form != "spades-partnership") continue;
        for (const char* bot : {"random", "rule"}) expect_same_games(preset, bot);
    }
}

TEST(BotCommand, ASearchBotPlaysTheSameGameAsInProcess) {
    // Kept small so that the test stays quick (also under sanitizers).
    expect_same_games("hearts4", "pimc:worlds=2,depth=1,rollouts=2,threads=1");
}

}  // namespace
}  // namespace cardgames
