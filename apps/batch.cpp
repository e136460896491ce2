#include "apps/batch.hpp"

#include <atomic>
#include <csignal>
#include <exception>
#include <map>
#include <mutex>
#include <thread>
#include <vector>

#include "apps/progress.hpp"

namespace apps {

namespace {

// The one piece of global state: a signal handler can only reach a global. Lock-free atomic, so
// reading it from the workers and writing it from the handler is safe.
std::atomic<bool> g_stop{false};
static_assert(std::atomic<bool>::is_always_lock_free);

extern "C" void on_signal(int sig) {
    g_stop.store(true);
    std::signal(sig, SIG_DFL);  // a second Ctrl-C kills at once
}

// Installs the handlers for the duration of a batch and restores the previous ones.
class SignalScope {
public:
    SignalScope() {
        g_stop.store(false);
        int_ = std::signal(SIGINT, on_signal);
        term_ = std::signal(SIGTERM, on_signal);
    }
    ~SignalScope() {
        std::signal(SIGINT, int_);
        std::signal(SIGTERM, term_);
    }
    SignalScope(const SignalScope&) = delete;
    SignalScope& operator=(const SignalScope&) = delete;

private:
    void (*int_)(int);
    void (*term_)(int);
};

}  // namespace

bool stop_requested() { return g_stop.load(std::memory_order_relaxed); }

bool run_batch(const BatchOptions& options, ResultsFile& out, const std::function<std::string(long)>& produce,
               const std::function<void(long, const std::string&)>& written) {
    SignalScope signals;
    const long first = out.done();
    Progress progress(options.total, first, options.unit, options.quiet);
    std::atomic<long> next{first};
    std::atomic<bool> failed{false};
    std::mutex mutex;  // guards pending, next_to_write, error, the file and the progress display
    std::map<long, std::string> pending;
    long next_to_write = first;
    std::exception_ptr error;

    auto work = [&] {
        for (;;) {
            if (stop_requested() || failed.load()) return;
            const long i = next.fetch_add(1);
            if (i >= options.total) return;
            std::string line = produce(i);
            std::lock_guard lock(mutex);
            pending.emplace(i, std::move(line));
            while (!pending.empty() && pending.begin()->first == next_to_write && !failed.load()) {
                out.append(pending.begin()->second);
                written(next_to_write, pending.begin()->second);
                pending.erase(pending.begin());
                ++next_to_write;
                progress.update(next_to_write);
                if (stop_requested()) return;  // finish the line in hand, write no more
            }
        }
    };
    // An exception may not leave a thread: the first one stops the batch and is rethrown below.
    auto worker = [&] {
        try {
            work();
        } catch (const Interrupted&) {
        } catch (...) {
            std::lock_guard lock(mutex);
            if (!error) error = std::current_exception();
            failed.store(true);
        }
    };
    const int threads = std::max(1, options.threads);
    // One long-lived loop per thread, each pulling the next item number, so items start in order.
    // Plain threads rather than TBB tasks: the system's oneTBB is not built with ThreadSanitizer,
    // which then cannot see a task's hand-over to its worker and reports races inside this loop;
    // with std::thread every hand-over is visible, so `make test-tsan` checks this code for real.
    std::vector<std::thread> pool;
    for (int t = 0; t < threads; ++t) pool.emplace_back(worker);
    for (std::thread& t : pool) t.join();
    progress.finish(next_to_write);
    if (error) std::rethrow_exception(error);
    return next_to_write >= options.total;
}

}  // namespace apps
