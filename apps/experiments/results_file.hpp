#pragma once
// A JSON Lines results file that a batch command (tournament, eval) appends to: line 1 is a header
// naming the command and every option that affects the results; line k+2 is result number k (its
// field "index" says so). Each line is written whole and flushed as soon as it is final, so after a
// kill the file is a prefix of the uninterrupted file, perhaps plus a partial last line. Opening
// never destroys a finished result: without --resume an existing file is refused; with --resume a
// header that differs, a foreign file or a malformed line is refused with its line number, and
// only a trailing partial line (a write cut short by the kill) is dropped. The file is locked
// (flock) while open, so a second run on it is refused. A failed write throws RunError: the lines
// before it stay, and --resume continues from them.

#include <cstdint>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "apps/experiments/run.hpp"

namespace apps {

inline constexpr int kResultsFormat = 1;

// The header line: {"type":"header","command":...,"format":kResultsFormat,"options":{...}}.
nlohmann::json results_header(const std::string& command, const nlohmann::json& options);

// What a file the program writes must be: a regular file, or a path that does not exist yet. A
// directory or a device (/dev/full) is an InputError naming `option` and the path.
void check_file_path(const std::string& path, const std::string& option);

// How a write of appended records failed: the write's errno, and whether the file could be cut
// back to its length before them.
struct AppendFailure {
    int error = 0;
    bool cut = false;
};

// Writes all of `bytes` to `fd` (a write(2) interrupted by a signal is retried). When a write
// fails (a full disk) part of them may be in the file, so it is cut back to `keep` bytes and
// still ends on a whole record; the failure is returned, to be reported by the caller.
std::optional<AppendFailure> append_whole(int fd, std::string_view bytes, std::uintmax_t keep);

// A file that whole lines are appended to (a results file, play's --record), each line handed to
// the kernel at once with write(2), so there is no buffer left to flush. What is opened must be a
// regular file and not the standard output or error (--out /dev/stdout): an InputError. A write
// or close that fails (a full disk) is a RunError naming the path, followed by `on_failure` (what
// is kept, what to do); a line cut short is removed first, so the file ends with a whole line.
class LineFile {
  public:
    LineFile(const std::string& path, const std::string& option, std::string on_failure);
    ~LineFile();
    LineFile(const LineFile&) = delete;
    LineFile& operator=(const LineFile&) = delete;

    void append(const std::string& line);  // without its newline
    void close();                          // checked; the destructor closes unchecked
    int fd() const { return fd_; }
    std::uintmax_t size() const;  // the file's length now

  private:
    [[noreturn]] void fail(const std::string& what) const;

    std::string path_;
    std::string on_failure_;
    int fd_ = -1;
};

// The longest line a results file may have (a game record is a few KB): a longer one is refused
// with its line number, unread.
inline constexpr std::size_t kMaxResultLine = std::size_t{64} << 20;

class ResultsFile : public BatchOutput {
  public:
    // `check` validates one result line (throws cardgames::InputError; the error gets the line
    // number) and takes what the caller keeps of it (a tally): it sees each existing result once,
    // in index order. The file is read line by line, never held whole.
    ResultsFile(const std::string& path, const nlohmann::json& header, bool resume,
                const std::function<void(const nlohmann::json&)>& check);
    ~ResultsFile();
    ResultsFile(const ResultsFile&) = delete;
    ResultsFile& operator=(const ResultsFile&) = delete;

    // The results already in the file (resume).
    long done() const override { return done_; }
    // What the caller should tell the user about opening the file (an unfinished last line
    // dropped), or empty.
    const std::string& note() const { return note_; }
    // Appends one line (without its newline) and hands it to the kernel at once.
    void append(const std::string& line) override;

  private:
    std::unique_ptr<LineFile> file_;
    long done_ = 0;
    std::string note_;
};

// Reads a results file for reporting, line by line (its memory is one line's): `header_check`
// checks the header's options (this command's reader) before any line is read, `each` checks and
// takes each result line in index order, as above. Returns the header, and the file's FNV-1a in
// `fingerprint` when given: the file is read once, so a pipe can be read.
nlohmann::json read_results(const std::string& path, const std::string& command,
                            const std::function<void(const nlohmann::json&)>& header_check,
                            const std::function<void(const nlohmann::json&)>& each,
                            std::uint64_t* fingerprint = nullptr);

}  // namespace apps
