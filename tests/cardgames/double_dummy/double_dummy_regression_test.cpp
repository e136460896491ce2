// The double-dummy solver on whole deals whose every opening lead DDS valued once
// (data/regression/double-dummy.txt, written by double_dummy_pin): the same tricks after every
// legal lead, with no oracle installed. One solver serves all deals, as callers use it.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "cardgames/cards/deal.hpp"
#include "cardgames/double_dummy/double_dummy.hpp"
#include "cardgames/rules/position.hpp"
#include "test_helpers.hpp"

namespace cardgames {
namespace {

struct PinnedDeal {
    std::string text;  // the line, for messages
    Deal deal;
    int leader = 0;
    std::vector<std::pair<Card, int>> leads;  // every legal lead and North-South's tricks after it
};

std::vector<PinnedDeal> pinned_deals() {
    std::ifstream in(data_dir() / "regression" / "double-dummy.txt");
    std::vector<PinnedDeal> out;
    for (std::string line; std::getline(in, line);) {
        if (line.empty() || line[0] == '#') continue;
        PinnedDeal p;
        p.text = line;
        const auto bar = line.find(" | "), bar2 = line.find(" | ", bar + 3);
        p.deal = parse_deal(line.substr(0, bar));
        p.leader = parse_seat(line.substr(bar + 3, bar2 - bar - 3), 4);
        std::istringstream values(line.substr(bar2 + 3));
        for (std::string v; values >> v;)
            p.leads.emplace_back(parse_card(v.substr(0, v.find('='))),
                                 std::stoi(v.substr(v.find('=') + 1)));
        out.push_back(p);
    }
    return out;
}

TEST(DoubleDummyRegression, EveryOpeningLeadAsDdsValuedIt) {
    const Rules rules = testing::preset("spades-partnership", {"spades_lead_anytime=true"});
    const PlayRules play = PlayRules::from(rules);
    const std::vector<PinnedDeal> deals = pinned_deals();
    ASSERT_EQ(deals.size(), 16u) << "data/regression/double-dummy.txt";
    DoubleDummy solver;
    for (const PinnedDeal& p : deals) {
        const PlayState state = position_from_deal(rules, p.deal, p.leader, {}, true);
        const std::vector<CardTricks> ours = solver.value_cards(play, state);
        ASSERT_EQ(ours.size(), p.leads.size()) << p.text;
        for (std::size_t i = 0; i < ours.size(); ++i) {
            EXPECT_EQ(ours[i].card, p.leads[i].first) << p.text;
            EXPECT_EQ(ours[i].tricks, p.leads[i].second)
                << to_string(ours[i].card) << " in " << p.text;
        }
    }
}

}  // namespace
}  // namespace cardgames
