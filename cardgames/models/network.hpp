#pragma once
// A small multilayer network in the style of Stockfish's NNUE, read from a model file
// (docs/design/network-format.md). Its first layer is a linear map of the binary card features
// (card_features.hpp) kept as an int16 accumulator: the bias plus the column of every feature that
// is on, in units of 1/ft_scale. A card moving adds and removes a few columns (Evaluator::add,
// remove) instead of recomputing the sum. The accumulator is clipped to [0, 1] (clipped ReLU) and
// fed through small float layers (l1, l2, ..., clipped ReLU between them) to the outputs, which
// are multiplied by the file's output-scale.
//
// Integer sums are exact, so an accumulator updated card by card equals one recomputed from the
// features, bit for bit. The loader refuses weights that could overflow int16 with the most
// features a position can have on, so no sum ever wraps.

#include <cstdint>
#include <filesystem>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "cardgames/models/card_features.hpp"
#include "cardgames/models/model_file.hpp"

namespace cardgames::models {

// The players at a table of a form name ("hearts4" 4, "spades-partnership" 4,
// "spades-cutthroat3" 3); an InputError naming `where` and the field for a name that is no form.
int players_of_form(const std::string& form, const std::string& where);

// The features a network of `task` for `form` reads: the deal features (deal_features.hpp) for a
// cut-off network, the card features (card_features.hpp) of `card_version` for the others.
struct NetworkFeatures {
    std::string field;  // the file's "features" field: "NAME VERSION COUNT"
    std::string what;   // for messages
    int count = 0, max_active = 0;
    int version = 0;  // of the card features (0: a cut-off network's deal features)
};
NetworkFeatures network_features(const std::string& task, const std::string& form, int players,
                                 int card_version);

class Network {
  public:
    static constexpr int kMaxWidth = 1024;  // widest layer accepted
    static constexpr int kMaxDenseLayers = 4;

    // Checks every field and shape; an InputError naming the file and the field otherwise.
    explicit Network(const ModelFile& file);

    // An InputError naming the file when the network was made for another form or task (empty:
    // any).
    void check(const std::string& form, const std::string& task) const;

    const std::string& where() const { return where_; }
    const std::string& form() const { return form_; }
    const std::string& task() const { return task_; }
    int players() const { return players_; }
    int inputs() const { return inputs_; }
    // The version of the card features it reads (card_features.hpp; 0 for a cut-off network).
    int card_version() const { return card_version_; }
    int accumulator_size() const { return width_; }
    int outputs() const { return static_cast<int>(layers_.back().bias.size()); }
    int ft_scale() const { return ft_scale_; }
    // What the outputs are multiplied by (a value network's points per unit of its last layer).
    float output_scale() const { return output_scale_; }
    // A hash of every weight: what the network plays by, wherever it was read from.
    std::uint64_t digest() const { return digest_; }

  private:
    friend class Evaluator;
    struct Dense {
        int in = 0, out = 0;
        std::vector<float> weight;  // [in][out]: the file's [out][in] transposed, so that an input
                                    // adds to every output in one vectorized loop
        std::vector<float> bias;    // [out]
    };
    std::string where_, form_, task_;
    int players_ = 0, inputs_ = 0, width_ = 0, ft_scale_ = 0, card_version_ = 0;
    float output_scale_ = 1;
    std::uint64_t digest_ = 0;
    std::vector<std::int16_t> ft_weight_;  // [inputs][width]: one column per feature, contiguous
    std::vector<std::int16_t> ft_bias_;    // [width]
    std::vector<Dense> layers_;            // the hidden layers, then the output layer
};

// One position's accumulator and the scratch of a forward pass, for one thread: allocates when
// made, never per call. Holds a reference: the network must outlive it.
class Evaluator {
  public:
    explicit Evaluator(const Network& net);

    // The accumulator from scratch: the bias plus the columns of `active`.
    void refresh(std::span<const int> active);
    // A feature turns on or off. Only for features that are off, or on, respectively.
    void add(int feature);
    void remove(int feature);
    // The outputs for the accumulator as it stands; valid until the next call.
    std::span<const float> evaluate();

    std::span<const std::int16_t> accumulator() const { return acc_; }
    const Network& network() const { return net_; }

  private:
    const Network& net_;
    std::vector<std::int16_t> acc_;
    std::vector<float> x_, y_;  // a layer's input and output
};

// The instructions a dense layer runs on: kPlain (the build's own, SSE2 on x86-64) everywhere,
// kAvx2 where the CPU has AVX2. Both give the same bits: each output sums its terms in the same
// order, multiplies and adds never fused, so a decision does not depend on the machine.
enum class DenseInstructions { kPlain, kAvx2 };
bool has_dense_instructions(DenseInstructions set);
// What Evaluator::evaluate uses on this machine: kAvx2 where the CPU has it.
DenseInstructions dense_instructions();
// y[o] = bias[o] + the sum over i of x[i] * weight[i * out + o] (weight [in][out]), the inputs
// that are 0 skipped, as Evaluator::evaluate computes a layer: for tests and the bench.
void dense_layer(DenseInstructions set, std::span<const float> weight, std::span<const float> bias,
                 std::span<const float> x, std::span<float> y);

// A network for `players` seats with random weights of a fixed seed, of the default shape the
// trainer makes: for the bench and tests, which need one without a trained file.
ModelFile random_network_file(const std::string& form, const std::string& task, int outputs,
                              std::uint64_t seed, int card_version = kCardFeatureVersion);

}  // namespace cardgames::models
