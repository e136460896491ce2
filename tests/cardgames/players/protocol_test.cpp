// The bot protocol: the table's lines rebuild exactly the InfoState the seat sees in-process, and
// the answers are checked. (External programs at a table: tests/sampling/external_bot_test.cpp,
// where the registry that seats them by spec is.)
#include "cardgames/players/protocol.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <boost/random/mersenne_twister.hpp>
#include <sstream>

#include "cardgames/cards/error.hpp"
#include "cardgames/players/random_bot.hpp"
#include "cardgames/players/rule_bot.hpp"
#include "cardgames/rules/game_runner.hpp"
#include "cardgames/rules/record.hpp"

namespace cardgames {
namespace {

const char* kPresets[] = {
    "hearts3",           "hearts4",          "hearts5", "hearts6", "spades-partnership",
    "spades-cutthroat3", "spades-cutthroat4"};

Rules preset(const std::string& name) {
    return load_rules(preset_path(name), {});
}

// The random bot, except that it bids blind nil whenever it may, so that exchanges happen.
class BlindNilBot : public Player {
  public:
    explicit BlindNilBot(std::uint64_t seed) : inner_(seed), rng_(seed) {}
    std::string name() const override { return "blind-nil"; }
    bool blind_nil(const InfoState&) override { return rng_() % 2 == 0; }
    int bid(const InfoState& info) override { return inner_.bid(info); }
    CardSet pass(const InfoState& info) override { return inner_.pass(info); }
    Card play(const InfoState& info) override { return inner_.play(info); }

  private:
    RandomBot inner_;
    boost::random::mt19937_64 rng_;
};

// The bots seated here, by the name the traces show. Made directly: the registry of bots by name
// sits above this library (sampling/bot_registry.hpp).
std::unique_ptr<Player> make_test_bot(const std::string& name, std::uint64_t seed) {
    if (name == "blind-nil") return std::make_unique<BlindNilBot>(seed);
    if (name == "rule") return std::make_unique<RuleBot>(seed);
    return std::make_unique<RandomBot>(seed);
}

void expect_same_info(const InfoState& a, const InfoState& b, const std::string& where) {
    EXPECT_EQ(rules_to_pairs(*a.rules), rules_to_pairs(*b.rules)) << where;
    EXPECT_EQ(a.seat, b.seat) << where;
    EXPECT_EQ(a.dealer, b.dealer) << where;
    EXPECT_EQ(a.hand_number, b.hand_number) << where;
    EXPECT_EQ(a.last_hand, b.last_hand) << where;
    EXPECT_EQ(a.phase, b.phase) << where;
    EXPECT_EQ(a.hand, b.hand) << where << " hand " << cards_to_string(a.hand) << " vs "
                              << cards_to_string(b.hand);
    EXPECT_EQ(a.dealt, b.dealt) << where;
    EXPECT_EQ(a.passed, b.passed) << where;
    EXPECT_EQ(a.received, b.received) << where;
    EXPECT_EQ(a.pass_to, b.pass_to) << where;
    EXPECT_EQ(a.pass_count, b.pass_count) << where;
    EXPECT_EQ(a.bids, b.bids) << where;
    EXPECT_EQ(a.plays, b.plays) << where;
    EXPECT_EQ(a.play.hands, b.play.hands) << where;
    EXPECT_EQ(a.play.played, b.play.played) << where;
    EXPECT_EQ(a.play.trick, b.play.trick) << where;
    EXPECT_EQ(a.play.tricks_won, b.play.tricks_won) << where;
    EXPECT_EQ(a.play.points, b.play.points) << where;
    EXPECT_EQ(a.play.players, b.play.players) << where;
    EXPECT_EQ(a.play.leader, b.play.leader) << where;
    EXPECT_EQ(a.play.to_move, b.play.to_move) << where;
    EXPECT_EQ(a.play.trick_size, b.play.trick_size) << where;
    EXPECT_EQ(a.play.tricks_played, b.play.tricks_played) << where;
    for (int t = 0; t < std::min(a.play.tricks_played, b.play.tricks_played); ++t)
        EXPECT_EQ(a.trick_winners[t], b.trick_winners[t]) << where << " trick " << t;
    EXPECT_EQ(a.play.broken, b.play.broken) << where;
    EXPECT_EQ(a.scores.score, b.scores.score) << where;
    EXPECT_EQ(a.scores.bags, b.scores.bags) << where;
}

// Plays a seat through the protocol without a process: the table's lines go into a BotView, the
// inner bot decides on the rebuilt InfoState (which must equal the table's), and its answer line
// goes back through check_answer.
class LoopbackPlayer : public Player {
  public:
    LoopbackPlayer(std::unique_ptr<Player> inner, std::uint64_t seed)
        : writer_(seed), inner_(std::move(inner)) {}
    std::string name() const override { return "loopback"; }
    bool blind_nil(const InfoState& info) override { return through(info).blind; }
    int bid(const InfoState& info) override { return through(info).bid; }
    CardSet pass(const InfoState& info) override { return through(info).cards; }
    Card play(const InfoState& info) override { return through(info).card; }
    void hand_over(const HandRecord& hand, bool game_over,
                   const std::vector<int>& winners) override {
        for (const std::string& line : writer_.hand_over(hand, game_over, winners)) {
            lines_.push_back(line);
            EXPECT_EQ(view_.feed(line), std::nullopt) << line;
        }
    }
    const std::vector<std::string>& lines() const { return lines_; }

  private:
    protocol::Answer through(const InfoState& info) {
        const std::vector<std::string> lines = writer_.decision(info);
        std::optional<Phase> asked;
        for (const std::string& line : lines) {
            lines_.push_back(line);
            asked = view_.feed(line);
        }
        EXPECT_EQ(asked, info.phase) << lines.back();
        const std::string where = "seat " + std::to_string(info.seat) + " hand " +
                                  std::to_string(info.hand_number) + " at '" + lines.back() + "'";
        expect_same_info(view_.info(), info, where);
        EXPECT_EQ(view_.seed(), seed_for_check_) << where;
        const InfoState& mine = view_.info();
        std::string answer;
        switch (info.phase) {
            case Phase::kBlindNil:
                answer = protocol::format_blind_nil(inner_->blind_nil(mine));
                break;
            case Phase::kBid:
                answer = protocol::format_bid(inner_->bid(mine));
                break;
            case Phase::kPass:
                answer = protocol::format_pass(inner_->pass(mine));
                break;
            default:
                answer = protocol::format_play(inner_->play(mine));
                break;
        }
        const protocol::Answer a = protocol::check_answer(info, answer);
        EXPECT_EQ(a.status, protocol::Answer::Status::kOk)
            << where << ": " << answer << ": " << a.why;
        return a;
    }

  public:
    std::uint64_t seed_for_check_ = 0;

  private:
    protocol::TableWriter writer_;
    protocol::BotView view_;
    std::unique_ptr<Player> inner_;
    std::vector<std::string> lines_;
};

TEST(Protocol, RebuiltInfoStateEqualsTheTablesAndTheGameIsTheSame) {
    int exchanges = 0;
    for (const char* name : kPresets) {
        const Rules rules = preset(name);
        for (const char* bot : {"random", "rule", "blind-nil"}) {
            for (std::uint64_t seed = 1; seed <= 3; ++seed) {
                SCOPED_TRACE(std::string(name) + " " + bot + " seed " + std::to_string(seed));
                std::vector<std::unique_ptr<Player>> through, direct;
                std::vector<std::string> names;
                for (int s = 0; s < rules.players; ++s) {
                    auto lp = std::make_unique<LoopbackPlayer>(
                        make_test_bot(bot, mix_seed(seed, s)), mix_seed(seed, s));
                    lp->seed_for_check_ = mix_seed(seed, s);
                    through.push_back(std::move(lp));
                    direct.push_back(make_test_bot(bot, mix_seed(seed, s)));
                    names.push_back(bot);
                }
                Game a(rules, seed), b(rules, seed);
                run_game(a, through);
                run_game(b, direct);
                ASSERT_TRUE(a.over());
                EXPECT_EQ(game_record(a, names).dump(), game_record(b, names).dump());
                for (const HandRecord& h : a.finished_hands())
                    exchanges += static_cast<int>(h.exchanges.size());
                // The last lines a seat hears close the game.
                const auto& lines = static_cast<LoopbackPlayer&>(*through[0]).lines();
                ASSERT_GE(lines.size(), 2u);
                EXPECT_EQ(lines.back().rfind("gameover winners=", 0), 0u) << lines.back();
                EXPECT_EQ(lines[lines.size() - 2].rfind("handover tricks=", 0), 0u);
            }
        }
    }
    EXPECT_GT(exchanges, 0) << "no blind nil exchange was exercised";
}

TEST(Protocol, OpeningLinesOfAHeartsGame) {
    const Rules rules = preset("hearts4");
    Game game(rules, 5);
    protocol::TableWriter writer(77);
    const InfoState info = game.info_state(0);
    const std::vector<std::string> lines = writer.decision(info);
    ASSERT_EQ(lines.size(), 6u);
    EXPECT_EQ(lines[0], "cardgames-protocol 1");
    EXPECT_EQ(lines[1], "game hearts players=4 seat=0 seed=77");
    EXPECT_EQ(lines[2].rfind("rules game=hearts players=4 ", 0), 0u) << lines[2];
    EXPECT_EQ(lines[3], "hand 0 dealer=3 pass=left scores=0,0,0,0");
    EXPECT_EQ(lines[4], "cards " + cards_to_string(info.dealt));
    EXPECT_EQ(lines[5], "ask pass count=3 to=1 " + cards_to_string(info.dealt));
    // Nothing new: only the ask again.
    EXPECT_EQ(writer.decision(info), std::vector<std::string>{lines[5]});
}

TEST(Protocol, OpeningLinesOfASpadesGame) {
    const Rules rules = preset("spades-partnership");
    Game game(rules, 5);
    ASSERT_EQ(game.choose_bid(3), "");  // seat 0 bids first
    protocol::TableWriter writer(1);
    const std::vector<std::string> lines = writer.decision(game.info_state(1));
    ASSERT_EQ(lines.size(), 7u);
    EXPECT_EQ(lines[3], "hand 0 dealer=3 scores=0,0 bags=0,0");
    EXPECT_EQ(lines[5], "bid 0 3");
    EXPECT_EQ(lines[6], "ask bid 0 1 2 3 4 5 6 7 8 9 10 11 12 13");
    // A game of one hand (a tournament by hands) says so, and the bot's view has it.
    Game one(rules, 5);
    one.stop_after_hand();
    const InfoState info = one.info_state(0);
    ASSERT_TRUE(info.last_hand);
    const std::vector<std::string> last = protocol::TableWriter(1).decision(info);
    EXPECT_EQ(last[3], "hand 0 dealer=3 scores=0,0 bags=0,0 last=1");
    protocol::BotView view;
    for (const std::string& line : last) view.feed(line);
    EXPECT_TRUE(view.info().last_hand);
    expect_same_info(view.info(), info, "last hand");
}

TEST(Protocol, AnswersAreCheckedAgainstTheDecision) {
    using S = protocol::Answer::Status;
    const Rules rules = preset("hearts4");
    Game game(rules, 5);
    InfoState pass = game.info_state(0);
    const std::string hand = cards_to_string(pass.hand);
    const std::string three = hand.substr(0, 8);
    EXPECT_EQ(protocol::check_answer(pass, three).status, S::kOk);
    EXPECT_EQ(protocol::check_answer(pass, "pass " + three).status, S::kOk);
    EXPECT_EQ(protocol::check_answer(pass, "").status, S::kMalformed);
    EXPECT_EQ(protocol::check_answer(pass, "XX YY ZZ").status, S::kMalformed);
    EXPECT_EQ(protocol::check_answer(pass, hand.substr(0, 5)).status, S::kIllegal);
    const CardSet others = rules.deck() - pass.hand;
    EXPECT_EQ(protocol::check_answer(
                  pass, cards_to_string(CardSet(others.lowest())) + " " + hand.substr(0, 5))
                  .status,
              S::kIllegal);
    EXPECT_EQ(protocol::check_answer(
                  pass, hand.substr(0, 2) + " " + hand.substr(0, 2) + " " + hand.substr(3, 2))
                  .status,
              S::kIllegal);

    Game spades(preset("spades-partnership"), 5);
    const InfoState bid = spades.info_state(0);
    EXPECT_EQ(protocol::check_answer(bid, "4").bid, 4);
    EXPECT_EQ(protocol::check_answer(bid, "bid nil").bid, 0);
    EXPECT_EQ(protocol::check_answer(bid, "14").status, S::kIllegal);
    EXPECT_EQ(protocol::check_answer(bid, "four").status, S::kMalformed);
    EXPECT_EQ(protocol::check_answer(bid, "4 5").status, S::kMalformed);

    // Hearts with no passing: seat holding the 2C must lead it.
    Game hold(load_rules(preset_path("hearts4"), {"no_passing=true"}), 5);
    const InfoState play = hold.info_state(hold.to_act());
    EXPECT_EQ(protocol::check_answer(play, "2C").status, S::kOk);
    EXPECT_EQ(protocol::check_answer(play, "play 2c").card, Card(Suit::kClubs, 2));
    const Card other = (play.hand - Card(Suit::kClubs, 2)).lowest();
    const protocol::Answer wrong = protocol::check_answer(play, to_string(other));
    EXPECT_EQ(wrong.status, S::kIllegal);
    EXPECT_NE(wrong.why.find("2C"), std::string::npos) << wrong.why;
    EXPECT_EQ(protocol::check_answer(play, "2C 3C").status, S::kMalformed);
}

TEST(Protocol, BotViewRejectsLinesThatDoNotAddUp) {
    protocol::BotView view;
    EXPECT_THROW(view.feed("cardgames-protocol 2"), protocol::ProtocolError);
    EXPECT_THROW(view.feed("hand 0 dealer=3"),
                 protocol::ProtocolError);  // before the protocol line
    view.feed("cardgames-protocol 1");
    EXPECT_THROW(view.feed("hand 0 dealer=3"), protocol::ProtocolError);  // before game and rules
    view.feed("game hearts players=4 seat=2 seed=9");
    view.feed("rules game=hearts players=4");
    view.feed("hand 3 dealer=3 pass=hold scores=0,0,0,0");
    view.feed("cards AS KS QS 5H 4H 9D 8D 7D KC 9C 5C 4C 3C");
    EXPECT_THROW(view.feed("card 7 2C"), protocol::ProtocolError);
    view.feed("card 0 2C");
    EXPECT_THROW(view.feed("card 2 ZZ"), protocol::ProtocolError);
    EXPECT_THROW(view.feed("card 0 3C"), protocol::ProtocolError);  // seat 1 is due
    EXPECT_EQ(view.feed("some-future-event 1 2 3"), std::nullopt);  // ignored
    EXPECT_EQ(view.seed(), 9u);
    static_assert(std::is_base_of_v<InputError, protocol::ProtocolError>,
                  "bad input: exit status 2");
}

// ------------------------------------------------------------------ the bot side's session

std::vector<std::string> split_lines(const std::string& text) {
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) out.push_back(line);
    return out;
}

std::string run_session(const std::string& input) {
    std::istringstream in(input);
    std::ostringstream out;
    protocol::run_bot_session(in, out,
                              [](std::uint64_t seed) { return std::make_unique<RuleBot>(seed); });
    return out.str();
}

// The message of the InputError the session ends with; "" when it ends well.
std::string session_error(const std::string& input) {
    try {
        run_session(input);
    } catch (const InputError& e) {
        return e.what();
    }
    return "";
}

const std::string kHeartsStart =
    "cardgames-protocol 1\n"
    "game hearts players=4 seat=2 seed=12345\n"
    "rules game=hearts players=4 pass_count=3\n"
    "hand 0 dealer=3 pass=left scores=0,0,0,0\n"
    "cards AS KS QS 5H 4H 9D 8D 7D KC 9C 5C 4C 3C\n";
const std::string kHeartsPass = "ask pass count=3 to=3 AS KS QS 5H 4H 9D 8D 7D KC 9C 5C 4C 3C\n";
const std::string kHeartsPassed = "passed 3 AS KS QS\nreceived 1 2C JC TD\n";
const std::string kSpadesStart =
    "cardgames-protocol 1\n"
    "game spades players=4 seat=1 seed=7\n"
    "rules game=spades players=4 partnership=true\n"
    "hand 0 dealer=3 scores=0,0 bags=0,0\n"
    "cards AS KS 5S 2S AH QH 9H 4H 8D 7D KC 9C 5C\n";
const std::string kSpadesBid = "ask bid 0 1 2 3 4 5 6 7 8 9 10 11 12 13\n";

TEST(Protocol, BotSessionAnswersEachAsk) {
    const std::string out = run_session(kHeartsStart + kHeartsPass + kHeartsPassed +
                                        "card 2 2C\ncard 3 7C\ncard 0 8C\ncard 1 QC\ntrick 1\ncard "
                                        "1 AC\nask play KC JC 9C 5C 4C 3C\nend\n");
    const std::vector<std::string> answers = split_lines(out);
    ASSERT_EQ(answers.size(), 2u) << out;
    EXPECT_EQ(answers[0].size(), 8u) << answers[0];  // three cards
    EXPECT_EQ(run_session(kSpadesStart + "bid 0 4\n" + kSpadesBid).empty(), false);
    EXPECT_EQ(run_session(""), "");
}

// Each failure issue 18 lists, and the other ways a table can make no sense: the session ends with
// an InputError naming the line, before any bot sees the state.
TEST(Protocol, BotSessionRefusesTablesThatMakeNoSense) {
    struct Case {
        std::string input;
        int line;
        std::string says;
    };
    const std::string play_start = kHeartsStart + kHeartsPass + kHeartsPassed + "card 2 2C\n";
    const Case cases[] = {
        {kHeartsStart + "ask pass count=-1 to=3 AS KS QS 5H 4H 9D 8D 7D KC 9C 5C 4C 3C\n", 6,
         "count -1 is out of range"},
        {kHeartsStart + "ask pass count=13 to=3 AS KS QS 5H 4H 9D 8D 7D KC 9C 5C 4C 3C\n", 6,
         "the pass is count=3 to=3"},
        {kHeartsStart + "ask pass count=3 to=1 AS KS QS 5H 4H 9D 8D 7D KC 9C 5C 4C 3C\n", 6,
         "the pass is count=3 to=3"},
        {kHeartsStart + "ask pass count=3 to=3 AS KS QS\n", 6, "the table lists AS KS QS"},
        {"cardgames-protocol 1\ngame hearts players=4 seat=2\nrules game=hearts players=4\nhand 0 "
         "dealer=3\nask pass count=3 to=3 AS KS QS\n",
         5, "before this seat's cards were dealt"},
        {"cardgames-protocol 1\ngame hearts players=4 seat=2\nrules game=hearts players=4\nhand 3 "
         "dealer=3\nask play 2C\n",
         5, "before this seat's cards were dealt"},
        {"cardgames-protocol 1\ngame hearts players=4 seat=2\nrules game=hearts players=4\nhand 0 "
         "dealer=3\ncards AS AS\n",
         5, "AS is named twice"},
        {"cardgames-protocol 1\ngame hearts players=4 seat=2\nrules game=hearts players=4\nhand 0 "
         "dealer=3\ncards AS KS\n",
         5, "a hand has 13"},
        {kHeartsStart + kHeartsPass + "passed 3 AS KS QS\nreceived 1 KC 9C 5C\n", 8,
         "this seat was dealt KC 9C 5C"},
        {kHeartsStart + kHeartsPass + "passed 3 AS KS QS JS\n", 7,
         "4 cards passed: these rules pass 3"},
        {kHeartsStart + kHeartsPass + "passed 1 AS KS QS\n", 7, "passes to seat 3"},
        {kHeartsStart + kHeartsPass + "passed 3 AS KS QS\nreceived 1 2C JC\n", 8,
         "2 cards received: these rules pass 3"},
        {kHeartsStart + kHeartsPass + "passed 3 AS KS QS\nreceived 3 2C JC TD\n", 8,
         "this hand this seat receives from seat 1"},
        {play_start + "card 3 KC\n", 10, "KC is in this seat's hand"},
        {play_start + "card 0 3D\n", 10, "seat 3 is due to play"},
        {play_start + "card 3 2C\n", 10, "2C was already played"},
        {play_start + "card 3 AD\ncard 0 8C\ncard 1 QC\ntrick 1\ncard 1 AC\ncard 2 KC\ncard 3 6C\n",
         16, "seat 3 cannot hold 6C"},
        {play_start + "card 3 7C\ncard 0 8C\ncard 1 QC\ntrick 1\ncard 1 AS\n", 14,
         "AS is seat 3's"},
        {play_start + "card 3 7C\ncard 0 8C\ncard 1 QC\ntrick 0\n", 13, "seat 1 won the trick"},
        {play_start + "card 3 7C\ncard 0 8C\ncard 1 QC\ncard 1 AC\n", 13, "'trick' line"},
        {play_start + "card 3 7C\ncard 0 8C\ncard 1 QC\ntrick 1\ncard 1 AC\nask play KC JC 5H\n",
         15, "the choices are KC JC 9C 5C 4C 3C"},
        {play_start + "card 3 7C\ntrick 3\n", 11, "no trick is complete"},
        {kHeartsStart + kHeartsPass + kHeartsPassed + "card 3 3C\n", 9,
         "the hand's first card must be 2C"},
        {kHeartsStart + kHeartsPass + kHeartsPassed +
             "handover tricks=0,0,13,0 points=0,0,26,0 moon=-1 delta=0,0,26,0 scores=0,0,26,0\n",
         9, "the hand is not over"},
        {kSpadesStart + "bid 0 2147483647\n" + kSpadesBid, 6,
         "tricks 2147483647 is out of range 0..13"},
        {kSpadesStart + "bid 0 -1\n" + kSpadesBid, 6, "tricks -1 is out of range"},
        {kSpadesStart + "bid 0 4 blind\n", 6, "a blind bid is blind nil"},
        {kSpadesStart + "bid 0 0 blind\n", 6, "blind nil is not allowed for seat 0"},
        {kSpadesStart + "bid 2 4\n", 6, "seat 0 bids next"},
        {kSpadesStart + "bid 0 4\nbid 1 4\nbid 2 4\nbid 3 4\nbid 0 4\n", 10, "every seat has bid"},
        {kSpadesStart + "bid 0 4\nask bid 1 2 3 4 5 6 7 8 9 10 11 12 13\n", 7,
         "the choices are 0 1 2"},
        {kSpadesStart + "bid 0 4\nask blind_nil yes no\n", 7, "may not bid blind nil"},
        {kSpadesStart + "ask bid 0 1 2 3 4 5 6 7 8 9 10 11 12 13\n", 6,
         "this seat is not the one to bid"},
        {kSpadesStart + "bid 0 4\nbid 1 4\nbid 2 4\nbid 3 4\nexchange 0 2\n", 10,
         "no blind nil exchange is due"},
        {kSpadesStart + "bid 0 4\nbid 1 4\nbid 2 4\nbid 3 4\ncard 1 AS\n", 10,
         "seat 0 leads the hand"},
        {"cardgames-protocol 1\ngame spades players=4 seat=1\nrules game=spades players=4\nhand 0 "
         "dealer=3 scores=2147483647,0 bags=0,0\n",
         4, "scores 2147483647 is out of range"},
        {"cardgames-protocol 1\ngame spades players=4 seat=1\nrules game=spades players=4\nhand 0 "
         "dealer=3 scores=0,0 bags=10,0\n",
         4, "bags 10 is out of range 0..9"},
        {"cardgames-protocol 1\ngame spades players=4 seat=1\nrules game=spades players=4\nhand 0 "
         "dealer=3 scores=0,0 bags=0,0 last=yes\n",
         4, "last 'yes' is not a whole number"},
        {"cardgames-protocol 1\ngame spades players=4 seat=1\nrules game=spades players=4 "
         "target=2147483647\n",
         3, "target=2147483647: must be 1 to 100000"},
        {"cardgames-protocol 1\ngame hearts players=4 seat=2\nrules game=hearts players=4\nhand -1 "
         "dealer=3\n",
         4, "hand number -1 is out of range"},
        {"cardgames-protocol 1\ngame hearts players=4 seat=2\nrules game=hearts players=4\nhand 1 "
         "dealer=3 pass=left\n",
         4, "passes right"},
        {"cardgames-protocol 1\ngame hearts players=4 seat=2\nrules game=hearts players=4\nhand 0 "
         "dealer=4\n",
         4, "seat 4 is out of range 0..3"},
        {"cardgames-protocol 1\ngame hearts players=4 seat=4\n", 2, "seat 4 is out of range"},
        {"cardgames-protocol 1\ngame hearts players=4 seat=1\nrules game=spades players=4\n", 3,
         "the 'game' line named the other game"},
        {"cardgames-protocol 1\ngame hearts players=4 seat=1\nrules game=hearts players=5\n", 3,
         "the 'game' line said 4"},
        {"cardgames-protocol 1\ngame hearts players=4 seat=1 seed=-3\n", 2,
         "seed=-3 is not a number"},
        {"cardgames-protocol 1\nhand 0 dealer=0\n", 2, "before the 'game' line"},
        {"game hearts players=4 seat=1\n", 1, "the first line must be 'cardgames-protocol 1'"},
        {"cardgames-protocol 1\ncardgames-protocol 1\n", 2, "a second protocol line"},
        {"cardgames-protocol 1\ngame hearts players=4 seat=1\nrules game=hearts players=4\nhand 0 "
         "dealer=3\ngameover winners= scores=0,0,0,0\n",
         5, "while a hand is in progress"},
        {kHeartsStart + "ask dance\n", 6, "unknown decision 'dance'"},
        {kHeartsStart + "ask play \x01\xff\n", 6, "\\x01\\xff"},
    };
    for (const Case& c : cases) {
        const std::string error = session_error(c.input);
        const std::string line = "table line " + std::to_string(c.line) + ": ";
        EXPECT_EQ(error.rfind(line, 0), 0u) << c.input << "\n=> " << error;
        EXPECT_NE(error.find(c.says), std::string::npos) << c.input << "\n=> " << error;
        // The offending line's text, safe to print.
        const std::string text = split_lines(c.input)[static_cast<std::size_t>(c.line - 1)];
        if (text.find_first_of("\x01\xff") == std::string::npos) {
            EXPECT_NE(error.find("'" + text.substr(0, 80)), std::string::npos) << error;
        }
        for (char ch : error) EXPECT_TRUE(ch >= 0x20 && ch < 0x7f) << error;
    }
}

TEST(Protocol, BotSessionChecksTheHandsScoreByItsOwnAccount) {
    // A whole game through the protocol, as seat 0 hears it: accepted as sent, refused with any
    // number of its handover changed.
    const Rules rules = preset("spades-partnership");
    std::vector<std::unique_ptr<Player>> players;
    auto seat0 = std::make_unique<LoopbackPlayer>(std::make_unique<RuleBot>(1), 1);
    seat0->seed_for_check_ = 1;
    players.push_back(std::move(seat0));
    for (int s = 1; s < 4; ++s) players.push_back(std::make_unique<RuleBot>(mix_seed(5, s)));
    Game game(rules, 5);
    run_game(game, players);
    const std::vector<std::string> lines = static_cast<LoopbackPlayer&>(*players[0]).lines();
    std::string session;
    std::size_t handover = 0;
    for (std::size_t i = 0; i < lines.size(); ++i) {
        if (lines[i].rfind("ask ", 0) == 0) continue;  // our rule bot answers them itself
        session += lines[i] + "\n";
        if (!handover && lines[i].rfind("handover ", 0) == 0) handover = i;
    }
    EXPECT_EQ(session_error(session), "");
    ASSERT_GT(handover, 0u);
    for (const char* key : {"tricks=", "delta=", "scores=", "bags="}) {
        std::string bad = session;
        const std::size_t at = bad.find(lines[handover]);
        const std::size_t value = bad.find(key, at) + std::string(key).size();
        bad.insert(value, "1");  // 10 tricks for 0, 1 more point, ...
        EXPECT_NE(session_error(bad).find("handover"), std::string::npos) << key;
    }
}

}  // namespace
}  // namespace cardgames
