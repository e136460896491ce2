// The game's encoding from C++: the action numbering, the tensor layouts, and a GameState driven
// through whole random games, whose replay and tensors agree with the state it was built from.
#include <gtest/gtest.h>

#include <boost/random/mersenne_twister.hpp>
#include <boost/random/uniform_int_distribution.hpp>
#include <set>
#include <string>
#include <vector>

#include "cardgames/cards/error.hpp"
#include "cardgames/encoding/actions.hpp"
#include "cardgames/encoding/game_state.hpp"
#include "cardgames/encoding/tensors.hpp"

namespace cardgames::encoding {
namespace {

const char* const kPresets[] = {
    "hearts3",           "hearts4",          "hearts5", "hearts6", "spades-partnership",
    "spades-cutthroat3", "spades-cutthroat4"};

TEST(Actions, NumberEveryCardAndChoice) {
    std::set<int> numbers;
    for (int n = 0; n < kNumCards; ++n) {
        EXPECT_EQ(card_number(card_of_number(n)), n);
        numbers.insert(card_number(card_of_number(n)));
    }
    EXPECT_EQ(numbers.size(), 52u);
    EXPECT_EQ(card_number(parse_card("2C")), 0);
    EXPECT_EQ(card_number(parse_card("QS")), 49);
    EXPECT_EQ(action_name(49), "play QS");
    EXPECT_EQ(action_name(kPassBase + 49), "pass QS");
    EXPECT_EQ(action_name(kBidBase), "bid nil");
    EXPECT_EQ(action_name(kBidBase + 4), "bid 4");
    EXPECT_EQ(action_name(kNoBlindNil), "no blind nil");
    EXPECT_EQ(action_name(kBlindNil), "blind nil");
    EXPECT_EQ(kNumActions, 124);
    EXPECT_THROW(action_name(kNumActions), InputError);
}

TEST(Tensors, LayoutsAreContiguousNamedSlices) {
    const Rules rules = resolve_rules(std::nullopt, "hearts4", {});
    const std::vector<Slice> obs = observation_layout(rules);
    const std::vector<Slice> info = information_state_layout(rules);
    EXPECT_EQ(layout_size(obs), 586);
    EXPECT_EQ(layout_size(info), 3290);
    ASSERT_EQ(info.size(), obs.size() + 1);
    EXPECT_EQ(info[kTrickHistorySlice].name, "trick_history");
    EXPECT_EQ(obs[kHandSlice].name, "hand");
    int at = 0;
    for (const Slice& s : info) {
        EXPECT_EQ(s.start, at) << s.name;
        at += s.size();
    }
}

// Random games in every preset: each legal action applies, the replay of the history is the same
// state, and a seat's tensors are its information state's.
TEST(GameState, RandomGamesReplayAndEncode) {
    boost::random::mt19937_64 rng(42);
    for (const char* preset : kPresets) {
        const Rules rules = resolve_rules(std::nullopt, preset, {});
        GameState state(rules, 3, 1);
        const int obs_size = layout_size(observation_layout(rules));
        const int info_size = layout_size(information_state_layout(rules));
        while (!state.terminal()) {
            const std::vector<int> legal = state.legal_actions();
            ASSERT_FALSE(legal.empty()) << preset;
            boost::random::uniform_int_distribution<std::size_t> pick(0, legal.size() - 1);
            state.apply(legal[pick(rng)]);
            const int seat = state.terminal() ? 0 : state.current_player();
            std::vector<float> obs(obs_size), info(info_size);
            observation_tensor(state, seat, obs.data());
            information_state_tensor(state, seat, info.data());
            EXPECT_TRUE(std::equal(obs.begin(), obs.end(), info.begin())) << preset;
        }
        const GameState again = GameState::replay(rules, 3, 1, state.deals(), state.history());
        EXPECT_EQ(again.returns(), state.returns()) << preset;
        EXPECT_TRUE(again.terminal());
        EXPECT_THROW(state.apply(0), IllegalAction);
    }
}

}  // namespace
}  // namespace cardgames::encoding
