#pragma once
// The results readers take a path: each case's input goes to one temporary file per process,
// removed at exit.
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

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
    const std::string& write(const std::uint8_t* data, std::size_t size) const {
        std::ofstream(path_, std::ios::binary | std::ios::trunc)
            .write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
        return path_;
    }

  private:
    std::string path_;
};

inline const std::string& results_path(const std::uint8_t* data, std::size_t size) {
    static const TempFile file;
    return file.write(data, size);
}

}  // namespace fuzz
