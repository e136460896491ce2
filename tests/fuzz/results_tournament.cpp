// A tournament results file (header line, then one game or hand per line), read as
// `tournament --report` and `--resume` read it: every line checked against the header's plan, the
// summary table built.
#include "apps/experiments/tournament_results.hpp"
#include "cardgames/cards/error.hpp"
#include "tests/fuzz/results_file.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    try {
        apps::tournament_report(fuzz::results_path(data, size));
    } catch (const cardgames::InputError&) {
    }
    return 0;
}
