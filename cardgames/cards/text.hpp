#pragma once
// Text from outside the program (an external bot's answer, a field of a file read back) made safe
// to put into a record, a results file or the terminal: JSON refuses invalid UTF-8, and control
// characters would break lines or drive the terminal.

#include <cstddef>
#include <istream>
#include <string>
#include <string_view>
#include <vector>

namespace cardgames {

inline constexpr std::size_t kSafeTextBytes = 200;

// What safe_text may leave as it is: UTF-8 characters, or (for messages that must stay plain,
// such as a bot's own errors) printable ASCII only, every other byte then shown as \xNN.
enum class TextCharset { kUtf8, kAscii };

// One line of valid UTF-8: each invalid byte becomes U+FFFD, control characters (C0, DEL, C1)
// become escapes (\n, \r, \t, \xNN, \u0085), and a text longer than max_bytes is cut at a
// character boundary, with "..." after it.
std::string safe_text(std::string_view text, std::size_t max_bytes = kSafeTextBytes,
                      TextCharset charset = TextCharset::kUtf8);

// The items of a list such as "0,2" or "rule,random": the text between separators, every one
// kept, empty ones too ("0,,2," is four items, "" one), so that a caller refuses them by name.
std::vector<std::string_view> split_list(std::string_view text, char separator = ',');

// The words of a text: its runs of non-space characters, in order (views into `text`).
std::vector<std::string_view> split_words(std::string_view text);

// One line read from `in` into `line` (without its '\n'), keeping at most `max_bytes` of it: the
// rest of a longer line is read and dropped, never stored, so a huge line costs no memory.
enum class LineRead { kLine, kTooLong, kEnd };  // kEnd: nothing left to read
LineRead read_line_bounded(std::istream& in, std::string& line, std::size_t max_bytes);

}  // namespace cardgames
