#include "cardgames/rules/dealing.hpp"

#include <boost/random/mersenne_twister.hpp>
#include <boost/random/uniform_int_distribution.hpp>
#include <vector>

#include "cardgames/cards/error.hpp"
#include "cardgames/cards/seeds.hpp"

namespace cardgames {

void validate_deal(const Deal& deal, const Rules& rules, int cards_per_hand) {
    if (deal.players != rules.players)
        throw InputError("deal has " + std::to_string(deal.players) +
                         " hands but the rules are for " + std::to_string(rules.players) +
                         " players");
    // A Deal built in code (not parsed) may hold a card in two hands; the parser refuses that
    // itself.
    CardSet seen, twice;
    for (int s = 0; s < deal.players; ++s) {
        twice |= seen & deal.hands[s];
        seen |= deal.hands[s];
    }
    if (!twice.empty())
        throw InputError("deal holds " + cards_to_string(twice) + " in more than one hand");
    const CardSet foreign = deal.all_cards() - rules.deck();
    if (!foreign.empty())
        throw InputError("deal holds " + cards_to_string(foreign) + ", not in the " +
                         std::to_string(rules.players) + "-player " + game_name(rules.game) +
                         " deck");
    const int want = cards_per_hand ? cards_per_hand : rules.cards_per_hand();
    for (int s = 0; s < deal.players; ++s)
        if (deal.hands[s].size() != want)
            throw InputError("hand of seat " + std::to_string(s) + " ('" +
                             hand_to_string(deal.hands[s]) + "') has " +
                             std::to_string(deal.hands[s].size()) + " cards, expected " +
                             std::to_string(want));
}

Deal deal_from_seed(const Rules& rules, std::uint64_t seed, int hand_number) {
    std::vector<Card> cards;
    for (Card c : rules.deck()) cards.push_back(c);
    boost::random::mt19937_64 rng(mix_seed(seed, static_cast<std::uint64_t>(hand_number)));
    // Fisher-Yates with Boost's distribution: the same sequence on every standard library.
    for (std::size_t i = cards.size() - 1; i > 0; --i) {
        boost::random::uniform_int_distribution<std::size_t> pick(0, i);
        std::swap(cards[i], cards[pick(rng)]);
    }
    Deal deal;
    deal.players = rules.players;
    const int per_hand = rules.cards_per_hand();
    for (int i = 0; i < static_cast<int>(cards.size()); ++i) deal.hands[i / per_hand] |= cards[i];
    return deal;
}

Deal tournament_deal(const Rules& rules, std::uint64_t run_seed, long board, int hand_number) {
    return deal_from_seed(rules, seeds::tournament_game(run_seed, board), hand_number);
}

}  // namespace cardgames
