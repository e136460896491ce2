// Expansions per second of each max^n-family algorithm on fixed synthetic trees.
// Run: build/engine/engine_bench [--benchmark_filter=speculative]

#include <benchmark/benchmark.h>

#include "engine/search.hpp"
#include "engine/synthetic.hpp"

namespace {

engine::SyntheticSpec bench_spec(bool scored) {
    return {.seed = 2003,
            .players = 4,
            .branching = 6,
            .depth = 8,
            .pool = scored ? 8 : 13,
            .alternate = false,
            .scored = scored};
}

void run(benchmark::State& state, engine::Algorithm algorithm, bool tables, bool scored) {
    engine::SyntheticGame game(bench_spec(scored));
    engine::SearchOptions options;
    options.algorithm = algorithm;
    options.outcome_tables = tables;
    engine::Searcher<engine::SyntheticGame> searcher(options);
    std::uint64_t expansions = 0;
    for (auto _ : state) {
        const auto result = searcher.search(game);
        expansions += result.stats.expansions;
        benchmark::DoNotOptimize(result.value);
        state.counters["nodes_per_search"] = static_cast<double>(result.stats.expansions);
    }
    state.counters["expansions_per_s"] =
        benchmark::Counter(static_cast<double>(expansions), benchmark::Counter::kIsRate);
}

}  // namespace

BENCHMARK_CAPTURE(run, maxn, engine::Algorithm::kMaxn, false, false)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(run, shallow, engine::Algorithm::kShallow, false, false)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(run, bnb, engine::Algorithm::kBnb, false, false)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(run, lastbranch, engine::Algorithm::kLastBranch, false, false)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(run, speculative, engine::Algorithm::kSpeculative, false, false)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(run, paranoid, engine::Algorithm::kParanoid, false, false)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(run, scored_maxn, engine::Algorithm::kMaxn, false, true)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(run, scored_speculative, engine::Algorithm::kSpeculative, false, true)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(run, scored_speculative_tables, engine::Algorithm::kSpeculative, true, true)
    ->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
