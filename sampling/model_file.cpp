#include "sampling/model_file.hpp"

#include <fmt/format.h>

#include <charconv>
#include <cmath>
#include <fstream>
#include <stdexcept>

#include "cardgames/cards/error.hpp"
#include "cardgames/cards/text.hpp"
#include "cardgames/cards/text_file.hpp"

namespace sampling {

using cardgames::InputError;

namespace {

constexpr const char* kMagic = "cardgames-model 1";

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

cardgames::GameKind game_of_form(const std::string& form) {
    return form.starts_with("spades") ? cardgames::GameKind::kSpades : cardgames::GameKind::kHearts;
}

std::string format_model_file(const ModelFile& m) {
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

ModelFile parse_model_file(const std::string& text, const std::string& where) {
    ModelFile m;
    m.where = where;
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
        if (words.empty() || words[0].front() == '#') continue;
        const std::string shown = "'" + cardgames::safe_text(line) + "'";
        switch (stage) {
            case Stage::kMagic:
                if (line != kMagic)
                    fail(where, line_no,
                         shown + " is not a model file's first line ('" + kMagic + "')");
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
