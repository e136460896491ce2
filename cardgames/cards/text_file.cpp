#include "cardgames/cards/text_file.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>
#include <system_error>

#include "cardgames/cards/error.hpp"

namespace cardgames {

std::ifstream open_text_file(const std::filesystem::path& path, const std::string& label) {
    namespace fs = std::filesystem;
    const std::string at = (label.empty() ? "" : label + " ") + "'" + path.string() + "': ";
    std::error_code ec;
    const fs::file_status st = fs::status(path, ec);
    if (!fs::exists(st)) throw InputError(at + "cannot open the file");
    if (fs::is_directory(st)) throw InputError(at + "a directory, not a file");
    if (!fs::is_regular_file(st) && !fs::is_fifo(st)) throw InputError(at + "not a regular file");
    std::ifstream in(path, std::ios::binary);
    if (!in) throw InputError(at + "cannot open the file (" + std::strerror(errno) + ")");
    return in;
}

std::string read_text_file(const std::filesystem::path& path, const std::string& label) {
    const std::string at = (label.empty() ? "" : label + " ") + "'" + path.string() + "': ";
    std::ifstream in = open_text_file(path, label);
    std::stringstream text;
    text << in.rdbuf();
    if (in.bad()) throw InputError(at + "cannot read the file");
    return text.str();
}

}  // namespace cardgames
