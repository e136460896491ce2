#pragma once
// The predictive cut-off evaluation of `pimc:eval=search,cutoff=model` (`cardgames learn
// cutoff-data`, `cardgames learn cutoff-fit`; docs/guide/learning.md):
//   data: self-play hands (the rule player in every seat by default: cheap, and what the model
//     needs is positions with every hand known and what each seat then took); at every trick
//     boundary, each seat's features (sampling/cutoff_model.hpp) and what it took in the rest of
//     the hand: penalty points (Hearts) or tricks (Spades). One JSON line per hand, the same file
//     for any number of threads and MPI ranks (seeds derive from the hand's index).
//   fit: ridge least squares (sampling/fit.hpp) of what was taken on the features, measured on
//     held-out hands (holdout.hpp) against the even share, written as a model file.

#include <memory>
#include <stop_token>
#include <string>
#include <vector>

#include "apps/learn/data_files.hpp"
#include "apps/learn/holdout.hpp"
#include "cardgames/models/model_store.hpp"
#include "sampling/cutoff_model.hpp"
#include "sampling/model_file.hpp"

namespace apps {

// The data command, as its files' header and messages name it.
inline constexpr const char* kCutoffDataCommand = "learn cutoff-data";
// The feature names a data file of rules `form` lists.
nlohmann::json cutoff_feature_names_json(const std::string& form);

// Hand `index` of `plan` as one data line. Throws Interrupted when `stop` is set part-way; called
// concurrently by the batch runner.
std::string cutoff_data_hand(const SelfPlayPlan& plan, long index, const std::stop_token& stop,
                             const std::shared_ptr<cardgames::models::ModelStore>& store);

// One seat at one trick boundary.
struct CutoffSample {
    sampling::CutoffFeatures x{};
    double rest = 0;
    int left = 0, players = 0, seat = 0;
    long position = 0;  // the boundary it belongs to (its seats are consecutive samples)
    bool held_out = false;
};

struct CutoffData {
    std::vector<CutoffSample> samples;
    std::string form;
    std::vector<DataFileSource> sources;  // each file, with the command that makes its hands
    long hands = 0, positions = 0;
};

// Reads the data files, checking every field; the samples of held-out hands are marked.
CutoffData read_cutoff_data(const std::vector<std::string>& files, long holdout);

// Errors of what each seat takes in the rest of the hand, held out: the raw prediction, the whole
// shares the search uses (cutoff_shares) and the even share.
struct CutoffErrors {
    long seats = 0;
    double model_abs = 0, model_sq = 0, shares_abs = 0, even_abs = 0, even_sq = 0;
    std::string text() const;
};

struct CutoffFit {
    std::vector<double> weights;
    long train_seats = 0;
    CutoffErrors held_out;
};

// Fits on the samples not held out and measures the fit on the held-out ones.
CutoffFit fit_cutoff(const CutoffData& data, double ridge);

// `cardgames learn cutoff-fit`'s options; `made_by` is the command line, for the model's header.
struct CutoffFitOptions {
    std::vector<std::string> data;
    std::string out;
    long holdout = kDefaultHoldout;
    double ridge = 1e-3;
    std::string made_by;

    // An InputError naming the option at fault.
    void check() const;
};

sampling::ModelFile cutoff_model_file(const CutoffFitOptions& options, const CutoffData& data,
                                      const CutoffFit& fit);

struct CutoffFitReport {
    long positions = 0, hands = 0;
    CutoffFit fit;
    std::string out;
    std::string text() const;  // what `cardgames learn cutoff-fit` prints
};

// Checks the options, reads the data, fits, and writes the model file.
CutoffFitReport learn_cutoff_fit(const CutoffFitOptions& options);

}  // namespace apps
