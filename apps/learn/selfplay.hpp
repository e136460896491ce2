#pragma once
// Self-play data at scale (`cardgames learn selfplay`, issue 42): hands played by the seats' bots,
// every decision of the recorded seats written as a fixed-size record (selfplay_format.hpp) with
// every legal action's pimc value, over the experiments library's batch runner (oneTBB threads,
// MPI ranks). A hand's deal and bots derive from its index and the run's seed only, so the shards
// are the same bytes for any --threads and any number of ranks; a killed run resumes from its
// last whole hand (ShardWriter).

#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <stop_token>
#include <string>
#include <vector>

#include "apps/experiments/cluster.hpp"
#include "apps/experiments/run.hpp"
#include "apps/learn/selfplay_format.hpp"
#include "cardgames/cards/seeds.hpp"
#include "cardgames/models/model_store.hpp"
#include "cardgames/rules/rules.hpp"

namespace apps {

struct SelfplayPlan {
    cardgames::Rules rules;
    std::vector<std::string> specs;  // one bot spec per seat
    std::vector<int> seats;          // the seats whose decisions are recorded, ascending
    // The pimc bot that values the card plays of a recorded seat whose own bot is not pimc
    // ("none": no values). A pimc seat's values are its own analysis.
    std::string values = "none";
    long hands = 0;
    std::uint64_t seed = cardgames::seeds::kTrainingSeedFirst;
    long shard_hands = 100'000;
    // Spades: each recorded seat bids as the bids data explores (sampling/bid_exploration.hpp),
    // not as its bot would, so that a bid value network sees the outcome of other bids. kRule
    // varies the rule player's bid; kOwn keeps the seat's own bot's bid where kRule keeps the
    // rule player's, so that the data follows the bidder it improves (expert iteration). kPaired:
    // one seat a hand (the hand's index modulo the players, if recorded) bids its bot's own bid,
    // and its record's values are the hand played out after each bid that pimc:bid=value may
    // choose, by the same seeded bots (paired_bid_values): outcomes that differ only by the bid.
    enum class ExploreBids { kNone, kRule, kOwn, kPaired };
    ExploreBids explore_bids = ExploreBids::kNone;

    // Checks the plan (a training seed, one spec per seat, every spec a bot, the seats, the
    // values bot pimc or none); throws InputError naming the option.
    void check() const;
    // What every shard's header says (docs/design/selfplay-format.md): the options that make the
    // data, and the feature set it is for.
    nlohmann::json options() const;
};

// The exploration `--explore-bids` names: "rule", "own" or "paired"; throws InputError naming
// the text.
SelfplayPlan::ExploreBids explore_bids_named(const std::string& text);

// The records of hand `index` (whole records, encoded, in decision order); throws Interrupted
// when `stop` is set part-way. The bots read their models from `store`, the run's. Called
// concurrently by the batch runner.
std::string selfplay_hand(const SelfplayPlan& plan, long index, const std::stop_token& stop,
                          const std::shared_ptr<cardgames::models::ModelStore>& store);

// Collective: checks that every rank has the same plan and opens the shards on rank 0 (null on
// the others); an error on any rank is an error on every rank (agree_on_setup).
std::unique_ptr<ShardWriter> open_selfplay(const MpiSession& mpi, const SelfplayPlan& plan,
                                           const std::string& folder, bool resume);

}  // namespace apps
