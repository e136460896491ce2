#include "cardgames/players/rule_bot.hpp"

#include <gtest/gtest.h>

#include <algorithm>

#include "cardgames/players/random_bot.hpp"
#include "cardgames/rules/game_runner.hpp"
#include "cardgames/search/trick_game.hpp"
#include "test_helpers.hpp"

namespace cardgames {
namespace {

// The rule bot or, to play against it, the random one (made directly: the registry that makes
// bots by name sits above this library, in sampling/).
std::unique_ptr<Player> rule_or_random(bool rule, std::uint64_t seed) {
    if (rule) return std::make_unique<RuleBot>(seed);
    return std::make_unique<RandomBot>(seed);
}

using testing::cards;
using testing::mid_play;
using testing::pc;

std::array<Bid, kMaxPlayers> bids4(int a, int b, int c, int d) {
    std::array<Bid, kMaxPlayers> out{};
    out[0].tricks = a;
    out[1].tricks = b;
    out[2].tricks = c;
    out[3].tricks = d;
    return out;
}

TEST(RuleBot, NeverIllegalOverManyGames) {
    // Rule bots alone and mixed with random ones (whose odd bids and plays reach odd positions).
    for (const char* preset : testing::kEveryForm) {
        const Rules rules = load_rules(preset_path(preset), {});
        for (std::uint64_t seed = 1; seed <= 60; ++seed) {
            Game game(rules, seed);
            ASSERT_NO_THROW(testing::play_seated(
                game,
                [&](int s) {
                    return rule_or_random(seed % 2 == 0 || s % 2 == 0, mix_seed(seed, s));
                }))
                << preset << " seed " << seed;
            EXPECT_TRUE(game.over()) << preset;
        }
    }
}

TEST(RuleBot, BlindNilWhenFarBehindAndExchangesLegally) {
    const Rules rules = load_rules(preset_path("spades-partnership"), {});
    for (std::uint64_t seed = 1; seed <= 20; ++seed) {
        Game game(rules, seed);
        ScoreBoard scores;
        scores.score[0] = 300;  // seats 1 and 3 trail by 300
        game.set_scores(scores);
        game.stop_after_hand();
        std::vector<std::unique_ptr<Player>> players;
        for (int s = 0; s < 4; ++s) players.push_back(std::make_unique<RuleBot>(s));
        ASSERT_NO_THROW(run_game(game, players));
        const HandRecord& hand = game.finished_hands().at(0);
        EXPECT_TRUE(hand.bids[1].blind || hand.bids[3].blind) << "seed " << seed;
        EXPECT_FALSE(hand.bids[0].blind || hand.bids[2].blind);
        EXPECT_EQ(hand.exchanges.size(), 2u);
    }
}

// A seat's view in `phase` of a hand of `rules`, with nothing else known yet: the test adds the
// rest.
InfoState view_in(const Rules& rules, Phase phase, int seat = 0) {
    InfoState info;
    info.rules = &rules;
    info.phase = phase;
    info.seat = seat;
    return info;
}

TEST(RuleBot, NoBlindNilWhenLevel) {
    const Rules rules = load_rules(preset_path("spades-partnership"), {});
    InfoState info = view_in(rules, Phase::kBlindNil, 1);
    info.scores.score[0] = 120;
    info.scores.score[1] = 10;  // 110 behind, opponents far from 500
    RuleBot bot;
    EXPECT_FALSE(bot.blind_nil(info));
}

TEST(RuleBot, BlindNilExchangePassesHighToPartnerLowToNilBidder) {
    const Rules rules = load_rules(preset_path("spades-partnership"), {});
    InfoState info = view_in(rules, Phase::kPass);
    info.pass_count = 2;
    info.bids[1] = Bid{0, true};
    info.hand = cards("AS 3S AH 9H 2D 5D 7D 3C 4C 8C TC QC KC");
    RuleBot bot;
    info.seat = 1;  // the blind nil bidder gives its biggest cards
    EXPECT_EQ(bot.pass(info), cards("AS 3S"));
    info.seat = 3;  // its partner gives the smallest side cards
    EXPECT_EQ(bot.pass(info), cards("2D 3C"));
}

// Seat 3 of a Hearts hand holding `hand`: seat 1 took the first trick (clubs) with the A♣ and led
// the T♦, and seat 2 followed with the 2♦.
InfoState after_ten_of_diamonds(const Rules& rules, const char* hand) {
    return mid_play(rules, cards(hand),
                    {pc(0, "2C"), pc(1, "AC"), pc(2, "3C"), pc(3, "4C"), pc(1, "TD"), pc(2, "2D")});
}

TEST(RuleBot, HeartsDucksWithHighestLosingCard) {
    const Rules rules = load_rules(preset_path("hearts4"), {});
    const InfoState info = after_ten_of_diamonds(rules, "3D 9D JD KD 5C 6H 7S");
    ASSERT_EQ(info.seat, 3);
    RuleBot bot;
    EXPECT_EQ(bot.play(info), parse_card("9D"));
}

TEST(RuleBot, HeartsDumpsQueenOfSpadesWhenVoid) {
    const Rules rules = load_rules(preset_path("hearts4"), {});
    const InfoState info = after_ten_of_diamonds(rules, "QS AH KC 5C 2S");
    RuleBot bot;
    EXPECT_EQ(bot.play(info), parse_card("QS"));
}

TEST(RuleBot, HeartsTakesCleanTrickLastWithHighCard) {
    const Rules rules = load_rules(preset_path("hearts4"), {});
    const InfoState info = mid_play(rules, cards("3D KD 5C 6H"),
                                    {pc(0, "2C"), pc(1, "AC"), pc(2, "3C"), pc(3, "4C"),
                                     pc(1, "5D"), pc(2, "2D"), pc(3, "7D")});
    ASSERT_EQ(info.seat, 0);
    RuleBot bot;
    EXPECT_EQ(bot.play(info), parse_card("KD"));
}

// Seat 0 about to pass three cards of `hand` to the left.
InfoState hearts_pass_view(const Rules& rules, const char* hand) {
    InfoState info = view_in(rules, Phase::kPass);
    info.pass_count = 3;
    info.pass_to = 1;
    info.hand = cards(hand);
    return info;
}

TEST(RuleBot, HeartsPassesUnprotectedQueenKeepsGuardedOne) {
    const Rules rules = load_rules(preset_path("hearts4"), {});
    InfoState info = hearts_pass_view(rules, "QS 3S 2H 5H 7H 2D 4D 6D 8D 3C 5C 7C 9C");
    RuleBot bot;
    EXPECT_TRUE(bot.pass(info).contains(parse_card("QS")));
    EXPECT_EQ(bot.pass(info).size(), 3);
    info.hand = cards("QS 2S 3S 4S 5S 6S 2H 3H 4H 2D 3D 4C 5C");
    EXPECT_FALSE(bot.pass(info).contains(parse_card("QS")));
}

TEST(RuleBot, HeartsPassesHighHeartsAndBigSpadesWithoutQueen) {
    const Rules rules = load_rules(preset_path("hearts4"), {});
    const InfoState info = hearts_pass_view(rules, "AS KS 2S AH KH 3H 2D 4D 6D 8D 3C 5C 7C");
    RuleBot bot;
    const CardSet passed = bot.pass(info);
    EXPECT_TRUE(passed.contains(parse_card("AS")));
    EXPECT_TRUE(passed.contains(parse_card("KS")));
    EXPECT_TRUE(passed.contains(parse_card("AH")));
}

// The ranking a pass search draws its candidates from: every pass, each once, the rule player's
// own pass first, and voiding a short suit ranked above keeping it.
TEST(RuleBot, HeartsRanksEveryPassWithItsOwnFirst) {
    const Rules rules = load_rules(preset_path("hearts4"), {});
    const InfoState info = hearts_pass_view(rules, "AS KS 2S AH KH 3H 2D 4D 6D 8D 3C 5C 7C");
    const std::vector<CardSet> ranked = heuristics::hearts_passes_by_danger(info);
    ASSERT_EQ(ranked.size(), 286u);  // 13 choose 3
    EXPECT_EQ(ranked.front(), RuleBot().pass(info));
    std::vector<CardSet> sorted = ranked;
    std::sort(sorted.begin(), sorted.end(),
              [](CardSet a, CardSet b) { return a.bits() < b.bits(); });
    EXPECT_EQ(std::adjacent_find(sorted.begin(), sorted.end()), sorted.end());
    for (CardSet p : ranked) EXPECT_EQ(p.size(), 3);
    auto rank_of = [&](const char* pass) {
        return std::find(ranked.begin(), ranked.end(), cards(pass)) - ranked.begin();
    };
    EXPECT_LT(rank_of("3C 5C 7C"), rank_of("2D 3C 5C"));  // voiding clubs beats keeping one
}

TEST(RuleBot, SpadesNilBidderPlaysHighestLosingCard) {
    const Rules rules = load_rules(preset_path("spades-partnership"), {});
    const InfoState info =
        mid_play(rules, cards("2H 9H QH AH 3D 4C"), {pc(0, "KH")}, bids4(4, 0, 3, 4));
    ASSERT_EQ(info.seat, 1);
    RuleBot bot;
    EXPECT_EQ(bot.play(info), parse_card("QH"));
}

TEST(RuleBot, SpadesNilBidderDumpsHighCardWhenVoid) {
    const Rules rules = load_rules(preset_path("spades-partnership"), {});
    const InfoState info = mid_play(rules, cards("5S KD 3D 4C"), {pc(0, "KH")}, bids4(4, 0, 3, 4));
    RuleBot bot;
    EXPECT_EQ(bot.play(info), parse_card("KD"));
}

// A search that plays another seat's standing nil by the rule (TrickGame::set_nil_rule, for
// pimc:nil_bidder=rule) plays the rule player's card wherever the bidder follows to a trick, over
// many hands; its leads (which cannot know the voids shown) are legal.
TEST(RuleBot, SpadesSearchPlaysARuledNilAsTheRulePlayer) {
    const Rules rules = load_rules(preset_path("spades-partnership"), {});
    int follows = 0, leads = 0;
    for (std::uint64_t seed = 1; seed <= 600; ++seed) {
        Game game(rules, seed);
        game.stop_after_hand();
        std::vector<std::unique_ptr<Player>> players;
        for (int s = 0; s < rules.players; ++s) players.push_back(std::make_unique<RuleBot>(seed));
        RuleBot probe(seed);
        while (!game.over()) {
            const int seat = game.to_act();
            const InfoState info = game.info_state(seat);
            const PlayState& ps = game.play_state();
            if (game.phase() == Phase::kPlay && info.bids[seat].nil_stands(ps.tricks_won[seat])) {
                ScoreContext context;
                context.bids = info.bids;
                TrickGame search(rules, ps, Utility::kMargin, {}, context);
                search.set_nil_rule(1u << seat);
                engine::MoveList<Card, TrickGame::kMaxMoves> moves;
                search.legal_moves(moves);
                ASSERT_EQ(moves.size(), 1) << "seed " << seed;
                if (ps.trick_size > 0) {
                    EXPECT_EQ(moves[0], probe.play(info)) << "seed " << seed;
                    ++follows;
                } else {
                    EXPECT_TRUE(info.legal_cards().contains(moves[0])) << "seed " << seed;
                    ++leads;
                }
            }
            step_game(game, players);
        }
    }
    EXPECT_GT(follows, 300);
    EXPECT_GT(leads, 5);
}

TEST(RuleBot, SpadesWinsCheaplyLastAndNeverOvertakesPartner) {
    const Rules rules = load_rules(preset_path("spades-partnership"), {});
    RuleBot bot;
    // Opponent leads, partner plays low, opponent tops it: last hand wins with the cheapest card.
    const InfoState win = mid_play(rules, cards("TH KH AH 4C"),
                                   {pc(0, "9H"), pc(1, "2H"), pc(2, "8H")}, bids4(4, 4, 3, 2));
    ASSERT_EQ(win.seat, 3);
    EXPECT_EQ(bot.play(win), parse_card("TH"));
    // Partner's ace is winning: play low.
    const InfoState low = mid_play(rules, cards("TH KH 4C"),
                                   {pc(0, "9H"), pc(1, "AH"), pc(2, "8H")}, bids4(4, 4, 3, 2));
    EXPECT_EQ(bot.play(low), parse_card("TH"));
    // Void: trump in with the lowest spade.
    const InfoState ruff = mid_play(rules, cards("3S 9S 4C"),
                                    {pc(0, "9H"), pc(1, "2H"), pc(2, "AH")}, bids4(4, 4, 3, 2));
    EXPECT_EQ(bot.play(ruff), parse_card("3S"));
}

TEST(RuleBot, SpadesCoversPartnersNilAndAttacksOpponents) {
    const Rules rules = load_rules(preset_path("spades-partnership"), {});
    RuleBot bot;
    const CardSet hand = cards("3H TH KH 4C");
    // Partner (seat 1) bid nil and plays after me: put my top heart on the trick.
    const InfoState before = mid_play(rules, hand, {pc(2, "5H")}, bids4(3, 0, 4, 4));
    ASSERT_EQ(before.seat, 3);
    EXPECT_EQ(bot.play(before), parse_card("KH"));
    // Partner's 7H is winning the trick: overtake it with the cheapest card that does.
    const InfoState cover =
        mid_play(rules, hand, {pc(0, "5H"), pc(1, "7H"), pc(2, "2H")}, bids4(3, 0, 4, 4));
    EXPECT_EQ(bot.play(cover), parse_card("TH"));
    // An opponent (seat 0) bid nil and plays after me: keep the trick low for them.
    const InfoState attack = mid_play(rules, hand, {pc(1, "5H"), pc(2, "7H")}, bids4(0, 4, 4, 4));
    ASSERT_EQ(attack.seat, 3);
    EXPECT_EQ(bot.play(attack), parse_card("3H"));
}

TEST(RuleBot, SpadesBidsSensibly) {
    const Rules rules = load_rules(preset_path("spades-partnership"), {});
    InfoState info = view_in(rules, Phase::kBid);
    RuleBot bot;
    info.hand = cards("AS KS QS AH KH QH AD KD QD AC KC QC 2C");
    EXPECT_GE(bot.bid(info), 8);
    info.hand = cards("2S 3S 2H 3H 4H 5H 2D 3D 4D 2C 3C 4C 5C");
    EXPECT_LE(bot.bid(info), 2);
    EXPECT_EQ(bot.bid(info), 0);  // nil: nothing here can win a trick
    // A middling hand: two aces, a protected king, four spades with the king.
    info.hand = cards("KS 9S 5S 2S AH 7H 3H AD 8D 4D KC 6C 2C");
    const int middling = bot.bid(info);
    EXPECT_GE(middling, 3);
    EXPECT_LE(middling, 5);
    // Without nil in the rules the weak hand bids 1.
    Rules no_nil = rules;
    no_nil.nil_allowed = false;
    info.rules = &no_nil;
    info.hand = cards("2S 3S 2H 3H 4H 5H 2D 3D 4D 2C 3C 4C 5C");
    EXPECT_EQ(bot.bid(info), 1);
}

// The mean hand score of the rule bot's seats and of the random ones over `hands` single hands
// from seeds first_seed, first_seed + 1, ...; seat s of hand h is the rule bot when rule(h, s).
// Each seat scores its unit's delta (its side's in partnership Spades).
template <class IsRule>
std::pair<double, double> mean_points(const Rules& rules, int first_seed, int hands, IsRule rule) {
    double rule_points = 0, random_points = 0;
    int rule_seats = 0, random_seats = 0;
    for (int h = 0; h < hands; ++h) {
        Game game(rules, first_seed + h);
        game.stop_after_hand();
        testing::play_seated(game, [&](int s) { return rule_or_random(rule(h, s), h * 4 + s); });
        const HandScore& score = game.finished_hands().at(0).score;
        for (int s = 0; s < rules.players; ++s) {
            (rule(h, s) ? rule_points : random_points) += score.delta[rules.unit_of(s)];
            ++(rule(h, s) ? rule_seats : random_seats);
        }
    }
    return {rule_points / rule_seats, random_points / random_seats};
}

// Averages over single hands with the rule bot's seat rotating.
TEST(RuleBot, BeatsRandomClearly) {
    {
        const auto [rule_points, random_points] =
            mean_points(load_rules(preset_path("hearts4"), {}), 1000, 150,
                        [](int h, int s) { return s == h % 4; });
        EXPECT_LT(rule_points + 2.5, random_points)
            << "hearts: rule " << rule_points << " random " << random_points;
    }
    {
        const auto [rule_points, random_points] =
            mean_points(load_rules(preset_path("spades-partnership"), {}), 2000, 150,
                        [](int h, int s) { return s % 2 == h % 2; });
        EXPECT_GT(rule_points, 30) << "spades: rule side " << rule_points;
        EXPECT_GT(rule_points, random_points + 60)
            << "spades: rule " << rule_points << " random " << random_points;
    }
}

TEST(RuleBot, IsDeterministic) {
    const Rules rules = load_rules(preset_path("hearts4"), {});
    auto run = [&] {
        Game game(rules, 77);
        std::vector<std::unique_ptr<Player>> players;
        for (int s = 0; s < 4; ++s) players.push_back(std::make_unique<RuleBot>(s));
        run_game(game, players);
        return game.scores().score;
    };
    EXPECT_EQ(run(), run());
}

}  // namespace
}  // namespace cardgames
