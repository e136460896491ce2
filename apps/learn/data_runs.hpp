#pragma once
// The runs of the linear fits' data commands (`cardgames learn data`, `cutoff-data`,
// `bids-data`) as the command line and Python's cardgames.policy_data(), cutoff_data() and
// bids_data() start them: the plan checked, the data file opened (or resumed) and the hands
// farmed over the batch runner, the same file for any number of threads and ranks.

#include <stop_token>
#include <string>

#include "apps/experiments/cluster.hpp"
#include "apps/experiments/run.hpp"
#include "apps/learn/bids_fit.hpp"
#include "apps/learn/data_files.hpp"

namespace apps {

// The preset of `learn cutoff-data` and `learn bids-data` when neither a preset nor a game is
// given.
inline constexpr const char* kCutoffDataPreset = "hearts4";
inline constexpr const char* kBidsDataPreset = "spades-partnership";
// The bot in every seat of `learn data` and `learn cutoff-data` without --players.
inline constexpr const char* kPolicyDataBot = "pimc";
inline constexpr const char* kCutoffDataBot = "rule";

// Checks a self-play data plan once its rules, specs, hands and seed are set: a training seed
// (never an evaluation seed), one spec per seat (`players_text`: --players as given, for the
// message), every spec a bot that can play the rules; sets plan.models. InputError naming the
// option.
void check_selfplay_players(SelfPlayPlan& plan, const std::string& players_text);
// Checks that the bids-data bot can play the rules and sets plan.models.
void check_bids_bot(BidsDataPlan& plan);

// Collective: each command's run into `run.out` (resumed with `run.resume`) on `run.threads`
// threads per rank; `observer` hears the progress, `stop` stops it with every finished hand
// written. True when every hand is in the file.
bool run_policy_data(const MpiSession& mpi, const SelfPlayPlan& plan, const BatchRun& run,
                     RunObserver& observer, std::stop_token stop);
bool run_cutoff_data(const MpiSession& mpi, const SelfPlayPlan& plan, const BatchRun& run,
                     RunObserver& observer, std::stop_token stop);
bool run_bids_data(const MpiSession& mpi, const BidsDataPlan& plan, const BatchRun& run,
                   RunObserver& observer, std::stop_token stop);

}  // namespace apps
