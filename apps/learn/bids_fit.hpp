#pragma once
// The learned Spades bids (`cardgames learn bids-data`, `cardgames learn bids-fit`;
// docs/guide/learning.md):
//   data: Spades hands played by one bot in every seat, bids varied around the rule player's (nil
//     bid on purpose on weak hands, one off either way on others), one JSON line per hand with
//     each seat's hand, the bids before it, its bid and the tricks it took; the same file for any
//     number of threads and MPI ranks.
//   fit: the bid model (sampling/bid_model.hpp) fitted to such data (sampling/bid_fit.hpp), with
//     figures on held-out hands (holdout.hpp), written as a documented text file
//     (data/models/spades-bids.txt).

#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <stop_token>
#include <string>
#include <vector>

#include "apps/learn/holdout.hpp"
#include "cardgames/cards/seeds.hpp"
#include "cardgames/models/model_store.hpp"
#include "cardgames/rules/rules.hpp"
#include "sampling/bid_fit.hpp"

namespace apps {

// The data command, as its files' header and messages name it.
inline constexpr const char* kBidsDataCommand = "learn bids-data";

struct BidsDataPlan {
    cardgames::Rules rules;
    std::uint64_t seed = cardgames::seeds::kTrainingSeedFirst;
    long hands = 0;
    std::string bot = "pimc";
    std::string preset;  // as given, for the provenance of models
    std::string models;  // the bot's models (Player::check), for open_results

    // Spades rules, some hands and a training seed; an InputError naming the option otherwise.
    void check() const;
    // The data file header's options.
    nlohmann::json options() const;
};

// Hand `index` of `plan` as one data line. Throws Interrupted when `stop` is set part-way; called
// concurrently by the batch runner.
std::string bids_data_hand(const BidsDataPlan& plan, long index, const std::stop_token& stop,
                           const std::shared_ptr<cardgames::models::ModelStore>& store);

// The samples of one data line (checked: a file edited by hand is refused with the key).
std::vector<sampling::BidSample> bid_samples_of(const nlohmann::json& line,
                                                const cardgames::Rules& rules);

// The samples of the data files, apart as the fit and its figures take them.
struct BidsData {
    std::vector<sampling::BidSample> train;  // the --data hands not held out
    std::vector<sampling::BidSample> test;   // held out: every --test hand, else --data's
    std::vector<sampling::BidSample> all;    // every --data hand: what the written model fits
    std::vector<std::string> sources;        // each file with the command that remakes it
    std::string seeds;                       // the run seed of each file, in order
    cardgames::Rules rules;
};

// Reads the --data files (the hands of index a multiple of `holdout` held out, unless there are
// --test files) and the --test files; every file of the same rules.
BidsData read_bids_data(const std::vector<std::string>& data, const std::vector<std::string>& test,
                        long holdout);

// `cardgames learn bids-fit`'s options; `made_by` is the command line, for the model's header.
struct BidsFitOptions {
    std::vector<std::string> data, test;
    std::string out;
    long holdout = kDefaultHoldout;
    double ridge = 1e-3;
    std::string made_by;

    // An InputError naming the option at fault.
    void check() const;
};

struct BidsFitReport {
    // The held-out figures of a model fitted on the training seats: none when no hand is held
    // out or no nil bid is left to fit.
    std::optional<sampling::BidFitFigures> held_out;
    long train_seats = 0;
    long seats = 0, nil = 0;  // what the written model is fitted on: every --data seat
    std::string figures;      // the held-out figures, as the model's header says them
    std::string out;
    std::string text() const;  // what `cardgames learn bids-fit` prints
};

// The held-out figures of a model fitted on data.train and measured on data.test, none when
// there is nothing to measure or fit; and as the model's header says them.
std::optional<sampling::BidFitFigures> bids_held_out(const BidsData& data, double ridge);
std::string bids_held_out_text(const std::optional<sampling::BidFitFigures>& figures,
                               long train_seats);

// Checks the options, reads the data, fits on every --data hand, and writes the model file.
BidsFitReport learn_bids_fit(const BidsFitOptions& options);

}  // namespace apps
