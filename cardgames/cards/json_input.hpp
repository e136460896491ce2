#pragma once
// JSON read from a file (a game record, a results line): parsed with a bound on nesting, and read
// through JsonField, which checks each value's type and range before it is used and names the key
// ("hands[2].plays[5][0]") in the InputError when it is wrong. No nlohmann exception gets out.

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace cardgames {

// Deeper than any file the program writes (a record is 5 levels), far from the stack's limit.
inline constexpr int kMaxJsonDepth = 32;

// One line of JSON; InputError (without the file and line, which the caller adds) when it is not
// JSON, nests deeper than max_depth (checked before parsing, so nothing recurses that deep) or
// holds invalid UTF-8.
nlohmann::json parse_json_line(const std::string& text, int max_depth = kMaxJsonDepth);

// A value inside a parsed line and the key path that leads to it. Every accessor throws
// InputError naming the path when the value is missing, of another type or out of range.
class JsonField {
  public:
    JsonField(const nlohmann::json& value, std::string path)
        : value_(&value), path_(std::move(path)) {}

    const std::string& path() const { return path_; }
    const nlohmann::json& json() const { return *value_; }

    bool has(const char* key) const { return value_->is_object() && value_->contains(key); }
    JsonField operator[](std::string_view key) const;  // a required key of an object
    JsonField operator[](std::size_t index) const;

    // The value must be an object (and is returned as one).
    const nlohmann::json& object() const;
    // The value must be an array of lo..hi entries; returns its size.
    std::size_t array(std::size_t lo = 0, std::size_t hi = SIZE_MAX) const;
    long long integer(long long lo, long long hi) const;
    std::uint64_t unsigned_integer() const;
    double number(double lo, double hi) const;  // finite, any JSON number
    bool boolean() const;
    const std::string& string() const;

    // "key \"hands[2].deal\": " in front of a message.
    [[noreturn]] void fail(const std::string& message) const;

  private:
    const nlohmann::json* value_;
    std::string path_;
};

}  // namespace cardgames
