#include "apps/experiments/batch.hpp"

#include <oneapi/tbb/global_control.h>
#include <oneapi/tbb/info.h>
#include <oneapi/tbb/parallel_pipeline.h>
#include <oneapi/tbb/task_arena.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <exception>
#include <map>
#include <mutex>
#include <optional>
#include <system_error>
#include <thread>
#include <vector>

#include "cardgames/cards/error.hpp"

namespace apps {

namespace {

// Results per thread that may exist before they are written (batch.hpp): enough that a long item
// does not idle the other threads, few enough that a stop ends the run at once.
constexpr int kAheadPerThread = 4;

// An item as the farm hands it on: its line, or none when it was abandoned at an interrupt.
struct Finished {
    long index = 0;
    std::optional<std::string> line;
};

// From the farm's threads to the rank's main thread: finished items, then the farm's end (with
// the exception that ended it, if one did). It holds at most `capacity` items: the farm's last
// stage waits for the main thread to take them, so a writer that falls behind slows the farm
// instead of queueing its results. A stop request ends the wait, and the item is dropped.
class Mailbox {
  public:
    explicit Mailbox(std::size_t capacity) : capacity_(capacity) {}
    void push(Finished f, const std::stop_token& stop) {
        {
            std::unique_lock lock(mutex_);
            if (!room_.wait(lock, stop, [&] { return items_.size() < capacity_; })) return;
            items_.push_back(std::move(f));
        }
        ready_.notify_one();
    }
    void close(std::exception_ptr error) {
        {
            std::lock_guard lock(mutex_);
            closed_ = true;
            error_ = std::move(error);
        }
        ready_.notify_one();
    }
    // Waits up to `wait` for news; moves out what has arrived. True once the farm has ended and
    // everything it pushed was taken.
    bool take(std::chrono::milliseconds wait, std::deque<Finished>& into,
              std::exception_ptr& error) {
        std::unique_lock lock(mutex_);
        ready_.wait_for(lock, wait, [&] { return !items_.empty() || closed_; });
        into.swap(items_);
        items_.clear();
        const bool closed = closed_;  // read under the lock: a close after it comes with items
        if (closed) error = error_;
        lock.unlock();
        room_.notify_all();
        return closed;
    }

  private:
    std::size_t capacity_;
    std::mutex mutex_;
    std::condition_variable ready_;
    std::condition_variable_any room_;
    std::deque<Finished> items_;
    bool closed_ = false;
    std::exception_ptr error_;
};

// How far the farm may run ahead of the file: item i starts only when i < written + width, where
// `written` is what rank 0 has written (its own count, or the last one it sent this rank). So at
// most `width` results exist that are not in the file yet, on all ranks together: rank 0's map of
// early results stays that small, and a stop finds at most that many to write.
class Window {
  public:
    Window(long width, long written) : width_(width), written_(written) {}
    void written(long count) {
        {
            std::lock_guard lock(mutex_);
            if (count <= written_) return;
            written_ = count;
        }
        moved_.notify_all();
    }
    // Waits until item i may start; false when stopped first.
    bool wait_for(long i, const std::stop_token& stop) {
        std::unique_lock lock(mutex_);
        return moved_.wait(lock, stop, [&] { return i < written_ + width_; });
    }

  private:
    const long width_;
    std::mutex mutex_;
    std::condition_variable_any moved_;
    long written_;
};

// This rank's share of the items as a TBB pipeline: started in order as the window allows, run in
// parallel, handed to the mailbox in order. Several items in flight per thread, so a long game
// does not idle the rest.
void farm_items(long first, long total, long step, int threads, const std::stop_token& stop,
                const std::function<std::string(long, const std::stop_token&)>& produce,
                Window& window, Mailbox& mailbox) {
    long next = first;
    tbb::parallel_pipeline(
        static_cast<std::size_t>(kAheadPerThread * threads),
        tbb::make_filter<void, long>(tbb::filter_mode::serial_in_order,
                                     [&](tbb::flow_control& fc) -> long {
                                         if (next >= total || stop.stop_requested() ||
                                             !window.wait_for(next, stop)) {
                                             fc.stop();
                                             return 0;
                                         }
                                         const long i = next;
                                         next += step;
                                         return i;
                                     }) &
            tbb::make_filter<long, Finished>(tbb::filter_mode::parallel,
                                             [&](long i) {
                                                 try {
                                                     return Finished{i, produce(i, stop)};
                                                 } catch (const Interrupted&) {
                                                     return Finished{i, std::nullopt};
                                                 }
                                             }) &
            tbb::make_filter<Finished, void>(tbb::filter_mode::serial_in_order, [&](Finished f) {
                mailbox.push(std::move(f), stop);
            }));
}

// Runs the farm in an arena of `threads` TBB threads while the calling (main) thread stays free
// to write results and speak MPI. The farm's first thread is one of our own, holding the arena's
// master slot, and TBB adds threads - 1 workers: so the farm makes progress even when TBB can
// start no worker (a machine out of threads would otherwise wait forever for one), and a thread
// we cannot start is a RunError here, not a hang.
class Farm {
  public:
    Farm(long first, long total, long step, int threads, std::stop_source& stop, Window& window,
         const std::function<std::string(long, const std::stop_token&)>& produce)
        : stop_(stop),
          mailbox_(static_cast<std::size_t>(threads)),
          limit_(tbb::global_control::max_allowed_parallelism, static_cast<std::size_t>(threads)),
          arena_(threads, 1) {
        check_threads_available(threads);
        try {
            thread_ = std::thread([this, first, total, step, threads, &window, &produce] {
                try {
                    const std::stop_token token = stop_.get_token();
                    arena_.execute([&] {
                        farm_items(first, total, step, threads, token, produce, window, mailbox_);
                    });
                    mailbox_.close(nullptr);
                } catch (...) {
                    mailbox_.close(std::current_exception());
                }
            });
        } catch (const std::system_error& e) {
            throw RunError(std::string("could not start a thread for the run (") + e.what() +
                           "): the system's limit on threads or processes is reached");
        }
    }
    ~Farm() {
        if (!waited_) stop_.request_stop();  // the main thread failed: end the farm fast
        wait();
    }
    Farm(const Farm&) = delete;
    Farm& operator=(const Farm&) = delete;

    Mailbox& mailbox() { return mailbox_; }
    void wait() {
        if (waited_) return;
        waited_ = true;
        thread_.join();
    }

  private:
    std::stop_source& stop_;
    Mailbox mailbox_;
    tbb::global_control limit_;
    tbb::task_arena arena_;
    std::thread thread_;
    bool waited_ = false;
};

// Rank 0: results from its own farm and from the other ranks, written in item order.
class Collector {
  public:
    Collector(BatchOutput& out, const std::function<void(long, const std::string&)>& written,
              RunObserver& observer, Window& window, long first, const BatchOptions& options,
              std::string workers)
        : out_(out),
          written_(written),
          observer_(observer),
          window_(window),
          next_(first),
          workers_(workers) {
        observer_.started(options.total, first, options.unit, workers_);
    }

    void add(long index, std::string line) {
        const auto start = std::chrono::steady_clock::now();
        pending_.emplace(index, std::move(line));
        while (!pending_.empty() && pending_.begin()->first == next_) {
            out_.append(pending_.begin()->second);
            written_(next_, pending_.begin()->second);
            observer_.written(next_, pending_.begin()->second);
            pending_.erase(pending_.begin());
            ++next_;
        }
        window_.written(next_);
        busy_ += std::chrono::steady_clock::now() - start;
        ++handled_;
    }
    long next() const { return next_; }
    RunObserver& observer() { return observer_; }
    void finish() {
        observer_.finished(next_);
        if (handled_ == 0) return;
        const double seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
        spdlog::info(
            "rank 0 took in {} results in {:.2f} s ({:.2f} per second) on {}, {:.1f} us of its "
            "main thread each",
            handled_, seconds, static_cast<double>(handled_) / seconds, workers_,
            std::chrono::duration<double, std::micro>(busy_).count() /
                static_cast<double>(handled_));
    }

  private:
    BatchOutput& out_;
    const std::function<void(long, const std::string&)>& written_;
    RunObserver& observer_;
    Window& window_;
    long next_;
    std::string workers_;
    std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
    std::map<long, std::string> pending_;
    std::chrono::steady_clock::duration busy_{};
    long handled_ = 0;
};

constexpr int kOutcomeComplete = 0;

// Rank 0's main loop: write, tell the ranks to stop when asked to, until its farm and every other
// rank are done. Returns the outcome; `error` holds the first failure, here or on a rank.
int collect(const MpiSession& mpi, Farm& farm, Collector& collector, long total,
            std::stop_source& stop, std::exception_ptr& error) {
    int remaining = mpi.ranks() - 1;
    bool farm_done = false, stop_sent = false;
    long told = collector.next();  // the written count the other ranks know
    Outbox outbox;
    std::deque<Finished> finished;
    // Local results wake this loop at once; the other ranks' are polled for. Results come tens of
    // milliseconds apart at the least, and a rank sharing a machine cannot spare a core to spin.
    const auto wait = std::chrono::milliseconds(mpi.ranks() > 1 ? 10 : 100);
    auto fail = [&](std::exception_ptr e) {
        if (!error) error = std::move(e);
        stop.request_stop();
    };
    while (!farm_done || remaining > 0) {
        collector.observer().tick();
        std::exception_ptr farm_error;
        if (!farm_done) {
            farm_done = farm.mailbox().take(wait, finished, farm_error);
            if (farm_error) fail(farm_error);
        }
        for (Finished& f : finished) {
            // A stop noticed before each line: no item starts after it, so what is written after
            // the signal is at most the window's worth of items that had started before it.
            collector.observer().tick();
            if (f.line && !error) try {
                    collector.add(f.index, std::move(*f.line));
                } catch (...) {
                    fail(std::current_exception());
                }
        }
        finished.clear();
        while (const std::optional<Message> m = mpi.poll_message()) {
            if (m->tag == Tag::kResult && !error) try {
                    collector.add(m->number, m->text);
                } catch (...) {
                    fail(std::current_exception());
                }
            if (m->tag == Tag::kDone) --remaining;
            if (m->tag == Tag::kError) fail(error_from(*m));
        }
        if (collector.next() != told && !stop.stop_requested()) {
            told = collector.next();
            for (int r = 1; r < mpi.ranks(); ++r) outbox.send(r, Tag::kWritten, told, "");
        }
        if (stop.stop_requested() && !stop_sent) {
            for (int r = 1; r < mpi.ranks(); ++r) outbox.send(r, Tag::kStop, 0, "");
            stop_sent = true;
        }
        if (farm_done && remaining > 0) std::this_thread::sleep_for(wait);
    }
    collector.finish();
    const int outcome = error                       ? exit_status_of(error)
                        : collector.next() >= total ? kOutcomeComplete
                                                    : kExitInterrupted;
    for (int r = 1; r < mpi.ranks(); ++r) outbox.send(r, Tag::kOutcome, outcome, "");
    outbox.drain();
    return outcome;
}

// Another rank's main loop: forward finished lines to rank 0, obey its stop, say when done, and
// return the outcome rank 0 sends back. Waits by sleeping, not in a blocking MPI call, which
// would spin a core that the ranks still at work need.
int forward(const MpiSession& mpi, Farm& farm, Window& window, RunObserver& observer,
            std::stop_source& stop) {
    Outbox outbox;
    std::deque<Finished> finished;
    long sent = 0;
    for (bool done = false; !done;) {
        observer.tick();
        std::exception_ptr error;
        done = farm.mailbox().take(std::chrono::milliseconds(10), finished, error);
        for (Finished& f : finished)
            if (f.line) {
                outbox.send(0, Tag::kResult, f.index, *f.line);
                ++sent;
            }
        finished.clear();
        while (const std::optional<Message> m = mpi.poll_message()) {
            if (m->tag == Tag::kStop) stop.request_stop();
            if (m->tag == Tag::kWritten) window.written(static_cast<long>(m->number));
        }
        if (error) outbox.send(0, Tag::kError, exit_status_of(error), message_of(error));
        outbox.progress();
    }
    outbox.send(0, Tag::kDone, sent, "");
    outbox.drain();
    for (;;) {
        while (const std::optional<Message> m = mpi.poll_message())
            if (m->tag == Tag::kOutcome) return static_cast<int>(m->number);
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
}

}  // namespace

std::unique_ptr<ResultsFile> open_results(const MpiSession& mpi, const std::string& path,
                                          const nlohmann::json& header, bool resume,
                                          const std::function<void(const nlohmann::json&)>& check,
                                          const std::string& models) {
    std::exception_ptr failed;
    const int differs = mpi.first_rank_that_differs(header.dump());
    const int models_differ = differs > 0 ? -1 : mpi.first_rank_that_differs(models);
    std::unique_ptr<ResultsFile> out;
    try {
        // A rank whose inputs are not rank 0's: refused before a line is written.
        const auto refuse = [&path](int rank, const std::string& what, const std::string& why,
                                    const std::string& advice) {
            return cardgames::InputError("rank " + std::to_string(rank) + " " + what +
                                         " than rank 0 (" + why + "): refusing to write '" + path +
                                         "'" + advice);
        };
        if (differs > 0)
            throw refuse(differs, "worked out other results options",
                         "are its input files the same?", "");
        if (models_differ > 0)
            throw refuse(models_differ, "read other model files", "the same paths, other weights",
                         "; give every rank the same model files");
        if (mpi.rank() == 0) out = std::make_unique<ResultsFile>(path, header, resume, check);
    } catch (...) {
        failed = std::current_exception();
    }
    mpi.agree_on_setup(failed);
    return out;
}

bool run_batch(const MpiSession& mpi, const BatchOptions& options, BatchOutput* out,
               RunObserver& observer, std::stop_token stop,
               const std::function<std::string(long, const std::stop_token&)>& produce,
               const std::function<void(long, const std::string&)>& written) {
    // The run's own stop: the caller's request, an error here, or rank 0's word to the ranks.
    std::stop_source stop_run;
    const std::stop_callback forward_stop(stop, [&] { stop_run.request_stop(); });
    const long first = mpi.broadcast_from_root(mpi.rank() == 0 ? out->done() : 0);
    std::exception_ptr error;
    int outcome = kOutcomeComplete;
    {
        const int threads = std::max(1, options.threads);
        Window window(static_cast<long>(kAheadPerThread) * threads * mpi.ranks(), first);
        Farm farm(first + mpi.rank(), options.total, mpi.ranks(), threads, stop_run, window,
                  produce);
        if (mpi.rank() == 0) {
            Collector collector(*out, written, observer, window, first, options,
                                mpi.workers_text(options.threads));
            outcome = collect(mpi, farm, collector, options.total, stop_run, error);
        } else {
            outcome = forward(mpi, farm, window, observer, stop_run);
        }
        farm.wait();
    }
    if (mpi.rank() == 0 && error) std::rethrow_exception(error);
    if (outcome != kOutcomeComplete && outcome != kExitInterrupted) throw QuietExit{outcome};
    return outcome == kOutcomeComplete;
}

}  // namespace apps
