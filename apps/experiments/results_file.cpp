#include "apps/experiments/results_file.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>

#include "apps/experiments/run.hpp"
#include "cardgames/cards/error.hpp"
#include "cardgames/cards/json_input.hpp"
#include "cardgames/cards/text_file.hpp"

namespace apps {

using cardgames::InputError;
using nlohmann::json;

namespace {

struct Scanned {
    json header;
    long results = 0;
    std::uintmax_t complete_bytes =
        0;  // length of the file up to the end of its last complete line
    bool partial_tail = false;
    std::uint64_t fnv1a = kFnv1aBasis;  // of every byte of the file
};

// A file's lines one at a time through a fixed buffer, so that reading a results file takes the
// memory of its longest line, not of the file; a line longer than kMaxResultLine is not stored.
class LineReader {
  public:
    enum class Got { kLine, kTail, kEnd, kTooLong };  // kTail: the last line has no '\n'

    LineReader(const std::string& path) : in_(cardgames::open_text_file(path, "")), buf_(1 << 20) {}

    Got next(std::string& line) {
        line.clear();
        for (;;) {
            if (pos_ == len_) {
                in_.read(buf_.data(), static_cast<std::streamsize>(buf_.size()));
                len_ = static_cast<std::size_t>(in_.gcount());
                pos_ = 0;
                hash_ = fnv1a(std::string_view(buf_.data(), len_), hash_);
                if (len_ == 0) {
                    if (in_.bad()) throw InputError("cannot read the file");
                    return line.empty() ? Got::kEnd : Got::kTail;
                }
            }
            const char* start = buf_.data() + pos_;
            const auto* nl = static_cast<const char*>(std::memchr(start, '\n', len_ - pos_));
            const std::size_t take = nl ? static_cast<std::size_t>(nl - start) : len_ - pos_;
            if (line.size() + take > kMaxResultLine) return Got::kTooLong;
            line.append(start, take);
            pos_ += take;
            if (nl) {
                ++pos_;
                return Got::kLine;
            }
        }
    }

    // The FNV-1a of the bytes read so far: of the whole file once next() gave kEnd or kTail.
    std::uint64_t hash() const { return hash_; }

  private:
    std::ifstream in_;
    std::vector<char> buf_;
    std::size_t pos_ = 0, len_ = 0;
    std::uint64_t hash_ = kFnv1aBasis;
};

std::string show(const json& j) {
    return j.is_null() ? "(absent)" : j.dump();
}

// Names the first option that differs between the file's header and this run's.
std::string header_difference(const json& file, const json& run) {
    const json& fo = file.value("options", json::object());
    const json& ro = run["options"];
    for (const auto& [key, value] : ro.items()) {
        const json other = fo.contains(key) ? fo[key] : json();
        if (other != value)
            return key + " " + show(other) + " in the file, " + show(value) + " in this run";
    }
    for (const auto& [key, value] : fo.items())
        if (!ro.contains(key)) return key + " " + show(value) + " in the file, absent in this run";
    return "";
}

// The header line as every results file has it; `expected` (resume) must have the same options.
void check_header(const json& j, const std::string& command, const json* expected) {
    const cardgames::JsonField f(j, "");
    if (!j.is_object() || !f.has("type") || !j["type"].is_string() || j["type"] != "header" ||
        !f.has("command") || !j["command"].is_string() || j["command"] != command)
        throw InputError("not a results file of 'cardgames " + command + "' (no header line)");
    f["options"].object();
    if (f["format"].integer(0, INT_MAX) != kResultsFormat)
        throw InputError("results format " + show(j["format"]) + ", this program writes " +
                         std::to_string(kResultsFormat));
    if (expected) {
        const std::string diff = header_difference(j, *expected);
        if (!diff.empty())
            throw InputError("the file was made with other options (" + diff +
                             "); resume with the same options or choose another --out");
    }
}

Scanned scan(const std::string& path, const std::string& command, const json* expected_header,
             const std::function<void(const json&)>& header_check,
             const std::function<void(const json&)>& check) {
    LineReader reader(path);
    Scanned out;
    long line_no = 0;
    std::string line;
    for (;;) {
        const LineReader::Got got = reader.next(line);
        if (got == LineReader::Got::kEnd) break;
        if (got == LineReader::Got::kTail) {
            out.partial_tail = true;  // a write cut short: not a finished result
            break;
        }
        ++line_no;
        const std::string where = "'" + path + "' line " + std::to_string(line_no);
        if (got == LineReader::Got::kTooLong)
            throw InputError(where + ": longer than " + std::to_string(kMaxResultLine >> 20) +
                             " MiB, not a result; refusing to use or overwrite this file");
        try {
            json j = cardgames::parse_json_line(line);
            if (line_no == 1) {
                check_header(j, command, expected_header);
                if (header_check) header_check(j);
                out.header = std::move(j);
            } else {
                const long index = out.results;
                const cardgames::JsonField f(j, "");
                if (!f.has("index") || f["index"].json() != json(index))
                    throw InputError(
                        "expected result number " + std::to_string(index) +
                        " (key \"index\"), found " +
                        (f.has("index") ? show(f["index"].json()) : std::string("none")));
                check(j);
                ++out.results;
            }
        } catch (const InputError& e) {
            throw InputError(where + ": " + e.what() + "; refusing to use or overwrite this file");
        }
        out.complete_bytes += line.size() + 1;
    }
    out.fnv1a = reader.hash();
    if (line_no == 0 && !out.partial_tail && expected_header == nullptr)
        throw InputError("'" + path + "': the file is empty");
    if (line_no == 0 && out.partial_tail)
        throw InputError("'" + path + "' line 1: not a results file of 'cardgames " + command +
                         "'; refusing to use or overwrite it");
    return out;
}

}  // namespace

json results_header(const std::string& command, const json& options) {
    return json{
        {"type", "header"}, {"command", command}, {"format", kResultsFormat}, {"options", options}};
}

void check_file_path(const std::string& path, const std::string& option) {
    namespace fs = std::filesystem;
    std::error_code ec;
    const fs::file_status st = fs::status(path, ec);
    if (fs::is_directory(st))
        throw InputError(option + " '" + path + "': a directory; give a file name");
    if (fs::exists(st) && !fs::is_regular_file(st))
        throw InputError(option + " '" + path + "': not a regular file; give a file name");
}

LineFile::LineFile(const std::string& path, const std::string& option, std::string on_failure)
    : path_(path), on_failure_(std::move(on_failure)) {
    check_file_path(path, option);
    fd_ = ::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (fd_ < 0)
        throw InputError(option + " '" + path + "': cannot open for writing (" +
                         std::strerror(errno) + ")");
    // What was opened, not what the name said before: a path can change in between, and a name
    // like /dev/stdout leads to the standard output, which may itself be a file that the
    // command's own output would be mixed into.
    std::string wrong;
    struct stat opened {};
    if (::fstat(fd_, &opened) != 0 || !S_ISREG(opened.st_mode)) wrong = "not a regular file";
    for (const int standard : {STDOUT_FILENO, STDERR_FILENO}) {
        struct stat st {};
        if (wrong.empty() && ::fstat(standard, &st) == 0 && st.st_dev == opened.st_dev &&
            st.st_ino == opened.st_ino)
            wrong = standard == STDOUT_FILENO ? "the standard output" : "the standard error";
    }
    if (!wrong.empty()) {
        ::close(fd_);
        throw InputError(option + " '" + path + "': " + wrong + "; give a file name of its own");
    }
}

std::uintmax_t LineFile::size() const {
    struct stat st {};
    if (::fstat(fd_, &st) != 0) fail("stat");
    return static_cast<std::uintmax_t>(st.st_size);
}

LineFile::~LineFile() {
    if (fd_ >= 0) ::close(fd_);
}

std::optional<AppendFailure> append_whole(int fd, std::string_view bytes, std::uintmax_t keep) {
    std::size_t done = 0;
    while (done < bytes.size()) {
        const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) {
            const int error = errno;
            const bool cut = ::ftruncate(fd, static_cast<off_t>(keep)) == 0;
            return AppendFailure{error, cut};
        }
        done += static_cast<std::size_t>(n);
    }
    return std::nullopt;
}

void LineFile::append(const std::string& line) {
    // A line cut short is removed, so that the next line appended (another game's record) starts
    // on a line of its own.
    if (const auto failed = append_whole(fd_, line + "\n", size())) {
        errno = failed->error;
        fail(failed->cut ? "write" : "write (and cutting the partial line back)");
    }
}

void LineFile::close() {
    const int fd = fd_;
    fd_ = -1;
    if (fd >= 0 && ::close(fd) != 0 && errno != EINTR) fail("close");
}

void LineFile::fail(const std::string& what) const {
    throw RunError("'" + path_ + "': " + what + " failed (" + std::strerror(errno) + ")" +
                   (on_failure_.empty() ? "" : "; " + on_failure_));
}

ResultsFile::ResultsFile(const std::string& path, const json& header, bool resume,
                         const std::function<void(const json&)>& check) {
    namespace fs = std::filesystem;
    file_ = std::make_unique<LineFile>(
        path, "--out",
        "the results before it are kept: free the space and run the same command with --resume");
    // One run at a time: a second one on the same file would write results twice. The lock
    // lasts as long as this object and goes with the process, however it ends. It is taken
    // before the file is looked at, so two runs started at once on a new path cannot both find
    // it empty: the second waits for nothing and is refused, or finds the first one's header.
    if (::flock(file_->fd(), LOCK_EX | LOCK_NB) != 0)
        throw InputError(
            "--out '" + path +
            "': another run is writing this file; wait for it to end or choose another file");
    bool has_content = file_->size() > 0;
    bool write_header = true;
    if (has_content && !resume)
        throw InputError("--out '" + path +
                         "': the file exists; add --resume to continue it, or choose another file");
    if (has_content && resume) {
        // Killed while writing the header itself: nothing finished yet, start over.
        const std::string expected = header.dump() + "\n";
        std::ifstream in(path, std::ios::binary);
        std::string head(expected.size(), '\0');
        in.read(head.data(), static_cast<std::streamsize>(head.size()));
        head.resize(static_cast<std::size_t>(in.gcount()));
        if (head.size() < expected.size() && expected.compare(0, head.size(), head) == 0) {
            fs::resize_file(path, 0);
            has_content = false;
        }
    }
    if (has_content) {
        Scanned s = scan(path, header.value("command", ""), &header, nullptr, check);
        if (s.complete_bytes > 0) write_header = false;
        if (s.partial_tail) {
            note_ = "'" + path +
                    "': dropping an unfinished last line (the previous run was killed while "
                    "writing it)";
            fs::resize_file(path, s.complete_bytes);
        }
        done_ = s.results;
    }
    if (write_header) append(header.dump());
}

ResultsFile::~ResultsFile() = default;

void ResultsFile::append(const std::string& line) {
    file_->append(line);
}

json read_results(const std::string& path, const std::string& command,
                  const std::function<void(const json&)>& header_check,
                  const std::function<void(const json&)>& each, std::uint64_t* fingerprint) {
    Scanned s = scan(path, command, nullptr, header_check, each);
    if (fingerprint) *fingerprint = s.fnv1a;
    return std::move(s.header);
}

}  // namespace apps
