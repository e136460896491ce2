#include "apps/experiments/run.hpp"

#include <oneapi/tbb/info.h>

#include <algorithm>
#include <latch>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

namespace apps {

int default_batch_threads(int ranks_on_this_machine) {
    return std::max(1, tbb::info::default_concurrency() / std::max(1, ranks_on_this_machine));
}

void check_threads_available(int count) {
    std::latch go(1);
    std::vector<std::thread> threads;
    std::string failure;
    for (int i = 0; i < count; ++i) try {
            threads.emplace_back([&go] { go.wait(); });
        } catch (const std::system_error& e) {
            failure = e.what();
            break;
        }
    go.count_down();
    for (std::thread& t : threads) t.join();
    if (!failure.empty())
        throw RunError("could start only " + std::to_string(threads.size()) + " of the " +
                       std::to_string(count) + " threads the run needs (" + failure +
                       "): the system's limit on threads or processes is reached; "
                       "try fewer --threads or raise the limit (ulimit -u)");
}

std::uint64_t fnv1a(std::string_view text) {
    std::uint64_t hash = 0xcbf29ce484222325ULL;
    for (unsigned char c : text) hash = (hash ^ c) * 0x100000001b3ULL;
    return hash;
}

}  // namespace apps
