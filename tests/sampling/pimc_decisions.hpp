#pragma once
// Test helpers shared by the sampling tests.
#include <gtest/gtest.h>

#include <boost/random/mersenne_twister.hpp>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "cardgames/cards/error.hpp"
#include "cardgames/models/card_features.hpp"
#include "cardgames/models/model_file.hpp"
#include "cardgames/models/network.hpp"
#include "cardgames/rules/game_runner.hpp"
#include "sampling/bot_registry.hpp"
#include "sampling/constraints.hpp"
#include "sampling/deal_sampler.hpp"
#include "sampling/pimc.hpp"
#include "sampling/playout.hpp"

namespace sampling {

// Two analyses of one decision that must agree: the same card chosen and every card valued alike
// (its mean, the value as a player reads it, the worlds where it was best). `where` names the
// decision in a failure.
inline void expect_same_analysis(const PimcAnalysis& a, const PimcAnalysis& b,
                                 const std::string& where = "") {
    EXPECT_EQ(a.best, b.best) << where;
    ASSERT_EQ(a.cards.size(), b.cards.size()) << where;
    for (std::size_t i = 0; i < a.cards.size(); ++i) {
        const std::string card = cardgames::to_string(a.cards[i].card) + " " + where;
        EXPECT_EQ(a.cards[i].card, b.cards[i].card) << card;
        EXPECT_EQ(a.cards[i].mean, b.cards[i].mean) << card;
        EXPECT_EQ(a.cards[i].expected, b.cards[i].expected) << card;
        EXPECT_EQ(a.cards[i].votes, b.cards[i].votes) << card;
    }
}

// A random network of `task` with `outputs` outputs for `form`, written to a temporary file.
inline std::string choice_net_file(const std::string& form, const std::string& task, int outputs,
                                   const std::string& name, std::uint64_t seed = 7) {
    const auto path = std::filesystem::temp_directory_path() / name;
    cardgames::models::write_model_file(
        path, cardgames::models::random_network_file(form, task, outputs, seed));
    return path.string();
}

// The outputs of `file`'s network for the seat of `info`, by a forward pass from scratch.
inline std::vector<float> direct_outputs(const std::string& file,
                                         const cardgames::InfoState& info) {
    const cardgames::models::Network net(cardgames::models::read_model_file(file));
    cardgames::models::ActiveFeatures active;
    cardgames::models::card_features(info, net.card_version(), active);
    cardgames::models::Evaluator eval(net);
    eval.refresh(active.view());
    const auto out = eval.evaluate();
    return {out.begin(), out.end()};
}

// The rule player in each of n seats.
inline std::vector<std::unique_ptr<cardgames::Player>> rule_players(int n) {
    std::vector<std::unique_ptr<cardgames::Player>> out;
    for (int s = 0; s < n; ++s) out.push_back(make_player("rule", s));
    return out;
}

// A hand of `rules` dealt by `seed`, the rule player in every seat, stopped once at most
// `cards_left` cards are in hands.
inline cardgames::Game rule_played_to(const cardgames::Rules& rules, std::uint64_t seed,
                                      int cards_left) {
    auto players = rule_players(rules.players);
    cardgames::Game game(rules, seed);
    game.stop_after_hand();
    while (
        !(game.phase() == cardgames::Phase::kPlay && game.play_state().cards_left() <= cards_left))
        cardgames::step_game(game, players);
    return game;
}

// Play-outs as pimc makes them, with `player` in every seat: at three points of three hands of
// `rules` (the deal, 30 and 17 cards left), three worlds sampled for the seat to act, and every
// legal first card played out in each world in turn. Two play-outs in a row can share their plays
// beyond the decision while a seat's hand differs: what a player that remembers must notice.
inline void play_outs_as_pimc(const cardgames::Rules& rules, cardgames::Player& player) {
    for (std::uint64_t seed = 1; seed <= 3; ++seed) {
        for (int left : {rules.cards_per_hand() * rules.players, 30, 17}) {
            const cardgames::Game game = rule_played_to(rules, seed, left);
            const cardgames::InfoState info = game.info_state(game.to_act());
            const DealSampler sampler(constraints_from(info));
            std::vector<cardgames::TrickGame> worlds;
            for (int w = 0; w < 3; ++w) {
                boost::random::mt19937_64 rng(seed * 100 + static_cast<std::uint64_t>(w));
                const cardgames::Deal deal = sampler.sample(rng, info.hand);
                worlds.push_back(world_of(info, deal.hands, score_utility(rules)));
            }
            for (cardgames::Card first : info.legal_cards())
                for (cardgames::TrickGame& world : worlds) {
                    SeatViews views(info);
                    play_out(views, world, first, every_seat(player));
                }
        }
    }
}

// Two views of the same point of a hand (a seat's, and one rebuilt for it) agree on everything
// public and on the seat's hand.
inline void expect_same_public(const cardgames::InfoState& got, const cardgames::InfoState& real) {
    EXPECT_EQ(got.seat, real.seat);
    EXPECT_EQ(got.hand, real.hand);
    EXPECT_EQ(got.plays, real.plays);
    EXPECT_EQ(got.trick_winners, real.trick_winners);
    EXPECT_EQ(got.bids, real.bids);
    EXPECT_EQ(got.scores.score, real.scores.score);
    EXPECT_EQ(got.scores.bags, real.scores.bags);
    EXPECT_EQ(got.hand_number, real.hand_number);
    EXPECT_EQ(got.dealer, real.dealer);
    for (int s = 0; s < cardgames::kMaxPlayers; ++s)
        EXPECT_EQ(got.play.hands[s], real.play.hands[s]);
    EXPECT_EQ(got.play.played, real.play.played);
    EXPECT_EQ(got.play.trick, real.play.trick);
    EXPECT_EQ(got.play.trick_size, real.play.trick_size);
    EXPECT_EQ(got.play.leader, real.play.leader);
    EXPECT_EQ(got.play.tricks_won, real.play.tricks_won);
    EXPECT_EQ(got.play.points, real.play.points);
    EXPECT_EQ(got.play.broken, real.play.broken);
}

// `spec` made and checked against `form`'s rules is refused, with a message naming `file` and
// `what` (the field): a file named is read when the bot is made, the form's default when it is
// checked, both before any hand is played.
inline void expect_spec_refused(const std::string& spec, const std::string& form,
                                const std::string& file, const std::string& what) {
    try {
        auto player = make_player(spec, 1);
        player->check(cardgames::load_rules(cardgames::preset_path(form), {}));
        ADD_FAILURE() << spec << " was accepted";
    } catch (const cardgames::InputError& e) {
        const std::string m = e.what();
        EXPECT_NE(m.find(file), std::string::npos) << m;
        EXPECT_NE(m.find(what), std::string::npos) << m;
    }
}

// `game`, checked to stand at the pass.
inline cardgames::Game at_pass(cardgames::Game game) {
    if (game.phase() != cardgames::Phase::kPass) throw std::logic_error("not at the pass");
    return game;
}

// 4-player Hearts (seed 5) dealt `deal`, at the pass: the pass decisions of a hand-built deal.
inline cardgames::Game hearts4_at_pass(const char* deal) {
    cardgames::Game game(cardgames::load_rules(cardgames::preset_path("hearts4"), {}), 5);
    game.set_deal(cardgames::parse_deal(deal));
    return at_pass(std::move(game));
}

// Hands `f` seat 0's pass decision in each 4-player Hearts deal of seeds 1 to `seeds`.
template <class F>
void for_each_hearts4_pass(std::uint64_t seeds, F f) {
    const cardgames::Rules rules = cardgames::load_rules(cardgames::preset_path("hearts4"), {});
    for (std::uint64_t seed = 1; seed <= seeds; ++seed)
        f(at_pass(cardgames::Game(rules, seed)).info_state(0));
}

// Plays a hand with pimc in every seat and returns every decision as text.
inline std::string decisions(const std::string& spec, const char* preset, std::uint64_t seed) {
    using namespace cardgames;
    const Rules rules = load_rules(preset_path(preset), {});
    Game game(rules, seed);
    game.stop_after_hand();
    std::vector<std::unique_ptr<Player>> players;
    for (int s = 0; s < rules.players; ++s) players.push_back(make_player(spec, mix_seed(seed, s)));
    std::string out;
    game.set_observer([&](const Game& g, const GameEvent& e) {
        if (e.kind == GameEvent::Kind::kCard) out += to_string(e.card) + " ";
        if (e.kind == GameEvent::Kind::kBid) out += "b" + std::to_string(e.value) + " ";
        if (e.kind == GameEvent::Kind::kPassesDone)
            for (int s = 0; s < g.rules().players; ++s)
                out += "p" + cards_to_string(g.hand().passed[s]) + " ";
    });
    run_game(game, players);
    return out;
}

}  // namespace sampling
