// Expansions per second of each max^n-family algorithm on fixed synthetic trees.
// Run: build/engine/engine_bench [--benchmark_filter=speculative]

#include <benchmark/benchmark.h>

#include <string>

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

// What is measured: every algorithm on plain trees; max^n and speculative (with and without
// outcome tables) on scored ones. Named run/<name>, as --benchmark_filter matches them.
struct Case {
    const char* name;
    engine::Algorithm algorithm;
    bool tables;
    bool scored;
};
constexpr Case kCases[] = {
    {"maxn", engine::Algorithm::kMaxn, false, false},
    {"shallow", engine::Algorithm::kShallow, false, false},
    {"bnb", engine::Algorithm::kBnb, false, false},
    {"lastbranch", engine::Algorithm::kLastBranch, false, false},
    {"speculative", engine::Algorithm::kSpeculative, false, false},
    {"paranoid", engine::Algorithm::kParanoid, false, false},
    {"scored_maxn", engine::Algorithm::kMaxn, false, true},
    {"scored_speculative", engine::Algorithm::kSpeculative, false, true},
    {"scored_speculative_tables", engine::Algorithm::kSpeculative, true, true},
};

}  // namespace

int main(int argc, char** argv) {
    for (const Case& c : kCases)
        benchmark::RegisterBenchmark((std::string("run/") + c.name).c_str(), run, c.algorithm,
                                     c.tables, c.scored)
            ->Unit(benchmark::kMillisecond);
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
