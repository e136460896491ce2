#include "sampling/sample_world.hpp"

#include <boost/random/mersenne_twister.hpp>
#include <boost/random/uniform_int_distribution.hpp>
#include <map>
#include <optional>
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

using Rng = boost::random::mt19937_64;

// `count` cards drawn uniformly from `from`.
CardSet draw(CardSet from, int count, Rng& rng) {
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

// What each seat holds now, dealt by the exact sampler from every fact `seat` knows.
Deal hands_now(const GameState& state, int seat, const InfoState& info, Rng& rng,
               std::uint64_t seed) {
    const Game& game = state.game();
    if (info.phase == Phase::kBlindNil && game.to_act() == seat)
        // The seat has not seen its cards: every deal is as likely as the seed's.
        return deal_from_seed(state.rules(), mix_seed(seed, 1), game.hand().number);
    Constraints constraints = constraints_from(info);
    // Hand sizes are public; in the middle of a blind-nil exchange they are not the hand's size
    // less the cards played, which is all constraints_from counts.
    for (int s = 0; s < state.rules().players; ++s)
        if (s != seat) constraints.need[s] = game.play_state().hands[s].size();
    return DealSampler(constraints).sample(rng, info.hand);
}

// The hand as dealt, and for each seat the cards of its pass actions this hand, in order: nullopt
// for a card the replay keeps (a pass `seat` saw), else the card that replaces it.
struct Undone {
    std::array<CardSet, kMaxPlayers> dealt{};
    std::array<std::vector<std::optional<Card>>, kMaxPlayers> pass_cards;

    void keep(int giver, int count) {
        pass_cards[giver].insert(pass_cards[giver].end(), count, {});
    }
    void replace(int giver, CardSet cards) {
        for (Card c : cards) pass_cards[giver].push_back(c);
    }
};

// Back from the hands held now to the hands dealt: give back the cards played, then undo the passes
// (or the blind-nil exchange steps, last first). Passes `seat` saw stay as they were; the others
// are drawn from what their receiver held after them, and a pass being chosen by another seat
// from what that seat holds now.
Undone undo_passes(const GameState& state, int seat, const Deal& now, Rng& rng) {
    const Rules& rules = state.rules();
    const Game& game = state.game();
    const HandRecord& hand = game.hand();
    const int n = rules.players;
    Undone u;
    std::array<CardSet, kMaxPlayers>& held = u.dealt;
    held = now.hands;
    for (const PlayedCard& p : hand.plays) held[p.seat] |= p.card;
    auto sees = [&](int giver, int receiver) { return giver == seat || receiver == seat; };
    const bool passing = game.phase() == Phase::kPass;
    if (rules.game == GameKind::kHearts) {
        // Seats choose their passes in seat order; the cards change hands when the last is chosen.
        const bool exchanged = !passing && hand.pass_offset != 0;
        std::array<CardSet, kMaxPlayers> given{};
        for (int s = 0; s < n; ++s) {
            if (!exchanged && !(passing && s < game.to_act())) continue;
            const int r = rules.pass_recipient(s, hand.number);
            if (sees(s, exchanged ? r : s)) {
                given[s] = hand.passed[s];
                u.keep(s, rules.pass_count);
            } else {
                given[s] = draw(exchanged ? held[r] : held[s], rules.pass_count, rng);
                u.replace(s, given[s]);
            }
        }
        if (exchanged) {
            for (int s = 0; s < n; ++s) held[rules.pass_recipient(s, hand.number)] -= given[s];
            for (int s = 0; s < n; ++s) held[s] |= given[s];
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
        for (const auto& [giver, cards] : steps) {
            if (sees(giver, rules.pass_recipient(giver, hand.number)))
                u.keep(giver, cards.size());
            else
                u.replace(giver, cards);
        }
    }
    // The cards chosen so far for the pass in progress: only the chooser has seen them.
    if (const CardSet pending = state.pending_pass(); passing && !pending.empty()) {
        const int chooser = game.to_act();
        if (chooser == seat)
            u.keep(chooser, pending.size());
        else
            u.replace(chooser, draw(now.hands[chooser], pending.size(), rng));
    }
    return u;
}

// The state's actions from the hand's new deal, its unseen pass cards replaced.
GameState replay_with(const GameState& state, const Undone& u) {
    const HandRecord& hand = state.game().hand();
    std::map<std::pair<int, int>, Deal> deals = state.deals();
    Deal& dealt = deals[{state.board(), hand.number}];
    dealt.players = state.rules().players;
    dealt.hands = u.dealt;
    const std::vector<int>& history = state.history();
    const std::vector<int> before(
        history.begin(), history.begin() + static_cast<std::ptrdiff_t>(state.hand_start()));
    GameState world = GameState::replay(state.rules(), state.seed(), state.hands(), deals, before);
    std::array<std::size_t, kMaxPlayers> used{};
    for (std::size_t i = state.hand_start(); i < history.size(); ++i) {
        int a = history[i];
        if (a >= kPassBase && a < kBidBase) {
            const int giver = world.game().to_act();
            const std::size_t k = used[giver]++;
            if (k >= u.pass_cards[giver].size())
                throw std::logic_error("sample_world: more passes than were undone");
            if (const std::optional<Card> c = u.pass_cards[giver][k])
                a = kPassBase + card_number(*c);
        }
        world.apply(a);
    }
    return world;
}

}  // namespace

GameState sample_world(const GameState& state, int seat, std::uint64_t seed) {
    const InfoState info = state.info_state(seat);
    if (state.terminal()) throw InputError("the game is over: there is no hidden card to sample");
    Rng rng(seed);
    const Deal now = hands_now(state, seat, info, rng, seed);
    return replay_with(state, undo_passes(state, seat, now, rng));
}

}  // namespace sampling
