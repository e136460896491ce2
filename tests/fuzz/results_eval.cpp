// An eval results file (header line, then one decision per line), read as `eval --report` and
// `--resume` read it: every line checked against the header's options and its own values, the
// summary table built; also with one value of a line changed (a value, a loss, a seat, a card),
// so that the checks of a line against its own values are reached.
#include "apps/experiments/eval_results.hpp"
#include "tests/fuzz/results_file.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    fuzz::read_with_changes(data, size, [](const std::string& path) { apps::eval_report(path); });
    return 0;
}
