#pragma once
// What the fuzz targets share: the input as text, split into lines, and a property check that
// ends the case as a crash (so both engines save the input) when the code under test lies.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

namespace fuzz {

inline std::string text(const std::uint8_t* data, std::size_t size) {
    return std::string(reinterpret_cast<const char*>(data), size);
}

// Lines as std::getline reads them from a file or a pipe (the last one may lack its newline).
inline std::vector<std::string> lines(const std::string& text) {
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) out.push_back(line);
    return out;
}

inline void require(bool ok, const char* what) {
    if (ok) return;
    std::fprintf(stderr, "fuzz property violated: %s\n", what);
    std::abort();
}

}  // namespace fuzz
