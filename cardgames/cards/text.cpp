#include "cardgames/cards/text.hpp"

#include <cctype>
#include <cstdio>

namespace cardgames {

namespace {

// Length of the valid UTF-8 sequence at text[i] (1-4), or 0 when the bytes there are not one
// (overlong forms, surrogates and code points past U+10FFFF included).
std::size_t utf8_length(std::string_view text, std::size_t i, char32_t& code) {
    const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
    const unsigned char b = byte(i);
    std::size_t n = 0;
    char32_t min = 0;
    if (b < 0x80) {
        code = b;
        return 1;
    }
    if ((b & 0xE0) == 0xC0)
        n = 2, code = b & 0x1F, min = 0x80;
    else if ((b & 0xF0) == 0xE0)
        n = 3, code = b & 0x0F, min = 0x800;
    else if ((b & 0xF8) == 0xF0)
        n = 4, code = b & 0x07, min = 0x10000;
    else
        return 0;
    if (i + n > text.size()) return 0;
    for (std::size_t k = 1; k < n; ++k) {
        if ((byte(i + k) & 0xC0) != 0x80) return 0;
        code = (code << 6) | (byte(i + k) & 0x3F);
    }
    if (code < min || code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF)) return 0;
    return n;
}

std::string byte_escape(unsigned char byte) {
    char buf[8];
    std::snprintf(buf, sizeof buf, "\\x%02x", static_cast<unsigned>(byte));
    return buf;
}

std::string escape(char32_t code) {
    switch (code) {
        case '\n':
            return "\\n";
        case '\r':
            return "\\r";
        case '\t':
            return "\\t";
        default:
            break;
    }
    if (code < 0x80) return byte_escape(static_cast<unsigned char>(code));
    char buf[16];
    std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(code));
    return buf;
}

// The character at text[i] as safe_text shows it; `used` is how many bytes of text it took.
std::string safe_piece(std::string_view text, std::size_t i, TextCharset charset,
                       std::size_t& used) {
    static constexpr std::string_view kReplacement = "\xEF\xBF\xBD";  // U+FFFD
    if (charset == TextCharset::kAscii) {
        used = 1;
        const auto byte = static_cast<unsigned char>(text[i]);
        if (byte >= 0x80) return byte_escape(byte);
        if (byte < 0x20 || byte == 0x7F) return escape(byte);
        return std::string(1, text[i]);
    }
    char32_t code = 0;
    const std::size_t n = utf8_length(text, i, code);
    used = n == 0 ? 1 : n;
    if (n == 0) return std::string(kReplacement);
    if (code < 0x20 || code == 0x7F || (code >= 0x80 && code < 0xA0)) return escape(code);
    return std::string(text.substr(i, n));
}

}  // namespace

std::string safe_text(std::string_view text, std::size_t max_bytes, TextCharset charset) {
    std::string out;
    std::size_t i = 0;
    while (i < text.size()) {
        std::size_t used = 0;
        const std::string piece = safe_piece(text, i, charset, used);
        if (out.size() + piece.size() > max_bytes) return out + "...";
        out += piece;
        i += used;
    }
    return out;
}

std::vector<std::string_view> split_list(std::string_view text, char separator) {
    std::vector<std::string_view> out;
    for (std::size_t start = 0;;) {
        const std::size_t end = text.find(separator, start);
        out.push_back(text.substr(start, end == std::string_view::npos ? end : end - start));
        if (end == std::string_view::npos) return out;
        start = end + 1;
    }
}

std::vector<std::string_view> split_words(std::string_view text) {
    std::vector<std::string_view> out;
    std::size_t i = 0;
    while (i < text.size()) {
        while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
        const std::size_t start = i;
        while (i < text.size() && !std::isspace(static_cast<unsigned char>(text[i]))) ++i;
        if (i > start) out.push_back(text.substr(start, i - start));
    }
    return out;
}

LineRead read_line_bounded(std::istream& in, std::string& line, std::size_t max_bytes) {
    line.clear();
    bool too_long = false, any = false;
    std::streambuf* buf = in.rdbuf();
    for (;;) {
        const int c = buf->sbumpc();
        if (c == std::char_traits<char>::eof()) {
            in.setstate(std::ios::eofbit);
            if (!any) {
                in.setstate(std::ios::failbit);
                return LineRead::kEnd;
            }
            break;
        }
        any = true;
        if (c == '\n') break;
        if (line.size() < max_bytes)
            line.push_back(static_cast<char>(c));
        else
            too_long = true;
    }
    return too_long ? LineRead::kTooLong : LineRead::kLine;
}

}  // namespace cardgames
