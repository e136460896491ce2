#include "apps/cli/bench_nets.hpp"

#include <fmt/format.h>

#include <boost/random/mersenne_twister.hpp>
#include <ctime>
#include <iostream>
#include <memory>
#include <vector>

#include "cardgames/cards/error.hpp"
#include "cardgames/cards/seeds.hpp"
#include "cardgames/models/card_features.hpp"
#include "cardgames/models/model_store.hpp"
#include "cardgames/players/rule_bot.hpp"
#include "cardgames/rules/game.hpp"
#include "cardgames/search/trick_play.hpp"
#include "sampling/constraints.hpp"
#include "sampling/cutoff_net.hpp"
#include "sampling/deal_sampler.hpp"
#include "sampling/inference.hpp"
#include "sampling/net_player.hpp"
#include "sampling/parallel.hpp"
#include "sampling/playout.hpp"

namespace apps {

namespace {

using cardgames::Card;
using cardgames::CardSet;
using cardgames::Game;
using cardgames::InfoState;
using cardgames::Phase;
namespace models = cardgames::models;

// The instructions the dense layers run on here (the same outputs on any).
const char* dense_instructions_name() {
    return models::dense_instructions() == models::DenseInstructions::kAvx2 ? "by avx2"
                                                                            : "by plain sse2";
}

// One hand's play, as every seat saw it: the view at the first card, then the cards in order.
struct HandPlay {
    std::vector<InfoState> start;               // by seat
    std::vector<std::pair<int, Card>> cards;    // (seat, card)
    std::vector<std::vector<InfoState>> after;  // by card, by seat: for the full recomputation
};

// Plays a hand with random legal choices (bids of 3, the lowest cards passed). The views point at
// `rules`, not at the game's copy, which ends here.
HandPlay play_hand(const cardgames::Rules& rules, std::uint64_t seed) {
    Game game(rules, seed);
    std::uint64_t state = seed;
    auto next = [&state] { return state = cardgames::mix_seed(state, 1); };
    while (game.phase() != Phase::kPlay) {
        const InfoState info = game.info_state(game.to_act());
        if (game.phase() == Phase::kBlindNil)
            game.choose_blind_nil(false);
        else if (game.phase() == Phase::kBid)
            game.choose_bid(3);
        else if (game.phase() == Phase::kPass) {
            CardSet hand = info.hand, pass;
            for (int i = 0; i < info.pass_count; ++i) pass |= hand.pop_lowest();
            game.choose_pass(pass);
        }
    }
    HandPlay h;
    const int n = rules.players, total = rules.cards_per_hand() * n;
    auto view = [&](int seat) {
        InfoState info = game.info_state(seat);
        info.rules = &rules;
        return info;
    };
    for (int s = 0; s < n; ++s) h.start.push_back(view(s));
    for (int k = 0; k < total; ++k) {
        const CardSet legal = game.play_state().legal_moves(game.play_rules());
        std::vector<Card> choices(legal.begin(), legal.end());
        const Card card = choices[next() % choices.size()];
        h.cards.emplace_back(game.to_act(), card);
        game.choose_card(card);
        if (k + 1 == total) break;  // the hand is scored: its last view is not a decision
        h.after.emplace_back();
        for (int s = 0; s < n; ++s) h.after.back().push_back(view(s));
    }
    return h;
}

// The thread's CPU time: on a machine shared with other work, the time the evaluations took rather
// than the time they waited for a core.
double cpu_seconds() {
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
}

// A cut-off network (task cutoff) on the trick boundaries of random hands, with what the search's
// horizon does: the accumulator moved from one position to the next by the features that differ
// (sampling::CutoffNet::predict), against one computed from scratch (predict_refreshed).
int bench_cutoff_net(const cardgames::Rules& rules, const std::string& model,
                     const std::shared_ptr<const models::Network>& net, int hands,
                     std::uint64_t seed) {
    const sampling::CutoffNet cutoff(net);
    std::vector<cardgames::TrickPlay> positions;
    std::vector<cardgames::ScoreContext> contexts;
    for (int h = 0; h < hands; ++h) {
        Game game(rules, cardgames::mix_seed(seed, static_cast<std::uint64_t>(h)));
        std::uint64_t state = seed + static_cast<std::uint64_t>(h);
        game.stop_after_hand();
        while (game.phase() != Phase::kPlay) {
            if (game.phase() == Phase::kBlindNil)
                game.choose_blind_nil(false);
            else if (game.phase() == Phase::kBid)
                game.choose_bid(3);
            else {
                const InfoState info = game.info_state(game.to_act());
                CardSet hand = info.hand, pass;
                for (int i = 0; i < info.pass_count; ++i) pass |= hand.pop_lowest();
                game.choose_pass(pass);
            }
        }
        while (!game.over() && game.phase() == Phase::kPlay) {
            if (game.play_state().trick_size == 0) {
                positions.emplace_back(rules, game.play_state(), game.hand().taken);
                contexts.emplace_back();
                contexts.back().bids = game.hand().bids;
            }
            const CardSet legal = game.play_state().legal_moves(game.play_rules());
            std::vector<Card> choices(legal.begin(), legal.end());
            state = cardgames::mix_seed(state, 1);
            game.choose_card(choices[state % choices.size()]);
        }
    }
    std::array<double, cardgames::kMaxPlayers> rest{};
    double full_sum = 0, inc_sum = 0;
    const double t_full = cpu_seconds();
    for (std::size_t i = 0; i < positions.size(); ++i) {
        cutoff.predict_refreshed(positions[i], contexts[i], rest);
        full_sum += rest[0];
    }
    const double full_secs = cpu_seconds() - t_full;
    const double t_inc = cpu_seconds();
    for (std::size_t i = 0; i < positions.size(); ++i) {
        cutoff.predict(positions[i], contexts[i], rest);
        inc_sum += rest[0];
    }
    const double inc_secs = cpu_seconds() - t_inc;
    const auto count = static_cast<double>(positions.size());
    std::cout << fmt::format(
        "cut-off network {}: {} deal inputs, accumulator {}, {} outputs ({}), dense layers {}\n",
        model, net->inputs(), net->accumulator_size(), net->outputs(), net->form(),
        dense_instructions_name());
    std::cout << fmt::format("{:<14}{:>12}{:>14}{:>14}   (CPU time of this thread)\n",
                             "accumulator", "evals", "evals/s", "ns/eval");
    for (const auto& [name, secs] :
         {std::pair{"full", full_secs}, std::pair{"incremental", inc_secs}})
        std::cout << fmt::format("{:<14}{:>12}{:>14.0f}{:>14.1f}\n", name, positions.size(),
                                 count / secs, secs * 1e9 / count);
    std::cout << fmt::format("outputs agree: {} (sum of first outputs {:.6f})\n",
                             full_sum == inc_sum ? "yes" : "NO", full_sum);
    return full_sum == inc_sum ? 0 : 1;
}

// A policy network's play-outs (sampling::NetPlayer in every seat, as pimc:playout=net plays
// them) against the rule player's (pimc's default), from the same decisions of the hands in `plays`
// (each seat's view after every card but the last), each in one world sampled for it, played to
// the end of the hand.
void bench_playouts(const cardgames::Rules& rules,
                    const std::shared_ptr<const models::Network>& net, const std::string& name,
                    const std::vector<HandPlay>& plays, std::uint64_t seed) {
    struct Start {
        const InfoState* info;
        cardgames::TrickGame world;
    };
    std::vector<Start> starts;
    long cards = 0;
    for (const HandPlay& h : plays)
        for (std::size_t k = 0; k < h.after.size(); ++k) {
            const InfoState& info = h.after[k][static_cast<std::size_t>(h.cards[k + 1].first)];
            const sampling::DealSampler sampler(sampling::constraints_from(info));
            boost::random::mt19937_64 rng(cardgames::mix_seed(seed, starts.size()));
            starts.push_back({&info, sampling::world_of(info, sampler.sample(rng, info.hand).hands,
                                                        sampling::score_utility(rules))});
            cards += starts.back().world.state().cards_left();
        }
    sampling::NetPlayer by_net(net);
    cardgames::RuleBot by_rule;
    const auto play_outs = [&](cardgames::Player& player) {
        const double start = cpu_seconds();
        for (Start& s : starts) {
            sampling::SeatViews views(*s.info);
            sampling::play_out(views, s.world, cardgames::kNoCard, sampling::every_seat(player));
        }
        return cpu_seconds() - start;
    };
    const double rule_secs = play_outs(by_rule), net_secs = play_outs(by_net);
    const auto count = static_cast<double>(starts.size());
    std::cout << fmt::format(
        "play-outs to the end of the hand, network {}: {} decisions, {} cards\n", name,
        starts.size(), cards);
    std::cout << fmt::format("{:<14}{:>12}{:>14}{:>14}   (CPU time of this thread)\n", "play-out",
                             "play-outs", "play-outs/s", "ns/card");
    for (const auto& [who, secs] : {std::pair{"rule", rule_secs}, std::pair{"net", net_secs}})
        std::cout << fmt::format("{:<14}{:>12}{:>14.0f}{:>14.1f}\n", who, starts.size(),
                                 count / secs, secs * 1e9 / static_cast<double>(cards));
    std::cout << fmt::format("net decisions refreshed: {} of {}, the rest updated card by card\n",
                             by_net.refreshes(), by_net.decisions());
}

// The likelihood of pimc:infer=net on the decisions of the hands in `plays` (the view of the seat
// to act after every card but the last), each over a pool of 256 worlds sampled for it (infer's
// pool at the default 64 worlds, sampling/pimc.cpp): as infer=net scores them, the accumulator
// holding each play's public features once and moved from world to world by the hand
// (PlayLikelihood::of over the pool), against each world scored alone, the accumulator refreshed
// at every play of every world (PlayLikelihood::of one world); and the linear play-out policy of
// infer=play over the same pools. One thread.
void bench_inference(const cardgames::Rules& rules,
                     const std::shared_ptr<const models::Network>& net, const std::string& name,
                     const std::vector<HandPlay>& plays, std::uint64_t seed) {
    constexpr int kPool = 256;
    struct Decision {
        const InfoState* info;
        std::vector<cardgames::Deal> worlds;
    };
    std::vector<Decision> decisions;
    long scored = 0;  // informative plays times worlds
    for (const HandPlay& h : plays)
        for (std::size_t k = 0; k < h.after.size(); ++k) {
            const InfoState& info = h.after[k][static_cast<std::size_t>(h.cards[k + 1].first)];
            const sampling::DealSampler sampler(sampling::constraints_from(info));
            boost::random::mt19937_64 rng(cardgames::mix_seed(seed, decisions.size()));
            Decision d{&info, {}};
            for (int w = 0; w < kPool; ++w) d.worlds.push_back(sampler.sample(rng, info.hand));
            for (const cardgames::PlayedCard& p : info.plays)
                scored += p.seat != info.seat ? kPool : 0;
            decisions.push_back(std::move(d));
        }
    sampling::DecisionArena one(1);
    cardgames::models::ModelStore store;
    const auto policy = sampling::inference_policy(store, "", rules);
    double shared_sum = 0, alone_sum = 0, linear_sum = 0;
    const double t_shared = cpu_seconds();
    for (const Decision& d : decisions)
        for (double v : sampling::PlayLikelihood(*d.info, net).of(d.worlds, one)) shared_sum += v;
    const double shared_secs = cpu_seconds() - t_shared;
    const double t_alone = cpu_seconds();
    for (const Decision& d : decisions) {
        const sampling::PlayLikelihood likelihood(*d.info, net);
        for (const cardgames::Deal& world : d.worlds) alone_sum += likelihood.of(world);
    }
    const double alone_secs = cpu_seconds() - t_alone;
    const double t_linear = cpu_seconds();
    for (const Decision& d : decisions)
        for (double v : sampling::PlayLikelihood(*d.info, policy).of(d.worlds, one))
            linear_sum += v;
    const double linear_secs = cpu_seconds() - t_linear;
    const auto count = static_cast<double>(decisions.size());
    std::cout << fmt::format(
        "infer=net likelihood, network {}: {} decisions, pools of {} worlds, {} plays by other "
        "seats scored\n",
        name, decisions.size(), kPool, scored);
    std::cout << fmt::format("{:<22}{:>14}{:>14}{:>14}   (CPU time of this thread)\n", "scoring",
                             "worlds/s", "ms/decision", "ns/play");
    for (const auto& [what, secs] : {std::pair{"net, each world alone", alone_secs},
                                     std::pair{"net, shared (infer)", shared_secs},
                                     std::pair{"linear (infer=play)", linear_secs}})
        std::cout << fmt::format("{:<22}{:>14.0f}{:>14.3f}{:>14.1f}\n", what, count * kPool / secs,
                                 secs * 1e3 / count, secs * 1e9 / static_cast<double>(scored));
    std::cout << fmt::format("net figures agree: {} (sum of log-likelihoods {:.6f})\n",
                             shared_sum == alone_sum ? "yes" : "NO", shared_sum);
}

}  // namespace

int bench_nets(const cardgames::Rules& rules, const std::string& model, int hands,
               std::uint64_t seed) {
    const std::string form = cardgames::form_name(rules);
    models::ModelStore store;
    std::shared_ptr<const models::Network> net;
    if (model.empty())
        net = std::make_shared<const models::Network>(
            models::random_network_file(form, "value", rules.players, 1));
    else
        net = store.network(model, form);
    if (net->task() == "cutoff") return bench_cutoff_net(rules, model, net, hands, seed);
    std::vector<HandPlay> plays;
    for (int h = 0; h < hands; ++h)
        plays.push_back(play_hand(rules, cardgames::mix_seed(seed, static_cast<std::uint64_t>(h))));
    const int n = rules.players;
    long positions = 0;
    for (const HandPlay& h : plays) positions += static_cast<long>(h.after.size()) * n;

    // The same positions both ways; the sums of the outputs must agree (both are exact sums of the
    // same integer accumulators, then the same float layers).
    models::Evaluator e(*net);
    double full_sum = 0, inc_sum = 0;
    const double t_full = cpu_seconds();
    for (const HandPlay& h : plays)
        for (const std::vector<InfoState>& views : h.after)
            for (const InfoState& info : views) {
                models::ActiveFeatures f;
                models::card_features(info, net->card_version(), f);
                e.refresh(f.view());
                full_sum += e.evaluate()[0];
            }
    const double full_secs = cpu_seconds() - t_full;

    std::vector<models::Evaluator> seat_eval(static_cast<std::size_t>(n), models::Evaluator(*net));
    const double t_inc = cpu_seconds();
    for (const HandPlay& h : plays) {
        std::vector<models::CardFeatureTracker> trackers;
        for (int s = 0; s < n; ++s) {
            trackers.emplace_back(h.start[s], net->card_version());
            models::ActiveFeatures f;
            models::card_features(h.start[s], net->card_version(), f);
            seat_eval[s].refresh(f.view());
        }
        for (std::size_t k = 0; k < h.after.size(); ++k)
            for (int s = 0; s < n; ++s) {
                trackers[s].play(h.cards[k].first, h.cards[k].second, seat_eval[s]);
                inc_sum += seat_eval[s].evaluate()[0];
            }
    }
    const double inc_secs = cpu_seconds() - t_inc;

    std::cout << fmt::format(
        "network {}: {} inputs, accumulator {}, {} outputs ({}), dense layers {}\n",
        model.empty() ? "random (seed 1)" : model, net->inputs(), net->accumulator_size(),
        net->outputs(), form, dense_instructions_name());
    std::cout << fmt::format("{:<14}{:>12}{:>14}{:>14}   (CPU time of this thread)\n",
                             "accumulator", "evals", "evals/s", "ns/eval");
    for (const auto& [name, secs] :
         {std::pair{"full", full_secs}, std::pair{"incremental", inc_secs}})
        std::cout << fmt::format("{:<14}{:>12}{:>14.0f}{:>14.1f}\n", name, positions,
                                 positions / secs, secs * 1e9 / positions);
    std::cout << fmt::format("outputs agree: {} (sum of first outputs {:.6f})\n",
                             full_sum == inc_sum ? "yes" : "NO", full_sum);
    // The play-outs and the likelihood of infer=net: by the policy network named, or without a
    // file by one of random weights.
    if (net->task() == "policy") {
        bench_playouts(rules, net, model, plays, seed);
        bench_inference(rules, net, model, plays, seed);
    } else if (model.empty()) {
        const auto policy = std::make_shared<const models::Network>(
            models::random_network_file(form, "policy", 52, 1));
        bench_playouts(rules, policy, "random policy (seed 1)", plays, seed);
        bench_inference(rules, policy, "random policy (seed 1)", plays, seed);
    }
    return full_sum == inc_sum ? 0 : 1;
}

}  // namespace apps
