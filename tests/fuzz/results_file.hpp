#pragma once
// The results readers take a path: each case's input goes to one temporary file per process,
// removed at exit. read_with_changes reads the input, then the input with one value of one line
// changed into another that parses, to reach the checks of a line against the rules, its input
// and its own values.
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

#include "cardgames/cards/error.hpp"
#include "cardgames/cards/json_input.hpp"
#include "tests/fuzz/fuzz_target.hpp"
#include "tests/fuzz/mutate.hpp"

namespace fuzz {

class TempFile {
  public:
    TempFile() {
        const char* dir = std::getenv("TMPDIR");
        path_ = std::string(dir && *dir ? dir : "/tmp") + "/cardgames-fuzz-XXXXXX";
        const int fd = ::mkstemp(path_.data());
        if (fd < 0) std::abort();
        ::close(fd);
    }
    ~TempFile() { std::remove(path_.c_str()); }
    const std::string& write(const std::string& text) const {
        std::ofstream(path_, std::ios::binary | std::ios::trunc)
            .write(text.data(), static_cast<std::streamsize>(text.size()));
        return path_;
    }

  private:
    std::string path_;
};

inline const std::string& results_path(const std::string& text) {
    static const TempFile file;
    return file.write(text);
}

// `read(path)` on the input, then on two variants of it, each with one value of one of its
// lines changed (fuzz::change_one_value). A refusal (InputError) is a fine answer; a crash is not.
template <class Read>
void read_with_changes(const std::uint8_t* data, std::size_t size, const Read& read) {
    const std::string input = text(data, size);
    const auto attempt = [&](const std::string& contents) {
        try {
            read(results_path(contents));
        } catch (const cardgames::InputError&) {
        }
    };
    attempt(input);
    const std::vector<std::string> all = lines(input);
    if (all.empty()) return;
    const std::uint64_t hash = input_hash(input);
    for (std::uint64_t k = 0; k < 2; ++k) {
        const std::uint64_t r = draw(hash, k);
        const std::size_t which = (r >> 32) % all.size();
        nlohmann::json doc;
        try {
            doc = cardgames::parse_json_line(all[which]);
        } catch (const cardgames::InputError&) {
            continue;
        }
        if (!change_one_value(doc, r)) continue;
        std::string changed;
        for (std::size_t i = 0; i < all.size(); ++i)
            changed += (i == which ? doc.dump() : all[i]) + "\n";
        attempt(changed);
    }
}

}  // namespace fuzz
