// Scripted whole hands through the Game state machine: a chosen deal (set_deal), decisions one by
// one, and the resulting scores, for each rule and variant of RULES.md.

#include "cardgames/rules/game.hpp"

#include <gtest/gtest.h>

#include "test_helpers.hpp"

namespace cardgames {
namespace {

using testing::bid_all;
using testing::C;
using testing::cards;
using testing::play;
using testing::play_out_lowest;
using testing::preset;

std::vector<int> scores(const Game& g) {
    return std::vector<int>(g.scores().score.begin(),
                            g.scores().score.begin() + g.rules().num_units());
}

// N holds every club, E every spade, S every heart, W every diamond. N leads the 2C and wins every
// trick: it takes all 26 points (and the J of diamonds).
constexpr const char* kHeartsMoonDeal =
    "N:...AKQJT98765432 AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432.";

// N: 2C..KC and AD. E: AC and 2D..KD. S: every heart. W: every spade. Played lowest-legal: E wins
// trick 1 with AC (2H: 1 point), N wins the rest with AD and its clubs: 12 hearts, QS and the JD.
constexpr const char* kHeartsSplitDeal =
    "N:..A.KQJT98765432 ..KQJT98765432.A .AKQJT98765432.. AKQJT98765432...";

// N holds every spade (and leads: it holds nothing else), E hearts, S diamonds, W clubs.
constexpr const char* kSpadesAllToNorth =
    "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432";

Game hearts_game(const std::vector<std::string>& overrides, const char* deal,
                 std::uint64_t seed = 1) {
    std::vector<std::string> o = overrides;
    o.push_back("no_passing=true");
    Game g(preset("hearts4", o), seed);
    g.set_deal(parse_deal(deal));
    return g;
}

// ---- Hearts
// ----------------------------------------------------------------------------------------

TEST(HeartsGame, MoonAddsToOthers) {
    Game g = hearts_game({}, kHeartsMoonDeal);
    EXPECT_EQ(g.phase(), Phase::kPlay);
    EXPECT_EQ(g.to_act(), 0);  // the 2C holder leads
    play_out_lowest(g);
    ASSERT_EQ(g.finished_hands().size(), 1u);
    const HandRecord& h = g.finished_hands()[0];
    EXPECT_EQ(h.score.moon_shooter, 0);
    EXPECT_EQ(h.tricks[0], 13);
    EXPECT_EQ(scores(g), (std::vector<int>{0, 26, 26, 26}));
}

TEST(HeartsGame, MoonSubtracts) {
    Game g = hearts_game({"moon_subtracts=true"}, kHeartsMoonDeal);
    play_out_lowest(g);
    EXPECT_EQ(scores(g), (std::vector<int>{-26, 0, 0, 0}));
}

TEST(HeartsGame, MoonWithJackOfDiamonds) {
    Game g = hearts_game({"jack_of_diamonds=true"}, kHeartsMoonDeal);
    play_out_lowest(g);
    EXPECT_EQ(scores(g), (std::vector<int>{-10, 26, 26, 26}));
    Game s = hearts_game({"jack_of_diamonds=true", "moon_subtracts=true"}, kHeartsMoonDeal);
    play_out_lowest(s);
    EXPECT_EQ(scores(s), (std::vector<int>{-36, 0, 0, 0}));
}

TEST(HeartsGame, PointsSplitAndJackOfDiamonds) {
    Game g = hearts_game({}, kHeartsSplitDeal);
    play_out_lowest(g);
    const HandRecord& h = g.finished_hands()[0];
    EXPECT_EQ(h.trick_winners[0], 1);
    EXPECT_EQ(h.tricks[1], 1);
    EXPECT_EQ(h.tricks[0], 12);
    EXPECT_EQ(h.score.moon_shooter, -1);
    EXPECT_EQ(scores(g), (std::vector<int>{25, 1, 0, 0}));
    Game j = hearts_game({"jack_of_diamonds=true"}, kHeartsSplitDeal);
    play_out_lowest(j);
    EXPECT_TRUE(j.finished_hands()[0].taken[0].contains(C("JD")));
    EXPECT_EQ(scores(j), (std::vector<int>{15, 1, 0, 0}));
}

TEST(HeartsGame, FirstTrickPointsBarredUnlessForcedOrAllowed) {
    Game g = hearts_game({}, kHeartsMoonDeal);
    EXPECT_EQ(g.choose_card(C("3C")), "the first trick must be opened with 2C");
    play(g, "2C");
    // E (all spades) may not drop the queen on the first trick.
    EXPECT_EQ(g.choose_card(C("QS")),
              "no hearts or Q\u2660 on the first trick while you hold another card");
    EXPECT_EQ(g.choose_card(C("2C")), "2C is not in your hand");
    play(g, "AS");
    // S holds only hearts: forced, so a heart is fine.
    play(g, "AH");
    play(g, "AD");
    EXPECT_EQ(g.play_state().points[0], 1);

    Game a = hearts_game({"first_trick_points_allowed=true"}, kHeartsMoonDeal);
    play(a, "2C");
    play(a, "QS");
    play(a, "AH");
    play(a, "AD");
    EXPECT_EQ(a.play_state().points[0], 14);
}

TEST(HeartsGame, HeartsBreakingInAGame) {
    // N: 2C..8C (7) + 2H..7H (6); E: 9C..AC (6) + 8H..AH (7); S: spades; W: diamonds.
    const char* deal = "N:.765432..8765432 .AKQJT98..AKQJT9 AKQJT98765432... ..AKQJT98765432.";
    Game g = hearts_game({}, deal);
    play(g, "2C");
    play(g, "9C");
    play(g, "2S");
    play(g, "2D");
    // E leads: hearts not broken, E holds clubs: no heart.
    EXPECT_EQ(g.to_act(), 1);
    EXPECT_EQ(g.choose_card(C("AH")),
              "hearts are not broken yet: you may lead them only when you hold nothing else");
    play(g, "TC");
    play(g, "3S");
    play(g, "3D");
    play(g, "3C");
    // E leads again; N follows; S discards QS: with queen_breaks_hearts off, still not broken.
    play(g, "JC");
    play(g, "QS");
    play(g, "4D");
    play(g, "4C");
    EXPECT_EQ(g.choose_card(C("KH")),
              "hearts are not broken yet: you may lead them only when you hold nothing else");

    Game q = hearts_game({"queen_breaks_hearts=true"}, deal);
    for (const char* c : {"2C", "9C", "2S", "2D", "TC", "3S", "3D", "3C", "JC", "QS", "4D", "4C"})
        play(q, c);
    EXPECT_EQ(q.choose_card(C("KH")), "");
}

TEST(HeartsGame, LowestClubLeads) {
    for (const auto& [name, lead] : {std::pair{"hearts3", "2C"}, std::pair{"hearts4", "2C"},
                                     std::pair{"hearts5", "3C"}, std::pair{"hearts6", "4C"}}) {
        for (std::uint64_t seed = 1; seed <= 5; ++seed) {
            Game g(preset(name, {"no_passing=true"}), seed);
            ASSERT_EQ(g.phase(), Phase::kPlay);
            EXPECT_TRUE(g.play_state().hands[g.to_act()].contains(C(lead))) << name;
            EXPECT_EQ(g.play_state().legal_moves(g.play_rules()), CardSet(C(lead))) << name;
            EXPECT_EQ(g.info_state(g.to_act()).legal_cards(), CardSet(C(lead))) << name;
        }
    }
}

// Passes each seat's 3 lowest cards and checks they reach the right seat.
void check_passing(const char* name, const std::vector<int>& want_offsets) {
    Game g(preset(name, {"end_score=10000"}), 3);
    const int n = g.rules().players;
    for (std::size_t hand = 0; hand < want_offsets.size(); ++hand) {
        ASSERT_EQ(g.hand().number, static_cast<int>(hand));
        const int offset = want_offsets[hand];
        EXPECT_EQ(g.hand().pass_offset, offset) << name << " hand " << hand;
        if (offset == 0) {
            EXPECT_EQ(g.phase(), Phase::kPlay) << name << " hand " << hand;
        } else {
            const auto before = g.play_state().hands;
            std::array<CardSet, kMaxPlayers> passed{};
            for (int s = 0; s < n; ++s) {
                ASSERT_EQ(g.phase(), Phase::kPass);
                ASSERT_EQ(g.to_act(), s);
                const InfoState info = g.info_state(s);
                EXPECT_EQ(info.pass_to, (s + offset + n) % n);
                EXPECT_EQ(info.pass_count, 3);
                // Wrong passes are refused and change nothing.
                EXPECT_EQ(g.choose_pass(cards("")), "pass exactly 3 cards, not 0");
                CardSet mine = before[s];
                for (int k = 0; k < 3; ++k) passed[s] |= mine.pop_lowest();
                const CardSet foreign = before[(s + 1) % n].lowest();
                EXPECT_EQ(g.choose_pass(foreign), "you do not hold " + to_string(foreign.lowest()));
                EXPECT_EQ(g.choose_card(before[s].lowest()), "no card is due now");
                ASSERT_EQ(g.choose_pass(passed[s]), "");
            }
            EXPECT_EQ(g.phase(), Phase::kPlay);
            for (int s = 0; s < n; ++s) {
                const int to = (s + offset + n) % n;
                const CardSet from_left = passed[(s - offset + 2 * n) % n];
                EXPECT_EQ(g.play_state().hands[s], (before[s] - passed[s]) | from_left)
                    << name << " seat " << s;
                EXPECT_TRUE(g.play_state().hands[to].contains_all(passed[s]));
                EXPECT_EQ(g.hand().passed[s], passed[s]);
                EXPECT_EQ(g.info_state(s).passed, passed[s]);
                EXPECT_EQ(g.info_state(s).received, from_left);
            }
        }
        // The lowest club's holder leads after the pass.
        EXPECT_TRUE(g.play_state().hands[g.to_act()].contains(g.rules().first_lead_card()));
        play_out_lowest(g);
    }
}

TEST(HeartsGame, PassingRotationFourPlayers) {
    check_passing("hearts4", {1, -1, 2, 0, 1, -1});
}
TEST(HeartsGame, PassingRotationThreePlayers) {
    check_passing("hearts3", {1, -1, 1, -1});
}
TEST(HeartsGame, PassingRotationFivePlayers) {
    check_passing("hearts5", {1, -1, 1});
}
TEST(HeartsGame, PassingRotationSixPlayers) {
    check_passing("hearts6", {1, -1, 1});
}

TEST(HeartsGame, NoPassing) {
    Game g(preset("hearts4", {"no_passing=true", "end_score=10000"}), 3);
    for (int hand = 0; hand < 4; ++hand) {
        EXPECT_EQ(g.phase(), Phase::kPlay);
        EXPECT_EQ(g.hand().pass_offset, 0);
        EXPECT_EQ(g.choose_pass(g.play_state().hands[g.to_act()].lowest()), "no pass is due now");
        play_out_lowest(g);
    }
}

TEST(HeartsGame, EndsAt100LowestWinsTiesShare) {
    // Before the hand: 0 99 25 26; the split deal adds N 25, E 1: 25 100 25 26.
    Game g = hearts_game({}, kHeartsSplitDeal);
    ScoreBoard b;
    b.score = {0, 99, 25, 26};
    g.set_scores(b);
    play_out_lowest(g);
    EXPECT_TRUE(g.over());
    EXPECT_EQ(g.phase(), Phase::kGameOver);
    EXPECT_EQ(scores(g), (std::vector<int>{25, 100, 25, 26}));
    EXPECT_EQ(g.winners(), (std::vector<int>{0, 2}));
    EXPECT_EQ(g.choose_card(C("2C")), "no card is due now");
    // Just under 100: the game goes on with the next hand, dealt by the next dealer.
    Game h = hearts_game({}, kHeartsSplitDeal);
    b.score = {0, 98, 25, 26};
    h.set_scores(b);
    play_out_lowest(h);
    EXPECT_FALSE(h.over());
    EXPECT_EQ(h.hand().number, 1);
    EXPECT_EQ(h.hand().dealer, 0);
    EXPECT_TRUE(h.winners().empty());
}

TEST(HeartsGame, SetDealRefusedAfterFirstDecisionAndBadDeals) {
    Game g = hearts_game({}, kHeartsMoonDeal);
    EXPECT_THROW(g.set_deal(parse_deal("N:A... K... Q... J...")), InputError);
    play(g, "2C");
    EXPECT_THROW(g.set_deal(parse_deal(kHeartsMoonDeal)), std::logic_error);
    EXPECT_THROW(g.set_scores(ScoreBoard{}), std::logic_error);
}

// ---- Spades
// ----------------------------------------------------------------------------------------

Game spades_game(const char* preset_name, const std::vector<std::string>& overrides,
                 const char* deal) {
    Game g(preset(preset_name, overrides), 1);
    g.set_deal(parse_deal(deal));
    return g;
}

TEST(SpadesGame, NilMadeAndSet) {
    Game g = spades_game("spades-partnership", {}, kSpadesAllToNorth);
    EXPECT_EQ(g.phase(), Phase::kBid);
    EXPECT_EQ(g.to_act(), 0);  // dealer is seat 3: seat 0 bids first
    EXPECT_EQ(g.choose_bid(14), "a bid is 0 to 13 tricks");
    EXPECT_EQ(g.choose_bid(-1), "a bid is 0 to 13 tricks");
    EXPECT_EQ(g.choose_card(C("AS")), "no card is due now");
    bid_all(g, {5, 0, 0, 3});
    EXPECT_EQ(g.phase(), Phase::kPlay);
    EXPECT_EQ(g.to_act(), 0);
    // N holds only spades: it may lead them before they are broken.
    play_out_lowest(g);
    const HandRecord& h = g.finished_hands()[0];
    EXPECT_EQ(h.tricks[0], 13);
    // N/S: S nil made +100, N bid 5 took 13: +58, 8 bags. E/W: E nil made +100, W set -30.
    EXPECT_EQ(scores(g), (std::vector<int>{158, 70}));
    EXPECT_EQ(g.scores().bags[0], 8);
    EXPECT_EQ(g.scores().bags[1], 0);
}

TEST(SpadesGame, NilFailed) {
    Game g = spades_game("spades-partnership", {}, kSpadesAllToNorth);
    bid_all(g, {0, 3, 4, 3});
    play_out_lowest(g);
    // N nil failed -100, S bid 4 took 0: -40. E/W bid 6 took 0: -60.
    EXPECT_EQ(scores(g), (std::vector<int>{-140, -60}));
    Game c =
        spades_game("spades-partnership", {"nil_tricks_count_for_partner=true"}, kSpadesAllToNorth);
    bid_all(c, {0, 3, 4, 3});
    play_out_lowest(c);
    EXPECT_EQ(scores(c), (std::vector<int>{-100 + 49, -60}));
    EXPECT_EQ(c.scores().bags[0], 9);
}

TEST(SpadesGame, BagRollover) {
    Game g = spades_game("spades-partnership", {}, kSpadesAllToNorth);
    ScoreBoard b;
    b.score = {100, 50};
    b.bags = {8, 3};
    g.set_scores(b);
    bid_all(g, {5, 1, 5, 1});
    play_out_lowest(g);
    // Bid 10, took 13: +103, bags 8 + 3 = 11: -100, 1 left. E/W set: -20.
    EXPECT_EQ(scores(g), (std::vector<int>{103, 30}));
    EXPECT_EQ(g.scores().bags[0], 1);
    EXPECT_EQ(g.scores().bags[1], 3);
    EXPECT_EQ(g.finished_hands()[0].score.bag_penalties[0], 1);
}

// Partnership Spades dealt kSpadesAllToNorth, with the sides at these running scores.
Game spades_at_scores(int north_south, int east_west) {
    Game g = spades_game("spades-partnership", {}, kSpadesAllToNorth);
    ScoreBoard b;
    b.score = {north_south, east_west};
    g.set_scores(b);
    return g;
}

TEST(SpadesGame, BlindNilOfferedOnlyWhenTrailingBy100) {
    Game g = spades_at_scores(0, 99);
    EXPECT_EQ(g.phase(), Phase::kBid);
    EXPECT_EQ(g.choose_blind_nil(true), "no blind nil decision is due now");
    ScoreBoard b;
    b.score = {0, 100};
    g.set_scores(b);
    EXPECT_EQ(g.phase(), Phase::kBlindNil);
    // Deciding blind: the seat sees no cards, nobody else's either.
    const InfoState info = g.info_state(0);
    EXPECT_EQ(info.phase, Phase::kBlindNil);
    EXPECT_TRUE(info.hand.empty());
    EXPECT_TRUE(info.dealt.empty());
    for (int s = 0; s < 4; ++s) EXPECT_TRUE(info.play.hands[s].empty());
    EXPECT_EQ(g.choose_bid(3), "no bid is due now");
    ASSERT_EQ(g.choose_blind_nil(false), "");
    EXPECT_EQ(g.phase(), Phase::kBid);
    EXPECT_EQ(g.to_act(), 0);
    EXPECT_EQ(g.info_state(0).hand, CardSet::whole_suit(Suit::kSpades));
    ASSERT_EQ(g.choose_bid(4), "");
    // Seat 1 is on the leading side: no blind nil offer.
    EXPECT_EQ(g.phase(), Phase::kBid);
    EXPECT_EQ(g.to_act(), 1);
    ASSERT_EQ(g.choose_bid(3), "");
    EXPECT_EQ(g.phase(), Phase::kBlindNil);
    EXPECT_EQ(g.to_act(), 2);
}

// E/W 100 ahead, so South may bid blind nil: N bids 5, E 3, and South is asked next.
Game blind_nil_offered() {
    Game g = spades_at_scores(0, 100);
    EXPECT_EQ(g.choose_blind_nil(false), "");
    EXPECT_EQ(g.choose_bid(5), "");
    EXPECT_EQ(g.choose_bid(3), "");
    return g;
}

TEST(SpadesGame, BlindNilExchangeAndMade) {
    Game g = blind_nil_offered();
    ASSERT_EQ(g.to_act(), 2);
    ASSERT_EQ(g.choose_blind_nil(true), "");
    EXPECT_EQ(g.hand().bids[2], (Bid{0, true}));
    ASSERT_EQ(g.choose_bid(3), "");
    // The exchange: the partner (N) gives 2 cards first, then the blind nil bidder gives 2 back.
    ASSERT_EQ(g.phase(), Phase::kPass);
    ASSERT_EQ(g.to_act(), 0);
    InfoState info = g.info_state(0);
    EXPECT_EQ(info.pass_to, 2);
    EXPECT_EQ(info.pass_count, 2);
    EXPECT_EQ(g.choose_pass(cards("3S")), "pass exactly 2 cards, not 1");
    EXPECT_EQ(g.choose_pass(cards("3S 2S 4S")), "pass exactly 2 cards, not 3");
    EXPECT_EQ(g.choose_pass(cards("3S AD")), "you do not hold AD");
    ASSERT_EQ(g.choose_pass(cards("3S 2S")), "");
    ASSERT_EQ(g.phase(), Phase::kPass);
    ASSERT_EQ(g.to_act(), 2);
    info = g.info_state(2);
    EXPECT_EQ(info.pass_to, 0);
    EXPECT_EQ(info.pass_count, 2);
    EXPECT_EQ(info.hand, CardSet::whole_suit(Suit::kDiamonds) | cards("3S 2S"));
    EXPECT_EQ(info.received, cards("3S 2S"));
    ASSERT_EQ(g.choose_pass(cards("AD KD")), "");
    ASSERT_EQ(g.phase(), Phase::kPlay);
    EXPECT_EQ(g.to_act(), 0);
    EXPECT_EQ(g.play_state().hands[0],
              (CardSet::whole_suit(Suit::kSpades) - cards("3S 2S")) | cards("AD KD"));
    EXPECT_EQ(g.info_state(0).passed, cards("3S 2S"));
    EXPECT_EQ(g.info_state(0).received, cards("AD KD"));
    EXPECT_EQ(g.info_state(2).passed, cards("AD KD"));
    ASSERT_EQ(g.hand().exchanges.size(), 2u);
    EXPECT_EQ(g.hand().exchanges[0], (std::pair<int, CardSet>{0, cards("3S 2S")}));
    EXPECT_EQ(g.hand().exchanges[1], (std::pair<int, CardSet>{2, cards("AD KD")}));
    // N wins every trick (KD, AD, then spades; S must follow with 2S and 3S), S takes none.
    play_out_lowest(g);
    EXPECT_EQ(g.finished_hands()[0].tricks[2], 0);
    EXPECT_EQ(g.finished_hands()[0].tricks[0], 13);
    // N/S: blind nil +200, N 5 of 13: +58. E/W: set -60.
    EXPECT_EQ(scores(g), (std::vector<int>{258, 40}));
}

TEST(SpadesGame, BlindNilFailed) {
    Game g = blind_nil_offered();
    ASSERT_EQ(g.choose_blind_nil(true), "");
    ASSERT_EQ(g.choose_bid(3), "");
    ASSERT_EQ(g.choose_pass(cards("AS KS")), "");
    ASSERT_EQ(g.choose_pass(cards("3D 2D")), "");
    // N leads 2D (spades unbroken), S wins it with 4D: the blind nil fails.
    play_out_lowest(g);
    const HandRecord& h = g.finished_hands()[0];
    EXPECT_EQ(h.trick_winners[0], 2);
    EXPECT_GT(h.tricks[2], 0);
    const int n = h.tricks[0];
    const int expected_ns = -200 + (n >= 5 ? 50 + (n - 5) : -50);
    EXPECT_EQ(h.score.delta[0], expected_ns);
}

TEST(SpadesGame, LeadingSpadesBeforeBroken) {
    // N: AS + 12 hearts; E: KS..2S + AC; S: diamonds; W: AH + KC..2C.
    const char* deal = "N:A.KQJT98765432.. KQJT98765432...A ..AKQJT98765432. .A..KQJT98765432";
    Game g = spades_game("spades-partnership", {}, deal);
    bid_all(g, {1, 1, 1, 1});
    EXPECT_EQ(g.choose_card(C("AS")),
              "spades are not broken yet: you may lead them only when you hold nothing else");
    Game a = spades_game("spades-partnership", {"spades_lead_anytime=true"}, deal);
    bid_all(a, {1, 1, 1, 1});
    EXPECT_EQ(a.choose_card(C("AS")), "");
}

TEST(SpadesGame, FirstLeadTwoClubs) {
    const char* deal = "N:A.KQJT98765432.. KQJT98765432...A ..AKQJT98765432. .A..KQJT98765432";
    Game g = spades_game("spades-partnership", {"first_lead_two_clubs=true"}, deal);
    bid_all(g, {1, 1, 1, 1});
    EXPECT_EQ(g.to_act(), 3);  // W holds the 2C
    EXPECT_EQ(g.choose_card(C("AH")), "the first trick must be opened with 2C");
    play(g, "2C");
}

TEST(SpadesGame, CutthroatThreePlayers) {
    const Rules r = preset("spades-cutthroat3", {"first_lead_two_clubs=true"});
    for (std::uint64_t seed = 1; seed <= 10; ++seed) {
        Game g(r, seed);
        EXPECT_FALSE(g.hand().deal.all_cards().contains(C("2C")));
        EXPECT_EQ(g.phase(), Phase::kBid);
        EXPECT_EQ(g.to_act(), 0);
        EXPECT_EQ(g.choose_bid(18), "a bid is 0 to 17 tricks");
        bid_all(g, {6, 6, 5});
        EXPECT_TRUE(g.play_state().hands[g.to_act()].contains(C("3C")));
        EXPECT_EQ(g.play_state().legal_moves(g.play_rules()), CardSet(C("3C")));
        play_out_lowest(g);
        const HandRecord& h = g.finished_hands()[0];
        EXPECT_EQ(h.tricks[0] + h.tricks[1] + h.tricks[2], 17);
        for (int s = 0; s < 3; ++s) {
            const int t = h.tricks[s], bid = h.bids[s].tricks;
            EXPECT_EQ(h.score.bag_penalties[s], t - bid >= 10 ? 1 : 0);
            EXPECT_EQ(h.score.delta[s], (t >= bid ? 10 * bid + (t - bid) : -10 * bid) -
                                            100 * h.score.bag_penalties[s]);
        }
    }
    // No 2C in the deck: set_deal refuses a deal holding it.
    Game g(preset("spades-cutthroat3"), 1);
    EXPECT_THROW(
        g.set_deal(parse_deal("3:AKQJT9.AKQJT.AKQJ.AK 8765.98765.T98.QJT98 432.432.765432.76542")),
        InputError);
    // Without the option the player to the dealer's left (seat 0) leads any card.
    Game d(preset("spades-cutthroat3"), 1);
    bid_all(d, {6, 6, 5});
    EXPECT_EQ(d.to_act(), 0);
}

TEST(SpadesGame, CutthroatFourPlayersScoresPerPlayer) {
    Game g = spades_game("spades-cutthroat4", {}, kSpadesAllToNorth);
    EXPECT_EQ(g.phase(), Phase::kBid);
    bid_all(g, {5, 0, 0, 3});
    play_out_lowest(g);
    EXPECT_EQ(scores(g), (std::vector<int>{58, 100, 100, -30}));
    EXPECT_EQ(g.scores().bags[0], 8);
}

TEST(SpadesGame, EndsAtTarget) {
    Game g = spades_at_scores(350, 300);
    bid_all(g, {5, 0, 0, 3});
    play_out_lowest(g);
    EXPECT_TRUE(g.over());
    EXPECT_EQ(scores(g), (std::vector<int>{508, 370}));
    EXPECT_EQ(g.winners(), std::vector<int>{0});
}

TEST(SpadesGame, TieOverTargetContinues) {
    Game g = spades_at_scores(350, 438);
    bid_all(g, {5, 0, 0, 3});
    play_out_lowest(g);
    EXPECT_EQ(scores(g), (std::vector<int>{508, 508}));
    EXPECT_FALSE(g.over());
    EXPECT_TRUE(g.winners().empty());
    EXPECT_EQ(g.hand().number, 1);
    EXPECT_EQ(g.hand().dealer, 0);
    EXPECT_EQ(g.to_act(), 1);  // the new dealer's left bids first
}

TEST(SpadesGame, EndsAtLossThreshold) {
    Game g = spades_at_scores(-50, 0);
    bid_all(g, {0, 3, 4, 3});
    play_out_lowest(g);
    EXPECT_EQ(scores(g), (std::vector<int>{-190, -60}));
    EXPECT_FALSE(g.over());
    Game l = spades_at_scores(-60, 0);
    bid_all(l, {0, 3, 4, 3});
    play_out_lowest(l);
    EXPECT_EQ(scores(l), (std::vector<int>{-200, -60}));
    EXPECT_TRUE(l.over());
    EXPECT_EQ(l.winners(), std::vector<int>{1});
}

TEST(SpadesGame, NilNotAllowed) {
    Game g = spades_game("spades-partnership", {"nil=false"}, kSpadesAllToNorth);
    EXPECT_EQ(g.choose_bid(0), "nil bids are not allowed in these rules: bid 1 or more");
    EXPECT_EQ(g.choose_bid(1), "");
}

TEST(SpadesGame, StopAfterHand) {
    Game g = spades_game("spades-partnership", {}, kSpadesAllToNorth);
    g.stop_after_hand();
    bid_all(g, {5, 0, 0, 3});
    play_out_lowest(g);
    EXPECT_TRUE(g.over());
    EXPECT_TRUE(g.winners().empty());
}

}  // namespace
}  // namespace cardgames
