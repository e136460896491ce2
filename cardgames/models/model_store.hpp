#pragma once
// The models a caller uses, each read from its file once and shared read-only by whoever asks for
// it again: networks, and any other model a reader makes from a file's bytes (the linear models of
// sampling/). The caller owns the store and passes it down; there is no global cache.
//
// One staleness rule for every kind: each request looks at the file's status (device, inode, size,
// modification and change times), and a file whose status changed is read again; a rewrite with
// the same bytes keeps the model already made. A status is trusted only once the file's last
// change is `settle` older than the read that saw it: a file rewritten in place within one tick of
// the file system's clock keeps its status, so until then every request reads the bytes again and
// compares them. So a rewritten file is never served stale. Thread-safe.

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <typeindex>
#include <utility>

#include "cardgames/models/network.hpp"

namespace cardgames::models {

class ModelStore {
  public:
    // Longer than any local file system's timestamp tick (at most 10 ms on Linux).
    static constexpr std::chrono::milliseconds kSettle{1000};

    explicit ModelStore(std::chrono::milliseconds settle = kSettle) : settle_(settle) {}

    // The network in `path`, checked to be made for `form` and `task` (empty: any); an InputError
    // naming the file and the field for a bad or mismatched file.
    std::shared_ptr<const Network> network(const std::filesystem::path& path,
                                           const std::string& form = "",
                                           const std::string& task = "");

    // The model of type Model in `path`, made by `make(bytes)` (a std::shared_ptr<const Model>,
    // or an exception for a bad file, which leaves the store as it was). Models of different types
    // read from one file are kept apart. A file that cannot be read is an InputError
    // "<label> '<path>': ..." (read_text_file's).
    template <class Model, class Make>
    std::shared_ptr<const Model> get(const std::filesystem::path& path, const std::string& label,
                                     Make&& make) {
        return std::static_pointer_cast<const Model>(fetch(
            path, label, typeid(Model),
            [&](const std::string& bytes) -> std::shared_ptr<const void> { return make(bytes); }));
    }

    // How many times a file's bytes were read: what the tests check "once" and "again" with.
    long reads() const;

  private:
    // What stat() says of a file; equal statuses are taken for the same bytes once settled.
    struct Status {
        std::uint64_t device = 0, inode = 0, size = 0;
        std::int64_t mtime_ns = 0, ctime_ns = 0;
        bool operator==(const Status&) const = default;
    };
    struct Entry {
        Status status;
        bool settled = false;    // the status was seen `settle_` after the file's last change
        std::uint64_t hash = 0;  // of the whole file
        std::shared_ptr<const void> model;
    };
    using Maker = std::function<std::shared_ptr<const void>(const std::string& bytes)>;

    std::shared_ptr<const void> fetch(const std::filesystem::path& path, const std::string& label,
                                      std::type_index type, const Maker& make);

    std::chrono::milliseconds settle_;
    mutable std::mutex mutex_;
    std::map<std::pair<std::string, std::type_index>, Entry> entries_;
    long reads_ = 0;
};

}  // namespace cardgames::models
