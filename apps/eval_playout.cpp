#include "apps/eval_playout.hpp"

#include <algorithm>
#include <boost/random/mersenne_twister.hpp>
#include <boost/random/uniform_int_distribution.hpp>
#include <memory>
#include <stdexcept>

#include "apps/batch.hpp"
#include "cardgames/cards/seeds.hpp"
#include "cardgames/players/bots.hpp"
#include "cardgames/rules/game.hpp"
#include "cardgames/rules/game_runner.hpp"
#include "cardgames/rules/scoring.hpp"
#include "sampling/constraints.hpp"
#include "sampling/deal_sampler.hpp"
#include "sampling/pimc.hpp"

namespace apps {

using namespace cardgames;

namespace {

using Rng = boost::random::mt19937_64;

std::vector<std::unique_ptr<Player>> reference_players(int n, const std::string& reference,
                                                       std::uint64_t seed) {
    std::vector<std::unique_ptr<Player>> players;
    for (int s = 0; s < n; ++s)
        players.push_back(sampling::make_player(reference, seeds::eval_reference(seed, s)));
    return players;
}

std::size_t pick(Rng& rng, std::size_t n) {
    return boost::random::uniform_int_distribution<std::size_t>(0, n - 1)(rng);
}

}  // namespace

int policy_bid(const Rules& rules, const Deal& deal, int seat, const std::string& policy,
               const std::string& reference, std::uint64_t seed) {
    Game game(rules, seed);
    game.stop_after_hand();
    game.set_deal(deal);
    auto players = reference_players(rules.players, reference, seed);
    players[seat] = sampling::make_player(policy, seeds::eval_bidder(seed));
    while (!(game.to_act() == seat && game.phase() == Phase::kBid)) {
        if (game.phase() == Phase::kBlindNil && game.to_act() == seat)
            game.choose_blind_nil(false);
        else
            step_game(game, players);
    }
    return players[seat]->bid(game.info_state(seat));
}

double bid_playout(const Rules& rules, const Deal& layout, int seat, int bid,
                   const std::string& reference, std::uint64_t seed) {
    Game game(rules, seed);
    game.stop_after_hand();
    game.set_deal(layout);
    auto players = reference_players(rules.players, reference, seed);
    while (!game.over()) {
        if (stop_requested()) throw Interrupted{};
        if (game.to_act() == seat && game.phase() == Phase::kBlindNil) {
            game.choose_blind_nil(false);
        } else if (game.to_act() == seat && game.phase() == Phase::kBid) {
            if (const std::string why = game.choose_bid(bid); !why.empty())
                throw std::logic_error("bid " + std::to_string(bid) + ": " + why);
        } else {
            step_game(game, players);
        }
    }
    return game.finished_hands().back().score.delta[rules.unit_of(seat)];
}

Deal sample_bid_layout(const Rules& rules, const Deal& deal, int seat, std::uint64_t seed) {
    std::vector<Card> others;
    for (Card c : rules.deck() - deal.hands[seat]) others.push_back(c);
    Rng rng(seed);
    for (std::size_t i = others.size(); i > 1; --i) std::swap(others[i - 1], others[pick(rng, i)]);
    Deal out = deal;
    std::size_t next = 0;
    for (int s = 0; s < rules.players; ++s) {
        if (s == seat) continue;
        out.hands[s] = CardSet();
        for (int k = 0; k < deal.hands[s].size(); ++k) out.hands[s] |= others[next++];
    }
    return out;
}

std::array<CardSet, kMaxPlayers> sample_play_layout(const PlayDecision& d, std::uint64_t seed) {
    const sampling::DealSampler sampler(sampling::constraints_from(d.info));
    Rng rng(seed);
    return sampler.sample(rng, d.info.hand).hands;
}

double card_playout(const PlayDecision& d, const std::array<CardSet, kMaxPlayers>& layout,
                    Card card, const std::string& reference, std::uint64_t seed) {
    const InfoState& base = d.info;
    const Rules& rules = *base.rules;
    const PlayRules play_rules = PlayRules::from(rules);
    const int n = rules.players;
    auto players = reference_players(n, reference, seed);
    PlayState state = base.play;
    for (int s = 0; s < n; ++s) state.hands[s] = layout[s];
    std::array<CardSet, kMaxPlayers> taken = d.taken;
    std::array<CardSet, kMaxPlayers> played_by{};
    for (const PlayedCard& p : base.plays) played_by[p.seat] |= p.card;
    InfoState info = base;
    for (;;) {
        const int mover = state.to_move;
        if (!state.legal_moves(play_rules).contains(card))
            throw std::logic_error("seat " + std::to_string(mover) + " (" + reference +
                                   ") chose the illegal card " + to_string(card));
        const int size_before = state.trick_size;
        const std::array<Card, kMaxPlayers> trick = state.trick;
        const int winner = state.play(play_rules, card);
        info.plays.push_back({static_cast<std::int8_t>(mover), card});
        played_by[mover] |= card;
        if (winner >= 0) {
            for (int i = 0; i < size_before; ++i) taken[winner] |= trick[i];
            taken[winner] |= card;
        }
        if (state.hand_over()) break;
        // The next seat's view: its own cards only; what it passed or received is known to the
        // decision's seat alone, so other seats see none of it.
        const int t = state.to_move;
        info.seat = t;
        info.play = state;
        for (int s = 0; s < n; ++s)
            if (s != t) info.play.hands[s] = CardSet();
        info.hand = state.hands[t];
        info.dealt = t == base.seat ? base.dealt : state.hands[t] | played_by[t];
        info.passed = t == base.seat ? base.passed : CardSet();
        info.received = t == base.seat ? base.received : CardSet();
        card = players[t]->play(info);
    }
    ScoreBoard board = base.scores;
    const int unit = rules.unit_of(base.seat);
    if (rules.game == GameKind::kSpades) {
        std::array<int, kMaxPlayers> tricks{};
        for (int s = 0; s < n; ++s) tricks[s] = state.tricks_won[s];
        return score_spades_hand(rules, base.bids, tricks, board).delta[unit];
    }
    return -score_hearts_hand(rules, taken, board).delta[unit];
}

}  // namespace apps
