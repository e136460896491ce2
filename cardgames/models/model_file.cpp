#include "cardgames/models/model_file.hpp"

#include <bit>
#include <charconv>
#include <cmath>
#include <cstring>
#include <fstream>
#include <set>
#include <sstream>
#include <stdexcept>

#include "cardgames/cards/error.hpp"
#include "cardgames/cards/text_file.hpp"

namespace cardgames::models {

// The payload is the arrays' bytes as they are in memory.
static_assert(std::endian::native == std::endian::little, "model files are little-endian");

namespace {

constexpr int kMaxDims = 4;
constexpr long kMaxDim = 1 << 24;
constexpr long kMaxElements = 1 << 26;

[[noreturn]] void fail(const std::string& where, const std::string& what) {
    throw InputError(where + ": " + what);
}

std::size_t width(DType t) {
    return t == DType::kF64 ? 8 : t == DType::kF32 ? 4 : 2;
}

// The tensor's values as bytes, and how many values it holds.
std::pair<const char*, std::size_t> values_of(const Tensor& t) {
    switch (t.dtype) {
        case DType::kF32:
            return {reinterpret_cast<const char*>(t.f32.data()), t.f32.size()};
        case DType::kI16:
            return {reinterpret_cast<const char*>(t.i16.data()), t.i16.size()};
        case DType::kF64:
            break;
    }
    return {reinterpret_cast<const char*>(t.f64.data()), t.f64.size()};
}

// A float weight is finite and not huge; `i` is its element, for the message.
void check_weight(double v, const Tensor& t, std::size_t i, const std::string& where) {
    if (!std::isfinite(v))
        fail(where, "tensor '" + t.name + "' element " + std::to_string(i) + ": not finite (" +
                        std::to_string(v) + ")");
    if (std::fabs(v) > kMaxAbsWeight)
        fail(where, "tensor '" + t.name + "' element " + std::to_string(i) + ": huge (" +
                        std::to_string(v) + ", beyond +-" + std::to_string(kMaxAbsWeight) + ")");
}

std::vector<std::string_view> split(std::string_view s) {
    std::vector<std::string_view> out;
    std::size_t i = 0;
    while (i < s.size()) {
        while (i < s.size() && s[i] == ' ') ++i;
        std::size_t j = i;
        while (j < s.size() && s[j] != ' ') ++j;
        if (j > i) out.push_back(s.substr(i, j - i));
        i = j;
    }
    return out;
}

long parse_long(std::string_view text, long lo, long hi, const std::string& where,
                const std::string& field) {
    long v = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (ec != std::errc() || end != text.data() + text.size() || v < lo || v > hi)
        fail(where, "field '" + field + "': '" + std::string(text) + "' is not a whole number in " +
                        std::to_string(lo) + ".." + std::to_string(hi));
    return v;
}

std::string hex64(std::uint64_t v) {
    char buf[17];
    for (int i = 15; i >= 0; --i, v >>= 4) buf[i] = "0123456789abcdef"[v & 15];
    buf[16] = 0;
    return buf;
}

Tensor parse_tensor_line(std::string_view value, const std::string& where) {
    const std::vector<std::string_view> parts = split(value);
    if (parts.size() < 3 || parts.size() > 2 + kMaxDims)
        fail(where, "field 'tensor': '" + std::string(value) +
                        "': expected NAME f32|i16 and 1 to " + std::to_string(kMaxDims) + " sizes");
    Tensor t;
    t.name = parts[0];
    if (parts[1] == "f32")
        t.dtype = DType::kF32;
    else if (parts[1] == "i16")
        t.dtype = DType::kI16;
    else if (parts[1] == "f64")
        t.dtype = DType::kF64;
    else
        fail(where, "tensor '" + t.name + "': type '" + std::string(parts[1]) +
                        "' is not f32, i16 or f64");
    long elements = 1;
    for (std::size_t i = 2; i < parts.size(); ++i) {
        t.shape.push_back(
            static_cast<int>(parse_long(parts[i], 1, kMaxDim, where, "tensor " + t.name)));
        elements *= t.shape.back();
        if (elements > kMaxElements)
            fail(where, "tensor '" + t.name + "': more than " + std::to_string(kMaxElements) +
                            " elements");
    }
    return t;
}

void read_values(Tensor& t, const char* data, const std::string& where) {
    const std::size_t n = t.size();
    switch (t.dtype) {
        case DType::kI16:
            t.i16.resize(n);
            std::memcpy(t.i16.data(), data, n * 2);
            return;
        case DType::kF32:
            t.f32.resize(n);
            std::memcpy(t.f32.data(), data, n * 4);
            for (std::size_t i = 0; i < n; ++i) check_weight(t.f32[i], t, i, where);
            return;
        case DType::kF64:
            t.f64.resize(n);
            std::memcpy(t.f64.data(), data, n * 8);
            for (std::size_t i = 0; i < n; ++i) check_weight(t.f64[i], t, i, where);
            return;
    }
}

}  // namespace

const char* dtype_name(DType t) {
    return t == DType::kF64 ? "f64" : t == DType::kF32 ? "f32" : "i16";
}

std::size_t Tensor::size() const {
    std::size_t n = 1;
    for (int d : shape) n *= static_cast<std::size_t>(d);
    return n;
}

const std::string& ModelFile::get(const std::string& key) const {
    for (const auto& [k, v] : fields)
        if (k == key) return v;
    fail(where, "field '" + key + "': missing");
}

const Tensor& ModelFile::tensor(const std::string& name) const {
    for (const Tensor& t : tensors)
        if (t.name == name) return t;
    fail(where, "tensor '" + name + "': missing");
}

bool is_current_model_file(std::string_view bytes) {
    return bytes.starts_with(std::string(kModelMagic) + " " + std::to_string(kModelFileVersion) +
                             "\n");
}

void field_error(const std::string& where, const std::string& field, const std::string& what) {
    fail(where, "field '" + field + "': " + what);
}

std::uint64_t fnv1a64(std::string_view bytes, std::uint64_t hash) {
    for (unsigned char c : bytes) {
        hash ^= c;
        hash *= 0x100000001b3ULL;
    }
    return hash;
}

std::string format_model_file(const ModelFile& m) {
    std::string header = std::string(kModelMagic) + " " + std::to_string(kModelFileVersion) + "\n";
    for (const std::string& c : m.comments) header += "# " + c + "\n";
    for (const auto& [k, v] : m.fields) {
        if (k.empty() || k.find_first_of(" \n#") != std::string::npos ||
            v.find('\n') != std::string::npos)
            throw std::invalid_argument("model field '" + k + "' cannot be written");
        header += k + " " + v + "\n";
    }
    std::string payload;
    for (const Tensor& t : m.tensors) {
        header += "tensor " + t.name + " " + dtype_name(t.dtype);
        for (int d : t.shape) header += " " + std::to_string(d);
        header += "\n";
        const auto [data, count] = values_of(t);
        if (count != t.size())
            throw std::invalid_argument("model tensor '" + t.name +
                                        "': values do not fit its shape");
        payload.append(data, t.size() * width(t.dtype));
    }
    header += "payload " + std::to_string(payload.size()) + "\n";
    const std::uint64_t sum = fnv1a64(payload, fnv1a64(header));
    return header + "checksum " + hex64(sum) + "\n" + payload;
}

ModelFile parse_model_file(std::string_view bytes, const std::string& where) {
    ModelFile m;
    m.where = where;
    std::size_t at = 0;
    // The next header line without its newline; an unfinished line is a truncated header.
    auto next_line = [&](const char* expecting) {
        const std::size_t nl = bytes.find('\n', at);
        if (nl == std::string_view::npos)
            fail(where, std::string("truncated: the header ends before ") + expecting);
        const std::string_view line = bytes.substr(at, nl - at);
        at = nl + 1;
        return line;
    };
    const std::string magic = std::string(kModelMagic) + " ";
    const std::string_view first = bytes.substr(0, std::min(bytes.size(), std::size_t{64}));
    if (!first.starts_with(magic))
        fail(where, "not a model file (expected '" + magic + std::to_string(kModelFileVersion) +
                        "' on the first line)");
    const std::string_view version_text = next_line("the version").substr(magic.size());
    const long version = parse_long(version_text, 0, 1000000, where, "version");
    if (version != kModelFileVersion)
        fail(where, "field 'version': " + std::to_string(version) + ", this program reads " +
                        std::to_string(kModelFileVersion) +
                        " (version 1 is the linear models' text file, sampling/model_file.hpp)");
    long payload = -1;
    std::set<std::string> names;
    for (;;) {
        const std::size_t line_start = at;
        const std::string_view line = next_line("the 'checksum' field");
        if (line.empty()) continue;
        if (line.front() == '#') {
            m.comments.emplace_back(line.substr(line.size() > 1 && line[1] == ' ' ? 2 : 1));
            continue;
        }
        const std::size_t sp = line.find(' ');
        const std::string key(line.substr(0, sp));
        const std::string_view value =
            sp == std::string_view::npos ? std::string_view{} : line.substr(sp + 1);
        if (key == "tensor") {
            m.tensors.push_back(parse_tensor_line(value, where));
            if (!names.insert(m.tensors.back().name).second)
                fail(where, "tensor '" + m.tensors.back().name + "': given twice");
        } else if (key == "payload") {
            payload = parse_long(value, 0, kMaxElements * 4L * 8, where, "payload");
        } else if (key == "checksum") {
            if (payload < 0) fail(where, "field 'payload': missing before 'checksum'");
            std::size_t need = 0;
            for (const Tensor& t : m.tensors) need += t.size() * width(t.dtype);
            if (static_cast<std::size_t>(payload) != need)
                fail(where, "field 'payload': " + std::to_string(payload) +
                                " bytes, but the tensors need " + std::to_string(need));
            const std::size_t present = bytes.size() - at;
            if (present < need)
                fail(where, "truncated: the payload has " + std::to_string(present) + " of " +
                                std::to_string(need) + " bytes");
            if (present > need)
                fail(where, "field 'payload': " + std::to_string(need) + " bytes, but " +
                                std::to_string(present) + " follow the header");
            const std::uint64_t sum =
                fnv1a64(bytes.substr(at), fnv1a64(bytes.substr(0, line_start)));
            if (value != hex64(sum))
                fail(where, "field 'checksum': " + std::string(value) + " in the file, " +
                                hex64(sum) + " computed (the file was altered or damaged)");
            break;
        } else {
            if (key.empty() || value.empty())
                fail(where,
                     "field '" + key + "': expected 'KEY VALUE', got '" + std::string(line) + "'");
            m.fields.emplace_back(key, std::string(value));
        }
    }
    for (Tensor& t : m.tensors) {
        read_values(t, bytes.data() + at, where);
        at += t.size() * width(t.dtype);
    }
    return m;
}

ModelFile read_model_file(const std::filesystem::path& path) {
    return parse_model_file(read_text_file(path, "model file"),
                            "model file '" + path.string() + "'");
}

void write_model_file(const std::filesystem::path& path, const ModelFile& model) {
    const std::string bytes = format_model_file(model);
    const std::filesystem::path tmp = path.string() + ".tmp";
    {
        std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
        out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
        out.close();
        if (!out) throw std::runtime_error("cannot write " + tmp.string());
    }
    std::filesystem::rename(tmp, path);
}

}  // namespace cardgames::models
