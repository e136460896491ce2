#include "apps/learn/model_convert.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>

#include "apps/experiments/results_file.hpp"
#include "apps/experiments/run.hpp"
#include "cardgames/cards/error.hpp"
#include "cardgames/cards/text_file.hpp"
#include "sampling/bid_model.hpp"
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

bool same_bits(const std::vector<double>& a, const std::vector<double>& b) {
    return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0;
}

// Every "--seed N" of `lines`, in order.
std::string seeds_in(const std::vector<std::string>& lines) {
    std::string seeds;
    for (const std::string& v : lines)
        for (std::size_t at = v.find("--seed "); at != std::string::npos;
             at = v.find("--seed ", at + 1)) {
            const std::size_t from = at + std::strlen("--seed ");
            seeds += (seeds.empty() ? "" : " ") + v.substr(from, v.find(' ', from) - from);
        }
    return seeds;
}

// A Spades bid model (its own tensors, kind bids): the same conversion.
ConvertReport convert_bid_model(const std::string& in, const std::string& out,
                                const std::string& bytes) {
    const std::string where = "bid model '" + in + "'";
    sampling::SpadesBidModel m = sampling::parse_bid_model(bytes, where);
    const int version = cardgames::models::is_current_model_file(bytes) ? 2 : 1;
    auto has_meta = [&](const std::string& key) {
        return std::any_of(m.meta.begin(), m.meta.end(),
                           [&](const auto& kv) { return kv.first == key; });
    };
    if (!has_meta("form")) m.meta.emplace_back("form", sampling::bid_model_form(m));
    if (!has_meta("command"))
        for (const std::string& line : m.provenance)
            if (line.starts_with("made by: ")) m.meta.emplace_back("command", line.substr(9));
    if (!has_meta("seeds")) {
        const std::string seeds = seeds_in(m.provenance);
        if (!seeds.empty()) m.meta.emplace_back("seeds", seeds);
    }
    if (version == 1)
        m.provenance.push_back("Converted from version 1 by: cardgames learn convert --in " + in +
                               " --out " + out);
    cardgames::models::write_model_file(out, sampling::bid_model_file(m));
    const sampling::SpadesBidModel back = sampling::read_bid_model(out);
    if (back.fingerprint() != m.fingerprint())
        throw RunError("--out '" + out + "': the written model differs from '" + in + "'");
    return {in,
            out,
            "bids",
            sampling::bid_model_form(m),
            version,
            m.trick_intercepts.size() + m.trick_weights.size() + m.nil_weights.size() +
                m.partner_residual.size() + 2};
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
    const std::string bytes = cardgames::read_text_file(in, "model");
    if (sampling::is_bid_model_file(bytes)) return convert_bid_model(in, out, bytes);
    sampling::ModelFile m = sampling::parse_model_file(bytes, "model '" + in + "'");
    const std::string plays_by = fingerprint_of(m);
    ConvertReport r{in, out, m.kind, m.get("form"), m.version, m.weights.size()};
    if (!has(m, "seeds")) {
        std::vector<std::string> commands;
        for (const auto& [k, v] : m.meta)
            if (k.starts_with("data_command")) commands.push_back(v);
        const std::string seeds = seeds_in(commands);
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
