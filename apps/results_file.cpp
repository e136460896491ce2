#include "apps/results_file.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "apps/common.hpp"
#include "cardgames/error.hpp"
#include "cardgames/text_file.hpp"

namespace apps {

using cardgames::InputError;
using nlohmann::json;

namespace {

struct Scanned {
    ResultsContents contents;
    std::uintmax_t complete_bytes = 0;  // length of the file up to the end of its last complete line
    bool partial_tail = false;
};

std::string show(const json& j) { return j.is_null() ? "(absent)" : j.dump(); }

// Names the first option that differs between the file's header and this run's.
std::string header_difference(const json& file, const json& run) {
    const json& fo = file.value("options", json::object());
    const json& ro = run["options"];
    for (const auto& [key, value] : ro.items()) {
        const json other = fo.contains(key) ? fo[key] : json();
        if (other != value) return key + " " + show(other) + " in the file, " + show(value) + " in this run";
    }
    for (const auto& [key, value] : fo.items())
        if (!ro.contains(key)) return key + " " + show(value) + " in the file, absent in this run";
    return "";
}

Scanned scan(const std::string& path, const std::string& command, const json* expected_header,
             const std::function<void(const json&)>& check) {
    const std::string text = cardgames::read_text_file(path, "");
    Scanned out;
    std::size_t pos = 0;
    long line_no = 0;
    while (pos < text.size()) {
        const std::size_t end = text.find('\n', pos);
        if (end == std::string::npos) {
            out.partial_tail = true;  // a write cut short: not a finished result
            break;
        }
        ++line_no;
        const std::string line = text.substr(pos, end - pos);
        const std::string where = "'" + path + "' line " + std::to_string(line_no);
        json j;
        try {
            j = json::parse(line);
        } catch (const json::exception&) {
            throw InputError(where + ": not a JSON object; refusing to use or overwrite this file");
        }
        // A field of the wrong type (a number for a string, say) is bad input like any other.
        try {
            if (line_no == 1) {
                if (!j.is_object() || j.value("type", "") != "header" || j.value("command", "") != command)
                    throw InputError(where + ": not a results file of 'cardgames " + command +
                                     "' (no header line); refusing to use or overwrite it");
                if (!j["options"].is_object())
                    throw InputError(where + ": the header has no \"options\" object; refusing to use or overwrite this file");
                if (j.value("format", 0) != kResultsFormat)
                    throw InputError(where + ": results format " + show(j.value("format", json())) + ", this program writes " +
                                     std::to_string(kResultsFormat));
                if (expected_header) {
                    const std::string diff = header_difference(j, *expected_header);
                    if (!diff.empty())
                        throw InputError(where + ": the file was made with other options (" + diff +
                                         "); resume with the same options or choose another --out");
                }
                out.contents.header = j;
            } else {
                const long index = static_cast<long>(out.contents.results.size());
                if (!j.is_object() || !j.contains("index") || j["index"] != json(index))
                    throw InputError(where + ": expected result number " + std::to_string(index) + " (field \"index\"), found " +
                                     (j.is_object() && j.contains("index") ? j["index"].dump() : std::string("none")));
                try {
                    check(j);
                } catch (const InputError& e) {
                    cardgames::rethrow_with_context(where, e);
                }
                out.contents.results.push_back(std::move(j));
            }
        } catch (const json::exception& e) {
            throw InputError(where + ": a field of the wrong type (" + e.what() + "); refusing to use or overwrite this file");
        }
        out.complete_bytes = end + 1;
        pos = end + 1;
    }
    if (line_no == 0 && !out.partial_tail && expected_header == nullptr)
        throw InputError("'" + path + "': the file is empty");
    if (line_no == 0 && out.partial_tail)
        throw InputError("'" + path + "' line 1: not a results file of 'cardgames " + command + "'; refusing to use or overwrite it");
    return out;
}

}  // namespace

json results_header(const std::string& command, const json& options) {
    return json{{"type", "header"}, {"command", command}, {"format", kResultsFormat}, {"options", options}};
}

ResultsFile::ResultsFile(const std::string& path, const json& header, bool resume,
                         const std::function<void(const json&)>& check)
    : path_(path) {
    namespace fs = std::filesystem;
    std::error_code ec;
    const bool exists = fs::exists(path, ec);
    if (exists && fs::is_directory(path, ec)) throw InputError("--out '" + path + "': a directory; give a file name");
    if (exists && !fs::is_regular_file(path, ec))
        throw InputError("--out '" + path + "': not a regular file; give a file name");
    bool has_content = exists && fs::file_size(path, ec) > 0;
    bool write_header = true;
    if (has_content && !resume)
        throw InputError("--out '" + path + "': the file exists; add --resume to continue it, or choose another file");
    // One run at a time: a second one on the same file would write results twice. The lock
    // lasts as long as this object and goes with the process, however it ends.
    fd_ = ::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (fd_ < 0) throw InputError("--out '" + path + "': cannot open for writing (" + std::strerror(errno) + ")");
    if (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
        ::close(fd_);
        fd_ = -1;
        throw InputError("--out '" + path + "': another run is writing this file; wait for it to end or choose another file");
    }
    try {
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
            Scanned s = scan(path, header.value("command", ""), &header, check);
            if (s.complete_bytes > 0) write_header = false;
            if (s.partial_tail) {
                std::cerr << "'" << path << "': dropping an unfinished last line (the previous run was killed while writing it)\n";
                fs::resize_file(path, s.complete_bytes);
            }
            existing_ = std::move(s.contents.results);
        }
        if (write_header) append(header.dump());
    } catch (...) {
        ::close(fd_);  // and with it the lock
        fd_ = -1;
        throw;
    }
}

ResultsFile::~ResultsFile() {
    if (fd_ >= 0) ::close(fd_);
}

void ResultsFile::append(const std::string& line) {
    const std::string text = line + "\n";
    std::size_t done = 0;
    while (done < text.size()) {
        const ssize_t n = ::write(fd_, text.data() + done, text.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0)
            throw RunError("'" + path_ + "': write failed (" + std::strerror(errno) +
                           "); the results before it are kept: free the space and run the same command with --resume");
        done += static_cast<std::size_t>(n);
    }
}

ResultsContents read_results(const std::string& path, const std::string& command,
                             const std::function<void(const json&)>& check) {
    return scan(path, command, nullptr, check).contents;
}

}  // namespace apps
