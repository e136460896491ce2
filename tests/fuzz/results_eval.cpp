// An eval results file (header line, then one decision per line), read as `eval --report` and
// `--resume` read it: every line checked against the header's options, the summary table built.
#include "apps/experiments/eval_results.hpp"
#include "cardgames/cards/error.hpp"
#include "tests/fuzz/results_file.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    try {
        apps::eval_report(fuzz::results_path(data, size));
    } catch (const cardgames::InputError&) {
    }
    return 0;
}
