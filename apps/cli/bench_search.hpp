#pragma once
// cardgames bench (search): searches the fixed bench positions (data/bench/*.txt) on one thread
// with every algorithm, prints expansions, nodes/s and the reduction against plain max^n per group
// of positions, and last `bench signature: N`. Also the DDS comparison (--dds-compare), built only
// when CMake found libdds.

#include <string>

#include "apps/cli/common.hpp"

namespace apps {

inline constexpr int kMaxDdsDeals = 1'000'000;  // --dds-compare
inline constexpr int kMaxDdsRepeat = 1000;      // --dds-repeat

struct BenchSearchOptions {
    std::string positions;   // file or directory; empty = data/bench
    std::string algorithms;  // comma-separated configuration names; empty = all
    std::string format = "text";
    bool per_position = false;
    int dds_compare = 0;  // > 0: compare this many deals with DDS instead of the bench
    int dds_tricks = 13;
    std::uint64_t dds_seed = 1;
    int dds_repeat = 1;  // solve each deal this many times with each solver; times are the fastest
};

void add_bench_search_options(po::options_description& desc, BenchSearchOptions& options);
int bench_search(const BenchSearchOptions& options);
// Defined in bench_dds.cpp: with libdds, compares our double-dummy solver with DDS; without, says
// so.
int bench_dds_compare(const BenchSearchOptions& options);

}  // namespace apps
