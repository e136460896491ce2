#include "cardgames/models/model_store.hpp"

#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <ctime>

#include "cardgames/cards/error.hpp"
#include "cardgames/cards/text_file.hpp"

namespace cardgames::models {

namespace {

std::int64_t nanoseconds(const timespec& t) {
    return static_cast<std::int64_t>(t.tv_sec) * 1'000'000'000 + t.tv_nsec;
}

}  // namespace

std::shared_ptr<const Network> ModelStore::network(const std::filesystem::path& path,
                                                   const std::string& form,
                                                   const std::string& task) {
    const std::string where = "model file '" + path.string() + "'";
    auto net = get<Network>(path, "model file", [&](const std::string& bytes) {
        return std::make_shared<const Network>(parse_model_file(bytes, where));
    });
    net->check(form, task);
    return net;
}

std::shared_ptr<const void> ModelStore::fetch(const std::filesystem::path& path,
                                              const std::string& label, std::type_index type,
                                              const Maker& make) {
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) {
        const int error = errno;
        read_text_file(path, label);  // says what the path is instead of a file, if it can
        throw InputError(label + " '" + path.string() + "': cannot open the file (" +
                         std::strerror(error) + ")");
    }
    const Status status{
        static_cast<std::uint64_t>(st.st_dev), static_cast<std::uint64_t>(st.st_ino),
        static_cast<std::uint64_t>(st.st_size), nanoseconds(st.st_mtim), nanoseconds(st.st_ctim)};

    const std::lock_guard<std::mutex> lock(mutex_);
    Entry& e = entries_[{std::filesystem::absolute(path).lexically_normal().string(), type}];
    if (e.model && e.settled && e.status == status) return e.model;

    timespec now{};
    ::clock_gettime(CLOCK_REALTIME, &now);
    const std::string bytes = read_text_file(path, label);
    ++reads_;
    const std::uint64_t hash = fnv1a64(bytes);
    if (!e.model || hash != e.hash) {
        // Made before the entry changes: a bad file leaves the entry as it was.
        std::shared_ptr<const void> model = make(bytes);
        e.model = std::move(model);
        e.hash = hash;
    }
    e.status = status;
    e.settled = nanoseconds(now) - status.ctime_ns >
                std::chrono::duration_cast<std::chrono::nanoseconds>(settle_).count();
    return e.model;
}

long ModelStore::reads() const {
    const std::lock_guard<std::mutex> lock(mutex_);
    return reads_;
}

}  // namespace cardgames::models
