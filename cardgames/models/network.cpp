#include "cardgames/models/network.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <stdexcept>

#include "cardgames/cards/error.hpp"
#include "cardgames/models/card_features.hpp"
#include "cardgames/models/deal_features.hpp"

namespace cardgames::models {

namespace {

[[noreturn]] void bad_network(const std::string& where, const std::string& what) {
    throw InputError(where + ": " + what);
}

int to_int(std::string_view text, int lo, int hi, const std::string& where,
           const std::string& field) {
    int v = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (ec != std::errc() || end != text.data() + text.size() || v < lo || v > hi)
        bad_network(where, "field '" + field + "': '" + std::string(text) +
                               "', expected a number in " + std::to_string(lo) + ".." +
                               std::to_string(hi));
    return v;
}

std::string shape_text(const std::vector<int>& shape) {
    std::string s;
    for (int d : shape) s += (s.empty() ? "" : " x ") + std::to_string(d);
    return s;
}

const Tensor& tensor_of(const ModelFile& file, const std::string& name, DType type,
                        const std::vector<int>& shape) {
    const Tensor& t = file.tensor(name);
    if (t.dtype != type)
        bad_network(file.where, "tensor '" + name + "': type " + dtype_name(t.dtype) +
                                    ", expected " + dtype_name(type));
    if (t.shape != shape)
        bad_network(file.where, "tensor '" + name + "': shape " + shape_text(t.shape) +
                                    ", expected " + shape_text(shape));
    return t;
}

int checked_width(const ModelFile& file, const std::string& name, std::size_t dim) {
    const Tensor& t = file.tensor(name);
    if (t.shape.size() <= dim)
        bad_network(file.where, "tensor '" + name + "': shape " + shape_text(t.shape) +
                                    ", expected " + std::to_string(dim + 1) +
                                    " dimensions or more");
    const int w = t.shape[dim];
    if (w > Network::kMaxWidth)
        bad_network(file.where, "tensor '" + name + "': " + std::to_string(w) + " wide, at most " +
                                    std::to_string(Network::kMaxWidth) + " accepted");
    return w;
}

bool has_tensor(const ModelFile& file, const std::string& name) {
    return std::any_of(file.tensors.begin(), file.tensors.end(),
                       [&](const Tensor& t) { return t.name == name; });
}

// The outputs a task's network has at a table of `players`, or 0 where any number will do.
int expected_outputs(const std::string& task, int players) {
    if (task == "value" || task == "cutoff") return players;
    if (task == "policy" || task == "pass") return 52;
    return 0;
}

}  // namespace

NetworkFeatures network_features(const std::string& task, const std::string& form, int players,
                                 int card_version) {
    NetworkFeatures f;
    const auto field = [](const char* name, int version, int count) {
        return std::string(name) + " " + std::to_string(version) + " " + std::to_string(count);
    };
    const GameKind game = game_of_form(form);
    if (task == "cutoff") {
        f.count = deal_feature_count(game, players);
        f.max_active = max_active_deal_features(game, players);
        f.field = field(kDealFeatureSet, kDealFeatureVersion, f.count);
        f.what = "deal features version " + std::to_string(kDealFeatureVersion) + " for " + form;
    } else {
        f.version = card_version;
        f.count = card_feature_count(game, players, card_version);
        f.max_active = max_active_card_features(players, card_version);
        f.field = field(kCardFeatureSet, card_version, f.count);
        f.what = "card features version " + std::to_string(card_version) + " for " + form;
    }
    return f;
}

int players_of_form(const std::string& form, const std::string& where) {
    if (form == "spades-partnership") return 4;
    for (const char* prefix : {"hearts", "spades-cutthroat"}) {
        const std::string_view p(prefix);
        if (form.size() == p.size() + 1 && form.starts_with(p)) {
            const int n = form.back() - '0';
            if (n >= 3 && n <= (p == "hearts" ? 6 : 4)) return n;
        }
    }
    bad_network(where,
                "field 'form': '" + form +
                    "' is not a form (hearts3..hearts6, spades-partnership, spades-cutthroat3, "
                    "spades-cutthroat4)");
}

Network::Network(const ModelFile& file) : where_(file.where) {
    if (const std::string& kind = file.get("kind"); kind != "network")
        bad_network(where_, "field 'kind': '" + kind + "', expected 'network'");
    task_ = file.get("task");
    if (task_ != "value" && task_ != "policy" && task_ != "bid" && task_ != "bid_value" &&
        task_ != "pass" && task_ != "cutoff")
        bad_network(where_, "field 'task': '" + task_ +
                                "', expected value, policy, bid, bid_value, pass or cutoff");
    form_ = file.get("form");
    players_ = players_of_form(form_, where_);
    file.get("command");  // how it was made: required, read by people
    file.get("seeds");

    // "features NAME VERSION COUNT": the deal features for a cut-off network, else the cards of
    // any version so far (the newest named when the field is none of them).
    const std::string& features = file.get("features");
    NetworkFeatures set = network_features(task_, form_, players_, kCardFeatureVersion);
    for (int v = 1; v < kCardFeatureVersion && features != set.field && task_ != "cutoff"; ++v)
        if (const NetworkFeatures old = network_features(task_, form_, players_, v);
            features == old.field)
            set = old;
    if (features != set.field)
        bad_network(where_, "field 'features': '" + features + "', expected '" + set.field + "' (" +
                                set.what + ")");
    inputs_ = set.count;
    card_version_ = set.version;
    ft_scale_ = to_int(file.get("ft-scale"), 1, 32767, where_, "ft-scale");
    {
        const std::string& text = file.get("output-scale");
        char* end = nullptr;
        const double v = std::strtod(text.c_str(), &end);
        if (end != text.c_str() + text.size() || !std::isfinite(v) || v <= 0 || v > kMaxAbsWeight)
            bad_network(where_, "field 'output-scale': '" + text + "', expected a number in (0, " +
                                    std::to_string(kMaxAbsWeight) + "]");
        output_scale_ = static_cast<float>(v);
    }

    width_ = checked_width(file, "ft.weight", 1);
    ft_weight_ = tensor_of(file, "ft.weight", DType::kI16, {inputs_, width_}).i16;
    ft_bias_ = tensor_of(file, "ft.bias", DType::kI16, {width_}).i16;
    // No int16 sum may wrap: the bias plus the largest columns of as many features as can be on.
    long worst = 0;
    for (int j = 0; j < width_; ++j) worst = std::max<long>(worst, std::abs(ft_bias_[j]));
    long max_weight = 0;
    for (std::int16_t w : ft_weight_) max_weight = std::max<long>(max_weight, std::abs(w));
    worst += max_weight * set.max_active;
    if (worst > 32767)
        bad_network(where_, "tensor 'ft.weight': huge (largest magnitude " +
                                std::to_string(max_weight) +
                                "): " + std::to_string(set.max_active) +
                                " features could overflow the int16 accumulator");

    int in = width_;
    for (int k = 1;; ++k) {
        const std::string name = "l" + std::to_string(k);
        const bool last = !has_tensor(file, name + ".weight");
        const std::string prefix = last ? "out" : name;
        if (!last && k > kMaxDenseLayers)
            bad_network(where_, "tensor '" + name + ".weight': at most " +
                                    std::to_string(kMaxDenseLayers) + " hidden layers");
        const int out = checked_width(file, prefix + ".weight", 0);
        Dense d;
        d.in = in;
        d.out = out;
        const std::vector<float>& w =
            tensor_of(file, prefix + ".weight", DType::kF32, {out, in}).f32;
        d.weight.resize(w.size());
        for (int o = 0; o < out; ++o)
            for (int i = 0; i < in; ++i)
                d.weight[std::size_t(i) * std::size_t(out) + std::size_t(o)] =
                    w[std::size_t(o) * std::size_t(in) + std::size_t(i)];
        d.bias = tensor_of(file, prefix + ".bias", DType::kF32, {out}).f32;
        layers_.push_back(std::move(d));
        in = out;
        if (last) break;
    }
    if (const int want = expected_outputs(task_, players_); want && outputs() != want)
        bad_network(where_, "tensor 'out.weight': " + std::to_string(outputs()) + " outputs, a " +
                                task_ + " network has " + std::to_string(want));
    const auto bytes = [](const auto& v) {
        return std::string_view(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(v[0]));
    };
    digest_ = fnv1a64(bytes(ft_bias_), fnv1a64(bytes(ft_weight_)));
    for (const Dense& d : layers_)
        digest_ = fnv1a64(bytes(d.bias), fnv1a64(bytes(d.weight), digest_));
}

void Network::check(const std::string& form, const std::string& task) const {
    if (!form.empty() && form != form_)
        bad_network(where_, "field 'form': made for " + form_ + ", not for " + form);
    if (!task.empty() && task != task_)
        bad_network(where_, "field 'task': a " + task_ + " network, not a " + task + " network");
}

namespace {

// One dense layer, input by input: y = bias + the sum over i of x[i] * w[i][.]. Each output sums
// its terms in input order with a multiply and then an add, never fused, so that the plain and the
// AVX2 build of it give the same bits (and the same decisions) on every machine. The inputs that
// the clipped ReLU left at zero cost nothing: they are dropped first, without a branch, as which
// of them are zero is not predictable.
[[gnu::always_inline]] inline void dense_layer(const float* __restrict w, const float* __restrict b,
                                               const float* __restrict x, float* __restrict y,
                                               int in, int out) {
    int on[Network::kMaxWidth];
    int n = 0;
    for (int i = 0; i < in; ++i) {
        on[n] = i;
        n += x[i] != 0.0f;
    }
    for (int o = 0; o < out; ++o) y[o] = b[o];
    for (int k = 0; k < n; ++k) {
        const float xi = x[on[k]];
        const float* __restrict wi = w + std::size_t(on[k]) * std::size_t(out);
        for (int o = 0; o < out; ++o) y[o] += wi[o] * xi;
    }
}

// -floop-unroll-and-jam (of -O3) jams two inputs into one scalar loop over the outputs, which then
// no longer vectorizes: an evaluation took about 2.5 times as long.
[[gnu::optimize("no-loop-unroll-and-jam")]] void dense_plain(const float* w, const float* b,
                                                             const float* x, float* y, int in,
                                                             int out) {
    dense_layer(w, b, x, y, in, out);
}

#if defined(__GNUC__) && defined(__x86_64__)
// Eight lanes instead of four; "avx2" without "fma", so no multiply and add are fused.
[[gnu::target("avx2"), gnu::optimize("no-loop-unroll-and-jam")]] void dense_avx2(
    const float* w, const float* b, const float* x, float* y, int in, int out) {
    dense_layer(w, b, x, y, in, out);
}
#endif

using DenseKernel = void (*)(const float*, const float*, const float*, float*, int, int);

DenseKernel dense_kernel(DenseInstructions set) {
#if defined(__GNUC__) && defined(__x86_64__)
    if (set == DenseInstructions::kAvx2) return dense_avx2;
#endif
    return dense_plain;
}

}  // namespace

bool has_dense_instructions(DenseInstructions set) {
#if defined(__GNUC__) && defined(__x86_64__)
    if (set == DenseInstructions::kAvx2) return __builtin_cpu_supports("avx2");
#endif
    return set == DenseInstructions::kPlain;
}

DenseInstructions dense_instructions() {
    static const DenseInstructions best = has_dense_instructions(DenseInstructions::kAvx2)
                                              ? DenseInstructions::kAvx2
                                              : DenseInstructions::kPlain;
    return best;
}

void dense_layer(DenseInstructions set, std::span<const float> weight, std::span<const float> bias,
                 std::span<const float> x, std::span<float> y) {
    const int in = static_cast<int>(x.size()), out = static_cast<int>(bias.size());
    if (weight.size() != x.size() * bias.size() || y.size() < bias.size() ||
        in > Network::kMaxWidth || !has_dense_instructions(set))
        throw std::invalid_argument("dense_layer: shapes or instruction set");
    dense_kernel(set)(weight.data(), bias.data(), x.data(), y.data(), in, out);
}

Evaluator::Evaluator(const Network& net) : net_(net), acc_(static_cast<std::size_t>(net.width_)) {
    std::size_t widest = static_cast<std::size_t>(net.width_);
    for (const Network::Dense& d : net.layers_) widest = std::max(widest, std::size_t(d.out));
    x_.resize(widest);
    y_.resize(widest);
    refresh({});
}

void Evaluator::refresh(std::span<const int> active) {
    std::copy(net_.ft_bias_.begin(), net_.ft_bias_.end(), acc_.begin());
    for (int f : active) add(f);
}

void Evaluator::add(int feature) {
    const std::int16_t* col = net_.ft_weight_.data() + std::size_t(feature) * acc_.size();
    std::int16_t* acc = acc_.data();
    for (std::size_t j = 0; j < acc_.size(); ++j)
        acc[j] = static_cast<std::int16_t>(acc[j] + col[j]);
}

void Evaluator::remove(int feature) {
    const std::int16_t* col = net_.ft_weight_.data() + std::size_t(feature) * acc_.size();
    std::int16_t* acc = acc_.data();
    for (std::size_t j = 0; j < acc_.size(); ++j)
        acc[j] = static_cast<std::int16_t>(acc[j] - col[j]);
}

std::span<const float> Evaluator::evaluate() {
    const float inv = 1.0f / static_cast<float>(net_.ft_scale_);
    const int scale = net_.ft_scale_;
    for (std::size_t j = 0; j < acc_.size(); ++j)
        x_[j] = static_cast<float>(std::clamp<int>(acc_[j], 0, scale)) * inv;
    const DenseKernel dense = dense_kernel(dense_instructions());
    const std::size_t n = net_.layers_.size();
    for (std::size_t k = 0; k < n; ++k) {
        const Network::Dense& d = net_.layers_[k];
        dense(d.weight.data(), d.bias.data(), x_.data(), y_.data(), d.in, d.out);
        if (k + 1 == n)
            for (int o = 0; o < d.out; ++o) y_[o] *= net_.output_scale_;
        if (k + 1 < n)
            for (int o = 0; o < d.out; ++o) x_[o] = std::clamp(y_[o], 0.0f, 1.0f);
    }
    return {y_.data(), static_cast<std::size_t>(net_.layers_.back().out)};
}

namespace {

// splitmix64: a fixed generator, so the same seed gives the same weights on every platform.
double uniform(std::uint64_t& state) {
    std::uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    z ^= z >> 31;
    return static_cast<double>(z >> 11) * 0x1.0p-53;
}

Tensor f32_tensor(const std::string& name, std::vector<int> shape, float bound,
                  std::uint64_t& state) {
    Tensor t{name, DType::kF32, std::move(shape), {}, {}, {}};
    t.f32.resize(t.size());
    for (float& v : t.f32) v = static_cast<float>((2 * uniform(state) - 1) * bound);
    return t;
}

}  // namespace

ModelFile random_network_file(const std::string& form, const std::string& task, int outputs,
                              std::uint64_t seed, int card_version) {
    const int players = players_of_form(form, "random network");
    const NetworkFeatures features = network_features(task, form, players, card_version);
    const int inputs = features.count, width = 128, hidden = 32;
    constexpr int kScale = 127;
    std::uint64_t state = seed;
    ModelFile m;
    m.where = "random network";
    m.comments = {"random weights, for the bench and tests"};
    m.fields = {{"kind", "network"},
                {"task", task},
                {"form", form},
                {"features", features.field},
                {"ft-scale", std::to_string(kScale)},
                {"output-scale", "1"},
                {"command", "random_network_file"},
                {"seeds", std::to_string(seed)}};
    // First-layer weights within +-0.5 (in units of 1/scale: +-63), far inside the int16 bound.
    Tensor ft{"ft.weight", DType::kI16, {inputs, width}, {}, {}, {}};
    ft.i16.resize(ft.size());
    for (std::int16_t& w : ft.i16)
        w = static_cast<std::int16_t>(std::lround((2 * uniform(state) - 1) * 0.5 * kScale));
    Tensor bias{"ft.bias", DType::kI16, {width}, {}, {}, {}};
    bias.i16.resize(bias.size());
    for (std::int16_t& w : bias.i16)
        w = static_cast<std::int16_t>(std::lround(uniform(state) * 0.5 * kScale));
    m.tensors.push_back(std::move(ft));
    m.tensors.push_back(std::move(bias));
    m.tensors.push_back(f32_tensor("l1.weight", {hidden, width}, 0.2f, state));
    m.tensors.push_back(f32_tensor("l1.bias", {hidden}, 0.2f, state));
    m.tensors.push_back(f32_tensor("l2.weight", {hidden, hidden}, 0.3f, state));
    m.tensors.push_back(f32_tensor("l2.bias", {hidden}, 0.2f, state));
    m.tensors.push_back(f32_tensor("out.weight", {outputs, hidden}, 0.3f, state));
    m.tensors.push_back(f32_tensor("out.bias", {outputs}, 0.1f, state));
    return m;
}

}  // namespace cardgames::models
