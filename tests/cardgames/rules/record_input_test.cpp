// Text from outside made safe (safe_text), and the one reader of game records: JSON nested too
// deep, values of the wrong type or out of range, cards that are not cards are InputErrors naming
// the key, before anything is used; a record the program wrote reads and replays.

#include <gtest/gtest.h>

#include <sstream>

#include "cardgames/cards/json_input.hpp"
#include "cardgames/cards/seeds.hpp"
#include "cardgames/cards/text.hpp"
#include "cardgames/players/random_bot.hpp"
#include "cardgames/rules/dealing.hpp"
#include "cardgames/rules/game_runner.hpp"
#include "cardgames/rules/record.hpp"
#include "test_helpers.hpp"

namespace cardgames {
namespace {

using nlohmann::json;
using testing::error_of;
using testing::preset;

bool valid_utf8(const std::string& s) {
    return safe_text(s, s.size() * 4 + 8) == s;
}

TEST(SafeText, ReplacesInvalidUtf8) {
    EXPECT_EQ(safe_text("a\xff"
                        "b"),
              "a\xEF\xBF\xBD"
              "b");
    EXPECT_EQ(safe_text("\xC3("), "\xEF\xBF\xBD(");  // a lead byte without its continuation
    EXPECT_EQ(safe_text("\xE3\x81"), "\xEF\xBF\xBD\xEF\xBF\xBD");          // cut short at the end
    EXPECT_EQ(safe_text("\xC0\xAF"), "\xEF\xBF\xBD\xEF\xBF\xBD");          // overlong '/'
    EXPECT_EQ(safe_text("\xED\xA0\x80").find("\xED"), std::string::npos);  // a surrogate
    EXPECT_EQ(safe_text("caf\xC3\xA9 \xE2\x99\xA0 \xF0\x9F\x82\xA1"),
              "caf\xC3\xA9 \xE2\x99\xA0 \xF0\x9F\x82\xA1");
}

TEST(SafeText, EscapesControlCharacters) {
    EXPECT_EQ(safe_text("a\nb\r\tc"), "a\\nb\\r\\tc");
    EXPECT_EQ(safe_text("\x1b[31mred"), "\\x1b[31mred");
    EXPECT_EQ(safe_text(std::string("nul\0!", 5)), "nul\\x00!");
    EXPECT_EQ(safe_text("\x7f"), "\\x7f");
    EXPECT_EQ(safe_text("\xC2\x85"), "\\u0085");  // C1 next line
}

TEST(SafeText, CutsOnlyAtCharacterBoundaries) {
    std::string japanese;
    for (int i = 0; i < 100; ++i) japanese += "\xE3\x83\x80";  // 3 bytes each
    const std::string cut = safe_text(japanese, 200);
    EXPECT_EQ(cut, japanese.substr(0, 198) + "...");
    EXPECT_TRUE(valid_utf8(cut));
    EXPECT_EQ(safe_text("short", 200), "short");
    EXPECT_EQ(safe_text("abc\n", 4), "abc...");  // an escape is not split either
    EXPECT_NO_THROW(json(cut).dump());
}

TEST(SafeText, AsciiShowsEveryOtherByteAsHex) {
    const auto ascii = [](std::string_view text, std::size_t most = kSafeTextBytes) {
        return safe_text(text, most, TextCharset::kAscii);
    };
    // Valid UTF-8 too: an ASCII message shows its bytes, not the characters.
    EXPECT_EQ(ascii("caf\xC3\xA9 \x01\xff"), "caf\\xc3\\xa9 \\x01\\xff");
    EXPECT_EQ(ascii("a\nb\x7f"), "a\\nb\\x7f");
    EXPECT_EQ(ascii("abcdef", 4), "abcd...");
    EXPECT_EQ(ascii("ab\xff", 4), "ab...");  // an escape is not split
    for (char c : ascii("\x80\x9f\xC2\x85\xE2\x99\xA0")) EXPECT_TRUE(c >= 0x20 && c < 0x7f);
}

TEST(ReadLineBounded, KeepsAtMostTheLimitAndDropsTheRest) {
    std::istringstream in("short\n" + std::string(1000, 'x') + "\nnext\r\nlast");
    std::string line;
    EXPECT_EQ(read_line_bounded(in, line, 10), LineRead::kLine);
    EXPECT_EQ(line, "short");
    EXPECT_EQ(read_line_bounded(in, line, 10), LineRead::kTooLong);
    EXPECT_EQ(line, std::string(10, 'x'));  // the rest of the line is gone, not kept
    EXPECT_EQ(read_line_bounded(in, line, 10), LineRead::kLine);
    EXPECT_EQ(line, "next\r");
    EXPECT_EQ(read_line_bounded(in, line, 10), LineRead::kLine);  // a last line without '\n'
    EXPECT_EQ(line, "last");
    EXPECT_EQ(read_line_bounded(in, line, 10), LineRead::kEnd);
    EXPECT_TRUE(in.fail());
    std::istringstream exact("0123456789\n");
    EXPECT_EQ(read_line_bounded(exact, line, 10), LineRead::kLine);
    EXPECT_EQ(line, "0123456789");
}

TEST(JsonInput, RefusesDeepNestingBeforeParsing) {
    const std::string deep = std::string(100000, '[') + std::string(100000, ']');
    EXPECT_NE(error_of([&] { parse_json_line(deep); }).find("nested deeper than 32"),
              std::string::npos);
    const std::string deep_object =
        "{\"a\":" + std::string(100000, '[') + std::string(100000, ']') + "}";
    EXPECT_NE(error_of([&] { parse_json_line(deep_object); }).find("nested deeper"),
              std::string::npos);
    // Brackets inside strings do not count.
    EXPECT_EQ(parse_json_line("{\"a\":\"" + std::string(1000, '[') + "\\\"\"}")["a"]
                  .get<std::string>()
                  .size(),
              1001u);
    EXPECT_NE(error_of([] { parse_json_line("{\"a\": \xff}"); }).find("not JSON"),
              std::string::npos);
    EXPECT_NE(error_of([] { parse_json_line("{\"a\": 1e999}"); }).find("not JSON"),
              std::string::npos);
}

TEST(JsonInput, FieldsNameTheKeyPath) {
    const json j = json::parse(R"({"a":{"b":[1,2.5,"x",-3,true]}})");
    const JsonField f(j, "");
    EXPECT_EQ(f["a"]["b"][0].integer(0, 5), 1);
    EXPECT_NE(error_of([&] {
                  f["a"]["b"][1].integer(0, 5);
              }).find("key \"a.b[1]\": expected an integer 0..5, found 2.5"),
              std::string::npos);
    EXPECT_NE(error_of([&] { f["a"]["b"][3].integer(0, 5); }).find("a.b[3]"), std::string::npos);
    EXPECT_NE(error_of([&] { f["a"]["b"][3].unsigned_integer(); }).find("a.b[3]"),
              std::string::npos);
    EXPECT_NE(error_of([&] { f["a"]["b"][2].number(0, 1); }).find("expected a number"),
              std::string::npos);
    EXPECT_NE(error_of([&] { f["a"]["b"][9].boolean(); }).find("at least 10 entries"),
              std::string::npos);
    EXPECT_NE(error_of([&] { f["a"]["c"].string(); }).find("key \"a.c\" is missing"),
              std::string::npos);
    EXPECT_NE(error_of([&] { f["a"]["b"]["c"]; }).find("key \"a.b\": expected an object"),
              std::string::npos);
    EXPECT_NE(error_of([&] { f["a"]["b"].array(0, 3); }).find("0 to 3 entries, found 5"),
              std::string::npos);
    const json big = json::parse("[1e300, 18446744073709551615]");
    EXPECT_NE(error_of([&] { JsonField(big, "x")[0].integer(0, 100); }).find("1e+300"),
              std::string::npos);
    EXPECT_NE(error_of([&] { JsonField(big, "x")[1].integer(0, 100); }).find("x[1]"),
              std::string::npos);
    EXPECT_NE(error_of([&] { JsonField(big, "x")[0].number(-1e6, 1e6); }).find("x[0]"),
              std::string::npos);
}

json played_record(const Rules& rules) {
    Game game(rules, 5);
    game.stop_after_hand();
    std::vector<std::unique_ptr<Player>> players;
    for (int s = 0; s < rules.players; ++s) players.push_back(std::make_unique<RandomBot>(10 + s));
    run_game(game, players);
    return game_record(game, std::vector<std::string>(rules.players, "random"));
}

TEST(GameRecordReader, ReadsAndReplaysWhatTheProgramWrites) {
    for (const char* name : {"hearts4", "spades-partnership"}) {
        const json record = played_record(preset(name));
        const RecordedGame g = read_game_record(record);
        EXPECT_EQ(g.hands.size(), 1u);
        EXPECT_EQ(g.players.size(), 4u);
        EXPECT_TRUE(replay_record(g).ok) << replay_record(g).error;
        EXPECT_TRUE(g.cheats.empty());
        json marked = record;
        marked["cheats"] = json::array({0, 2});
        EXPECT_EQ(read_game_record(marked).cheats, (std::vector<int>{0, 2}));
        EXPECT_TRUE(replay_record(marked).ok);
    }
}

// The one walk over a record's decisions: the visitor sees every card play, in order, with the
// seat that plays it to move, before the card is on the table.
TEST(GameRecordReader, ReplayVisitsEveryPlayBeforeItIsMade) {
    for (const char* name : {"hearts4", "spades-partnership"}) {
        const RecordedGame g = read_game_record(played_record(preset(name)));
        std::size_t k = 0;
        const ReplayResult r = replay_record(g, [&](const Game& game) {
            ASSERT_LT(k, g.hands[0].plays.size());
            const PlayedCard& next = g.hands[0].plays[k++];
            EXPECT_EQ(game.to_act(), next.seat) << name << " play " << k;
            EXPECT_TRUE(game.play_state().hands[next.seat].contains(next.card));
        });
        EXPECT_TRUE(r.ok) << r.error;
        EXPECT_EQ(k, g.hands[0].plays.size()) << name;
    }
}

TEST(ListSplitter, KeepsEveryItemEmptyOnesToo) {
    using V = std::vector<std::string_view>;
    EXPECT_EQ(split_list("0,2"), (V{"0", "2"}));
    EXPECT_EQ(split_list("0,,2,"), (V{"0", "", "2", ""}));
    EXPECT_EQ(split_list(""), (V{""}));
    EXPECT_EQ(split_list("a | b", '|'), (V{"a ", " b"}));
}

TEST(GameRecordReader, RefusesBadValuesNamingTheKey) {
    const json good = played_record(preset("hearts4"));
    const auto refused = [&](const std::function<void(json&)>& change,
                             const std::string& expected) {
        json r = good;
        change(r);
        const std::string why = error_of([&] { read_game_record(r); });
        EXPECT_NE(why.find(expected), std::string::npos)
            << "expected '" << expected << "' in: " << why;
    };
    refused([](json& r) { r["seed"] = -1; }, "key \"seed\"");
    refused([](json& r) { r["seed"] = 1.5; }, "key \"seed\"");
    refused([](json& r) { r["hands"] = ""; }, "key \"hands\": expected an array");
    refused([](json& r) { r["hands"][0]["plays"][0][0] = 9; },
            "key \"hands[0].plays[0][0]\": expected an integer 0..3");
    refused([](json& r) { r["hands"][0]["plays"][0][0] = -1; }, "hands[0].plays[0][0]");
    refused([](json& r) { r["hands"][0]["plays"][0][1] = "ZZ"; }, "hands[0].plays[0][1]");
    refused([](json& r) { r["hands"][0]["plays"][0] = json::array({0}); }, "hands[0].plays[0]");
    refused([](json& r) { r["hands"][0]["passes"][1] = "2C 1X"; }, "hands[0].passes[1]");
    refused([](json& r) { r["hands"][0]["passes"].erase(3); },
            "hands[0].passes\": expected 4 entries");
    refused([](json& r) { r["hands"][0]["dealer"] = 4; }, "hands[0].dealer");
    refused([](json& r) { r["hands"][0]["hand"] = 1e300; }, "hands[0].hand");
    refused([](json& r) { r["hands"][0]["deal"] = 7; }, "hands[0].deal");
    refused([](json& r) { r["hands"][0]["tricks"] = json::array({"x"}); }, "hands[0].tricks[0]");
    refused(
        [](json& r) {
            r["players"] = json::array({"a", "b", "c"});
        },
        "key \"players\": expected 4 entries");
    refused([](json& r) { r["winners"] = json::array({7}); }, "winners[0]");
    refused([](json& r) { r["complete"] = "yes"; }, "key \"complete\"");
    refused([](json& r) { r["version"] = 2; }, "record version 2");
    refused([](json& r) { r["rules"] = 1; }, "key \"rules\"");
    refused([](json& r) { r["rules"]["game"] = "hearts\nplayers=3"; }, "line break");
    refused(
        [](json& r) {
            r["fallbacks"] = json::array({{{"hand", 0}, {"seat", 0}}});
        },
        "fallbacks[0].decision");
    refused([](json& r) { r.erase("rules"); }, "key \"rules\" is missing");
    // "cheats": the seats that saw every hand, each once, in order.
    refused([](json& r) { r["cheats"] = json::array({4}); }, "key \"cheats[0]\"");
    refused([](json& r) { r["cheats"] = json::array({2, 1}); }, "cheats[1]\": seats in increasing");
    refused([](json& r) { r["cheats"] = json::array({1, 1}); }, "cheats[1]");
    refused([](json& r) { r["cheats"] = json::array(); }, "key \"cheats\"");
    refused([](json& r) { r["cheats"] = "0"; }, "key \"cheats\"");
    EXPECT_NE(error_of([] {
                  is_game_record(json{{"type", 1}});
              }).find("key \"type\""),
              std::string::npos);
    EXPECT_FALSE(is_game_record(json{{"type", "summary"}}));
    EXPECT_TRUE(is_game_record(good));
}

TEST(GameRecordReader, SpadesFieldsAreChecked) {
    const json good = played_record(preset("spades-partnership"));
    json r = good;
    r["hands"][0]["bids"][2] = 2147483647;
    EXPECT_NE(error_of([&] { read_game_record(r); }).find("hands[0].bids[2]"), std::string::npos);
    r = good;
    r["hands"][0]["blind_nil"][0] = 0;
    EXPECT_NE(error_of([&] { read_game_record(r); }).find("hands[0].blind_nil[0]"),
              std::string::npos);
    r = good;
    r["hands"][0]["exchanges"] = json::array({{{"seat", 5}, {"cards", "2C 3C"}}});
    EXPECT_NE(error_of([&] { read_game_record(r); }).find("hands[0].exchanges[0].seat"),
              std::string::npos);
}

// A whole game (not stopped after a hand) of random players.
json full_record(const Rules& rules, std::uint64_t seed) {
    Game game(rules, seed);
    std::vector<std::unique_ptr<Player>> players;
    for (int s = 0; s < rules.players; ++s)
        players.push_back(std::make_unique<RandomBot>(seed * 10 + static_cast<std::uint64_t>(s)));
    run_game(game, players);
    return game_record(game, std::vector<std::string>(rules.players, "random"));
}

// The message replay_record refuses `r` with, or "(no error)".
std::string replay_error(const json& r) {
    return error_of([&] {
        const ReplayResult result = replay_record(r);
        if (!result.ok) throw InputError("not ok: " + result.error);
    });
}

TEST(GameRecordReplay, ReturnsTheGameAsTheRulesGiveIt) {
    for (const char* name : {"hearts3", "hearts4", "hearts5", "hearts6", "spades-cutthroat3",
                             "spades-cutthroat4", "spades-partnership"}) {
        const Rules rules = preset(name);
        const json record = full_record(rules, 3);
        const ReplayResult r = replay_record(record);
        ASSERT_TRUE(r.ok) << name << ": " << r.error;
        ASSERT_EQ(r.played.size(), record["hands"].size()) << name;
        EXPECT_EQ(r.winners, record["winners"].get<std::vector<int>>()) << name;
        for (std::size_t i = 0; i < r.played.size(); ++i) {
            EXPECT_EQ(hand_to_json(rules, r.played[i]), record["hands"][i]) << name;
            EXPECT_EQ(r.played[i].deal, deal_from_seed(rules, 3, r.played[i].number)) << name;
        }
    }
}

TEST(GameRecordReplay, RefusesOutcomesTheRulesDoNotGiveNamingTheKey) {
    const json hearts = full_record(preset("hearts4"), 3);
    const json spades = full_record(preset("spades-partnership"), 3);
    ASSERT_GE(hearts["hands"].size(), 2u);
    ASSERT_GE(spades["hands"].size(), 2u);
    const auto refused = [](const json& good, const std::function<void(json&)>& change,
                            const std::string& key) {
        json r = good;
        change(r);
        const std::string why = replay_error(r);
        EXPECT_NE(why.find("key \"" + key + "\": recorded"), std::string::npos)
            << "expected key " << key << " in: " << why;
    };
    refused(
        hearts, [](json& r) { r["final_scores"][0] = r["final_scores"][0].get<int>() + 1; },
        "final_scores");
    refused(
        hearts, [](json& r) { r["winners"] = json::array({(r["winners"][0].get<int>() + 1) % 4}); },
        "winners");
    refused(
        hearts, [](json& r) { r["complete"] = false; }, "complete");
    refused(
        hearts,
        [](json& r) {
            r["hands"].erase(r["hands"].size() - 1);
            r.erase("final_scores");
            r.erase("winners");
        },
        "complete");
    refused(
        hearts, [](json& r) { r["hands"][1]["moon"] = r["hands"][1]["moon"] == 2 ? 1 : 2; },
        "hands[1].moon");
    refused(
        hearts,
        [](json& r) { r["hands"][0]["pass_offset"] = -r["hands"][0]["pass_offset"].get<int>(); },
        "hands[0].pass_offset");
    // The fourth hand holds (pass offset 0): no passes.
    ASSERT_GE(hearts["hands"].size(), 4u);
    ASSERT_EQ(hearts["hands"][3]["pass_offset"], 0);
    refused(
        hearts, [](json& r) { r["hands"][3]["passes"][0] = r["hands"][3]["plays"][0][1]; },
        "hands[3].passes[0]");
    refused(
        hearts, [](json& r) { r["hands"][1]["hand_score"][2] = 13; }, "hands[1].hand_score");
    refused(
        hearts, [](json& r) { r["hands"][1]["scores"][3] = 300; }, "hands[1].scores");
    refused(
        hearts,
        [](json& r) {
            r["hands"][0]["bags"] = json::array({0, 0, 0, 0});
        },
        "hands[0].bags");
    refused(
        hearts, [](json& r) { r["hands"][1]["dealer"] = 3; }, "hands[1].dealer");
    refused(
        hearts, [](json& r) { r["hands"][1]["hand"] = 5; }, "hands[1].hand");
    refused(
        spades, [](json& r) { r["hands"][1]["bags"][1] = r["hands"][1]["bags"][1].get<int>() + 1; },
        "hands[1].bags");
    refused(
        spades, [](json& r) { r["hands"][0]["moon"] = -1; }, "hands[0].moon");
    refused(
        spades,
        [](json& r) {
            r["hands"][0]["trick_winners"][0] =
                (r["hands"][0]["trick_winners"][0].get<int>() + 1) % 4;
        },
        "hands[0].trick_winners");
    // Blind nil is not open to a side that is not behind: a flag set is not what happened.
    refused(
        spades, [](json& r) { r["hands"][0]["blind_nil"][1] = true; }, "hands[0].blind_nil[1]");
    refused(
        spades,
        [](json& r) {
            r["hands"][0]["exchanges"] = json::array({{{"seat", 1}, {"cards", "2C 3C"}}});
        },
        "hands[0].exchanges[0]");
    refused(
        spades, [](json& r) { r["complete"] = false; }, "complete");
    refused(
        spades, [](json& r) { r["final_scores"][1] = -r["final_scores"][1].get<int>() - 1; },
        "final_scores");
}

// Blind nil where the rules allow it: the flags, the bid and the exchange must be the ones played.
TEST(GameRecordReplay, ChecksBlindNilAndTheExchange) {
    const Rules rules = preset("spades-partnership", {"blind_nil_deficit=0"});
    Game game(rules, 4);
    game.stop_after_hand();
    ASSERT_EQ(game.phase(), Phase::kBlindNil);
    ASSERT_EQ(game.choose_blind_nil(true), "");
    std::vector<std::unique_ptr<Player>> players;
    for (int s = 0; s < rules.players; ++s) players.push_back(std::make_unique<RandomBot>(20 + s));
    run_game(game, players);
    const json blind = game_record(game, std::vector<std::string>(rules.players, "random"));
    ASSERT_EQ(blind["hands"][0]["exchanges"].size(), 2u);
    ASSERT_TRUE(replay_record(blind).ok);
    std::size_t hi = 0;
    while (blind["hands"][hi]["exchanges"].empty()) ++hi;
    const std::string at = "hands[" + std::to_string(hi) + "].";
    int seat = 0;
    while (!blind["hands"][hi]["blind_nil"][seat].get<bool>()) ++seat;
    json r = blind;
    r["hands"][hi]["blind_nil"][seat] = false;
    EXPECT_NE(replay_error(r), "(no error)");
    r = blind;
    r["hands"][hi]["bids"][seat] = 3;
    EXPECT_NE(replay_error(r).find("key \"" + at + "bids[" + std::to_string(seat) + "]\""),
              std::string::npos)
        << replay_error(r);
    r = blind;
    r["hands"][hi]["exchanges"].erase(r["hands"][hi]["exchanges"].size() - 1);
    EXPECT_NE(replay_error(r).find("key \"" + at + "exchanges["), std::string::npos)
        << replay_error(r);
    r = blind;
    r["hands"][hi]["exchanges"].push_back(r["hands"][hi]["exchanges"][0]);
    EXPECT_NE(replay_error(r).find("key \"" + at + "exchanges["), std::string::npos)
        << replay_error(r);
}

TEST(Dealing, TournamentDealIsTheBoardsGameSeedsDeal) {
    const Rules rules = preset("hearts4");
    EXPECT_EQ(tournament_deal(rules, 7, 3, 2),
              deal_from_seed(rules, seeds::tournament_game(7, 3), 2));
    EXPECT_NE(tournament_deal(rules, 7, 3, 0), tournament_deal(rules, 7, 4, 0));
}

}  // namespace
}  // namespace cardgames
