// Play-outs (playout.hpp) must be what the rule players really do: from any point of a real game
// of rule players, the play-out of the card the rule player chose ends exactly as the game did,
// and with the engine taking over it ends as the exact solve of the position where it took over.
// Each seat sees what a real seat sees: its own dealt cards, nobody else's, and the trick winners.
#include "sampling/playout.hpp"

#include <gtest/gtest.h>

#include "cardgames/players/rule_bot.hpp"
#include "cardgames/rules/game_runner.hpp"
#include "pimc_decisions.hpp"
#include "sampling/bot_registry.hpp"
#include "sampling/pimc.hpp"

namespace sampling {
namespace {

using namespace cardgames;

TrickGame world_of(const Game& game, const InfoState& info) {
    return sampling::world_of(info, game.play_state().hands, score_utility(game.rules()));
}

engine::Tuple rollout(const InfoState& info, TrickGame& world, Card first, int solve_at,
                      engine::Searcher<TrickGame>& solver, std::uint64_t& expansions) {
    RuleBot rule;
    SeatViews views(info);
    return play_out(views, world, first, every_seat(rule), solve_at, &solver, &expansions);
}

engine::Searcher<TrickGame> exact_solver() {
    engine::SearchOptions so;
    so.outcome_tables = true;
    so.tt_entries = std::size_t{1} << 12;
    return engine::Searcher<TrickGame>(so);
}

// The hand of `rules` dealt by `seed` (the game stops after it), stepped by `players` through
// bidding and passing and on to `cards_before` cards played.
Game hand_until(const Rules& rules, std::uint64_t seed,
                std::vector<std::unique_ptr<Player>>& players, int cards_before) {
    Game game(rules, seed);
    game.stop_after_hand();
    while (game.phase() != Phase::kPlay ||
           static_cast<int>(game.hand().plays.size()) < cards_before)
        step_game(game, players);
    return game;
}

// The rule players' play on to the start of a trick with five tricks left, and the exact solve of
// the rest there: what a play-out handing over to the exact search at five tricks must give.
struct Solved {
    TrickGame world;
    engine::Tuple value;
};
Solved solved_at_five_tricks_left(Game& game, std::vector<std::unique_ptr<Player>>& players) {
    while (game.hand().plays.size() % 4 != 0 || game.play_state().hands[game.to_act()].size() > 5)
        step_game(game, players);
    TrickGame rest = world_of(game, game.info_state(game.to_act()));
    auto fresh = exact_solver();
    const engine::Tuple value = fresh.search(rest).value;
    return {rest, value};
}

TEST(PlayOut, EndsAsTheRulePlayersEndTheHand) {
    for (const char* preset : {"hearts4", "hearts3", "spades-partnership", "spades-cutthroat3"}) {
        for (std::uint64_t seed = 1; seed <= 4; ++seed) {
            const Rules rules = load_rules(preset_path(preset), {});
            for (int cards_before = 0; cards_before < 3 * rules.players;
                 cards_before += rules.players + 1) {
                auto players = rule_players(rules.players);
                Game game = hand_until(rules, seed, players, cards_before);
                const InfoState info = game.info_state(game.to_act());
                TrickGame world = world_of(game, info);
                const std::uint64_t key = world.hash_key();
                const Card first = RuleBot().play(info);
                auto solver = exact_solver();
                std::uint64_t expansions = 0;
                const engine::Tuple value = rollout(info, world, first, 0, solver, expansions);
                EXPECT_EQ(world.hash_key(), key) << "the world is left as it was found";
                EXPECT_EQ(expansions, 0u);
                run_game(game, players);
                const std::vector<int> reported = world.report(value);
                const HandRecord& hand = game.finished_hands().back();
                for (int u = 0; u < rules.num_units(); ++u)
                    EXPECT_EQ(reported[static_cast<std::size_t>(u)],
                              hand.score.delta[static_cast<std::size_t>(u)])
                        << preset << " seed " << seed << " after " << cards_before
                        << " cards, unit " << u;
            }
        }
    }
}

TEST(PlayOut, HandsTheLastTricksToTheExactSearch) {
    const Rules rules = load_rules(preset_path("hearts4"), {});
    for (std::uint64_t seed = 1; seed <= 6; ++seed) {
        auto players = rule_players(4);
        Game game = hand_until(rules, seed, players, 28);
        const InfoState info = game.info_state(game.to_act());
        TrickGame world = world_of(game, info);
        const Card first = RuleBot().play(info);
        auto solver = exact_solver();
        std::uint64_t expansions = 0;
        const engine::Tuple value = rollout(info, world, first, 5, solver, expansions);
        EXPECT_GT(expansions, 0u);
        // The same play by hand up to five tricks left, then a fresh exact solve.
        EXPECT_EQ(value, solved_at_five_tricks_left(game, players).value) << "seed " << seed;
    }
}

// The play-outs that value bids and passes (rollout_exact): from the start of the card play, the
// rule players' play up to five tricks left, then the exact solve of the rest, for the seat.
TEST(PlayCardPhase, HandsTheLastTricksToTheExactSearch) {
    const Rules rules = load_rules(preset_path("hearts4"), {});
    for (std::uint64_t seed = 1; seed <= 4; ++seed) {
        auto players = rule_players(4);
        Game game = hand_until(rules, seed, players, 0);
        RuleBot rule;
        auto solver = exact_solver();
        const double value = play_card_phase(game, 2, every_seat(rule), 5, &solver);
        const Solved rest = solved_at_five_tricks_left(game, players);
        EXPECT_EQ(value, hand_value(rules, rest.world, rest.value, 2)) << "seed " << seed;
    }
}

// The rule player, keeping a copy of every view it is shown.
class Recorder : public RuleBot {
  public:
    Card play(const InfoState& info) override {
        seen.push_back(info);
        return RuleBot::play(info);
    }
    std::vector<InfoState> seen;
};

// A play-out view against the real seat's: everything public and the hand must agree; the seat's
// own dealt, passed and received cards must agree where the play-out knows them (`own_known`);
// where it does not, the seat was dealt its hand and what it played, and passed nothing.
void expect_view(const InfoState& got, const InfoState& real, bool own_known,
                 const std::string& where) {
    SCOPED_TRACE(where);
    EXPECT_EQ(got.phase, Phase::kPlay);
    expect_same_public(got, real);
    if (own_known) {
        EXPECT_EQ(got.dealt, real.dealt);
        EXPECT_EQ(got.passed, real.passed);
        EXPECT_EQ(got.received, real.received);
        return;
    }
    CardSet played;
    for (const PlayedCard& p : real.plays)
        if (p.seat == real.seat) played |= p.card;
    EXPECT_EQ(got.dealt, real.hand | played);
    EXPECT_TRUE(got.passed.empty());
    EXPECT_TRUE(got.received.empty());
    // With no pass, that is exactly what the seat was dealt.
    if (real.passed.empty() && real.received.empty()) {
        EXPECT_EQ(got.dealt, real.dealt);
    }
}

// Plays a real game of rule players to `cards_before` cards, plays the hand out from the seat to
// play with recording rule players, then goes on with the real game and compares each view the
// play-out showed with the real seat's at the same point.
void check_views(const char* preset, std::uint64_t seed, int cards_before, bool all_own_known) {
    const Rules rules = load_rules(preset_path(preset), {});
    auto players = rule_players(rules.players);
    Game game = hand_until(rules, seed, players, cards_before);
    const InfoState info = game.info_state(game.to_act());
    std::array<OwnCards, kMaxPlayers> own{};
    for (int s = 0; s < rules.players; ++s) {
        const InfoState v = game.info_state(s);
        own[s] = {v.dealt, v.passed, v.received};
    }
    SeatViews views = all_own_known ? SeatViews(info, own) : SeatViews(info);
    TrickGame world = world_of(game, info);
    Recorder recorder;
    play_out(views, world, kNoCard, every_seat(recorder));
    ASSERT_EQ(recorder.seen.size(), static_cast<std::size_t>(rules.deck().size() - cards_before));
    for (const InfoState& got : recorder.seen) {
        const InfoState real = game.info_state(game.to_act());
        const std::string where = std::string(preset) + " seed " + std::to_string(seed) + " card " +
                                  std::to_string(real.plays.size());
        expect_view(got, real, all_own_known || got.seat == info.seat, where);
        step_game(game, players);
    }
    EXPECT_TRUE(game.over());
}

TEST(SeatViews, EachSeatSeesWhatTheRealSeatSees) {
    for (const char* preset : {"hearts4", "hearts3", "spades-partnership", "spades-cutthroat3"})
        for (std::uint64_t seed = 1; seed <= 3; ++seed)
            for (int cards_before : {0, 7}) {
                check_views(preset, seed, cards_before, false);
                check_views(preset, seed, cards_before, true);
            }
}

TEST(SeatViews, TrickWinnersArePublic) {
    // The real seat's view names the winner of each trick: the leader of the trick after it.
    const Rules rules = load_rules(preset_path("spades-partnership"), {});
    Game game(rules, 5);
    game.stop_after_hand();
    auto players = rule_players(rules.players);
    int checked = 0;
    while (!game.over()) {
        if (game.phase() == Phase::kPlay && game.play_state().trick_size == 0 &&
            game.play_state().tricks_played > 0) {
            const InfoState info = game.info_state((game.to_act() + 1) % rules.players);
            EXPECT_EQ(info.trick_winners[static_cast<std::size_t>(info.play.tricks_played - 1)],
                      game.to_act());
            ++checked;
        }
        step_game(game, players);
    }
    EXPECT_EQ(checked, rules.cards_per_hand() - 1);
}

// A player that breaks the rules: eval's reference players are any bots, so the play-out checks.
class Cheat : public RuleBot {
  public:
    Card play(const InfoState& info) override {
        return (info.rules->deck() - info.legal_cards() - info.play.played).lowest();
    }
};

TEST(PlayOut, RefusesAnIllegalCard) {
    const Rules rules = load_rules(preset_path("hearts4"), {});
    Game game(rules, 2);
    auto players = rule_players(rules.players);
    while (game.phase() != Phase::kPlay) step_game(game, players);
    const InfoState info = game.info_state(game.to_act());
    SeatViews views(info);
    TrickGame world = world_of(game, info);
    Cheat cheat;
    EXPECT_THROW(play_out(views, world, kNoCard, every_seat(cheat)), std::logic_error);
}

}  // namespace
}  // namespace sampling
