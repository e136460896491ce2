#pragma once
// Runs f(0) .. f(n-1) on `threads` threads (0: one per core), each index exactly once, and returns
// when all are done. Results must go to per-index slots and be reduced by the caller in index
// order: that is what keeps a decision identical for any thread count.
//
// A plain std::thread pool rather than TBB: the system's oneTBB is not built with
// ThreadSanitizer, and TSan cannot follow TBB's hand-offs of tasks between threads (it reports
// TBB's own inlined code and every task's captures as races). With std::thread every hand-off is
// visible, so the parallel code is really checked under TSan. Thread start-up costs microseconds
// against decisions of milliseconds.

#include <algorithm>
#include <atomic>
#include <thread>
#include <vector>

namespace sampling {

template <class F>
void parallel_for_index(int n, int threads, F&& f) {
    if (threads <= 0) threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    threads = std::min(threads, n);
    if (threads <= 1) {
        for (int i = 0; i < n; ++i) f(i);
        return;
    }
    std::atomic<int> next{0};
    auto work = [&] {
        for (int i = next.fetch_add(1); i < n; i = next.fetch_add(1)) f(i);
    };
    std::vector<std::thread> pool;
    pool.reserve(static_cast<std::size_t>(threads - 1));
    for (int t = 1; t < threads; ++t) pool.emplace_back(work);
    work();
    for (std::thread& t : pool) t.join();
}

}  // namespace sampling
