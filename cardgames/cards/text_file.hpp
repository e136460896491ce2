#pragma once
// Reading an input file whole (a preset, a deal set, game records, a results file, bench
// positions). The path must be a file: a directory reads as empty and a device may never end, so
// both are refused with an InputError naming the path.

#include <filesystem>
#include <fstream>
#include <string>

namespace cardgames {

// The file's contents. It must be a regular file or a pipe (`<(zcat records.gz)`). Errors say
// `<label> '<path>': <what is wrong>` ("--records 'data': a directory, not a file"); an empty label
// leaves out the label.
std::string read_text_file(const std::filesystem::path& path, const std::string& label);
// The same file opened for reading piece by piece (a file too large to hold), with the same checks
// and errors.
std::ifstream open_text_file(const std::filesystem::path& path, const std::string& label);

}  // namespace cardgames
