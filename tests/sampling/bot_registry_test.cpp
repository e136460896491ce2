// The one table of bots by name (sampling/bot_registry.hpp): every name makes a player, unknown
// names and options are refused with the known ones listed, and the external bot's fallback may
// be any registered bot, pimc included.
#include "sampling/bot_registry.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <sstream>

#include "cardgames/cards/error.hpp"
#include "cardgames/models/network.hpp"
#include "cardgames/rules/game_runner.hpp"

namespace sampling {
namespace {

using namespace cardgames;

// A pimc quick enough for a test.
constexpr const char* kQuickPimc = "pimc:worlds=6,nodes=3000,rollouts=6";
const std::string kQuickPimcQuoted = std::string("\"") + kQuickPimc + "\"";

std::vector<std::string> known_names() {
    std::vector<std::string> out;
    std::istringstream in(known_bot_names());
    for (std::string name; std::getline(in >> std::ws, name, ',');) out.push_back(name);
    return out;
}

// `net` with a policy network of random weights for 4-player Hearts (no form ships one yet).
std::string net_spec() {
    const auto path = std::filesystem::temp_directory_path() / "bot-registry-policy.net";
    models::write_model_file(path, models::random_network_file("hearts4", "policy", 52, 1));
    return "net:model=" + path.string();
}

std::string error_of(const std::string& spec) {
    try {
        make_player(spec, 1);
    } catch (const InputError& e) {
        return e.what();
    }
    return "";
}

std::string bad_bot(const std::string& args) {
    return std::string("python3 ") + CARDGAMES_TEST_BOTS_DIR + "/bad_bot.py " + args;
}

TEST(BotRegistry, ListsEveryBot) {
    EXPECT_EQ(known_bot_names(), "pimc, oracle, policy, net, random, rule, external");
}

TEST(BotRegistry, EveryNameMakesAPlayerThatPlaysAHand) {
    const Rules rules = load_rules(preset_path("hearts4"), {});
    const std::vector<std::string> names = known_names();
    ASSERT_EQ(names.size(), 7u);
    for (const std::string& name : names) {
        SCOPED_TRACE(name);
        // external needs a program: `true` starts and exits, so its fallback plays the hand.
        const std::string spec = name == "external" ? "external:cmd=\"true\",fallback=rule"
                                 : name == "net"    ? net_spec()
                                                    : name;
        EXPECT_NE(make_player(spec, 7), nullptr);
        Game game(rules, 3);
        game.stop_after_hand();
        std::vector<std::unique_ptr<Player>> players;
        // pimc and oracle: quicker
        players.push_back(make_player(name == "pimc"     ? kQuickPimc
                                      : name == "oracle" ? "oracle:rollouts=6"
                                                         : spec,
                                      7));
        for (int s = 1; s < rules.players; ++s) players.push_back(make_player("random", s));
        ASSERT_NO_THROW(run_game(game, players));
        EXPECT_EQ(game.finished_hands().size(), 1u);
    }
}

TEST(BotRegistry, UnknownNameListsTheKnownOnes) {
    const std::string e = error_of("pmic:worlds=3");
    EXPECT_NE(e.find("unknown bot 'pmic'"), std::string::npos) << e;
    EXPECT_NE(e.find("(known: pimc, oracle, policy, net, random, rule, external)"),
              std::string::npos)
        << e;
    EXPECT_NE(error_of(":x=1").find("no bot name"), std::string::npos);
}

TEST(BotRegistry, UnknownOrBadOptionsAreRefused) {
    EXPECT_NE(error_of("rule:depth=3").find("unknown option 'depth' for rule (it takes none)"),
              std::string::npos);
    EXPECT_NE(error_of("random:seed=3").find("unknown option 'seed'"), std::string::npos);
    EXPECT_NE(error_of("pimc:wrlds=3").find("unknown option 'wrlds'"), std::string::npos);
    EXPECT_NE(error_of("external:cmd=\"true\",speed=3").find("unknown option 'speed'"),
              std::string::npos);
    EXPECT_NE(error_of("external").find("external needs cmd="), std::string::npos);
    EXPECT_NE(error_of("external:cmd=\"true\",ms=0").find("ms=0 is not a whole number"),
              std::string::npos);
}

TEST(BotRegistry, ExternalFallbackMustBeARegisteredBotButNotExternal) {
    const std::string unknown = error_of("external:cmd=\"true\",fallback=nosuchbot");
    EXPECT_NE(unknown.find("fallback"), std::string::npos) << unknown;
    EXPECT_NE(
        unknown.find(
            "unknown bot 'nosuchbot' (known: pimc, oracle, policy, net, random, rule, external)"),
        std::string::npos)
        << unknown;
    EXPECT_NE(error_of("external:cmd=\"true\",fallback=external")
                  .find("the fallback must be one of our own bots, not external"),
              std::string::npos);
    // The fallback's own options are checked when the bot is made, not when it is needed.
    EXPECT_NE(error_of("external:cmd=\"true\",fallback=\"pimc:worlds=0\"").find("worlds=0"),
              std::string::npos);
    for (const char* fallback : {"random", "rule", "pimc"})
        EXPECT_EQ(error_of(std::string("external:cmd=\"true\",fallback=") + fallback), "")
            << fallback;
}

// The program dies at its first decision; pimc (the registry's own, seeded as the external bot
// seeds its fallback) makes every decision of the seat: the hand is the one that pimc plays.
TEST(BotRegistry, PimcIsAFallbackForAFailingProgram) {
    const Rules rules = load_rules(preset_path("hearts4"), {});
    const std::uint64_t seat_seed = 5;
    auto play_hand = [&](std::unique_ptr<Player> seat0, std::vector<FallbackNote>* notes) {
        Game game(rules, 9);
        game.stop_after_hand();
        std::vector<std::unique_ptr<Player>> players;
        players.push_back(std::move(seat0));
        for (int s = 1; s < rules.players; ++s) players.push_back(make_player("rule", s));
        run_game(game, players);
        if (notes) *notes = collect_fallbacks(players);
        return game.finished_hands().at(0);
    };
    std::vector<FallbackNote> notes;
    const HandRecord failed = play_hand(make_player("external:cmd=\"" + bad_bot("crash 0") +
                                                        "\",ms=20000,fallback=" + kQuickPimcQuoted,
                                                    seat_seed),
                                        &notes);
    ASSERT_EQ(notes.size(), 1u);
    EXPECT_EQ(notes[0].seat, 0);
    EXPECT_EQ(notes[0].decision, "pass");
    EXPECT_EQ(notes[0].fallback, kQuickPimc);
    EXPECT_TRUE(failed.finished);
    const HandRecord direct =
        play_hand(make_player(kQuickPimc, mix_seed(seat_seed, 0xfa11bac)), nullptr);
    EXPECT_EQ(failed.passed, direct.passed);
    EXPECT_EQ(failed.plays, direct.plays);
    // A random fallback would play another hand (the check above can fail).
    const HandRecord random =
        play_hand(make_player("random", mix_seed(seat_seed, 0xfa11bac)), nullptr);
    EXPECT_NE(random.plays, direct.plays);
}

}  // namespace
}  // namespace sampling
