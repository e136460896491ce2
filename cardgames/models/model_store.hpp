#pragma once
// The models a caller uses, each read from its file once and shared read-only by whoever asks for
// it again. The caller owns the store and passes it down; there is no global cache. Each request
// looks at the file's size and modification time, and a file that changed is read again (a
// rewrite with the same bytes keeps the model already made), so a rewritten file is never served
// stale. Thread-safe.

#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "cardgames/models/network.hpp"

namespace cardgames::models {

class ModelStore {
  public:
    // The network in `path`, checked to be made for `form` and `task` (empty: any); an InputError
    // naming the file and the field for a bad or mismatched file.
    std::shared_ptr<const Network> network(const std::filesystem::path& path,
                                           const std::string& form = "",
                                           const std::string& task = "");
    // How many times a file's bytes were read: what the tests check "once" and "again" with.
    long reads() const;

  private:
    struct Entry {
        std::uintmax_t size = 0;
        std::filesystem::file_time_type mtime{};
        std::uint64_t hash = 0;  // of the whole file
        std::shared_ptr<const Network> network;
    };
    mutable std::mutex mutex_;
    std::map<std::string, Entry> entries_;
    long reads_ = 0;
};

}  // namespace cardgames::models
