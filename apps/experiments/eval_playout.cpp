#include "apps/experiments/eval_playout.hpp"

#include <algorithm>
#include <boost/random/mersenne_twister.hpp>
#include <memory>
#include <stdexcept>

#include "apps/experiments/run.hpp"
#include "cardgames/cards/seeds.hpp"
#include "cardgames/rules/game.hpp"
#include "cardgames/rules/game_runner.hpp"
#include "sampling/bot_registry.hpp"
#include "sampling/constraints.hpp"
#include "sampling/deal_sampler.hpp"
#include "sampling/playout.hpp"

namespace apps {

using namespace cardgames;

namespace {

using Rng = boost::random::mt19937_64;

std::vector<std::unique_ptr<Player>> reference_players(
    int n, const std::string& reference, std::uint64_t seed,
    const std::shared_ptr<models::ModelStore>& store) {
    std::vector<std::unique_ptr<Player>> players;
    for (int s = 0; s < n; ++s)
        players.push_back(
            sampling::make_player(reference, seeds::eval_reference(seed, s), {}, store));
    return players;
}

sampling::Seats seats_of(const std::vector<std::unique_ptr<Player>>& players) {
    sampling::Seats seats{};
    for (std::size_t s = 0; s < players.size(); ++s) seats[s] = players[s].get();
    return seats;
}

}  // namespace

int policy_bid(const Rules& rules, const Deal& deal, int seat, Player& policy,
               const std::string& reference, std::uint64_t seed,
               const std::shared_ptr<models::ModelStore>& store) {
    Game game(rules, seed);
    game.stop_after_hand();
    game.set_deal(deal);
    auto players = reference_players(rules.players, reference, seed, store);
    // The policy's seat is never asked before its bid (its blind nil is declined here), so the
    // reference player sitting there only holds the seat.
    while (!(game.to_act() == seat && game.phase() == Phase::kBid)) {
        if (game.phase() == Phase::kBlindNil && game.to_act() == seat)
            game.choose_blind_nil(false);
        else
            step_game(game, players);
    }
    return policy.bid(game.info_state(seat));
}

double bid_playout(const Rules& rules, const Deal& layout, int seat, int bid,
                   const std::string& reference, std::uint64_t seed, const std::stop_token& stop,
                   const std::shared_ptr<models::ModelStore>& store) {
    Game game(rules, seed);
    game.stop_after_hand();
    game.set_deal(layout);
    auto players = reference_players(rules.players, reference, seed, store);
    while (game.phase() != Phase::kPlay) {
        if (stop.stop_requested()) throw Interrupted{};
        if (game.to_act() == seat && game.phase() == Phase::kBlindNil) {
            game.choose_blind_nil(false);
        } else if (game.to_act() == seat && game.phase() == Phase::kBid) {
            if (const std::string why = game.choose_bid(bid); !why.empty())
                throw std::logic_error("bid " + std::to_string(bid) + ": " + why);
        } else {
            step_game(game, players);
        }
    }
    return sampling::play_card_phase(game, seat, seats_of(players));
}

std::array<CardSet, kMaxPlayers> sample_play_layout(const PlayDecision& d, std::uint64_t seed) {
    const sampling::DealSampler sampler(sampling::constraints_from(d.info));
    Rng rng(seed);
    return sampler.sample(rng, d.info.hand).hands;
}

double card_playout(const PlayDecision& d, const std::array<CardSet, kMaxPlayers>& layout,
                    Card card, const std::string& reference, std::uint64_t seed,
                    const std::shared_ptr<models::ModelStore>& store) {
    const auto players = reference_players(d.info.players(), reference, seed, store);
    sampling::SeatViews views(d.info);
    TrickGame world = sampling::world_of(d.info, layout, sampling::score_utility(*d.info.rules));
    const engine::Tuple value = sampling::play_out(views, world, card, seats_of(players));
    return sampling::hand_value(*d.info.rules, world, value, d.info.seat);
}

}  // namespace apps
