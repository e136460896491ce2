#pragma once
// A learned linear model as data: a file under data/models/ that says what it is, how it was made
// and its weights by name, so that a reader can check it against what it expects.
//
// The fits write version 2 of the project's model file (cardgames/models/model_file.hpp,
// docs/design/network-format.md), the networks' format: `kind linear`, `task` (what the model
// is: playout-policy, cutoff-eval), `form`, `features` (the feature set: task, version, count),
// `names` (the features in weight order), `command`, `seeds`, the data it was fitted on, and one
// tensor `weight f64 N`, under a checksum. Version 1, the text format the first fits wrote
// (docs/design/formats.md, "Model files"), is still read:
//
//   cardgames-model 1
//   # free text: what the model is, how it was measured
//   kind <what the model is, e.g. playout-policy>
//   <key> <value>          any number of metadata lines (form, command, seed, ...)
//   weights <N>
//   <name> <number>        N lines, in the order the model's features are defined
//   end
//
// Reading checks everything; a bad file is an InputError naming the file (and the line of a
// version 1 file, the field or tensor of a version 2 one).

#include <algorithm>
#include <array>
#include <cstddef>
#include <filesystem>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "cardgames/cards/error.hpp"
#include "cardgames/models/model_store.hpp"
#include "cardgames/rules/rules.hpp"

namespace sampling {

// The version of the linear models' feature sets, in a version 2 file's `features` field: raised
// when a feature's meaning changes under the same name, so that older models are refused.
inline constexpr int kLinearFeatureVersion = 1;

struct ModelFile {
    std::string where;  // "model 'data/models/x.txt'": for messages
    int version = 0;    // of the file read: 1 (text) or 2 (versioned, checksummed); 0: made here
    std::string kind;   // a version 2 file's `task`
    std::vector<std::string> comments;  // written as "# ..." lines after the first line
    std::vector<std::pair<std::string, std::string>> meta;
    std::string features;  // a version 2 file's feature set, "TASK VERSION COUNT"
    std::vector<std::string> names;
    std::vector<double> weights;
    std::vector<int> weight_lines;  // the line of each weight (read files), for messages

    // The value of metadata `key`; an InputError naming the file when it is missing.
    const std::string& get(const std::string& key) const;
    // Checks that the file is a model of `expected` kind; an InputError naming the file otherwise.
    void expect_kind(const std::string& expected) const;
    // Checks that the weights are exactly `names`, in order; an InputError naming the file and the
    // line of the first difference.
    void expect_names(std::span<const std::string_view> expected) const;
    // Checks a version 2 file's feature set: this program's (feature_set) for its kind and
    // `count` features; an InputError naming the file and the field otherwise.
    void expect_features(std::size_t count) const;
};

// The feature set a version 2 file of `kind` with `count` weights says: "KIND VERSION COUNT".
std::string feature_set(const std::string& kind, std::size_t count);

// The name of a rule form and the game of such a name (cardgames/rules/rules.hpp).
using cardgames::form_name;
using cardgames::game_of_form;

// Numbers as text that gives each back exactly: what a model plays by, for the ranks of an MPI run
// to compare (Player::check), whatever path each read it from.
std::string numbers_text(std::span<const double> numbers);

// The file's bytes, version 2; the weights are written as f64, so reading gives them back exactly.
std::string format_model_file(const ModelFile& model);
// Version 1's text, which the fits wrote before version 2: the tests make old files with it.
std::string format_text_model_file(const ModelFile& model);
// Reads either version (the first line says which).
ModelFile parse_model_file(const std::string& text, const std::string& where);
ModelFile read_model_file(const std::filesystem::path& path);
// Writes through a temporary file renamed into place; a failed write is a std::runtime_error.
void write_model_file(const std::filesystem::path& path, const ModelFile& model);

// The model of type Model in the model file at `path`, from `store`: read when the store has not
// read it yet or the file changed on disk (cardgames/models/model_store.hpp), else shared.
template <class Model>
std::shared_ptr<const Model> load_model(cardgames::models::ModelStore& store,
                                        const std::filesystem::path& path) {
    return store.get<Model>(path, "model", [&](const std::string& bytes) {
        return std::make_shared<const Model>(
            parse_model_file(bytes, "model '" + path.string() + "'"));
    });
}

// Where the default model of kind `suffix` (playout, cutoff) for the form of `rules` is:
// data/models/<form>-<suffix>.txt.
std::filesystem::path default_model(const cardgames::Rules& rules, const std::string& suffix);
// The default model of type Model (its kSuffix) for the form of `rules`.
template <class Model>
std::filesystem::path default_model(const cardgames::Rules& rules) {
    return default_model(rules, Model::kSuffix);
}

// The model at `path`, or the form's default when `path` is empty, checked to be made for the
// form of `rules` (an InputError naming the file otherwise).
template <class Model>
std::shared_ptr<const Model> model_for(cardgames::models::ModelStore& store,
                                       const std::string& path, const cardgames::Rules& rules) {
    const std::shared_ptr<const Model> model = load_model<Model>(
        store, path.empty() ? default_model<Model>(rules) : std::filesystem::path(path));
    model->check_form(rules);
    return model;
}

// A linear model read from a model file: of one kind, made for one rule form (its 'form' line),
// with one weight for each of N features, named in the file as this program names them and in
// the same order. The play-out policy and the cut-off evaluation are such models.
template <std::size_t N>
class LinearModel {
  public:
    using Features = std::array<double, N>;

    // Checks the file's kind, that it names its form, and that its weights are `features`; an
    // InputError naming the file (and the line where there is one) otherwise.
    LinearModel(const ModelFile& file, const std::string& kind,
                const std::array<std::string_view, N>& features)
        : where_(file.where), kind_(kind) {
        file.expect_kind(kind);
        form_ = file.get("form");
        if (file.version == 2) file.expect_features(N);
        file.expect_names(features);
        std::copy(file.weights.begin(), file.weights.end(), weights_.begin());
    }
    const std::string& form() const { return form_; }
    const std::string& where() const { return where_; }
    const Features& weights() const { return weights_; }
    // What the model plays by: its kind, form and weights (not where it was read from).
    std::string fingerprint() const { return kind_ + " " + form_ + ": " + numbers_text(weights_); }
    // An InputError naming the file when the model was made for another form.
    void check_form(const cardgames::Rules& rules) const {
        if (form_ != form_name(rules))
            throw cardgames::InputError(where_ + ": made for " + form_ + ", not for " +
                                        form_name(rules));
    }
    // The sum of weight x feature.
    double score(const Features& f) const {
        double s = 0;
        for (std::size_t i = 0; i < N; ++i) s += weights_[i] * f[i];
        return s;
    }

  private:
    std::string where_, kind_, form_;
    Features weights_{};
};

}  // namespace sampling
