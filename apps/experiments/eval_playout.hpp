#pragma once
// What `cardgames eval` measures with: layouts of the unseen cards sampled for one seat, and hands
// played out to the end by a reference player in every seat (sampling/playout.hpp: each seat from
// its own view), scored for that seat. Every random choice comes
// from a seed the caller derives from the item number, and candidate bids or cards of one item
// share their sampled layouts and bot seeds (common random numbers), so their values differ by
// the choice, not by the luck of the sample.

#include <array>
#include <cstdint>
#include <stop_token>
#include <string>
#include <vector>

#include "cardgames/cards/deal.hpp"
#include "cardgames/models/model_store.hpp"
#include "cardgames/rules/info_state.hpp"
#include "cardgames/rules/player.hpp"
#include "cardgames/rules/rules.hpp"

namespace apps {

// The reference players read their models from `store`, the run's (sampling::make_player).

// Spades bidding: the bid `policy` makes for `seat` on `deal`, the seats before it bidding as
// `reference` does (the policy sees only its own InfoState, as in a game).
int policy_bid(const cardgames::Rules& rules, const cardgames::Deal& deal, int seat,
               cardgames::Player& policy, const std::string& reference, std::uint64_t seed,
               const std::shared_ptr<cardgames::models::ModelStore>& store);

// Spades bidding: the seat's hand score (its unit's, from zero scores) when it bids `bid` on
// `layout` and every seat, itself included, is otherwise played by `reference`.
// Throws Interrupted when `stop` is set between two actions.
double bid_playout(const cardgames::Rules& rules, const cardgames::Deal& layout, int seat, int bid,
                   const std::string& reference, std::uint64_t seed, const std::stop_token& stop,
                   const std::shared_ptr<cardgames::models::ModelStore>& store);

// One play decision taken from a record: the seat's view plus the public facts the playout needs.
struct PlayDecision {
    cardgames::InfoState info;  // info.rules points at stable storage; what the seat knows
    long record_line = 0;
    int hand = 0;
};

// A layout of the unseen cards drawn uniformly among those consistent with what the seat knows
// (hand sizes, cards it passed, voids shown): the Monte-Carlo player's own sampler
// (sampling/deal_sampler.hpp), so policies are judged on the worlds pimc itself considers.
std::array<cardgames::CardSet, cardgames::kMaxPlayers> sample_play_layout(const PlayDecision& d,
                                                                          std::uint64_t seed);

// The seat's hand score when it plays `card` now on `layout` and the reference plays every other
// card. Spades: the unit's score change; Hearts: minus the seat's penalty (higher is better).
double card_playout(const PlayDecision& d,
                    const std::array<cardgames::CardSet, cardgames::kMaxPlayers>& layout,
                    cardgames::Card card, const std::string& reference, std::uint64_t seed,
                    const std::shared_ptr<cardgames::models::ModelStore>& store);

}  // namespace apps
