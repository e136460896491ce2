// The rule player's memory of the histories it viewed (heuristics::TableMemory): in play-outs as
// pimc runs them, every decision's table view built from the memory is the view built from the
// InfoState alone, field for field, and the rule player that remembers plays the card that a
// fresh one plays; a memory asked about other rules forgets what the first rules showed.
#include <gtest/gtest.h>

#include <boost/random/mersenne_twister.hpp>
#include <vector>

#include "cardgames/players/heuristics.hpp"
#include "cardgames/players/rule_bot.hpp"
#include "cardgames/rules/game.hpp"
#include "pimc_decisions.hpp"
#include "sampling/constraints.hpp"
#include "sampling/deal_sampler.hpp"
#include "sampling/playout.hpp"

namespace sampling {
namespace {

using namespace cardgames;
using heuristics::TableMemory;
using heuristics::TableView;

// Every field of two views of the same decision; counts those that differ.
int differences(const TableView& got, const TableView& want) {
    const PlayRules& a = got.play_rules;
    const PlayRules& b = want.play_rules;
    const bool same_rules = a.players == b.players && a.has_trump == b.has_trump &&
                            a.trump == b.trump && a.lead_restricted == b.lead_restricted &&
                            a.restricted_suit == b.restricted_suit && a.breakers == b.breakers &&
                            a.first_lead == b.first_lead &&
                            a.first_trick_barred == b.first_trick_barred && a.points == b.points;
    const bool same[] = {&got.info == &want.info,
                         &got.rules == &want.rules,
                         same_rules,
                         got.n == want.n,
                         got.seat == want.seat,
                         got.hand == want.hand,
                         got.legal == want.legal,
                         got.unseen == want.unseen,
                         got.void_in == want.void_in,
                         got.penalty_taken == want.penalty_taken,
                         got.trick_size == want.trick_size,
                         got.tricks_left == want.tricks_left,
                         got.led == want.led,
                         got.winner == want.winner,
                         got.winning == want.winning};
    int out = 0;
    for (bool s : same) out += !s;
    return out;
}

// Plays as a rule player that remembers, and checks each decision against views and a player
// built afresh: the view from a memory asked at every decision, the view from a memory asked only
// where the seat has a choice (as the rule player asks its own), and the card.
class CheckedRuleBot : public RuleBidder {
  public:
    std::string name() const override { return "checked rule"; }
    Card play(const InfoState& info) override {
        const TableView fresh(info);
        mismatches += differences(remembered(info, every_decision_), fresh);
        if (fresh.legal.size() > 1) {
            mismatches += differences(remembered(info, choices_only_), fresh);
            ++choices;
        }
        const Card card = remembering_.play(info);
        if (card != RuleBot().play(info)) ++mismatches;
        if (!fresh.legal.contains(card)) ++illegal;
        return card;
    }
    int mismatches = 0, illegal = 0, choices = 0;

  private:
    static TableView remembered(const InfoState& info, TableMemory& memory) {
        const PlayRules& play_rules = memory.play_rules(*info.rules);
        return TableView(info, play_rules, memory.facts(info.plays), info.legal_cards());
    }

    RuleBot remembering_;
    TableMemory every_decision_, choices_only_;
};

// As pimc uses it: one player for many play-outs, of several worlds sampled for a decision and
// every legal first card in each, the histories sharing the decision's plays and then parting.
TEST(TableMemory, ViewsInPlayOutsEqualViewsFromScratch) {
    for (const char* form : {"hearts4", "hearts3", "spades-partnership", "spades-cutthroat3"}) {
        const Rules rules = load_rules(preset_path(form), {});
        CheckedRuleBot checked;
        play_outs_as_pimc(rules, checked);
        EXPECT_EQ(checked.mismatches, 0) << form;
        EXPECT_EQ(checked.illegal, 0) << form;
        EXPECT_GT(checked.choices, 500) << form;
    }
}

// The same plays mean other things under other rules (Spades has trumps and no penalty cards): a
// memory asked about a history under one rule set and then another gives each one's own facts.
TEST(TableMemory, ForgetsWhatOtherRulesShowed) {
    const Rules hearts = load_rules(preset_path("hearts4"), {});
    const Rules spades = load_rules(preset_path("spades-partnership"), {});
    const Game game = rule_played_to(hearts, 1, 4);
    const InfoState info = game.info_state(game.to_act());
    ASSERT_EQ(info.plays.size(), 48u);
    const heuristics::HistoryFacts hearts_facts =
        heuristics::replay_history(PlayRules::from(hearts), info.plays);
    const heuristics::HistoryFacts spades_facts =
        heuristics::replay_history(PlayRules::from(spades), info.plays);
    ASSERT_NE(hearts_facts, spades_facts);
    TableMemory memory;
    for (const Rules* rules : {&hearts, &spades, &hearts}) {
        memory.play_rules(*rules);
        EXPECT_EQ(memory.facts(info.plays), rules == &hearts ? hearts_facts : spades_facts);
    }
}

}  // namespace
}  // namespace sampling
