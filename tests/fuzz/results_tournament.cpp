// A tournament results file (header line, then one game or hand per line), read as
// `tournament --report` and `--resume` read it: every line checked, the plan's rules from the
// header, the summary table built.
#include "apps/results_file.hpp"
#include "apps/stats.hpp"
#include "cardgames/error.hpp"
#include "cardgames/record.hpp"
#include "tests/fuzz/results_file.hpp"

using namespace cardgames;
using nlohmann::json;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    try {
        const apps::ResultsContents c = apps::read_results(fuzz::results_path(data, size), "tournament", [](const json& line) {
            if (line.value("type", "") != "game") throw InputError("not a game result (field \"type\")");
            apps::game_result_from_json(line);
        });
        const json& o = c.header["options"];
        const Rules rules = rules_from_json(o.value("rules", json()));
        std::vector<apps::GameResult> results;
        for (const json& line : c.results) results.push_back(apps::game_result_from_json(line));
        const int rotations = o.value("duplicate", false) ? (rules.is_partnership() ? 2 : rules.players) : 1;
        apps::format_summary(apps::summarize(results, rotations), rules.game == GameKind::kHearts);
    } catch (const InputError&) {
    }
    return 0;
}
