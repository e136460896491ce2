#include "sampling/sample_world.hpp"

#include <boost/random/mersenne_twister.hpp>
#include <boost/random/uniform_int_distribution.hpp>
#include <map>
#include <vector>

#include "cardgames/cards/error.hpp"
#include "cardgames/rules/dealing.hpp"
#include "sampling/deal_sampler.hpp"

namespace sampling {

using namespace cardgames;
using cardgames::encoding::card_number;
using cardgames::encoding::GameState;
using cardgames::encoding::kBidBase;
using cardgames::encoding::kPassBase;

namespace {

// `count` cards drawn uniformly from `from`.
CardSet draw(CardSet from, int count, boost::random::mt19937_64& rng) {
    std::vector<Card> cards;
    for (Card c : from) cards.push_back(c);
    CardSet out;
    for (int i = 0; i < count && !cards.empty(); ++i) {
        boost::random::uniform_int_distribution<std::size_t> pick(0, cards.size() - 1);
        const std::size_t k = pick(rng);
        out |= cards[k];
        cards.erase(cards.begin() + static_cast<std::ptrdiff_t>(k));
    }
    return out;
}

}  // namespace

GameState sample_world(const GameState& state, int seat, std::uint64_t seed) {
    const Rules& rules = state.rules();
    const Game& game = state.game();
    const InfoState info = state.info_state(seat);
    if (state.terminal()) throw InputError("the game is over: there is no hidden card to sample");
    boost::random::mt19937_64 rng(seed);
    const HandRecord& hand = game.hand();
    const int n = rules.players;
    Deal now;  // what each seat holds now
    if (info.phase == Phase::kBlindNil && game.to_act() == seat) {
        // The seat has not seen its cards: every deal is as likely as the seed's.
        now = deal_from_seed(rules, mix_seed(seed, 1), hand.number);
    } else {
        Constraints constraints = constraints_from(info);
        // Hand sizes are public; in the middle of a blind-nil exchange they are not the hand's
        // size less the cards played, which is all constraints_from counts.
        for (int s = 0; s < n; ++s)
            if (s != seat) constraints.need[s] = game.play_state().hands[s].size();
        const sampling::DealSampler sampler(constraints);
        now = sampler.sample(rng, info.hand);
    }
    // Back from the hands held now to the hands dealt: give back the cards played, then undo the
    // passes (or the blind-nil exchange steps, last first). Passes the seat saw stay as they were;
    // the others are drawn from what the receiver held after them.
    std::array<CardSet, kMaxPlayers> held = now.hands;
    for (const PlayedCard& p : hand.plays) held[p.seat] |= p.card;
    std::array<std::vector<Card>, kMaxPlayers> replacement;  // per giver, in the order given
    auto sees = [&](int giver, int receiver) { return giver == seat || receiver == seat; };
    if (rules.game == GameKind::kHearts) {
        const bool exchanged = game.phase() != Phase::kPass && hand.pass_offset != 0;
        std::array<CardSet, kMaxPlayers> given{};
        for (int s = 0; s < n; ++s) {
            const bool chosen = exchanged || (game.phase() == Phase::kPass && s < game.to_act());
            if (!chosen) continue;
            const int r = rules.pass_recipient(s, hand.number);
            given[s] = sees(s, exchanged ? r : s)
                           ? hand.passed[s]
                           : draw(exchanged ? held[r] : held[s], rules.pass_count, rng);
            if (!sees(s, exchanged ? r : s))
                for (Card c : given[s]) replacement[s].push_back(c);
        }
        if (exchanged) {
            for (int s = 0; s < n; ++s) held[rules.pass_recipient(s, hand.number)] -= given[s];
            for (int s = 0; s < n; ++s) held[s] |= given[s];
        }
        if (game.phase() == Phase::kPass && game.to_act() != seat &&
            !state.pending_pass().empty()) {
            for (Card c : draw(held[game.to_act()], state.pending_pass().size(), rng))
                replacement[game.to_act()].push_back(c);
        }
    } else {
        std::vector<std::pair<int, CardSet>> steps = hand.exchanges;
        for (auto it = steps.rbegin(); it != steps.rend(); ++it) {
            auto& [giver, cards] = *it;
            const int receiver = rules.pass_recipient(giver, hand.number);
            if (!sees(giver, receiver)) cards = draw(held[receiver], 2, rng);
            held[receiver] -= cards;
            held[giver] |= cards;
        }
        for (const auto& [giver, cards] : steps)
            if (!sees(giver, rules.pass_recipient(giver, hand.number)))
                for (Card c : cards) replacement[giver].push_back(c);
        if (game.phase() == Phase::kPass && game.to_act() != seat &&
            !state.pending_pass().empty()) {
            for (Card c : draw(held[game.to_act()], state.pending_pass().size(), rng))
                replacement[game.to_act()].push_back(c);
        }
    }
    Deal dealt;
    dealt.players = n;
    dealt.hands = held;

    // The same actions, with the unseen pass cards replaced, from the hand's new deal.
    std::map<std::pair<int, int>, Deal> deals = state.deals();
    deals[{state.board(), hand.number}] = dealt;
    std::vector<int> actions(
        state.history().begin(),
        state.history().begin() + static_cast<std::ptrdiff_t>(state.hand_start()));
    GameState world = GameState::replay(rules, state.seed(), state.hands(), deals, actions);
    std::array<std::size_t, kMaxPlayers> used{};
    for (std::size_t i = state.hand_start(); i < state.history().size(); ++i) {
        int a = state.history()[i];
        const int giver = world.game().to_act();
        if (a >= kPassBase && a < kBidBase && !replacement[giver].empty())
            a = kPassBase + card_number(replacement[giver].at(used[giver]++));
        world.apply(a);
    }
    return world;
}

}  // namespace sampling
