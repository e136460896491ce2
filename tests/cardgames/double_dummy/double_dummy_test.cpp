// The double-dummy solver against plain max^n on random partnership positions (mid-trick included,
// spades led any time or only once broken, with and without a forced opening lead): the same
// tricks from the position, the same answer to every "at least k tricks" test, and the same value
// after every legal card. One solver is reused across positions, as callers do, so stale table
// entries would show up as wrong answers.
#include "cardgames/double_dummy/double_dummy.hpp"

#include <gtest/gtest.h>

#include <random>

#include "cardgames/cards/deal.hpp"
// The checking tests switch on the table checker, a testing aid of the solver behind DoubleDummy.
#include "cardgames/double_dummy/solver.hpp"
#include "cardgames/search/trick_game.hpp"
#include "cardgames/search/two_sided.hpp"
#include "engine/search.hpp"

// The long variant (ctest -L long) runs the same checks on this many times as many positions.
#ifndef DOUBLE_DUMMY_SCALE
#define DOUBLE_DUMMY_SCALE 1
#endif

namespace cardgames {
namespace {

using double_dummy::Solver;

constexpr int kScale = DOUBLE_DUMMY_SCALE;

Rules partnership_rules(bool lead_anytime) {
    Rules rules;
    rules.game = GameKind::kSpades;
    rules.players = 4;
    rules.partnership = true;
    rules.spades_lead_anytime = lead_anytime;
    return rules;
}

// A random position with `tricks` cards per hand at the start of the current trick, then
// `played` random legal cards of that trick; `trumps`: whether spades may be among the cards.
PlayState random_position(const PlayRules& rules, std::mt19937_64& rng, int tricks, int played,
                          bool trumps = true) {
    std::vector<Card> deck;
    for (int s = 0; s < 4; ++s)
        if (trumps || static_cast<Suit>(s) != Suit::kSpades)
            for (Rank r = kTwo; r <= kAce; ++r) deck.emplace_back(static_cast<Suit>(s), r);
    std::shuffle(deck.begin(), deck.end(), rng);
    Deal deal;
    deal.players = 4;
    for (int p = 0; p < 4; ++p)
        for (int i = 0; i < tricks; ++i)
            deal.hands[p] |= deck[static_cast<std::size_t>(p * tricks + i)];
    PlayState state = PlayState::start(deal, static_cast<int>(rng() % 4));
    state.tricks_played = static_cast<std::int8_t>(13 - tricks);  // no forced opening lead
    state.broken = rng() % 2 == 0;
    for (int i = 0; i < played; ++i) {
        const CardSet legal = state.legal_moves(rules);
        int k = static_cast<int>(rng() % static_cast<std::uint64_t>(legal.size()));
        for (Card c : legal)
            if (k-- == 0) {
                state.play(rules, c);
                break;
            }
    }
    return state;
}

// An end position given in PBN, `leader` to lead the next trick.
PlayState end_position(const std::string& pbn, int leader) {
    PlayState state = PlayState::start(parse_deal(pbn), leader);
    state.tricks_played =
        static_cast<std::int8_t>(13 - state.hands[static_cast<std::size_t>(leader)].size());
    return state;
}

int maxn_tricks(const Rules& rules, const PlayState& state) {
    engine::SearchOptions o;
    o.algorithm = engine::Algorithm::kMaxn;
    TrickGame game(rules, state, Utility::kTricks);
    engine::Searcher<TrickGame> searcher(o);
    const auto r = searcher.search(game);
    return game.report(r.value)[0];
}

std::string describe(const PlayState& s) {
    Deal d;
    d.players = 4;
    d.hands = s.hands;
    std::string out = deal_to_string(d) + " leader " + std::to_string(s.leader) + " trick";
    for (int i = 0; i < s.trick_size; ++i) out += " " + to_string(s.trick[i]);
    return out + (s.broken ? " broken" : "");
}

TEST(DoubleDummy, SupportsPartnershipSpadesOnly) {
    EXPECT_TRUE(DoubleDummy::supports(PlayRules::from(partnership_rules(true))));
    EXPECT_TRUE(DoubleDummy::supports(PlayRules::from(partnership_rules(false))));
    Rules hearts;
    hearts.game = GameKind::kHearts;
    EXPECT_FALSE(DoubleDummy::supports(PlayRules::from(hearts)));
}

TEST(DoubleDummy, AgreesWithMaxnOnRandomPositions) {
    std::mt19937_64 rng(20261122);
    Solver solver(12);  // a small table: collisions and restarts get exercised
    solver.set_checking(true);
    int checked = 0;
    for (bool anytime : {true, false}) {
        const Rules rules = partnership_rules(anytime);
        const PlayRules play = PlayRules::from(rules);
        for (int i = 0; i < 500 * kScale; ++i) {
            const int tricks = 1 + static_cast<int>(rng() % 4);
            const PlayState state = random_position(play, rng, tricks, static_cast<int>(rng() % 4));
            const int expected = maxn_tricks(rules, state);
            ASSERT_EQ(solver.solve(play, state), expected) << describe(state);
            const int left = state.hands[state.to_move].size();
            for (int k = 0; k <= left + 1; ++k)
                ASSERT_EQ(solver.makes(play, state, k), expected >= k)
                    << describe(state) << " k=" << k;
            for (Card c : state.legal_moves(play)) {
                PlayState next = state;
                next.play(play, c);
                ASSERT_EQ(solver.solve(play, next), maxn_tricks(rules, next))
                    << describe(state) << " after " << to_string(c);
            }
            ++checked;
        }
    }
    EXPECT_EQ(checked, 1000 * kScale);
    EXPECT_EQ(solver.stats().check_failures, 0u);
}

// A root's value, every card's tricks, and the best card for whichever side is to move: the first
// card in notation order reaching plain max^n's value for that side.
TEST(DoubleDummy, ValuesTheRootForTheSideToMove) {
    std::mt19937_64 rng(5);
    DoubleDummy solver(12);
    const Rules rules = partnership_rules(false);
    const PlayRules play = PlayRules::from(rules);
    int ew_to_move = 0;
    for (int i = 0; i < 100; ++i) {
        const PlayState state = random_position(play, rng, 1 + static_cast<int>(rng() % 3),
                                                static_cast<int>(rng() % 4));
        const int left = state.hands[state.to_move].size();
        const RootValue root = solver.value_root(play, state);
        ASSERT_EQ(root.value, side_tricks(maxn_tricks(rules, state), left)) << describe(state);
        ASSERT_EQ(root.cards, solver.value_cards(play, state)) << describe(state);
        const CardTricks* first_best = nullptr;
        for (const CardTricks& ct : root.cards)
            if (!first_best && ct.tricks == root.value[0]) first_best = &ct;
        ASSERT_NE(first_best, nullptr) << describe(state);
        EXPECT_EQ(root.best, first_best->card) << describe(state);
        ew_to_move += state.to_move % 2;
    }
    EXPECT_GT(ew_to_move, 20);  // both sides' choices were checked
}

// The last card of a trick: its value counts the trick it completes (South's ace of diamonds wins
// it, then East's ace of spades the last one). Valued from after the trick, it was [0, 2].
TEST(DoubleDummy, ValuesTheLastCardOfATrickWithThatTrick) {
    const Rules rules = partnership_rules(true);
    const PlayRules play = PlayRules::from(rules);
    PlayState state = end_position("N:K.7.. A..2. Q..A. J...5", 2);
    for (const char* card : {"AD", "5C", "7H"}) state.play(play, parse_card(card));
    DoubleDummy solver;
    const RootValue root = solver.value_root(play, state);
    ASSERT_EQ(root.cards.size(), 1u);
    EXPECT_EQ(root.cards[0], (CardTricks{parse_card("2D"), 1}));
    EXPECT_EQ(root.value, (SideTricks{1, 1}));
}

// The value against the generic two-sided search with its transposition table (itself checked
// against max^n elsewhere), and the tests either side of it.
void expect_alphabeta_value(Solver& solver, const Rules& rules, const PlayState& state) {
    const PlayRules play = PlayRules::from(rules);
    engine::SearchOptions o;
    o.algorithm = engine::Algorithm::kAlphaBeta;
    o.tt_entries = std::size_t{1} << 16;
    TrickGame game(rules, state, Utility::kTricks);
    engine::Searcher<TrickGame> searcher(o);
    // The generic search's score as tricks per side, as apps read it.
    const std::array<int, 2> sides = two_sided_tricks(searcher.search(game).score, game.maxsum());
    const int expected = sides[0];
    ASSERT_EQ(side_tricks(solver.solve(play, state), state.hands[state.to_move].size()), sides)
        << describe(state);
    ASSERT_TRUE(solver.makes(play, state, expected)) << describe(state);
    ASSERT_FALSE(solver.makes(play, state, expected + 1)) << describe(state);
}

// Larger positions: partition search and the table matter more there.
TEST(DoubleDummy, AgreesWithGenericAlphabetaOnLargerPositions) {
    std::mt19937_64 rng(7);
    Solver solver(14);
    solver.set_checking(true);
    for (bool anytime : {true, false}) {
        const Rules rules = partnership_rules(anytime);
        for (int i = 0; i < 60 * kScale; ++i) {
            // 5 to 7 tricks; the long variant also 8.
            const int tricks = 5 + static_cast<int>(rng() % (kScale > 1 ? 4 : 3));
            expect_alphabeta_value(
                solver, rules,
                random_position(PlayRules::from(rules), rng, tricks, static_cast<int>(rng() % 4)));
            if (HasFatalFailure()) return;
        }
    }
    EXPECT_GT(solver.stats().tt_hits, 0u);
    // Every bound taken from the table for a position other than the one it was proven on held.
    EXPECT_EQ(solver.stats().check_failures, 0u);
}

// With no trumps left the bounds for a side that must take every trick count the suits it heads
// (squeezes included, a side cannot take all the tricks otherwise): positions without spades,
// where those bounds decide the most.
TEST(DoubleDummy, AgreesWithGenericAlphabetaWithoutTrumps) {
    std::mt19937_64 rng(11);
    Solver solver(14);
    solver.set_checking(true);
    const Rules rules = partnership_rules(true);
    for (int i = 0; i < 100 * kScale; ++i) {
        const int tricks =
            3 + static_cast<int>(rng() % (kScale > 1 ? 6 : 5));  // 3 to 7; the long variant also 8
        expect_alphabeta_value(solver, rules,
                               random_position(PlayRules::from(rules), rng, tricks,
                                               static_cast<int>(rng() % 4), false));
        if (HasFatalFailure()) return;
    }
    EXPECT_EQ(solver.stats().check_failures, 0u);
}

// The solver's value of an end position from a fresh table, and plain max^n's.
void expect_end_value(DoubleDummy& solver, const Rules& rules, const std::string& pbn, int leader,
                      int value) {
    const PlayState state = end_position(pbn, leader);
    solver.clear();
    solver.reset_stats();
    EXPECT_EQ(solver.solve(PlayRules::from(rules), state), value) << pbn;
    EXPECT_EQ(maxn_tricks(rules, state), value) << pbn;
}

// A guarded second-best trump is a trick when it sits right behind the top one (a bound the
// solver takes without searching), but not when it sits in front and must play first.
TEST(DoubleDummy, GuardedKingOfTrumpsBehindTheAceTakesATrick) {
    DoubleDummy solver;
    // West holds the ace, North the guarded king behind it; East leads clubs.
    expect_end_value(solver, partnership_rules(true), "N:K2...5 ...AKQ ..432. A3...2", 1, 1);
    // East holds the ace, behind the king; West leads a trump and East wins cheaply.
    expect_end_value(solver, partnership_rules(true), "N:K2...5 A4...A ..432. 3...QJ", 3, 0);
}

// Trumps above all but the other side's top trump win every trick but the one it takes: the
// bounds settle both tests (at least 3, and all 4) without searching a trick.
TEST(DoubleDummy, TrumpsUnderTheirAceAreCountedWithoutSearching) {
    DoubleDummy solver;
    expect_end_value(solver, partnership_rules(true), "N:KQJT... A.432.. ..5432. ...5432", 1, 3);
    EXPECT_EQ(solver.stats().tricks, 0u);
}

// What a user reads in the statistics: a position the sure-trick bounds settle completes no trick
// in the search (North cashes its three top trumps); one that needs searching does, and counts
// them apart from the positions it entered.
TEST(DoubleDummy, CountsTheTricksItSearches) {
    const PlayRules play = PlayRules::from(partnership_rules(true));
    DoubleDummy solver;
    const PlayState cashing = end_position("N:AKQ... .432.. ...432 ..432.", 0);
    EXPECT_EQ(solver.solve(play, cashing), 3);
    EXPECT_EQ(solver.stats().tricks, 0u);
    EXPECT_EQ(solver.stats().expansions, 0u);

    std::mt19937_64 rng(3);
    const PlayState state = random_position(play, rng, 6, 0);
    solver.clear();
    solver.reset_stats();
    solver.solve(play, state);
    EXPECT_GT(solver.stats().tricks, 0u);
    EXPECT_LT(solver.stats().tricks, solver.stats().nodes);
}

}  // namespace
}  // namespace cardgames
