#pragma once
// The JSON Lines data files of the linear fits (`cardgames learn data`, `cutoff-data`,
// `bids-data`; docs/guide/learning.md) as the fits read them back, and what every fit checks of
// its model file before it runs and writes into it.

#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "cardgames/cards/seeds.hpp"
#include "cardgames/rules/rules.hpp"

namespace apps {

// The plan of a self-play data command (learn data, learn cutoff-data): the rules, one bot spec
// per seat, the hands and a training seed.
struct SelfPlayPlan {
    cardgames::Rules rules;
    std::vector<std::string> specs;  // one per seat
    long hands = 0;
    std::uint64_t seed = cardgames::seeds::kTrainingSeedFirst;
    std::string models;  // the players' models (Player::check), for open_results

    // The data file header's options, with the feature names of the model the data is for.
    nlohmann::json options(const nlohmann::json& features) const;
};

// A feature or value as a data file holds it: rounded, so that lines stay short and exact.
double rounded_for_file(double x);

// A model's feature names as a data file's header lists them.
template <class Names>
nlohmann::json names_json(const Names& names) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& n : names) out.push_back(std::string(n));
    return out;
}

// A learn data file read back for a fit: how a model file's header names it and the command that
// remakes it (a file's hands depend only on the seed and their index, so the hands it holds are
// the --hands to ask for).
struct DataFileSource {
    std::string file;     // "<path> (seed S, N hands, fnv1a H)"
    std::string command;  // "cardgames learn data --preset ... --out <path>"
    long hands = 0;
    std::uint64_t seed = 0;  // the run seed of its hands
};

// Reads the data file `path` of `cardgames <command>` (its header says `header_command`): checks
// that its features are those `features_of` gives for its rules' form and that the form is `form`
// (the first file's, which sets it), then passes each line with the number of seats to `on_line`.
DataFileSource read_data_file(
    const std::string& path, const std::string& command, const std::string& header_command,
    const std::function<nlohmann::json(const std::string& form)>& features_of, std::string& form,
    const std::function<void(const nlohmann::json&, int)>& on_line);

// Both given, else an InputError saying which is required.
void require_fit_files(const std::vector<std::string>& data, const std::string& out,
                       const std::string& data_command);

// A fit's --out, checked before the fit runs: a file name in a folder that exists and can be
// written, and not one of `inputs` (the files the fit reads), by this path or by another.
void check_model_out(const std::string& out, const std::vector<std::string>& inputs);

// A model file's metadata: its form, the command line that made it (`made_by`), the seeds of its
// data, and each data file with the command that remakes it.
std::vector<std::pair<std::string, std::string>> model_metadata(
    const std::string& form, const std::string& made_by,
    const std::vector<DataFileSource>& sources);

}  // namespace apps
