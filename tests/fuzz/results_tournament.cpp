// A tournament results file (header line, then one game or hand per line), read as
// `tournament --report` and `--resume` read it: every line checked against the header's plan and
// its game replayed, the summary table built; also with one value of a line changed (a seat_win,
// a score, a card), so that the checks of a line against its replayed game are reached.
#include "apps/experiments/tournament_results.hpp"
#include "tests/fuzz/results_file.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    fuzz::read_with_changes(data, size,
                            [](const std::string& path) { apps::tournament_report(path); });
    return 0;
}
