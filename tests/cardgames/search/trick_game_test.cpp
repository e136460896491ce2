// The searchable view of a hand: every pruning configuration of the max^n family returns exactly
// the root tuple and root move of plain max^n on real card positions (mid-trick included), for
// every game and utility; alphabeta agrees with plain minimax in partnership Spades.
#include "cardgames/search/trick_game.hpp"

#include <gtest/gtest.h>

#include <boost/random/mersenne_twister.hpp>
#include <boost/random/uniform_int_distribution.hpp>
#include <cstdlib>
#include <limits>
#include <optional>
#include <tuple>
#include <utility>

#include "cardgames/cards/error.hpp"
#include "cardgames/rules/game.hpp"
#include "cardgames/search/two_sided.hpp"
#include "engine/search.hpp"

namespace cardgames {
namespace {

struct Position {
    Rules rules;
    PlayState state;
    std::array<CardSet, kMaxPlayers> taken{};
    ScoreContext context;
    unsigned nil_rule = 0;  // TrickGame::set_nil_rule
    std::string describe;
};

// Plays a random hand (random bids, passes, cards) until at most `cards_left` cards are in play.
Position random_position(const Rules& rules, std::uint64_t seed, int cards_left) {
    boost::random::mt19937_64 rng(seed);
    auto pick = [&](CardSet s) {
        boost::random::uniform_int_distribution<int> d(0, s.size() - 1);
        int k = d(rng);
        for (Card c : s)
            if (k-- == 0) return c;
        return s.lowest();
    };
    Game game(rules, seed);
    while (game.phase() != Phase::kPlay) {
        if (game.phase() == Phase::kBlindNil)
            game.choose_blind_nil(false);
        else if (game.phase() == Phase::kBid) {
            boost::random::uniform_int_distribution<int> d(0, 5);
            game.choose_bid(d(rng));
        } else {
            const InfoState info = game.info_state(game.to_act());
            CardSet pass, left = info.hand;
            for (int i = 0; i < info.pass_count; ++i) {
                const Card c = pick(left);
                left -= c;
                pass |= c;
            }
            game.choose_pass(pass);
        }
    }
    while (game.play_state().cards_left() > cards_left) {
        const CardSet legal = game.play_state().legal_moves(game.play_rules());
        game.choose_card(pick(legal));
    }
    Position p{rules, game.play_state(), game.hand().taken, {}, 0, ""};
    p.context.bids = game.hand().bids;
    p.describe = "seed " + std::to_string(seed) + " " + game_name(rules.game) + " players " +
                 std::to_string(rules.players) + " hands " + deal_to_string([&] {
                     Deal d;
                     d.players = rules.players;
                     d.hands = p.state.hands;
                     return d;
                 }()) +
                 " trick_size " + std::to_string(p.state.trick_size);
    return p;
}

struct Config {
    engine::Algorithm algorithm;
    bool tables;
    bool tt;
};

std::vector<Config> configs() {
    std::vector<Config> out;
    for (auto a : {engine::Algorithm::kMaxn, engine::Algorithm::kShallow, engine::Algorithm::kBnb,
                   engine::Algorithm::kLastBranch, engine::Algorithm::kSpeculative})
        for (bool tables : {false, true})
            for (bool tt : {false, true})
                if (!(a == engine::Algorithm::kMaxn && (tables || !tt)))
                    out.push_back({a, tables, tt});
    return out;
}

// Tables of the size pimc gives its endgames (2^9 to 2^11 entries; sampling/pimc.cpp), smaller than
// the larger trees here so that replacement is exercised too. Larger ones also cost a fresh mapping
// per search under AddressSanitizer, which made these tests 100 times slower there.
constexpr std::size_t kTableEntries = 1024;

int scale() {
    const char* env = std::getenv("CARDGAMES_LONG");
    return env && *env ? 10 : 1;
}

// One search of a position with a given configuration (fresh tables each time).
engine::SearchResult<Card> search_position(const Rules& r, const Position& pos, Utility utility,
                                           engine::Algorithm algorithm, bool tables, bool tt,
                                           int depth = engine::kNoDepthLimit) {
    engine::SearchOptions o;
    o.algorithm = algorithm;
    o.outcome_tables = tables;
    o.tt_entries = tt ? kTableEntries : 0;
    o.outcome_cache_entries = kTableEntries;
    o.depth_limit = depth;
    TrickGame g(r, pos.state, utility, pos.taken, pos.context);
    g.set_nil_rule(pos.nil_rule);
    engine::Searcher<TrickGame> s(o);
    return s.search(g);
}

// Constant-sum partnership utilities (tricks, margin): alphabeta's score is side 0's sum of plain
// max^n's tuple, with its root move; the margin's tuple too, and every root move's value.
void check_alphabeta(const Rules& r, const Position& pos, Utility utility,
                     const engine::SearchResult<Card>& want) {
    engine::SearchOptions o;
    o.algorithm = engine::Algorithm::kAlphaBeta;
    o.tt_entries = kTableEntries;
    TrickGame g(r, pos.state, utility, pos.taken, pos.context);
    g.set_nil_rule(pos.nil_rule);
    engine::Searcher<TrickGame> s(o);
    const auto got = s.search(g);
    ASSERT_EQ(got.score, want.value[0] + want.value[2]) << pos.describe;
    ASSERT_EQ(got.best_move, want.best_move) << pos.describe;
    if (utility != Utility::kMargin) return;
    ASSERT_TRUE(got.has_tuple);
    ASSERT_EQ(got.value, want.value) << pos.describe;
    engine::SearchOptions plain;
    plain.algorithm = engine::Algorithm::kMaxn;
    const auto maxn = engine::Searcher<TrickGame>(plain).analyze_root(g);
    const auto ab = s.analyze_root(g);
    ASSERT_TRUE(ab.complete && ab.has_tuple);
    ASSERT_EQ(ab.moves.size(), maxn.moves.size()) << pos.describe;
    for (int i = 0; i < ab.moves.size(); ++i) {
        ASSERT_EQ(ab.moves[i].move, maxn.moves[i].move) << pos.describe;
        ASSERT_EQ(ab.moves[i].value, maxn.moves[i].value) << pos.describe;
    }
}

// Spades bags paid for as they are taken (BagValue::kAmortized), with running bags of 6 to 9 so
// that the penalty falls in some leaves: still any split of the tricks is an outcome.
void amortize_bags(const Rules& r, Position& pos, int i) {
    pos.context.bag_value = BagValue::kAmortized;
    for (int u = 0; u < r.num_units(); ++u) pos.context.bags[u] = 6 + (i + u) % 4;
}

// Spades: every seat but the one to move that has taken no trick bid nil, and plays it by the
// rule (TrickGame::set_nil_rule), as pimc:nil_bidder=rule has it.
void rule_others_nils(Position& pos) {
    for (int p = 0; p < pos.state.players; ++p) {
        if (p == pos.state.to_move || pos.state.tricks_won[p] != 0) continue;
        pos.context.bids[p] = Bid{};
        pos.nil_rule |= 1u << p;
    }
}

enum class NilRule { kOff, kOthers };

void check_all_agree(const char* preset, Utility utility, int positions, int cards_left,
                     const std::vector<std::string>& overrides = {},
                     BagValue bag_value = BagValue::kHand, NilRule nil_rule = NilRule::kOff) {
    const Rules r = load_rules(preset_path(preset), overrides);
    std::uint64_t tt_hits = 0, outcome_cache_hits = 0;
    int ruled = 0;
    for (int i = 0; i < positions * scale(); ++i) {
        Position pos =
            random_position(r, 1000 + static_cast<std::uint64_t>(i), cards_left - (i % r.players));
        if (bag_value == BagValue::kAmortized) amortize_bags(r, pos, i);
        if (nil_rule == NilRule::kOthers) rule_others_nils(pos);
        ruled += pos.nil_rule != 0;
        const auto want = search_position(r, pos, utility, engine::Algorithm::kMaxn, false, false);
        ASSERT_TRUE(want.complete);
        for (const Config& c : configs()) {
            const auto got = search_position(r, pos, utility, c.algorithm, c.tables, c.tt);
            tt_hits += got.stats.tt_hits;
            outcome_cache_hits += got.stats.outcome_cache_hits;
            ASSERT_EQ(got.value, want.value) << engine::algorithm_name(c.algorithm) << " tables "
                                             << c.tables << " tt " << c.tt << " " << pos.describe;
            ASSERT_EQ(got.best_move, want.best_move)
                << engine::algorithm_name(c.algorithm) << " " << pos.describe;
            // Pruning never expands more than plain max^n, except that speculative re-searches may.
            if (c.algorithm != engine::Algorithm::kSpeculative) {
                ASSERT_LE(got.stats.expansions, want.stats.expansions)
                    << engine::algorithm_name(c.algorithm) << " " << pos.describe;
            }
        }
        if (r.is_partnership() && utility != Utility::kScore)
            check_alphabeta(r, pos, utility, want);
    }
    // The tables took part: the agreement above covers their hits, not just their misses.
    EXPECT_GT(tt_hits, 0u);
    EXPECT_GT(outcome_cache_hits, 0u);
    if (nil_rule == NilRule::kOthers) {
        EXPECT_GT(ruled, positions / 10);  // random play leaves few seats without a trick
    }
}

// Depth-limited: every configuration against plain max^n cut off at the same depth (1-2 tricks,
// 5-7 tricks left), which covers the horizon bounds (TrickGame::set_horizon) the max^n searches
// use under a depth limit.
void check_depth_limited(const char* preset, Utility utility, int positions) {
    const Rules r = load_rules(preset_path(preset), {});
    for (int i = 0; i < positions * scale(); ++i) {
        const int tricks_left = 5 + i % 3;
        const int depth = 1 + i % 2;
        const Position pos = random_position(r, 5000 + static_cast<std::uint64_t>(i),
                                             tricks_left * r.players - (i % r.players));
        const auto want =
            search_position(r, pos, utility, engine::Algorithm::kMaxn, false, false, depth);
        ASSERT_TRUE(want.complete);
        for (const Config& c : configs()) {
            engine::SearchOptions o;
            o.algorithm = c.algorithm;
            o.outcome_tables = c.tables;
            o.tt_entries = c.tt ? kTableEntries : 0;
            o.depth_limit = depth;
            TrickGame g(r, pos.state, utility, pos.taken, pos.context);
            engine::Searcher<TrickGame> s(o);
            const auto got = s.search(g);
            ASSERT_EQ(got.value, want.value)
                << engine::algorithm_name(c.algorithm) << " tables " << c.tables << " tt " << c.tt
                << " depth " << depth << " " << pos.describe;
            ASSERT_EQ(got.best_move, want.best_move)
                << engine::algorithm_name(c.algorithm) << " depth " << depth << " " << pos.describe;
            if (c.algorithm != engine::Algorithm::kSpeculative) {
                ASSERT_LE(got.stats.expansions, want.stats.expansions)
                    << engine::algorithm_name(c.algorithm) << " " << pos.describe;
            }
            // The search leaves the game without a horizon: the plain bounds again.
            engine::Tuple lo, hi, lo0, hi0;
            g.bounds(lo, hi);
            TrickGame fresh(r, pos.state, utility, pos.taken, pos.context);
            fresh.bounds(lo0, hi0);
            ASSERT_EQ(lo, lo0);
            ASSERT_EQ(hi, hi0);
        }
    }
}

TEST(TrickGameDepthLimited, Cutthroat3SpadesTricks) {
    check_depth_limited("spades-cutthroat3", Utility::kTricks, 400);
}
TEST(TrickGameDepthLimited, PartnershipSpadesTricks) {
    check_depth_limited("spades-partnership", Utility::kTricks, 300);
}
TEST(TrickGameDepthLimited, PartnershipSpadesMargin) {
    check_depth_limited("spades-partnership", Utility::kMargin, 100);
}
TEST(TrickGameDepthLimited, Cutthroat4SpadesScore) {
    check_depth_limited("spades-cutthroat4", Utility::kScore, 100);
}
TEST(TrickGameDepthLimited, Hearts4Points) {
    check_depth_limited("hearts4", Utility::kPoints, 300);
}

// Horizon bounds contain every cut-off evaluation below them.
TEST(TrickGame, HorizonBoundsContainTheCutOffEvaluation) {
    const Rules r = load_rules(preset_path("spades-cutthroat3"), {});
    for (int i = 0; i < 50; ++i) {
        const Position pos = random_position(r, 9000 + static_cast<std::uint64_t>(i), 18 - (i % 3));
        TrickGame g(r, pos.state, Utility::kTricks, pos.taken, pos.context);
        g.set_horizon(2);
        engine::Tuple lo, hi;
        g.bounds(lo, hi);
        // Play the lowest legal card until the horizon: the evaluation there lies inside.
        std::vector<Card> played;
        while (g.depth_counter() < 2 && !g.is_terminal()) {
            engine::MoveList<Card, TrickGame::kMaxMoves> moves;
            g.legal_moves(moves);
            const Card c = moves[moves.size() - 1];
            g.apply(c);
            played.push_back(c);
        }
        engine::Tuple e;
        g.evaluate(e);
        for (int p = 0; p < r.players; ++p) {
            EXPECT_LE(lo[p], e[p]) << pos.describe;
            EXPECT_LE(e[p], hi[p]) << pos.describe;
        }
    }
}

TEST(TrickGameDifferential, PartnershipSpadesTricks) {
    check_all_agree("spades-partnership", Utility::kTricks, 1000, 12);
}
TEST(TrickGameDifferential, PartnershipSpadesScore) {
    check_all_agree("spades-partnership", Utility::kScore, 1000, 12);
}
// Nil bids included (random_position bids 0 to 5): the margin stays constant-sum with them.
TEST(TrickGameDifferential, PartnershipSpadesMargin) {
    check_all_agree("spades-partnership", Utility::kMargin, 1000, 12);
}
// Another seat's standing nil played by the rule: a restricted game, still max^n, so every
// pruning configuration agrees with plain max^n on it.
TEST(TrickGameDifferential, PartnershipSpadesTricksNilRule) {
    check_all_agree("spades-partnership", Utility::kTricks, 600, 12, {}, BagValue::kHand,
                    NilRule::kOthers);
}
TEST(TrickGameDifferential, PartnershipSpadesScoreNilRule) {
    check_all_agree("spades-partnership", Utility::kScore, 600, 12, {}, BagValue::kHand,
                    NilRule::kOthers);
}
TEST(TrickGameDifferential, PartnershipSpadesMarginNilRule) {
    check_all_agree("spades-partnership", Utility::kMargin, 600, 12, {}, BagValue::kAmortized,
                    NilRule::kOthers);
}
TEST(TrickGameDifferential, Cutthroat4SpadesScoreNilRule) {
    check_all_agree("spades-cutthroat4", Utility::kScore, 600, 12, {}, BagValue::kHand,
                    NilRule::kOthers);
}

// The rule changes what the search finds: a ruled nil bidder misjudges some ducks that a search
// seeing every hand would make.
// What a ruled nil plays depends on whether it has taken a trick, which the tricks utility's key
// does not otherwise cover: the key does when the rule is on, or transpositions would mix the two.
TEST(TrickGame, NilRuleKeysWhetherTheNilStands) {
    const Rules r = load_rules(preset_path("spades-partnership"), {});
    Position pos = random_position(r, 77, 16);
    pos.state.trick_size = 0;  // keys are compared between tricks
    const int bidder = (pos.state.to_move + 1) % 4;
    pos.state.tricks_won[bidder] = 0;
    PlayState caught = pos.state;
    caught.tricks_won[bidder] = 1;
    for (const unsigned rule : {0u, 1u << bidder}) {
        TrickGame standing(r, pos.state, Utility::kTricks, pos.taken, pos.context);
        TrickGame lost(r, caught, Utility::kTricks, pos.taken, pos.context);
        standing.set_nil_rule(rule);
        lost.set_nil_rule(rule);
        EXPECT_EQ(standing.hash_key() != lost.hash_key(), rule != 0) << pos.describe;
    }
}

TEST(TrickGame, NilRuleChangesSomeValues) {
    const Rules r = load_rules(preset_path("spades-partnership"), {});
    int ruled = 0, changed = 0, smaller = 0;
    for (int i = 0; i < 300; ++i) {
        Position pos = random_position(r, 5000 + static_cast<std::uint64_t>(i), 16 - (i % 4));
        rule_others_nils(pos);
        if (pos.nil_rule == 0) continue;
        ++ruled;
        const unsigned seats = std::exchange(pos.nil_rule, 0u);
        const auto free =
            search_position(r, pos, Utility::kMargin, engine::Algorithm::kMaxn, false, true);
        pos.nil_rule = seats;
        const auto restricted =
            search_position(r, pos, Utility::kMargin, engine::Algorithm::kMaxn, false, true);
        changed += restricted.value != free.value;
        ASSERT_LE(restricted.stats.expansions, free.stats.expansions) << pos.describe;
        smaller += restricted.stats.expansions < free.stats.expansions;
    }
    EXPECT_GT(ruled, 40);
    EXPECT_GT(changed, 5);
    EXPECT_GT(smaller, 30);
}

TEST(TrickGameDifferential, PartnershipSpadesScoreAmortizedBags) {
    check_all_agree("spades-partnership", Utility::kScore, 300, 12, {}, BagValue::kAmortized);
}
TEST(TrickGameDifferential, PartnershipSpadesMarginAmortizedBags) {
    check_all_agree("spades-partnership", Utility::kMargin, 300, 12, {}, BagValue::kAmortized);
}
TEST(TrickGameDifferential, Cutthroat3SpadesScoreAmortizedBags) {
    check_all_agree("spades-cutthroat3", Utility::kScore, 300, 12, {}, BagValue::kAmortized);
}
TEST(TrickGameDifferential, Cutthroat3SpadesTricks) {
    check_all_agree("spades-cutthroat3", Utility::kTricks, 1000, 12);
}
TEST(TrickGameDifferential, Cutthroat3SpadesScore) {
    check_all_agree("spades-cutthroat3", Utility::kScore, 1000, 12);
}
TEST(TrickGameDifferential, Cutthroat4SpadesScore) {
    check_all_agree("spades-cutthroat4", Utility::kScore, 300, 12);
}
TEST(TrickGameDifferential, Hearts4Points) {
    check_all_agree("hearts4", Utility::kPoints, 1000, 12);
}
TEST(TrickGameDifferential, Hearts3Points) {
    check_all_agree("hearts3", Utility::kPoints, 300, 12);
}
TEST(TrickGameDifferential, Hearts4PointsJackAndMoonSubtracts) {
    check_all_agree("hearts4", Utility::kPoints, 300, 12,
                    {"jack_of_diamonds=true", "moon_subtracts=true"});
}
TEST(TrickGameDifferential, Hearts5Points) {
    check_all_agree("hearts5", Utility::kPoints, 200, 15);
}
// Three tricks: with two, no outcome decision is asked twice and the cache never hits.
TEST(TrickGameDifferential, Hearts6Points) {
    check_all_agree("hearts6", Utility::kPoints, 200, 18);
}

// Paranoid by brute force: the root player maximises its own utility, every other player
// minimises it (no pruning, no table).
engine::Utility paranoid_minimax(TrickGame& g, int root) {
    if (g.is_terminal()) {
        engine::Tuple t{};
        g.payoff(t);
        return t[root];
    }
    engine::MoveList<Card, TrickGame::kMaxMoves> moves;
    g.legal_moves(moves);
    const bool maximise = g.player_to_move() == root;
    engine::Utility best = maximise ? std::numeric_limits<engine::Utility>::min()
                                    : std::numeric_limits<engine::Utility>::max();
    for (int i = 0; i < moves.size(); ++i) {
        g.apply(moves[i]);
        const engine::Utility v = paranoid_minimax(g, root);
        g.undo(moves[i]);
        best = maximise ? std::max(best, v) : std::min(best, v);
    }
    return best;
}

// Paranoid's answer is the root player's own guaranteed value: what brute force gives, never
// better for the root player than max^n's value for it (max^n's opponents are one coalition
// strategy among all), and in partnership Spades never better than alphabeta's value for the
// root's side (there the partner helps). As solve reports it (report_player), in the units of
// report(): higher is better except Hearts points.
void check_paranoid(const char* preset, Utility utility, int positions, int cards_left) {
    const Rules r = load_rules(preset_path(preset), {});
    int below = 0;
    for (int i = 0; i < positions * scale(); ++i) {
        const Position pos =
            random_position(r, 5000 + static_cast<std::uint64_t>(i), cards_left - (i % r.players));
        TrickGame g(r, pos.state, utility, pos.taken, pos.context);
        const int root = g.player_to_move();
        const engine::Utility want = paranoid_minimax(g, root);
        for (bool tt : {false, true}) {
            const auto got =
                search_position(r, pos, utility, engine::Algorithm::kParanoid, false, tt);
            ASSERT_TRUE(got.complete);
            ASSERT_EQ(got.score, want) << "tt " << tt << " " << pos.describe;
        }
        const int paranoid = g.report_player(root, want);
        const auto maxn = search_position(r, pos, utility, engine::Algorithm::kMaxn, false, true);
        const int maxn_root = g.report(maxn.value)[static_cast<std::size_t>(g.side_of(root))];
        if (utility == Utility::kPoints)
            ASSERT_GE(paranoid, maxn_root) << pos.describe;
        else
            ASSERT_LE(paranoid, maxn_root) << pos.describe;
        below += paranoid != maxn_root;
        if (r.is_partnership() && utility == Utility::kTricks) {
            const auto ab =
                search_position(r, pos, utility, engine::Algorithm::kAlphaBeta, false, true);
            const std::array<int, 2> sides = two_sided_tricks(ab.score, g.maxsum());
            ASSERT_LE(paranoid, sides[static_cast<std::size_t>(root % 2)]) << pos.describe;
        }
        // Where the coalition's choices do not matter (one card left each), all agree.
        if (pos.state.hands[root].size() == 1) {
            ASSERT_EQ(paranoid, maxn_root) << pos.describe;
        }
    }
    EXPECT_GT(below, 0) << "no position where the coalition costs the root player anything";
}

TEST(TrickGameParanoid, Cutthroat3SpadesScore) {
    check_paranoid("spades-cutthroat3", Utility::kScore, 300, 12);
}
TEST(TrickGameParanoid, Cutthroat3SpadesTricks) {
    check_paranoid("spades-cutthroat3", Utility::kTricks, 300, 12);
}
TEST(TrickGameParanoid, Cutthroat4SpadesScore) {
    check_paranoid("spades-cutthroat4", Utility::kScore, 200, 12);
}
TEST(TrickGameParanoid, PartnershipSpadesTricks) {
    check_paranoid("spades-partnership", Utility::kTricks, 300, 12);
}
TEST(TrickGameParanoid, PartnershipSpadesScore) {
    check_paranoid("spades-partnership", Utility::kScore, 200, 12);
}
TEST(TrickGameParanoid, Hearts4Points) {
    check_paranoid("hearts4", Utility::kPoints, 300, 12);
}
TEST(TrickGameParanoid, Hearts3Points) {
    check_paranoid("hearts3", Utility::kPoints, 200, 12);
}

TEST(TrickGame, EquivalentCardsCollapse) {
    const Rules r = load_rules(preset_path("spades-partnership"), {"spades_lead_anytime=true"});
    // North holds AKQ of spades: one move for the run (the ace), plus the 2 of hearts.
    const Deal d = parse_deal("N:AKQ.2.. JT9.3.. 876.4.. 543.5..");
    TrickGame g(r, PlayState::start(d, 0), Utility::kTricks);
    engine::MoveList<Card, TrickGame::kMaxMoves> moves;
    g.legal_moves(moves);
    ASSERT_EQ(moves.size(), 2);
    EXPECT_EQ(g.representative(parse_card("QS")), parse_card("AS"));
    EXPECT_EQ(g.all_legal_cards().size(), 4);
}

TEST(TrickGame, QueenOfSpadesIsNeverEquivalentToItsNeighbours) {
    const Rules r = load_rules(preset_path("hearts4"), {});
    const Deal d = parse_deal("N:KQJ.2.. T98.3.. 765.4.. 432.5..");
    PlayState s = PlayState::start(d, 0);
    s.tricks_played = 1;  // past the first trick
    TrickGame g(r, s, Utility::kPoints);
    EXPECT_EQ(g.representative(parse_card("JS")), parse_card("JS"));
    EXPECT_EQ(g.representative(parse_card("QS")), parse_card("QS"));
}

TEST(TrickGame, MoonIsValuedAtTheLeaves) {
    // North has taken every penalty card but the A♥ and leads it to the last trick: the moon.
    const Rules r = load_rules(preset_path("hearts4"), {});
    const Deal d = parse_deal("N:.A.. .-.2. .-.3. .-.4.");
    PlayState s = PlayState::start(d, 0);
    s.tricks_played = 12;
    s.broken = true;
    std::array<CardSet, kMaxPlayers> taken{};
    taken[0] = (CardSet::whole_suit(Suit::kHearts) - parse_card("AH")) | parse_card("QS");
    TrickGame g(r, s, Utility::kPoints, taken);
    engine::Searcher<TrickGame> search(engine::SearchOptions{});
    const auto res = search.search(g);
    // North scores 0, everyone else 26: utilities 26 - score.
    EXPECT_EQ(res.value[0], 26);
    EXPECT_EQ(res.value[1], 0);
    EXPECT_EQ(res.value[2], 0);
    EXPECT_EQ(res.value[3], 0);
}

// Searcher<TrickGame> must search exactly as the searcher of the objective's own type does: the
// same value, move and node count (it dispatches once per search, never per node).
template <class Objective>
void check_same_as_own_type(const char* preset, Utility utility) {
    const Rules r = load_rules(preset_path(preset), {});
    engine::SearchOptions o;
    o.algorithm = engine::Algorithm::kSpeculative;
    o.tt_entries = 4096;
    o.outcome_tables = true;
    for (std::uint64_t seed = 1; seed <= 20; ++seed) {
        const Position pos = random_position(r, seed, 12);
        TrickGame g(r, pos.state, utility, pos.taken, pos.context);
        EXPECT_EQ(g.utility(), utility);
        engine::Searcher<TrickGame> chosen(o);
        const auto a = chosen.search(g);
        TrickSearch<Objective> own(r, pos.state, pos.taken, pos.context);
        engine::Searcher<TrickSearch<Objective>> direct(o);
        const auto b = direct.search(own);
        EXPECT_EQ(a.value, b.value) << pos.describe;
        EXPECT_EQ(a.best_move, b.best_move) << pos.describe;
        EXPECT_EQ(a.stats.expansions, b.stats.expansions) << pos.describe;
    }
}

TEST(TrickGame, SearchesTricksAsItsOwnType) {
    check_same_as_own_type<TricksObjective>("spades-partnership", Utility::kTricks);
}
TEST(TrickGame, SearchesSpadesScoreAsItsOwnType) {
    check_same_as_own_type<SpadesScoreObjective>("spades-cutthroat3", Utility::kScore);
}
TEST(TrickGame, SearchesSpadesMarginAsItsOwnType) {
    check_same_as_own_type<SpadesMarginObjective>("spades-partnership", Utility::kMargin);
}
TEST(TrickGame, SearchesHeartsPointsAsItsOwnType) {
    check_same_as_own_type<HeartsPointsObjective>("hearts4", Utility::kPoints);
}

// The Spades objectives score every split of the tricks left once, when they are made, and look
// the outcomes up at the leaves: each must be the rules' own scoring of it (up to the objective's
// shift, which differences of two outcomes cancel), with hand and amortized bags, in mid-trick
// positions, from the last tricks to whole hands (the largest tables).
template <class Objective>
void check_outcomes_are_the_scoring(const char* preset) {
    const Rules r = load_rules(preset_path(preset), {});
    const bool margin = Objective::kUtility == Utility::kMargin;
    int checked = 0;
    for (int i = 0; i < 40; ++i) {
        const int all = r.cards_per_hand() * r.players;
        const int cards_left = all - 1 - (i * 11) % (all - 1);
        Position pos = random_position(r, 7000 + static_cast<std::uint64_t>(i), cards_left);
        if (i % 2) amortize_bags(r, pos, i);
        const TrickPlay g(r, pos.state, pos.taken);
        const Objective objective(g, pos.context);
        auto scoring = [&](const TrickCounts& tricks) {
            ScoreBoard board;
            board.bags = pos.context.bags;
            const HandScore hs = score_spades_hand(r, pos.context.bids, tricks, board);
            engine::Tuple out{};
            for (int p = 0; p < r.players; ++p) {
                const int own = margin ? p % 2 : r.unit_of(p);
                out[p] = valued_delta(r, hs, own, pos.context.bag_value) -
                         (margin ? valued_delta(r, hs, 1 - p % 2, pos.context.bag_value) : 0);
            }
            return out;
        };
        std::optional<std::pair<engine::Tuple, engine::Tuple>> first;
        for_each_trick_split(g, [&](const TrickCounts& tricks) {
            engine::Tuple got{};
            objective.outcome_tuple(g, tricks, got);
            const engine::Tuple want = scoring(tricks);
            if (!first) first.emplace(got, want);
            for (int p = 0; p < r.players; ++p)
                EXPECT_EQ(got[p] - first->first[p], want[p] - first->second[p])
                    << "seat " << p << " " << pos.describe;
            ++checked;
            return false;
        });
    }
    EXPECT_GT(checked, 1000);
}

TEST(TrickGame, SpadesScoreOutcomesAreTheHandScoring) {
    check_outcomes_are_the_scoring<SpadesScoreObjective>("spades-cutthroat3");
    check_outcomes_are_the_scoring<SpadesScoreObjective>("spades-cutthroat4");
    check_outcomes_are_the_scoring<SpadesScoreObjective>("spades-partnership");
}
TEST(TrickGame, SpadesMarginOutcomesAreTheHandScoring) {
    check_outcomes_are_the_scoring<SpadesMarginObjective>("spades-partnership");
}

// A decision's worlds share the outcomes scored once at its point (ScoreContext::outcomes): a
// search given them finds what a search that scores its own finds, in every world dealt from that
// point; outcomes made for another point (other tricks won, or tricks left, or the other
// utility) are not used.
TEST(TrickGame, SharedSpadesOutcomesSearchAsTheirOwn) {
    const Rules r = load_rules(preset_path("spades-partnership"), {});
    int searched = 0;
    for (int i = 0; i < 24; ++i) {
        Position pos = random_position(r, 7100 + static_cast<std::uint64_t>(i), 12 + i % 8);
        if (i % 2) amortize_bags(r, pos, i);
        for (const Utility u : {Utility::kScore, Utility::kMargin}) {
            const bool margin = u == Utility::kMargin;
            TrickCounts won{};
            for (int p = 0; p < r.players; ++p) won[p] = pos.state.tricks_won[p];
            const int left = TrickPlay(r, pos.state, pos.taken).remaining_tricks();
            TrickCounts other_won = won;
            ++other_won[i % 4];
            const std::shared_ptr<const SpadesOutcomes> shared[] = {
                std::make_shared<const SpadesOutcomes>(r, pos.context, won, left, margin),
                std::make_shared<const SpadesOutcomes>(r, pos.context, other_won, left, margin),
                std::make_shared<const SpadesOutcomes>(r, pos.context, won, left + 1, margin),
                std::make_shared<const SpadesOutcomes>(r, pos.context, won, left, !margin)};
            EXPECT_TRUE(shared[0]->made_for(won, left, margin));
            for (int k = 1; k < 4; ++k) EXPECT_FALSE(shared[k]->made_for(won, left, margin));
            const auto own =
                search_position(r, pos, u, engine::Algorithm::kSpeculative, true, true);
            for (const auto& outcomes : shared) {
                Position with = pos;
                with.context.outcomes = outcomes;
                const auto got =
                    search_position(r, with, u, engine::Algorithm::kSpeculative, true, true);
                EXPECT_EQ(got.value, own.value) << pos.describe;
                EXPECT_EQ(got.best_move, own.best_move) << pos.describe;
                ++searched;
            }
        }
    }
    EXPECT_EQ(searched, 24 * 2 * 4);
}

// A utility that does not fit the game is refused, naming it: points outside Hearts, Spades
// utilities in Hearts, the margin outside partnerships (it needs two sides).
TEST(TrickGame, UtilitiesThatDoNotFitAreRefused) {
    const std::vector<std::tuple<const char*, Utility, const char*>> cases = {
        {"spades-cutthroat3", Utility::kMargin, "utility 'margin' is for partnership Spades"},
        {"spades-cutthroat4", Utility::kMargin, "utility 'margin' is for partnership Spades"},
        {"hearts4", Utility::kMargin, "utility 'margin' does not fit"},
        {"spades-partnership", Utility::kPoints, "utility 'points' does not fit"}};
    for (const auto& [preset, utility, message] : cases) {
        const Rules r = load_rules(preset_path(preset), {});
        const Position pos = random_position(r, 3, 12);
        try {
            TrickGame g(r, pos.state, utility, pos.taken, pos.context);
            ADD_FAILURE() << preset << " took " << utility_name(utility);
        } catch (const InputError& e) {
            EXPECT_NE(std::string(e.what()).find(message), std::string::npos) << e.what();
        }
    }
}

TEST(TrickGame, OneSearcherServesEveryObjectiveWithItsOwnTables) {
    // A searcher that meets another objective starts that one's tables afresh, and keeps a depth
    // limit set before its first search.
    const Rules r = load_rules(preset_path("spades-partnership"), {});
    const Position pos = random_position(r, 7, 16);
    engine::SearchOptions o;
    o.tt_entries = 4096;
    engine::Searcher<TrickGame> shared(o);
    shared.set_depth_limit(2);
    TrickGame score(r, pos.state, Utility::kScore, pos.taken, pos.context);
    TrickGame tricks(r, pos.state, Utility::kTricks, pos.taken, pos.context);
    const auto first = shared.search(score);
    const auto second = shared.search(tricks);
    engine::SearchOptions limited = o;
    limited.depth_limit = 2;
    engine::Searcher<TrickGame> fresh_score(limited), fresh_tricks(limited);
    const auto want_first = fresh_score.search(score);
    const auto want_second = fresh_tricks.search(tricks);
    EXPECT_EQ(first.value, want_first.value);
    EXPECT_EQ(first.stats.expansions, want_first.stats.expansions);
    EXPECT_EQ(second.value, want_second.value);
    EXPECT_EQ(second.stats.expansions, want_second.stats.expansions);
    EXPECT_EQ(shared.options().depth_limit, 2);
}

}  // namespace
}  // namespace cardgames
