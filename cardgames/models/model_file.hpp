#pragma once
// A learned model as data, version 2 of the project's model file (docs/design/network-format.md):
// a text header of `key value` lines that says what the model is (kind, form, feature set, the
// command and seeds that made it), one `tensor` line per array, the payload's size and a checksum,
// then the arrays themselves, little-endian, in header order. Python's cardgames.model_file writes
// and reads the same bytes. Reading checks everything: a bad file is an InputError naming the file
// and the field.

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace cardgames::models {

inline constexpr std::string_view kModelMagic = "cardgames-model";
inline constexpr int kModelFileVersion = 2;
// A float weight larger than this in magnitude is refused as "huge": no trained model of ours comes
// near it, and a larger one means a diverged fit or a corrupt file.
inline constexpr float kMaxAbsWeight = 1.0e4f;

// f64 holds the linear models' weights exactly as they were fitted (a rounded weight could
// change a decision).
enum class DType : std::uint8_t { kF32, kI16, kF64 };

// How a header names a type: f32, i16, f64.
const char* dtype_name(DType t);

// One named array of the payload, row-major.
struct Tensor {
    std::string name;
    DType dtype = DType::kF32;
    std::vector<int> shape;
    std::vector<float> f32;         // the values when dtype is kF32
    std::vector<std::int16_t> i16;  // the values when dtype is kI16
    std::vector<double> f64;        // the values when dtype is kF64

    std::size_t size() const;  // the product of the shape
};

struct ModelFile {
    std::string where;  // "model file 'data/models/x.net'": for messages
    std::vector<std::string> comments;
    // Every header field other than the tensors, the payload size and the checksum, in order.
    std::vector<std::pair<std::string, std::string>> fields;
    std::vector<Tensor> tensors;

    // The value of field `key`; an InputError naming the file and the field when it is missing.
    const std::string& get(const std::string& key) const;
    // The tensor `name`; an InputError naming the file and the tensor when it is missing.
    const Tensor& tensor(const std::string& name) const;
};

// Whether `bytes` start as a file of this version does (its first line).
bool is_current_model_file(std::string_view bytes);
// The InputError of a field that is not what its reader needs: "WHERE: field 'FIELD': WHAT".
[[noreturn]] void field_error(const std::string& where, const std::string& field,
                              const std::string& what);

// FNV-1a, 64 bits: the file's checksum (of every byte before the checksum line and the payload).
std::uint64_t fnv1a64(std::string_view bytes, std::uint64_t hash = 0xcbf29ce484222325ULL);

// The file's bytes; the checksum is computed here.
std::string format_model_file(const ModelFile& model);
ModelFile parse_model_file(std::string_view bytes, const std::string& where);
ModelFile read_model_file(const std::filesystem::path& path);
// Writes through a temporary file renamed into place; a failed write is a std::runtime_error.
void write_model_file(const std::filesystem::path& path, const ModelFile& model);

}  // namespace cardgames::models
