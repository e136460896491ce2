#pragma once
// Shared helpers for the tests of cardgames/ and of the players above it (cards, deals, presets,
// play, scoring, games, a seat's view in mid-play).

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "cardgames/cards/card.hpp"
#include "cardgames/cards/card_set.hpp"
#include "cardgames/cards/deal.hpp"
#include "cardgames/cards/error.hpp"
#include "cardgames/rules/game.hpp"
#include "cardgames/rules/game_runner.hpp"
#include "cardgames/rules/info_state.hpp"
#include "cardgames/rules/rules.hpp"

namespace cardgames::testing {

// Whether the tests run under a sanitizer, where some run fewer cases: their programs run and
// start several times slower there, and the plain build runs them all.
#if defined(__SANITIZE_THREAD__) || defined(__SANITIZE_ADDRESS__)
inline constexpr bool kSanitized = true;
#else
inline constexpr bool kSanitized = false;
#endif

inline Card C(const char* text) {
    return parse_card(text);
}

// "AS KS 2H" -> set.
inline CardSet cards(const std::string& text) {
    CardSet out;
    std::size_t i = 0;
    while (i < text.size()) {
        while (i < text.size() && text[i] == ' ') ++i;
        const std::size_t start = i;
        while (i < text.size() && text[i] != ' ') ++i;
        if (i > start) out |= parse_card(text.substr(start, i - start));
    }
    return out;
}

inline PlayedCard pc(int seat, const char* card) {
    return {static_cast<std::int8_t>(seat), parse_card(card)};
}

// A seat's view in the middle of play: `plays` are replayed from their first player (legality is
// the test's business), then the seat to move holds `hand`.
inline InfoState mid_play(const Rules& rules, CardSet hand, const std::vector<PlayedCard>& plays,
                          std::array<Bid, kMaxPlayers> bids = {}) {
    const PlayRules pr = PlayRules::from(rules);
    InfoState info;
    info.rules = &rules;
    info.phase = Phase::kPlay;
    info.bids = bids;
    info.plays = plays;
    info.play.players = static_cast<std::int8_t>(rules.players);
    info.play.leader = info.play.to_move = plays.empty() ? 0 : plays.front().seat;
    for (const PlayedCard& p : plays) info.play.play(pr, p.card);
    info.seat = info.play.to_move;
    info.play.hands[info.seat] = hand;
    info.hand = info.dealt = hand;
    return info;
}

inline Rules preset(const std::string& name, const std::vector<std::string>& overrides = {}) {
    return load_rules(preset_path(name), overrides);
}

// The message of the InputError thrown by `f`, or "(no error)".
inline std::string error_of(const std::function<void()>& f) {
    try {
        f();
    } catch (const InputError& e) {
        return e.what();
    }
    return "(no error)";
}

// Plays `card` in `game`, failing the test when the game refuses it.
inline void play(Game& game, const char* card) {
    const std::string why = game.choose_card(parse_card(card));
    ASSERT_EQ(why, "") << "playing " << card;
}

// Plays the lowest legal card (clubs first, low first) for every seat until the current hand ends.
inline void play_out_lowest(Game& game) {
    const int hands = static_cast<int>(game.finished_hands().size());
    while (!game.over() && static_cast<int>(game.finished_hands().size()) == hands) {
        ASSERT_EQ(game.phase(), Phase::kPlay);
        const Card c = game.play_state().legal_moves(game.play_rules()).lowest();
        ASSERT_EQ(game.choose_card(c), "");
    }
}

// Bids for seats in order from the seat to act.
inline void bid_all(Game& game, const std::vector<int>& bids_from_seat0) {
    for (std::size_t i = 0; i < bids_from_seat0.size(); ++i) {
        ASSERT_EQ(game.phase(), Phase::kBid);
        ASSERT_EQ(game.choose_bid(bids_from_seat0[game.to_act()]), "");
    }
}

// Every form of the game, one preset each.
inline const char* const kEveryForm[] = {
    "hearts3",           "hearts4",          "hearts5", "hearts6", "spades-partnership",
    "spades-cutthroat3", "spades-cutthroat4"};

// Plays `game` on (to its end, or as far as it is told to stop), seat s played by seat_player(s).
template <class SeatPlayer>
void play_seated(Game& game, SeatPlayer seat_player) {
    std::vector<std::unique_ptr<Player>> players;
    for (int s = 0; s < game.rules().players; ++s) players.push_back(seat_player(s));
    run_game(game, players);
}

inline bool long_run() {
    const char* v = std::getenv("CARDGAMES_LONG");
    return v && std::string(v) == "1";
}

// A test whose files live in a folder of its own (named by the suite and the process), made before
// each test and removed after it.
class TempFolderTest : public ::testing::Test {
  protected:
    void SetUp() override {
        const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
        dir_ = std::filesystem::temp_directory_path() /
               ("cardgames_" + std::string(info->test_suite_name()) + "_" +
                std::to_string(::getpid()));
        std::filesystem::create_directories(dir_);
    }
    void TearDown() override { std::filesystem::remove_all(dir_); }
    std::filesystem::path dir_;
};

}  // namespace cardgames::testing
