#include "cardgames/models/model_store.hpp"

#include <system_error>

#include "cardgames/cards/error.hpp"
#include "cardgames/cards/text_file.hpp"

namespace cardgames::models {

std::shared_ptr<const Network> ModelStore::network(const std::filesystem::path& path,
                                                   const std::string& form,
                                                   const std::string& task) {
    const std::string where = "model file '" + path.string() + "'";
    std::error_code ec;
    const std::uintmax_t size = std::filesystem::file_size(path, ec);
    const auto mtime =
        ec ? std::filesystem::file_time_type{} : std::filesystem::last_write_time(path, ec);
    if (ec) {
        read_text_file(path, "model file");  // says what the path is instead of a file, if it can
        throw InputError(where + ": cannot open the file (" + ec.message() + ")");
    }

    const std::lock_guard<std::mutex> lock(mutex_);
    Entry& e = entries_[std::filesystem::absolute(path).lexically_normal().string()];
    if (!e.network || e.size != size || e.mtime != mtime) {
        const std::string bytes = read_text_file(path, "model file");
        ++reads_;
        const std::uint64_t hash = fnv1a64(bytes);
        if (!e.network || hash != e.hash) {
            // Made before the entry changes: a bad file leaves the entry as it was.
            auto net = std::make_shared<const Network>(parse_model_file(bytes, where));
            e.network = std::move(net);
            e.hash = hash;
        }
        e.size = size;
        e.mtime = mtime;
    }
    e.network->check(form, task);
    return e.network;
}

long ModelStore::reads() const {
    const std::lock_guard<std::mutex> lock(mutex_);
    return reads_;
}

}  // namespace cardgames::models
