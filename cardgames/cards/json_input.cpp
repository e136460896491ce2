#include "cardgames/cards/json_input.hpp"

#include <cmath>

#include "cardgames/cards/error.hpp"
#include "cardgames/cards/text.hpp"

namespace cardgames {

using nlohmann::json;

namespace {

// Brackets outside strings, counted before nlohmann sees the text: its values are freed, copied,
// compared and printed recursively, so a deep one would overflow the stack later.
void check_depth(const std::string& text, int max_depth) {
    int depth = 0;
    bool in_string = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (in_string) {
            if (c == '\\')
                ++i;
            else if (c == '"')
                in_string = false;
        } else if (c == '"') {
            in_string = true;
        } else if (c == '[' || c == '{') {
            if (++depth > max_depth)
                throw InputError("nested deeper than " + std::to_string(max_depth) +
                                 " levels (at byte " + std::to_string(i + 1) + ")");
        } else if (c == ']' || c == '}') {
            --depth;
        }
    }
}

std::string shown(const json& v) {
    return safe_text(v.dump(-1, ' ', false, json::error_handler_t::replace), 60);
}

}  // namespace

json parse_json_line(const std::string& text, int max_depth) {
    check_depth(text, max_depth);
    try {
        return json::parse(text);
    } catch (const json::exception& e) {
        throw InputError("not JSON (" + safe_text(e.what()) + ")");
    }
}

void JsonField::fail(const std::string& message) const {
    throw InputError("key \"" + path_ + "\": " + message);
}

JsonField JsonField::operator[](std::string_view key) const {
    object();
    const auto it = value_->find(key);
    const std::string path = path_.empty() ? std::string(key) : path_ + "." + std::string(key);
    if (it == value_->end()) throw InputError("key \"" + path + "\" is missing");
    return JsonField(*it, path);
}

JsonField JsonField::operator[](std::size_t index) const {
    array();
    if (index >= value_->size())
        fail("expected at least " + std::to_string(index + 1) + " entries, found " +
             std::to_string(value_->size()));
    return JsonField((*value_)[index], path_ + "[" + std::to_string(index) + "]");
}

const json& JsonField::object() const {
    if (!value_->is_object()) fail("expected an object, found " + shown(*value_));
    return *value_;
}

std::size_t JsonField::array(std::size_t lo, std::size_t hi) const {
    if (!value_->is_array()) fail("expected an array, found " + shown(*value_));
    const std::size_t n = value_->size();
    if (n < lo || n > hi)
        fail("expected " +
             (lo == hi ? std::to_string(lo) : std::to_string(lo) + " to " + std::to_string(hi)) +
             " entries, found " + std::to_string(n));
    return n;
}

long long JsonField::integer(long long lo, long long hi) const {
    const std::string range = std::to_string(lo) + ".." + std::to_string(hi);
    if (value_->is_number_unsigned()) {
        const auto v = value_->get<std::uint64_t>();
        if (v > static_cast<std::uint64_t>(hi))
            fail("expected an integer " + range + ", found " + shown(*value_));
        return static_cast<long long>(v);
    }
    if (!value_->is_number_integer())
        fail("expected an integer " + range + ", found " + shown(*value_));
    const auto v = value_->get<std::int64_t>();
    if (v < lo || v > hi) fail("expected an integer " + range + ", found " + shown(*value_));
    return v;
}

std::uint64_t JsonField::unsigned_integer() const {
    if (!value_->is_number_unsigned())
        fail("expected an integer 0 or more, found " + shown(*value_));
    return value_->get<std::uint64_t>();
}

double JsonField::number(double lo, double hi) const {
    if (!value_->is_number()) fail("expected a number, found " + shown(*value_));
    const double v = value_->get<double>();
    if (!std::isfinite(v) || v < lo || v > hi)
        fail("expected a number from " + shown(nlohmann::json(lo)) + " to " +
             shown(nlohmann::json(hi)) + ", found " + shown(*value_));
    return v;
}

bool JsonField::boolean() const {
    if (!value_->is_boolean()) fail("expected true or false, found " + shown(*value_));
    return value_->get<bool>();
}

const std::string& JsonField::string() const {
    if (!value_->is_string()) fail("expected a string, found " + shown(*value_));
    return value_->get_ref<const std::string&>();
}

}  // namespace cardgames
