#pragma once
// Farms the numbered units of one decision (the worlds of a pimc card, the play-outs that value
// candidate bids and passes) over oneTBB. Each index runs exactly once and writes only its own
// slot; the caller reduces the slots in index order, which keeps a decision identical for any
// thread count.
//
// threads == 0 joins the arena the caller already runs in: all cores at the top level, or the
// arena of a tournament or eval run when a bot plays inside one, so nested work shares that run's
// cores through work stealing and never oversubscribes them. threads == 1 is a plain loop.
// threads > 1 runs in an arena of exactly that many threads, made once for the bot (setting up
// an arena for every decision cost a third of the run in `cardgames bench --pimc`).

#include <oneapi/tbb/parallel_for.h>
#include <oneapi/tbb/task_arena.h>

#include <chrono>
#include <memory>

namespace sampling {

class DecisionArena {
  public:
    explicit DecisionArena(int threads)
        : threads_(threads),
          arena_(threads > 1 ? std::make_unique<tbb::task_arena>(threads) : nullptr) {}

    template <class F>
    void parallel_for_index(int n, F&& f) {
        if (threads_ == 1) {
            for (int i = 0; i < n; ++i) f(i);
            return;
        }
        // One task per unit: a unit is a whole world search or play-out (milliseconds), far above
        // a task's cost, and units differ in length, so they are dealt out one by one.
        auto farm = [&] {
            tbb::parallel_for(
                tbb::blocked_range<int>(0, n, 1),
                [&](const tbb::blocked_range<int>& r) {
                    for (int i = r.begin(); i != r.end(); ++i) f(i);
                },
                tbb::simple_partitioner());
        };
        if (arena_)
            arena_->execute(farm);
        else
            farm();
    }

  private:
    int threads_;
    std::unique_ptr<tbb::task_arena> arena_;
};

// A decision's wall-clock limit (pimc:ms; 0: none), from when it is made. Units check it before
// they start, so a decision overruns it by at most one unit per thread.
class Deadline {
  public:
    explicit Deadline(int ms)
        : ms_(ms), end_(std::chrono::steady_clock::now() + std::chrono::milliseconds(ms)) {}
    bool passed() const { return ms_ > 0 && std::chrono::steady_clock::now() > end_; }

  private:
    int ms_;
    std::chrono::steady_clock::time_point end_;
};

// The TBB thread that runs the calling task, for counting how many threads a farm used.
inline int current_thread_slot() {
    return tbb::this_task_arena::current_thread_index();
}

}  // namespace sampling
