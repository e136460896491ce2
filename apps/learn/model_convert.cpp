#include "apps/learn/model_convert.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>

#include "apps/experiments/results_file.hpp"
#include "apps/experiments/run.hpp"
#include "cardgames/cards/error.hpp"
#include "sampling/cutoff_model.hpp"
#include "sampling/model_file.hpp"
#include "sampling/policy.hpp"

namespace apps {

using cardgames::InputError;

namespace {

// Checks `m` as the model its kind says (its form, feature set and names) and returns what it
// plays by.
std::string fingerprint_of(const sampling::ModelFile& m) {
    if (m.kind == "playout-policy") return sampling::PolicyModel(m).fingerprint();
    if (m.kind == "cutoff-eval") return sampling::CutoffModel(m).fingerprint();
    throw InputError(m.where + ": a '" + m.kind +
                     "' model; the linear models are playout-policy and cutoff-eval");
}

bool has(const sampling::ModelFile& m, const std::string& key) {
    return std::any_of(m.meta.begin(), m.meta.end(),
                       [&](const auto& kv) { return kv.first == key; });
}

// The --seed of each data command of a version 1 file, in order.
std::string seeds_of_data_commands(const sampling::ModelFile& m) {
    std::string seeds;
    for (const auto& [k, v] : m.meta) {
        if (!k.starts_with("data_command")) continue;
        const std::size_t at = v.find("--seed ");
        if (at == std::string::npos) continue;
        const std::size_t from = at + std::strlen("--seed ");
        seeds += (seeds.empty() ? "" : " ") + v.substr(from, v.find(' ', from) - from);
    }
    return seeds;
}

bool same_bits(const std::vector<double>& a, const std::vector<double>& b) {
    return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0;
}

}  // namespace

std::string ConvertReport::text() const {
    return fmt::format("{}: a {} model for {}, {} weights, version {}; wrote {} (version 2)", in,
                       kind, form, weights, from_version, out);
}

ConvertReport convert_model(const std::string& in, const std::string& out) {
    if (in.empty()) throw InputError("--in is required: the model file to convert");
    if (out.empty()) throw InputError("--out is required: the model file to write");
    check_file_path(out, "--out");
    sampling::ModelFile m = sampling::read_model_file(in);
    const std::string plays_by = fingerprint_of(m);
    ConvertReport r{in, out, m.kind, m.get("form"), m.version, m.weights.size()};
    if (!has(m, "seeds")) {
        const std::string seeds = seeds_of_data_commands(m);
        if (!seeds.empty()) m.meta.emplace_back("seeds", seeds);
    }
    if (m.version == 1)
        m.comments.push_back("Converted from version 1 by: cardgames learn convert --in " + in +
                             " --out " + out);
    sampling::write_model_file(out, m);
    const sampling::ModelFile back = sampling::read_model_file(out);
    if (!same_bits(back.weights, m.weights) || back.names != m.names ||
        fingerprint_of(back) != plays_by)
        throw RunError("--out '" + out + "': the written model differs from '" + in + "'");
    return r;
}

}  // namespace apps
