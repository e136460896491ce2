// The Monte-Carlo player: legal, complete games in every form; decisions identical for any
// thread count and reproducible from the seed (these tests also run under ThreadSanitizer).
#include "sampling/pimc.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <tuple>
#include <vector>

#include "cardgames/cards/deal.hpp"
#include "cardgames/cards/error.hpp"
#include "cardgames/players/rule_bot.hpp"
#include "cardgames/rules/game_runner.hpp"
#include "pimc_decisions.hpp"
#include "sampling/bot_registry.hpp"
#include "sampling/ismcts.hpp"
#include "sampling/playout.hpp"
#include "sampling/policy.hpp"

namespace sampling {
namespace {

using namespace cardgames;

// Small settings keep the suite quick; the algorithms are the same as at the defaults.
constexpr const char* kQuick = "pimc:worlds=6,nodes=3000,rollouts=6";

TEST(Pimc, PlaysWholeHandsLegallyInEveryForm) {
    for (const char* preset : {"hearts4", "hearts3", "hearts5", "hearts6", "spades-partnership",
                               "spades-cutthroat3", "spades-cutthroat4"}) {
        const Rules rules = load_rules(preset_path(preset), {});
        Game game(rules, 11);
        game.stop_after_hand();
        std::vector<std::unique_ptr<Player>> players;
        for (int s = 0; s < rules.players; ++s)
            players.push_back(make_player(s % 2 ? "rule" : kQuick, mix_seed(11, s)));
        run_game(game, players);  // throws on any illegal choice
        ASSERT_EQ(game.finished_hands().size(), 1u) << preset;
    }
}

TEST(Pimc, ReproducibleFromTheSeedAndSensitiveToIt) {
    const std::string a = decisions(kQuick, "hearts4", 21);
    EXPECT_EQ(a, decisions(kQuick, "hearts4", 21));
    // Another seed deals other cards: the hands differ.
    EXPECT_NE(a, decisions(kQuick, "hearts4", 22));
}

TEST(Pimc, AnalysisCoversEveryLegalCardAndPicksTheBest) {
    const Rules rules = load_rules(preset_path("hearts4"), {"no_passing=true"});
    Game game(rules, 3);
    PimcBot bot(PimcOptions::from_spec(parse_bot_spec(kQuick)), 1);
    // Play until some seat has a real choice.
    auto rule = rule_players(4);
    while (game.play_state().legal_moves(game.play_rules()).size() < 2) step_game(game, rule);
    const InfoState info = game.info_state(game.to_act());
    const PimcAnalysis a = bot.analyze(info);
    ASSERT_TRUE(a.searched);
    EXPECT_EQ(static_cast<int>(a.cards.size()), info.legal_cards().size());
    EXPECT_EQ(a.worlds, 6);
    double best = -1e9;
    for (const auto& cv : a.cards) best = std::max(best, cv.mean);
    for (const auto& cv : a.cards)
        if (cv.card == a.best) {
            EXPECT_EQ(cv.mean, best);
        }
}

// The same card chosen, and the same mean for every card.
// worlds_max: rounds of `worlds` worlds until the best card leads clearly. A decision that took k
// rounds is the decision of k times the worlds (no node budget, so each world is valued alike).
TEST(Pimc, WorldsMaxAddsRoundsUntilTheChoiceIsClear) {
    const Rules rules = load_rules(preset_path("spades-partnership"), {});
    const std::string spec = "pimc:worlds=8,budget=0,exact=3,rollouts=6";
    PimcBot adaptive(PimcOptions::from_spec(parse_bot_spec(spec + ",worlds_max=32")), 1);
    Game game(rules, 4);
    game.stop_after_hand();
    auto rule = rule_players(4);
    int one_round = 0, more_rounds = 0;
    while (!game.over()) {
        if (game.phase() == Phase::kPlay && game.to_act() % 2 == 0) {
            const InfoState info = game.info_state(game.to_act());
            const PimcAnalysis a = adaptive.analyze(info);
            if (a.searched) {
                ASSERT_EQ(a.worlds % 8, 0);
                ASSERT_LE(a.worlds, 32);
                (a.worlds == 8 ? one_round : more_rounds) += 1;
                PimcBot fixed(PimcOptions::from_spec(
                                  parse_bot_spec("pimc:worlds=" + std::to_string(a.worlds) +
                                                 ",budget=0,exact=3,rollouts=6")),
                              1);
                expect_same_analysis(a, fixed.analyze(info));
            }
        }
        step_game(game, rule);
    }
    EXPECT_GT(one_round, 0);
    EXPECT_GT(more_rounds, 0);
}

// Calls f(game, info) at every card decision of rule-played partnership Spades hands, dealt by
// seeds 1, 2, ... until done() (at most 199 hands).
template <class Done, class F>
void for_each_spades_decision(Done&& done, F&& f) {
    const Rules rules = load_rules(preset_path("spades-partnership"), {});
    for (std::uint64_t seed = 1; seed < 200 && !done(); ++seed) {
        Game game(rules, seed);
        game.stop_after_hand();
        auto rule = rule_players(4);
        while (!game.over() && !done()) {
            if (game.phase() == Phase::kPlay) f(game, game.info_state(game.to_act()));
            step_game(game, rule);
        }
    }
}

// Whether seat `s` bid nil and, so far in `game`, took tricks (`caught`) or none.
bool nil_bid(const Game& game, const InfoState& info, int s, bool caught) {
    const auto i = static_cast<std::size_t>(s);
    const Bid& bid = info.bids[i];
    return bid.is_nil() && bid.nil_stands(game.play_state().tricks_won[i]) != caught;
}

// nil_worlds: while the seat's own nil or its partner's stands (bid, no trick taken), a card
// decision is the decision of that many worlds; otherwise, of `worlds`. Seats 0 and 2 are one
// side, 1 and 3 the other.
TEST(Pimc, NilWorldsDealMoreWorldsWhileTheSidesNilStands) {
    const std::string spec = "pimc:budget=0,exact=3,rollouts=6,worlds=";
    PimcBot nil_bot(PimcOptions::from_spec(parse_bot_spec(spec + "4,nil_worlds=12")), 1);
    PimcBot four(PimcOptions::from_spec(parse_bot_spec(spec + "4")), 1);
    PimcBot twelve(PimcOptions::from_spec(parse_bot_spec(spec + "12")), 1);
    int standing = 0, not_standing = 0, broken = 0;
    for_each_spades_decision(
        [&] { return standing > 0 && broken > 0; },
        [&](const Game& game, const InfoState& info) {
            const int seat = info.seat, partner = (info.seat + 2) % 4;
            const bool stands =
                nil_bid(game, info, seat, false) || nil_bid(game, info, partner, false);
            const PimcAnalysis a = nil_bot.analyze(info);
            if (!a.searched) return;
            ASSERT_EQ(a.worlds, stands ? 12 : 4);
            expect_same_analysis(a, (stands ? twelve : four).analyze(info));
            (stands ? standing : not_standing) += 1;
            if (!stands && (nil_bid(game, info, seat, true) || nil_bid(game, info, partner, true)))
                ++broken;
        });
    EXPECT_GT(standing, 0);
    EXPECT_GT(not_standing, 0);
    EXPECT_GT(broken, 0);  // a nil that took a trick no longer counts
}

// rotate=on: each set of worlds is one sampled deal and its turns among the seats alike
// (HandRotation, tested with the sampler). A set's first world is the deal rotate=off deals under
// the same number, so one world decides alike; more worlds differ.
TEST(Pimc, RotateDealsSetsOfWorldsFromOneDeal) {
    const std::string spec = "pimc:budget=0,exact=3,rollouts=6,worlds=";
    PimcBot one_rotated(PimcOptions::from_spec(parse_bot_spec(spec + "1,rotate=on")), 1);
    PimcBot one(PimcOptions::from_spec(parse_bot_spec(spec + "1")), 1);
    PimcBot six_rotated(PimcOptions::from_spec(parse_bot_spec(spec + "6,rotate=on")), 1);
    PimcBot six(PimcOptions::from_spec(parse_bot_spec(spec + "6")), 1);
    int searched = 0, differ = 0;
    for_each_spades_decision([&] { return searched >= 24; },
                             [&](const Game&, const InfoState& info) {
                                 const PimcAnalysis a = one_rotated.analyze(info);
                                 if (!a.searched) return;
                                 ++searched;
                                 expect_same_analysis(a, one.analyze(info));
                                 const PimcAnalysis r = six_rotated.analyze(info);
                                 const PimcAnalysis s = six.analyze(info);
                                 ASSERT_EQ(r.worlds, 6);
                                 ASSERT_EQ(r.cards.size(), s.cards.size());
                                 for (std::size_t k = 0; k < r.cards.size(); ++k)
                                     differ += r.cards[k].mean != s.cards[k].mean;
                             });
    EXPECT_GT(differ, 0);
}

// nil_playouts=play: while any seat's nil stands, the play-outs play to the last card, as with
// exact=1 (a one-trick solve is the forced last trick); the root still solves the last `exact`
// tricks (three here, for speed), and hands without a standing nil play as before. No node
// budget, so each world is valued alike whatever the cost.
TEST(Pimc, NilPlayoutsPlayToTheLastCardWhileANilStands) {
    const std::string spec = "pimc:budget=0,worlds=4";
    PimcBot play(PimcOptions::from_spec(parse_bot_spec(spec + ",exact=3,nil_playouts=play")), 1);
    PimcBot solve(PimcOptions::from_spec(parse_bot_spec(spec + ",exact=3")), 1);
    PimcBot to_end(PimcOptions::from_spec(parse_bot_spec(spec + ",exact=1")), 1);
    int played = 0, solved = 0, differs = 0, caught = 0;
    const auto enough = [&] { return played >= 4 && solved >= 4 && differs > 0 && caught > 0; };
    for_each_spades_decision(enough, [&](const Game& game, const InfoState& info) {
        bool nil = false, was_nil = false;
        for (int s = 0; s < 4; ++s) {
            nil = nil || nil_bid(game, info, s, false);
            was_nil = was_nil || nil_bid(game, info, s, true);
        }
        const bool before_endgame = info.hand.size() > 3;
        const PimcAnalysis a = play.analyze(info);
        if (!a.searched) return;
        const PimcAnalysis b = solve.analyze(info);
        expect_same_analysis(a, nil && before_endgame ? to_end.analyze(info) : b);
        bool differ = false;
        for (std::size_t i = 0; i < a.cards.size(); ++i)
            differ = differ || a.cards[i].mean != b.cards[i].mean;
        (nil && before_endgame ? played : solved) += 1;
        differs += differ ? 1 : 0;
        // A caught nil no longer counts: such a hand plays as before.
        if (was_nil && !nil && before_endgame) ++caught;
    });
    EXPECT_TRUE(enough()) << played << " " << solved << " " << differs << " " << caught;
}

// nil_bidder=rule: while another seat's nil stands, that seat plays it by the rule in the
// searches, so some values differ from the default's; with no other seat's nil standing (the
// seat's own may) the decision is the default's.
TEST(Pimc, NilBidderRuleChangesOnlyDecisionsWhileAnotherSeatsNilStands) {
    const std::string spec = "pimc:budget=0,worlds=4,exact=3";
    PimcBot ruled(PimcOptions::from_spec(parse_bot_spec(spec + ",nil_bidder=rule")), 1);
    PimcBot plain(PimcOptions::from_spec(parse_bot_spec(spec)), 1);
    int others = 0, own = 0, none = 0, differs = 0;
    const auto enough = [&] { return others >= 4 && own > 0 && none >= 4 && differs > 0; };
    for_each_spades_decision(enough, [&](const Game& game, const InfoState& info) {
        bool other_stands = false;
        for (int s = 0; s < 4; ++s)
            other_stands = other_stands || (s != info.seat && nil_bid(game, info, s, false));
        const PimcAnalysis a = ruled.analyze(info);
        if (!a.searched) return;
        const PimcAnalysis b = plain.analyze(info);
        if (!other_stands) {
            expect_same_analysis(a, b);
            (nil_bid(game, info, info.seat, false) ? own : none) += 1;
            return;
        }
        ++others;
        bool differ = false;
        for (std::size_t i = 0; i < a.cards.size(); ++i)
            differ = differ || a.cards[i].mean != b.cards[i].mean;
        differs += differ ? 1 : 0;
    });
    EXPECT_TRUE(enough()) << others << " " << own << " " << none << " " << differs;
}

// A decision early in a 4-player Hearts hand, where the play-outs value the cards (not the exact
// endgame), with at least three legal cards. The game owns the rules the info state points at.
class EarlyHeartsDecision : public ::testing::Test {
  protected:
    void SetUp() override {
        auto rule = rule_players(4);
        while (game.play_state().legal_moves(game.play_rules()).size() < 3) step_game(game, rule);
        info = game.info_state(game.to_act());
        ASSERT_GT(info.hand.size(), 8);
    }
    // The quick settings with further options.
    PimcAnalysis analyze(const std::string& options) const {
        PimcBot bot(PimcOptions::from_spec(parse_bot_spec(std::string(kQuick) + "," + options)), 1);
        return bot.analyze(info);
    }
    Game game{load_rules(preset_path("hearts4"), {"no_passing=true"}), 8};
    InfoState info;
};

// self=switch values every card twice in each world, the seat's own later cards played by the
// rule player and by the learned policy, and takes for each card the continuation of better mean
// over the worlds: exactly what self=same and self=model give on the same worlds, the better of
// the two per card. Taking the better continuation world by world instead would credit the seat
// with knowing the world when it chooses how to play on, and value cards above both.
TEST_F(EarlyHeartsDecision, SelfSwitchTakesTheBetterContinuationOfEachCard) {
    auto analysis = [&](const char* self) { return analyze(std::string("self=") + self); };
    const PimcAnalysis same = analysis("same"), model = analysis("model");
    const PimcAnalysis both = analysis("switch");
    bool differ = false;
    for (std::size_t i = 0; i < both.cards.size(); ++i) {
        const CardValue& a = same.cards[i];
        const CardValue& b = model.cards[i];
        const CardValue& best = b.mean > a.mean + 1e-9 ? b : a;
        EXPECT_DOUBLE_EQ(both.cards[i].mean, best.mean) << to_string(a.card);
        EXPECT_DOUBLE_EQ(both.cards[i].expected, best.expected) << to_string(a.card);
        differ = differ || a.mean != b.mean;
    }
    EXPECT_TRUE(differ) << "the two continuations should value some card differently";
}

// eval=ismcts: worlds x legal cards iterations split over the trees, each in a world of its own,
// each tree trying every card at its root, and the card of best mean is played.
TEST_F(EarlyHeartsDecision, IsmctsVisitsEveryCardAndPlaysTheBestMean) {
    const PimcAnalysis a = analyze("eval=ismcts");
    ASSERT_TRUE(a.searched);
    const int legal = static_cast<int>(a.cards.size());
    // worlds=6: six play-outs a card, each in a world of its own, over four trees.
    const int per_tree = std::max(legal, (6 * legal + kIsmctsTrees - 1) / kIsmctsTrees);
    EXPECT_EQ(a.worlds, per_tree * kIsmctsTrees);
    int visits = 0;
    double best = -1e9;
    for (const CardValue& cv : a.cards) {
        EXPECT_GE(cv.votes, kIsmctsTrees) << to_string(cv.card);
        visits += cv.votes;
        best = std::max(best, cv.mean);
    }
    EXPECT_EQ(visits, a.worlds);
    for (const CardValue& cv : a.cards)
        if (cv.card == a.best) {
            EXPECT_EQ(cv.mean, best);
        }
    // Other worlds, other visits: the decision's seed deals them.
    PimcBot other(PimcOptions::from_spec(parse_bot_spec(std::string(kQuick) + ",eval=ismcts")), 2);
    const PimcAnalysis b = other.analyze(info);
    bool differ = false;
    for (std::size_t i = 0; i < a.cards.size(); ++i)
        differ = differ || a.cards[i].votes != b.cards[i].votes;
    EXPECT_TRUE(differ);
}

// ISMCTS plays cards that many worlds of `pimc` value well: over early decisions of rule-played
// 4-player Hearts hands, the points its cards lose against the best card (by `pimc` on 128 worlds)
// are a small part of what a card drawn at random loses. A search that minimized, or chose
// without regard to its values, would lose as much as random play or more.
TEST(Pimc, IsmctsCardsLoseLittleOfWhatManyWorldsValue) {
    const Rules rules = load_rules(preset_path("hearts4"), {"no_passing=true"});
    PimcBot ismcts(PimcOptions::from_spec(parse_bot_spec("pimc:worlds=64,eval=ismcts")), 5);
    PimcBot judge(PimcOptions::from_spec(parse_bot_spec("pimc:worlds=128")), 6);
    auto rule = rule_players(4);
    double lost = 0, random = 0, by_rule = 0;
    int decisions = 0;
    for (std::uint64_t seed = 1; decisions < 20; ++seed) {
        Game game(rules, seed);
        game.stop_after_hand();
        while (!game.over() && decisions < 20) {
            if (game.phase() == Phase::kPlay) {
                const InfoState info = game.info_state(game.to_act());
                if (info.hand.size() > 6 && info.legal_cards().size() >= 3) {
                    const PimcAnalysis values = judge.analyze(info);
                    const Card mine = ismcts.analyze(info).best;
                    const Card rules_card = RuleBot().play(info);
                    double best = -1e9, mean = 0;
                    for (const CardValue& cv : values.cards) {
                        best = std::max(best, cv.mean);
                        mean += cv.mean / static_cast<double>(values.cards.size());
                    }
                    for (const CardValue& cv : values.cards) {
                        if (cv.card == mine) lost += best - cv.mean;
                        if (cv.card == rules_card) by_rule += best - cv.mean;
                    }
                    random += best - mean;
                    ++decisions;
                }
            }
            step_game(game, rule);
        }
    }
    EXPECT_LT(lost, 0.5 * random) << "ismcts " << lost << ", rule " << by_rule << ", random "
                                  << random << " points over " << decisions << " decisions";
}

// self=rule keeps the seat's own later cards in the play-outs to the rule player while the other
// seats play as `playout` says: under rule play-outs that changes nothing; under the learned
// policy's play-outs the seat's continuation changes, and with it some card's value.
TEST_F(EarlyHeartsDecision, SelfRuleLeavesTheSeatsOwnCardsToTheRulePlayer) {
    const PimcAnalysis rule_same = analyze("playout=rule,self=same");
    const PimcAnalysis rule_rule = analyze("playout=rule,self=rule");
    const PimcAnalysis model_same = analyze("playout=model");
    const PimcAnalysis model_rule = analyze("playout=model,self=rule");
    bool differ = false;
    for (std::size_t i = 0; i < rule_same.cards.size(); ++i) {
        EXPECT_EQ(rule_rule.cards[i].mean, rule_same.cards[i].mean);
        differ = differ || model_rule.cards[i].mean != model_same.cards[i].mean;
    }
    EXPECT_TRUE(differ) << "the seat's own continuation should change some card's value";
}

// objective=margin values a card by the seat's side's expected hand score minus the other sides'
// mean, read from the same worlds and play-outs as objective=own (which values the seat's side's
// score alone): so setting another side's contract or nil counts for it, and in Hearts the points
// a moon gives the others. The default (auto) is margin in partnership games and own elsewhere.
TEST(Pimc, MarginValuesTheSeatsSideAgainstTheOthers) {
    for (const char* preset : {"spades-partnership", "spades-cutthroat3", "hearts4"}) {
        const Rules rules = load_rules(preset_path(preset), {});
        auto rule = rule_players(rules.players);
        bool chose_differently = false;
        for (std::uint64_t seed = 1; seed <= 12; ++seed) {
            Game game(rules, seed);
            // After the first trick: play-outs; and near the end: the exact endgame.
            for (const int plays :
                 {rules.players + 1, (rules.cards_per_hand() - 3) * rules.players}) {
                while (!game.hand().finished &&
                       (game.phase() != Phase::kPlay ||
                        static_cast<int>(game.hand().plays.size()) < plays ||
                        game.play_state().legal_moves(game.play_rules()).size() < 2))
                    step_game(game, rule);
                if (game.hand().finished) break;
                SCOPED_TRACE(std::string(preset) + " seed " + std::to_string(seed) + " plays " +
                             std::to_string(plays));
                const InfoState info = game.info_state(game.to_act());
                // One continuation (moon=off): which of several a card takes depends on the
                // objective.
                auto analysis = [&](const char* objective) {
                    return PimcBot(
                               PimcOptions::from_spec(parse_bot_spec(
                                   std::string(kQuick) +
                                   ",moon=off,playout=rule,utility=score,objective=" + objective)),
                               1)
                        .analyze(info);
                };
                const PimcAnalysis own = analysis("own"), margin = analysis("margin");
                const PimcAnalysis by_default = analysis("auto");
                const PimcAnalysis& expected_default = rules.is_partnership() ? margin : own;
                ASSERT_EQ(own.cards.size(), margin.cards.size());
                for (std::size_t i = 0; i < own.cards.size(); ++i) {
                    const CardValue& o = own.cards[i];
                    const CardValue& m = margin.cards[i];
                    EXPECT_EQ(m.expected, o.expected) << to_string(o.card);
                    EXPECT_EQ(m.others, o.others) << to_string(o.card);
                    // Hearts points are penalties: fewer than the others' is better.
                    const double margin_value = rules.game == GameKind::kHearts
                                                    ? m.others - m.expected
                                                    : m.expected - m.others;
                    EXPECT_NEAR(m.mean, margin_value, 1e-9) << to_string(o.card);
                    EXPECT_EQ(by_default.cards[i].mean, expected_default.cards[i].mean);
                }
                chose_differently = chose_differently || own.best != margin.best;
            }
        }
        EXPECT_TRUE(chose_differently) << preset << ": the other sides' score never mattered";
    }
}

// utility=margin: in the exact endgame of partnership Spades a card is worth its side's score
// less the other side's, as plain max^n values it (pimc searches it by alphabeta); other forms
// are refused before any decision.
TEST(Pimc, MarginValuesAnEndgameAsMaxnDoes) {
    const Rules rules = load_rules(preset_path("spades-partnership"), {});
    const PimcOptions options =
        PimcOptions::from_spec(parse_bot_spec(std::string(kQuick) + ",utility=margin"));
    auto rule = rule_players(rules.players);
    int cards = 0;
    for (std::uint64_t seed = 1; seed <= 8; ++seed) {
        Game game(rules, seed);
        while (!game.hand().finished &&
               (game.phase() != Phase::kPlay || game.play_state().cards_left() > 4 * 4 ||
                game.play_state().legal_moves(game.play_rules()).size() < 2))
            step_game(game, rule);
        if (game.hand().finished) continue;
        SCOPED_TRACE("seed " + std::to_string(seed));
        const InfoState info = game.info_state(game.to_act());
        Deal deal;
        deal.players = rules.players;
        deal.hands = game.play_state().hands;
        models::ModelStore store;
        const PimcAnalysis got = analyze_world(options, info, deal, store);
        // A whole game: bags paid for as taken (auto), which the world's search must use too.
        ASSERT_EQ(options.bag_value(info), BagValue::kAmortized);
        TrickGame world(rules, game.play_state(), Utility::kMargin, taken_cards(info),
                        score_context(info, options.bag_value(info)));
        engine::SearchOptions plain;
        plain.algorithm = engine::Algorithm::kMaxn;
        const auto want = engine::Searcher<TrickGame>(plain).analyze_root(world);
        for (const CardValue& cv : got.cards) {
            for (const auto& m : want.moves)
                if (m.move == world.representative(cv.card)) {
                    const double margin = world.report(m.value)[rules.unit_of(info.seat)];
                    EXPECT_EQ(cv.mean, margin) << to_string(cv.card);
                    EXPECT_EQ(cv.expected, margin) << to_string(cv.card);
                    ++cards;
                }
        }
    }
    EXPECT_GT(cards, 8);
    for (const char* preset : {"spades-cutthroat3", "spades-cutthroat4"}) {
        const Rules other = load_rules(preset_path(preset), {});
        EXPECT_THROW(PimcBot(options, 1).check(other), InputError) << preset;
    }
}

// utility=auto: the margin in partnership Spades, the score in cutthroat, points in Hearts.
TEST(Pimc, UtilityByDefaultIsTheMarginInPartnerships) {
    const auto utility = [](const char* spec, const char* preset) {
        return PimcOptions::from_spec(parse_bot_spec(spec))
            .utility_for(load_rules(preset_path(preset), {}));
    };
    EXPECT_EQ(utility("pimc", "spades-partnership"), Utility::kMargin);
    EXPECT_EQ(utility("pimc:utility=auto", "spades-partnership"), Utility::kMargin);
    EXPECT_EQ(utility("pimc:utility=score", "spades-partnership"), Utility::kScore);
    EXPECT_EQ(utility("pimc", "spades-cutthroat3"), Utility::kScore);
    EXPECT_EQ(utility("pimc", "spades-cutthroat4"), Utility::kScore);
    EXPECT_EQ(utility("pimc:utility=tricks", "spades-cutthroat4"), Utility::kTricks);
    EXPECT_EQ(utility("pimc", "hearts4"), Utility::kPoints);
    EXPECT_EQ(utility("pimc:utility=margin", "hearts4"), Utility::kPoints);
}

// Four-trick solves are dear with six players (seconds a decision), so there the exact search
// starts at three tricks left, at the root and in the play-outs; with five players at four. Before
// the endgame the default values every card as `exact=` that many tricks does, and not as the
// other does.
TEST(Pimc, SixPlayersSearchExactlyFromThreeTricks) {
    for (const auto& [preset, same_as, not_as] : {std::tuple{"hearts6", ",exact=3", ",exact=4"},
                                                  std::tuple{"hearts5", ",exact=4", ",exact=3"}}) {
        const Rules rules = load_rules(preset_path(preset), {"no_passing=true"});
        auto rule = rule_players(rules.players);
        bool differ = false;
        for (std::uint64_t seed = 1; seed <= 3; ++seed) {
            Game game(rules, seed);
            // Five tricks left (play-outs), then four (the root search, exact with five players).
            for (const int tricks_left : {5, 4}) {
                const std::size_t plays = (rules.cards_per_hand() - tricks_left) * rules.players;
                while (game.phase() != Phase::kPlay || game.hand().plays.size() < plays ||
                       game.play_state().legal_moves(game.play_rules()).size() < 2)
                    step_game(game, rule);
                const InfoState info = game.info_state(game.to_act());
                SCOPED_TRACE(std::string(preset) + " seed " + std::to_string(seed) + ", " +
                             std::to_string(info.hand.size()) + " tricks left");
                auto analysis = [&](const std::string& options) {
                    return PimcBot(PimcOptions::from_spec(parse_bot_spec(kQuick + options)), 1)
                        .analyze(info);
                };
                const PimcAnalysis by_default = analysis(""), same = analysis(same_as);
                const PimcAnalysis other = analysis(not_as);
                for (std::size_t i = 0; i < by_default.cards.size(); ++i) {
                    EXPECT_EQ(by_default.cards[i].mean, same.cards[i].mean);
                    differ = differ || by_default.cards[i].mean != other.cards[i].mean;
                }
            }
        }
        EXPECT_TRUE(differ) << preset << ": the other threshold never changed a card's value";
    }
}

// tie=rule: of the cards of the best mean, the rule player's card where it is one of them, else the
// first in card order (the default's choice); the values are the same either way.
TEST(Pimc, TieRuleBreaksTiesByTheRulePlayersCard) {
    const Rules rules = load_rules(preset_path("hearts4"), {"no_passing=true"});
    auto rule = rule_players(rules.players);
    int rule_among_ties_not_first = 0;
    for (std::uint64_t seed = 1; seed <= 3; ++seed) {
        Game game(rules, seed);
        game.stop_after_hand();
        while (!game.over()) {
            if (game.phase() == Phase::kPlay &&
                game.play_state().legal_moves(game.play_rules()).size() >= 2) {
                const InfoState info = game.info_state(game.to_act());
                auto analysis = [&](const std::string& options) {
                    return PimcBot(PimcOptions::from_spec(parse_bot_spec(kQuick + options)), seed)
                        .analyze(info);
                };
                const PimcAnalysis first = analysis(""), by_rule = analysis(",tie=rule");
                double top = -1e18;
                for (const CardValue& cv : first.cards) top = std::max(top, cv.mean);
                std::vector<Card> tied;
                for (std::size_t i = 0; i < first.cards.size(); ++i) {
                    EXPECT_EQ(first.cards[i].mean, by_rule.cards[i].mean);
                    if (first.cards[i].mean == top) tied.push_back(first.cards[i].card);
                }
                const Card rule_card = RuleBot().play(info);
                const bool rule_tied = std::find(tied.begin(), tied.end(), rule_card) != tied.end();
                EXPECT_EQ(first.best, tied.front());
                EXPECT_EQ(by_rule.best, rule_tied ? rule_card : tied.front());
                if (rule_tied && rule_card != tied.front()) ++rule_among_ties_not_first;
            }
            step_game(game, rule);
        }
    }
    EXPECT_GT(rule_among_ties_not_first, 0) << "no decision told the two tie-breaks apart";
}

// The passes of 4- and 5-player Hearts are valued on 192 deals per candidate by default (they
// played better than on 48, docs/results/2026-11-26-pass-deals.md); bids and the passes of the
// other forms on 48.
TEST(Pimc, RolloutsByDefaultDependOnTheForm) {
    for (const auto& [preset, by_default] :
         {std::pair{"hearts3", 48}, std::pair{"hearts4", 192}, std::pair{"hearts5", 192},
          std::pair{"hearts6", 48}, std::pair{"spades-cutthroat3", 48}}) {
        const Rules rules = load_rules(preset_path(preset), {});
        EXPECT_EQ(PimcOptions::from_spec(parse_bot_spec("pimc")).rollouts_for(rules), by_default);
        EXPECT_EQ(PimcOptions::from_spec(parse_bot_spec("pimc:rollouts=7")).rollouts_for(rules), 7);
    }
    bool differ = false;
    for_each_hearts4_pass(6, [&](const InfoState& info) {
        const CardSet by_default = make_player("pimc", 1)->pass(info);
        EXPECT_EQ(by_default, make_player("pimc:rollouts=192", 1)->pass(info));
        differ = differ || by_default != make_player("pimc:rollouts=48", 1)->pass(info);
    });
    EXPECT_TRUE(differ) << "48 deals never changed a pass";
}

// pass_ranked adds the rule player's best-rated passes to the candidates: with none added the
// pass is the default's, and with them some pass is one of the added ones.
TEST(Pimc, PassRankedAddsTheRulePlayersBestRatedPasses) {
    int from_the_ranking = 0;
    for_each_hearts4_pass(8, [&](const InfoState& info) {
        const CardSet by_default = make_player("pimc:rollouts=96", 1)->pass(info);
        EXPECT_EQ(by_default, make_player("pimc:rollouts=96,pass_ranked=0", 1)->pass(info));
        const CardSet ranked = make_player("pimc:rollouts=96,pass_ranked=20", 1)->pass(info);
        if (ranked != by_default) {
            // Then it was not a candidate of the default: it is among the 21 best rated.
            const std::vector<CardSet> rated = heuristics::hearts_passes_by_danger(info);
            EXPECT_NE(std::find(rated.begin(), rated.begin() + 21, ranked), rated.begin() + 21)
                << cards_to_string(ranked);
            ++from_the_ranking;
        }
    });
    EXPECT_GT(from_the_ranking, 0) << "the added candidates never changed a pass";
}

// pass_margin: how clearly another pass must lead the rule player's. At the default's 2 the pass
// is the default's; with no margin the best mean is taken, which is another pass more often.
TEST(Pimc, PassMarginSetsHowClearlyAPassMustLead) {
    int rule_by_default = 0, rule_without_margin = 0;
    for_each_hearts4_pass(8, [&](const InfoState& info) {
        const CardSet by_rule = make_player("rule", 1)->pass(info);
        const CardSet by_default = make_player("pimc:rollouts=96", 1)->pass(info);
        EXPECT_EQ(by_default, make_player("pimc:rollouts=96,pass_margin=2", 1)->pass(info));
        rule_by_default += by_default == by_rule;
        rule_without_margin +=
            make_player("pimc:rollouts=96,pass_margin=0", 1)->pass(info) == by_rule;
    });
    EXPECT_LT(rule_without_margin, rule_by_default);
}

TEST(Pimc, PassesTheCardsThatCostPoints) {
    // North holds a bare Q♠ under A♠ K♠: kept, they cost points. Passes are valued by play-outs
    // of the hand; a sign slip there (Hearts deltas are points taken) once made pimc keep exactly
    // such cards and pass away its safe ones.
    const Game game =
        hearts4_at_pass("N:AKQ.A2.5432.5432 JT98.KQJT.AKQ.AK 765.9876.JT9.QJT 432.543.876.9876");
    const InfoState info = game.info_state(0);
    const CardSet by_search = make_player("pimc:rollouts=32,pass=search", 1)->pass(info);
    EXPECT_TRUE(by_search.contains(Card(Suit::kSpades, kQueen))) << cards_to_string(by_search);
    // So it is when the learned policy plays the play-outs, the engine solving their last tricks.
    const CardSet by_model =
        make_player("pimc:rollouts=32,rollout_playout=model,rollout_exact=5", 1)->pass(info);
    EXPECT_TRUE(by_model.contains(Card(Suit::kSpades, kQueen))) << cards_to_string(by_model);
    EXPECT_EQ(make_player("pimc:pass=rule", 1)->pass(info), make_player("rule", 1)->pass(info));
}

TEST(Pimc, BadSpecsAreNamed) {
    EXPECT_THROW(make_player("pimc:worlds=0", 1), InputError);
    EXPECT_THROW(make_player("pimc:pass_ranked=-1", 1), InputError);
    EXPECT_THROW(make_player("pimc:pass_ranked=1001", 1), InputError);
    EXPECT_THROW(make_player("pimc:pass_margin=-1", 1), InputError);
    EXPECT_THROW(make_player("pimc:pass_margin=nan", 1), InputError);
    EXPECT_THROW(make_player("pimc:pass_margin=two", 1), InputError);
    EXPECT_THROW(make_player("pimc:algo=alphabeta", 1), InputError);
    EXPECT_THROW(make_player("pimc:eval=deep", 1), InputError);
    EXPECT_THROW(make_player("pimc:bid=maybe", 1), InputError);
    EXPECT_THROW(make_player("pimc:pass=never", 1), InputError);
    EXPECT_THROW(make_player("pimc:pass=auto", 1), InputError);
    EXPECT_NO_THROW(make_player("pimc:bid=auto,pass=rule,eval=search", 1));
    EXPECT_THROW(make_player("pimc:self=never", 1), InputError);
    EXPECT_THROW(make_player("pimc:rollout_playout=policy", 1), InputError);
    EXPECT_THROW(make_player("pimc:rollout_exact=18", 1), InputError);
    const std::string model =
        default_model<PolicyModel>(load_rules(preset_path("hearts4"), {})).string();
    EXPECT_NO_THROW(make_player("pimc:rollout_playout=model,playout_model=" + model, 1));
    EXPECT_THROW(make_player("pimc:objective=theirs", 1), InputError);
    EXPECT_NO_THROW(make_player("pimc:objective=own", 1));
    EXPECT_THROW(make_player("pimc:tie=last", 1), InputError);
    // eval=ismcts plays the rule player's play-outs down one tree, unweighted, by its root means.
    EXPECT_NO_THROW(make_player("pimc:eval=ismcts,worlds=16,playout=rule", 1));
    for (const char* other : {"infer=play", "worlds_max=128", "agg=vote", "tie=rule", "ms=50",
                              "playout=fit", "self=rule", "moon=on", "nil_bidder=rule"}) {
        try {
            make_player(std::string("pimc:eval=ismcts,") + other, 1);
            ADD_FAILURE() << other;
        } catch (const InputError& e) {
            EXPECT_NE(std::string(e.what()).find("eval=ismcts does not go with"), std::string::npos)
                << e.what();
        }
    }
    EXPECT_THROW(make_player("oracle:eval=ismcts", 1), InputError);
    // A model named for play-outs that use none.
    EXPECT_THROW(make_player("pimc:self=same,playout_model=data/models/hearts4-playout.txt", 1),
                 InputError);
    EXPECT_THROW(make_player("pimc:self=rule,playout_model=data/models/hearts4-playout.txt", 1),
                 InputError);
    try {
        make_player("pimc:wrlds=3", 1);
        FAIL();
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find("unknown option 'wrlds'"), std::string::npos)
            << e.what();
    }
    try {
        make_player("pmic", 1);
        FAIL();
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find("known: pimc"), std::string::npos) << e.what();
    }
}

// Every numeric key of a spec takes exactly the whole numbers of its range: nothing that wraps,
// overflows or is only partly a number (issue 18).
TEST(Pimc, SpecNumbersAreExact) {
    const struct {
        const char* key;
        long lo, hi;
    } kRanges[] = {{"worlds", 1, 100000},        {"depth", 0, 17},
                   {"nodes", 1, 2147483647},     {"exact", 0, 17},
                   {"threads", 0, 1024},         {"rollouts", 1, 100000},
                   {"pass_rollouts", 1, 100000}, {"ms", 0, 86400000}};
    for (const auto& r : kRanges) {
        const std::string key = r.key;
        EXPECT_NO_THROW(
            PimcOptions::from_spec(parse_bot_spec("pimc:" + key + "=" + std::to_string(r.lo))))
            << key;
        EXPECT_NO_THROW(
            PimcOptions::from_spec(parse_bot_spec("pimc:" + key + "=" + std::to_string(r.hi))))
            << key;
        for (const std::string& bad :
             {std::to_string(r.lo - 1), std::to_string(r.hi + 1), std::string("99999999999"),
              std::string("-5"), std::string("1e3"), std::string("12abc"), std::string(""),
              std::string(" 5"), std::string("+5"), std::string("0x10")}) {
            const std::string spec = "pimc:" + key + "=" + bad;
            try {
                PimcOptions::from_spec(parse_bot_spec(spec));
                ADD_FAILURE() << spec << " was accepted";
            } catch (const InputError& e) {
                const std::string want = key + "=" + bad + " is not a whole number from " +
                                         std::to_string(r.lo) + " to " + std::to_string(r.hi);
                EXPECT_NE(std::string(e.what()).find(want), std::string::npos) << e.what();
            }
        }
    }
    EXPECT_EQ(PimcOptions::from_spec(parse_bot_spec("pimc:nodes=2147483647")).search.nodes,
              2147483647u);
    EXPECT_THROW(make_player("external:cmd=true,ms=0", 1), InputError);
    EXPECT_THROW(make_player("external:cmd=true,ms=86400001", 1), InputError);
    EXPECT_THROW(make_player("external:cmd=true,ms=-1", 1), InputError);
}

// The option table's defaults are the settings struct's: "pimc" and a default PimcOptions are the
// same bot, and so is an "oracle" (issue 43).
TEST(PimcOptionTable, DefaultsAreTheStructs) {
    EXPECT_TRUE(PimcOptions::from_spec(parse_bot_spec("pimc")) == PimcOptions{});
    EXPECT_TRUE(PimcOptions::from_spec(parse_bot_spec("oracle")) == PimcOptions{});
    // Each multi-way option's words reach their own setting.
    const auto o = PimcOptions::from_spec(parse_bot_spec(
        "pimc:bid=rule,infer=play,self=switch,objective=own,rollout_playout=model,playout=model,"
        "eval=search,algo=bnb,tables=no,moon=off,agg=vote,tie=rule,pass=rule,pass_margin=0.5"));
    EXPECT_EQ(o.bidding.bid, PimcOptions::Bid::kRule);
    EXPECT_EQ(o.sampling.infer, PimcOptions::Infer::kPlay);
    EXPECT_EQ(o.valuation.self, PimcOptions::Self::kSwitch);
    EXPECT_EQ(o.valuation.objective, PimcOptions::Objective::kOwn);
    EXPECT_EQ(o.bidding.playout, PimcOptions::Playout::kModel);
    EXPECT_EQ(o.valuation.playout, PimcOptions::Playout::kModel);
    EXPECT_EQ(o.valuation.eval, PimcOptions::Eval::kSearch);
    EXPECT_EQ(o.search.algorithm, engine::Algorithm::kBnb);
    EXPECT_FALSE(o.search.tables);
    EXPECT_EQ(o.valuation.moon, std::optional<bool>(false));
    EXPECT_TRUE(o.sampling.vote && o.sampling.tie_rule && o.bidding.rule_pass);
    EXPECT_EQ(o.bidding.pass_margin, 0.5);
    const Rules partnership = load_rules(preset_path("spades-partnership"), {});
    EXPECT_TRUE(PimcOptions::from_spec(parse_bot_spec("pimc")).bids_by_model(partnership));
    EXPECT_FALSE(
        PimcOptions::from_spec(parse_bot_spec("pimc:bid=search")).bids_by_model(partnership));
}

// A bad value names the option, the value and what it takes; an unknown option lists the known.
TEST(PimcOptionTable, BadValuesSayWhatTheOptionTakes) {
    const auto error_of = [](const std::string& spec) {
        try {
            PimcOptions::from_spec(parse_bot_spec(spec));
        } catch (const InputError& e) {
            return std::string(e.what());
        }
        return std::string("accepted");
    };
    // Each spec, and what its error says.
    const std::pair<const char*, const char*> kCases[] = {
        {"pimc:moon=maybe", "moon=maybe is not auto, on or off"},
        {"pimc:bid=nil", "bid=nil is not auto, search, rule, model, net or value"},
        {"pimc:algo=paranoid", "algo=paranoid is not speculative, maxn"},
        {"pimc:pass_margin=11", "pass_margin=11 is not a number from 0 to 10"},
        {"pimc:wolds=3", "unknown option 'wolds' for pimc (known: worlds, "},
        {"oracle:worlds=3", "unknown option 'worlds' for oracle"},
        {"pimc:bid=search,bid_model=x.txt", "bid_model= goes with bid=model"},
        {"pimc:worlds_max=128,infer=play", "worlds_max= does not go with infer=play or net"},
        {"pimc:worlds_max=32", "worlds_max=32 is below worlds=64"},
        {"pimc:nil_worlds=128,worlds_max=128", "nil_worlds= does not go with worlds_max="},
        {"pimc:rotate=on,infer=play", "rotate=on does not go with infer=play or net"},
        {"pimc:rotate=on,eval=ismcts", "eval=ismcts does not go with rotate=on"},
        {"oracle:rotate=on", "unknown option 'rotate' for oracle"},
    };
    for (const auto& [spec, says] : kCases)
        EXPECT_NE(error_of(spec).find(says), std::string::npos) << spec << ": " << error_of(spec);
}

}  // namespace
}  // namespace sampling
