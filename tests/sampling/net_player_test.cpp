// The network play-out policy (net_player.hpp): inside play-outs a decision's accumulator, brought
// up to date card by card, is exactly the one computed from the seat's information state, and so
// is the card played; it never plays an illegal card; `pimc:playout=net` plays its play-outs by it;
// bad network files are refused before play, naming the file and the field.
#include "sampling/net_player.hpp"

#include <gtest/gtest.h>

#include <boost/random/mersenne_twister.hpp>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "cardgames/cards/error.hpp"
#include "cardgames/models/network.hpp"
#include "cardgames/players/bot_spec.hpp"
#include "cardgames/rules/game.hpp"
#include "cardgames/rules/game_runner.hpp"
#include "pimc_decisions.hpp"
#include "sampling/bot_registry.hpp"
#include "sampling/constraints.hpp"
#include "sampling/deal_sampler.hpp"
#include "sampling/pimc.hpp"
#include "sampling/playout.hpp"

namespace sampling {
namespace {

using namespace cardgames;

std::shared_ptr<const models::Network> net_random_policy(const std::string& form,
                                                         std::uint64_t seed) {
    return std::make_shared<const models::Network>(
        models::random_network_file(form, "policy", 52, seed));
}

// A random network of `task` for `form`, written to a temporary file; returns its path.
std::string net_random_file(const std::string& form, const std::string& task,
                            const std::string& name) {
    const auto path = std::filesystem::temp_directory_path() / name;
    const int players = models::players_of_form(form, "test");
    const int outputs = task == "policy" || task == "pass" ? 52 : players;
    models::write_model_file(path, models::random_network_file(form, task, outputs, 11));
    return path.string();
}

// Plays as the NetPlayer it wraps, and checks each decision against a fresh accumulator
// computed from the seat's information state: the same accumulator, bit for bit, where the seat
// had a choice (a forced card leaves it as it was), and the same card, a legal one.
class CheckedNetPlayer : public RuleBidder {
  public:
    explicit CheckedNetPlayer(NetPlayer& net) : net_(net), fresh_(*net.network()) {}
    std::string name() const override { return "checked net"; }
    Card play(const InfoState& info) override {
        const Card card = net_.play(info);
        models::ActiveFeatures active;
        models::card_features(info, net_.network()->card_version(), active);
        fresh_.refresh(active.view());
        const auto got = net_.accumulator(info.seat);
        const auto want = fresh_.accumulator();
        const bool choice = info.legal_cards().size() > 1;
        if (choice && !std::equal(got.begin(), got.end(), want.begin(), want.end())) ++mismatches;
        checked_accumulators += choice;
        if (card != best_legal_card(fresh_.evaluate(), info.legal_cards())) ++mismatches;
        if (!info.legal_cards().contains(card)) ++illegal;
        return card;
    }
    int mismatches = 0, illegal = 0, checked_accumulators = 0;

  private:
    NetPlayer& net_;
    models::Evaluator fresh_;
};

// As pimc uses it: one player for many play-outs, of several worlds sampled for a decision and
// every legal first card in each, the seats' histories sharing the decision's plays and then
// parting.
TEST(NetPlayer, IncrementalAccumulatorAndCardEqualARefreshInPlayOuts) {
    for (const char* form : {"hearts4", "hearts3", "spades-partnership", "spades-cutthroat3"}) {
        const Rules rules = load_rules(preset_path(form), {});
        NetPlayer net(net_random_policy(form, 3));
        CheckedNetPlayer checked(net);
        play_outs_as_pimc(rules, checked);
        EXPECT_EQ(checked.mismatches, 0) << form;
        EXPECT_EQ(checked.illegal, 0) << form;
        EXPECT_EQ(checked.checked_accumulators, net.decisions()) << form;
        // Most decisions were updates, not refreshes: at most one refresh per seat and play-out.
        EXPECT_LT(net.refreshes() * 3, net.decisions()) << form;
    }
}

// The two ways a decision may not continue what a seat's accumulator saw, each alone: the same
// cards played with another hand (another world), and the same hand after other cards (another
// first card in the same world). Each decision here is the next seat's first after the deciding
// seat's card, so nothing else tells them apart.
TEST(NetPlayer, OtherHandOrOtherHistoryIsRefreshed) {
    for (const char* form : {"hearts4", "spades-partnership"}) {
        const Rules rules = load_rules(preset_path(form), {});
        NetPlayer net(net_random_policy(form, 5));
        CheckedNetPlayer checked(net);
        const Game game = rule_played_to(rules, 2, 40);
        const InfoState info = game.info_state(game.to_act());
        const DealSampler sampler(constraints_from(info));
        std::vector<TrickGame> worlds;
        for (std::uint64_t w = 0; w < 3; ++w) {
            boost::random::mt19937_64 rng(w);
            worlds.push_back(sampling::world_of(info, sampler.sample(rng, info.hand).hands,
                                                score_utility(rules)));
        }
        const auto next_seat_plays = [&](Card first, TrickGame& world) {
            SeatViews views(info);
            world.apply(first);
            views.record(info.seat, first, world.state());
            checked.play(views.view_of(world.state().to_move, world.state()));
            world.undo(first);
        };
        ASSERT_GE(info.legal_cards().size(), 2);
        for (Card first : info.legal_cards())
            for (TrickGame& world : worlds) next_seat_plays(first, world);
        for (TrickGame& world : worlds)
            for (Card first : info.legal_cards()) next_seat_plays(first, world);
        EXPECT_EQ(checked.mismatches, 0) << form;
        EXPECT_EQ(net.refreshes(), net.decisions()) << form;
    }
}

// A whole game of the bot against rule players: every card legal (the runner refuses any other),
// the decisions following one real history across tricks and hands.
TEST(NetPlayer, BotPlaysLegalCardsInRealGames) {
    for (const char* form : {"hearts4", "spades-partnership"}) {
        const Rules rules = load_rules(preset_path(form), {});
        const std::string path =
            net_random_file(form, "policy", std::string("net-bot-") + form + ".net");
        std::vector<std::unique_ptr<Player>> players;
        players.push_back(make_player("net:model=" + path, 1));
        EXPECT_NE(players[0]->check(rules).find("network policy " + std::string(form)),
                  std::string::npos);
        for (int s = 1; s < rules.players; ++s) players.push_back(make_player("rule", s));
        Game game(rules, 9);
        while (!game.over() && game.finished_hands().size() < 3) step_game(game, players);
        EXPECT_EQ(game.finished_hands().size(), 3u) << form;
    }
}

TEST(NetPlayer, TiesGoToTheLowestCardNumber) {
    std::vector<float> logits(52, 0.5f);
    const CardSet legal =
        CardSet() | Card(Suit::kSpades, 5) | Card(Suit::kHearts, kAce) | Card(Suit::kHearts, 9);
    EXPECT_EQ(best_legal_card(logits, legal), Card(Suit::kHearts, 9));
    logits[static_cast<std::size_t>(models::card_number(Card(Suit::kSpades, 5)))] = 0.6f;
    EXPECT_EQ(best_legal_card(logits, legal), Card(Suit::kSpades, 5));
    // The highest logit of an illegal card does not count.
    logits[0] = 9;
    EXPECT_EQ(best_legal_card(logits, legal), Card(Suit::kSpades, 5));
}

// The network, not the rule player, plays the play-outs (and the bid and pass deals). The same
// decisions for any thread count: tests/sampling/pimc_parallel_test.cpp.
TEST(NetPlayer, PimcPlaysOutByTheNetwork) {
    for (const char* form : {"hearts4", "spades-partnership"}) {
        const std::string path =
            net_random_file(form, "policy", std::string("net-pimc-") + form + ".net");
        const std::string quick = "pimc:worlds=6,rollouts=6,bid=search,threads=1";
        EXPECT_NE(
            decisions(quick + ",playout=net,rollout_playout=net,playout_net=" + path, form, 4),
            decisions(quick, form, 4))
            << form;
    }
}

// self=net: the network plays the deciding seat's own later cards, the rule player the others'.
TEST(NetPlayer, SelfNetPlaysTheSeatsOwnCardsByTheNetwork) {
    const std::string path = net_random_file("hearts4", "policy", "net-self.net");
    const std::string quick = "pimc:worlds=6,threads=1,playout_net=" + path;
    const std::string self_net = decisions(quick + ",playout=rule,self=net", "hearts4", 4);
    EXPECT_NE(self_net, decisions("pimc:worlds=6,threads=1,playout=rule", "hearts4", 4));
    EXPECT_NE(self_net, decisions(quick + ",playout=net", "hearts4", 4));
    // Every seat the network's: self=net changes nothing.
    EXPECT_EQ(decisions(quick + ",playout=net,self=net", "hearts4", 4),
              decisions(quick + ",playout=net", "hearts4", 4));
    const auto o = PimcOptions::from_spec(parse_bot_spec("pimc:self=net"));
    EXPECT_TRUE(o.uses_net(load_rules(preset_path("hearts5"), {})));
    EXPECT_FALSE(o.uses_policy());
}

// playout=fit: each other seat whose cards so far are the rule player's in a world plays the rule
// player, the seat itself the network. At the first lead no other seat has played: it is self=net.
TEST(NetPlayer, FitBeforeAnyOtherCardIsSelfNet) {
    const std::string path = net_random_file("spades-partnership", "policy", "net-fit.net");
    const Rules rules = load_rules(preset_path("spades-partnership"), {});
    Game game(rules, 3);
    auto players = rule_players(4);
    while (game.phase() != Phase::kPlay) step_game(game, players);
    const InfoState first = game.info_state(game.to_act());
    ASSERT_GT(first.legal_cards().size(), 1u);
    const std::string quick = "pimc:worlds=6,threads=1,playout_net=" + path;
    PimcBot fit(PimcOptions::from_spec(parse_bot_spec(quick + ",playout=fit")), 1);
    PimcBot self_net(PimcOptions::from_spec(parse_bot_spec(quick + ",playout=rule,self=net")), 1);
    expect_same_analysis(fit.analyze(first), self_net.analyze(first));
    // Later the seats that left the rule player's cards play the network.
    const std::string hearts = net_random_file("hearts4", "policy", "net-fit-hearts.net");
    const std::string h = "pimc:worlds=6,threads=1,playout_net=" + hearts;
    const std::string fitted = decisions(h + ",playout=fit", "hearts4", 4);
    EXPECT_NE(fitted, decisions(h + ",playout=rule,self=net", "hearts4", 4));
    EXPECT_NE(fitted, decisions(h + ",playout=net", "hearts4", 4));
    EXPECT_TRUE(PimcOptions::from_spec(parse_bot_spec("pimc:playout=fit"))
                    .uses_net(load_rules(preset_path("hearts5"), {})));
}

// playout=auto, the default: fit in 4-player Hearts, the one form with a network, and the rule
// player in the others, where a network named for the play-outs is refused.
TEST(NetPlayer, AutoIsFitInFourPlayerHeartsAndTheRulePlayerElsewhere) {
    const auto o = PimcOptions::from_spec(parse_bot_spec("pimc"));
    EXPECT_FALSE(o.valuation.playout.has_value());
    EXPECT_EQ(PimcOptions::from_spec(parse_bot_spec("pimc:playout=auto")), o);
    const Rules hearts4 = load_rules(preset_path("hearts4"), {});
    EXPECT_EQ(o.playout_for(hearts4), PimcOptions::Playout::kFit);
    EXPECT_TRUE(o.uses_net(hearts4));
    for (const char* form : {"hearts3", "hearts5", "spades-partnership", "spades-cutthroat3"}) {
        const Rules rules = load_rules(preset_path(form), {});
        EXPECT_EQ(o.playout_for(rules), PimcOptions::Playout::kRule) << form;
        EXPECT_FALSE(o.uses_net(rules)) << form;
    }
    const std::string quick = "pimc:worlds=6,threads=1";
    const std::string by_default = decisions(quick, "hearts4", 4);
    EXPECT_EQ(by_default, decisions(quick + ",playout=fit", "hearts4", 4));
    EXPECT_NE(by_default, decisions(quick + ",playout=rule", "hearts4", 4));
    EXPECT_EQ(decisions(quick, "hearts3", 4), decisions(quick + ",playout=rule", "hearts3", 4));
    const std::string path = net_random_file("hearts5", "policy", "net-auto-hearts5.net");
    expect_spec_refused("pimc:playout_net=" + path, "hearts5", "playout_net=", "hearts5");
    expect_spec_refused("pimc:fit_weight=0.5", "hearts5", "fit_weight=", "hearts5");
    EXPECT_THROW(make_player("pimc:playout=rule,fit_weight=0.5", 1), InputError);
    EXPECT_NO_THROW(make_player("pimc:fit_weight=0.5", 1)->check(hearts4).size());
    EXPECT_NO_THROW(make_player("pimc:playout=net,playout_net=" + path, 1)
                        ->check(load_rules(preset_path("hearts5"), {}))
                        .size())
        << "refused with playout=net too";
}

TEST(NetPlayer, SpecOptionsAndFilesRefused) {
    const auto o = PimcOptions::from_spec(parse_bot_spec("pimc:playout=net"));
    EXPECT_EQ(o.valuation.playout, PimcOptions::Playout::kNet);
    EXPECT_TRUE(o.uses_net(load_rules(preset_path("hearts5"), {})));
    EXPECT_FALSE(o.uses_policy());
    EXPECT_EQ(PimcOptions::from_spec(parse_bot_spec("pimc:rollout_playout=net")).bidding.playout,
              PimcOptions::Playout::kNet);
    for (const char* bad :
         {"pimc:playout=rule,playout_net=x.net", "pimc:playout=model,playout_net=x.net",
          "pimc:playout=nets", "net:modell=x.net"})
        EXPECT_THROW(make_player(bad, 1), InputError) << bad;
    const std::string value = net_random_file("hearts4", "value", "net-value.net");
    const std::string spades = net_random_file("spades-partnership", "policy", "net-spades.net");
    for (const std::string& bot :
         {std::string("pimc:playout=net,playout_net="),
          std::string("pimc:rollout_playout=net,playout_net="), std::string("net:model=")}) {
        expect_spec_refused(bot + "/no/such/net.net", "hearts4", "/no/such/net.net", "cannot open");
        expect_spec_refused(bot + value, "hearts4", value, "task");
        expect_spec_refused(bot + spades, "hearts4", spades, "form");
    }
    const std::string truncated = (std::filesystem::temp_directory_path() / "net-cut.net").string();
    {
        const std::string whole =
            models::format_model_file(models::random_network_file("hearts4", "policy", 52, 2));
        std::ofstream(truncated, std::ios::binary) << whole.substr(0, whole.size() / 2);
    }
    expect_spec_refused("pimc:playout=net,playout_net=" + truncated, "hearts4", truncated, "");
    // hearts5 ships no play-out network: its default file is refused by name.
    expect_spec_refused("pimc:playout=net", "hearts5", "hearts5-playout-net.net", "cannot open");
    expect_spec_refused("net", "hearts5", "hearts5-playout-net.net", "cannot open");
}

}  // namespace
}  // namespace sampling
