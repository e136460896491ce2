#include "sampling/model_file.hpp"

#include <fmt/format.h>

#include <charconv>
#include <cmath>
#include <fstream>
#include <stdexcept>

#include "cardgames/cards/error.hpp"
#include "cardgames/cards/text.hpp"
#include "cardgames/cards/text_file.hpp"
#include "cardgames/models/model_file.hpp"

namespace sampling {

using cardgames::InputError;

namespace {

constexpr const char* kMagic = "cardgames-model 1";
// The fields a version 2 linear model file spells out of a ModelFile's own members.
constexpr std::string_view kOwnFields[] = {"kind", "task", "features", "names"};

[[noreturn]] void fail(const std::string& where, int line, const std::string& what) {
    throw InputError(where + " line " + std::to_string(line) + ": " + what);
}

// A finite number written as the whole field, nothing else.
double parse_number(std::string_view text, const std::string& where, int line) {
    double v = 0;
    const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (ec != std::errc() || ptr != text.data() + text.size() || !std::isfinite(v))
        fail(where, line, "'" + cardgames::safe_text(text) + "' is not a number");
    return v;
}

bool is_name(std::string_view word) {
    for (char c : word)
        if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.'))
            return false;
    return !word.empty();
}

}  // namespace

const std::string& ModelFile::get(const std::string& key) const {
    for (const auto& [k, v] : meta)
        if (k == key) return v;
    throw InputError(where + ": no '" + key + "' line");
}

void ModelFile::expect_kind(const std::string& expected) const {
    if (kind != expected) throw InputError(where + ": a '" + kind + "' model, not a " + expected);
}

void ModelFile::expect_names(std::span<const std::string_view> expected) const {
    if (names.size() != expected.size())
        throw InputError(where + ": " + std::to_string(names.size()) + " weights, expected " +
                         std::to_string(expected.size()) + " (this program's features)");
    for (std::size_t i = 0; i < names.size(); ++i)
        if (names[i] != expected[i]) {
            const std::string what = "weight " + std::to_string(i + 1) + " is '" + names[i] +
                                     "', expected '" + std::string(expected[i]) + "'";
            if (i < weight_lines.size()) fail(where, weight_lines[i], what);
            throw InputError(where + ": " + what);
        }
}

std::filesystem::path default_model(const cardgames::Rules& rules, const std::string& suffix) {
    return cardgames::data_dir() / "models" / (form_name(rules) + "-" + suffix + ".txt");
}

std::string numbers_text(std::span<const double> numbers) {
    std::string out;
    char buf[32];
    for (const double x : numbers) {
        const auto r = std::to_chars(buf, buf + sizeof buf, x);
        out.append(buf, r.ptr);
        out += ' ';
    }
    return out;
}

// Version 1, the text format: only read now, and written by the tests that show it still is.
std::string format_text_model_file(const ModelFile& m) {
    std::string out = std::string(kMagic) + "\n";
    for (const std::string& c : m.comments) out += "# " + c + "\n";
    out += "kind " + m.kind + "\n";
    for (const auto& [k, v] : m.meta) out += k + " " + v + "\n";
    out += "weights " + std::to_string(m.weights.size()) + "\n";
    for (std::size_t i = 0; i < m.weights.size(); ++i)
        out += fmt::format("{} {:.17g}\n", m.names[i], m.weights[i]);
    out += "end\n";
    return out;
}

namespace {

ModelFile parse_text_model_file(const std::string& text, const std::string& where) {
    ModelFile m;
    m.where = where;
    m.version = 1;
    enum class Stage { kMagic, kHeader, kWeights, kEnd, kDone } stage = Stage::kMagic;
    long expected = -1;
    int line_no = 0;
    std::size_t pos = 0;
    while (pos < text.size()) {
        const std::size_t nl = text.find('\n', pos);
        std::string_view line(text.data() + pos,
                              (nl == std::string::npos ? text.size() : nl) - pos);
        pos = nl == std::string::npos ? text.size() : nl + 1;
        ++line_no;
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        const std::vector<std::string_view> words = cardgames::split_words(line);
        if (!words.empty() && words[0].front() == '#') {
            // Kept, so that a converted file still says what the model is and how it measured.
            m.comments.emplace_back(line.substr(line.size() > 1 && line[1] == ' ' ? 2 : 1));
            continue;
        }
        if (words.empty()) continue;
        const std::string shown = "'" + cardgames::safe_text(line) + "'";
        switch (stage) {
            case Stage::kMagic:
                if (line != kMagic)
                    fail(where, line_no,
                         shown + " is not a model file's first line ('cardgames-model 2', or '" +
                             kMagic + "' for the old text format)");
                stage = Stage::kHeader;
                break;
            case Stage::kHeader: {
                if (words.size() < 2) fail(where, line_no, shown + ": a key needs a value");
                const std::string key(words[0]);
                if (!is_name(key)) fail(where, line_no, shown + ": a key is one word");
                // The value is the rest of the line (a command has spaces).
                const std::size_t start = static_cast<std::size_t>(words[1].data() - line.data());
                const std::string value(line.substr(start));
                if (key == "kind") {
                    m.kind = value;
                } else if (key == "weights") {
                    const double n = parse_number(value, where, line_no);
                    if (n < 1 || n > 100000 || n != std::floor(n))
                        fail(where, line_no, shown + ": the weight count is 1..100000");
                    if (m.kind.empty()) fail(where, line_no, "no 'kind' line before the weights");
                    expected = static_cast<long>(n);
                    stage = Stage::kWeights;
                } else {
                    for (const auto& [k, v] : m.meta)
                        if (k == key) fail(where, line_no, "'" + key + "' given twice");
                    m.meta.emplace_back(key, value);
                }
                break;
            }
            case Stage::kWeights:
                if (words.size() == 1 && words[0] == "end")
                    fail(where, line_no,
                         "'end' after " + std::to_string(m.weights.size()) + " of " +
                             std::to_string(expected) + " weights");
                if (words.size() != 2 || !is_name(words[0]))
                    fail(where, line_no, shown + " is not '<name> <weight>'");
                m.names.emplace_back(words[0]);
                m.weights.push_back(parse_number(words[1], where, line_no));
                m.weight_lines.push_back(line_no);
                if (static_cast<long>(m.weights.size()) == expected) stage = Stage::kEnd;
                break;
            case Stage::kEnd:
                if (words.size() != 1 || words[0] != "end")
                    fail(where, line_no,
                         shown + ": expected 'end' after " + std::to_string(expected) + " weights");
                stage = Stage::kDone;
                break;
            case Stage::kDone:
                fail(where, line_no, shown + " after the 'end' line");
        }
    }
    if (stage == Stage::kDone) return m;
    throw InputError(where + " line " + std::to_string(line_no) + ": the file ends before its " +
                     (stage == Stage::kMagic ? "first line" : "'end' line"));
}

// A version 2 file as a linear model: `kind linear`, its task, feature set and names, and one
// f64 tensor `weight` of a weight per name.
ModelFile linear_of(const cardgames::models::ModelFile& v2) {
    namespace models = cardgames::models;
    ModelFile m;
    m.where = v2.where;
    m.version = 2;
    m.comments = v2.comments;
    const std::string& kind = v2.get("kind");
    if (kind != "linear")
        cardgames::models::field_error(m.where, "kind", "a '" + kind + "' model, not a linear one");
    m.kind = v2.get("task");
    m.features = v2.get("features");
    for (std::string_view name : cardgames::split_words(v2.get("names")))
        m.names.emplace_back(name);
    for (const auto& [k, v] : v2.fields)
        if (std::find(std::begin(kOwnFields), std::end(kOwnFields), k) == std::end(kOwnFields))
            m.meta.emplace_back(k, v);
    if (v2.tensors.size() != 1)
        throw InputError(m.where + ": " + std::to_string(v2.tensors.size()) +
                         " tensors, a linear model has one ('weight')");
    const models::Tensor& w = v2.tensor("weight");
    const std::vector<int> shape = {static_cast<int>(m.names.size())};
    if (w.dtype != models::DType::kF64 || w.shape != shape)
        throw InputError(m.where + ": tensor 'weight': " + models::dtype_name(w.dtype) + " of " +
                         std::to_string(w.size()) + ", expected f64 of " +
                         std::to_string(m.names.size()) + " (one per name in 'names')");
    m.weights = w.f64;
    return m;
}

}  // namespace

std::string feature_set(const std::string& kind, std::size_t count) {
    return kind + " " + std::to_string(kLinearFeatureVersion) + " " + std::to_string(count);
}

void ModelFile::expect_features(std::size_t count) const {
    const std::string expected = feature_set(kind, count);
    if (features != expected)
        cardgames::models::field_error(where, "features",
                                       "'" + features + "', this program's are '" + expected +
                                           "' (fit the model again on new data)");
}

std::string format_model_file(const ModelFile& m) {
    namespace models = cardgames::models;
    if (m.names.size() != m.weights.size())
        throw std::invalid_argument(m.where + ": a name for every weight");
    models::ModelFile v2;
    v2.comments = m.comments;
    std::string names;
    for (const std::string& n : m.names) names += (names.empty() ? "" : " ") + n;
    v2.fields = {{"kind", "linear"},
                 {"task", m.kind},
                 {"features", feature_set(m.kind, m.names.size())},
                 {"names", names}};
    v2.fields.insert(v2.fields.end(), m.meta.begin(), m.meta.end());
    models::Tensor w;
    w.name = "weight";
    w.dtype = models::DType::kF64;
    w.shape = {static_cast<int>(m.weights.size())};
    w.f64 = m.weights;
    v2.tensors.push_back(std::move(w));
    return models::format_model_file(v2);
}

ModelFile parse_model_file(const std::string& text, const std::string& where) {
    if (cardgames::models::is_current_model_file(text))
        return linear_of(cardgames::models::parse_model_file(text, where));
    return parse_text_model_file(text, where);
}

ModelFile read_model_file(const std::filesystem::path& path) {
    const std::string where = "model '" + path.string() + "'";
    return parse_model_file(cardgames::read_text_file(path, "model"), where);
}

void write_model_file(const std::filesystem::path& path, const ModelFile& model) {
    const std::filesystem::path tmp = path.string() + ".tmp";
    {
        std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
        out << format_model_file(model);
        if (!out.flush()) throw std::runtime_error("cannot write " + tmp.string());
    }
    std::filesystem::rename(tmp, path);
}

}  // namespace sampling
