// An eval results file (header line, then one decision per line), read as `eval --report` and
// `--resume` read it: every line checked, the policies from the header, the summary table built.
#include "apps/results_file.hpp"
#include "apps/stats.hpp"
#include "cardgames/error.hpp"
#include "tests/fuzz/results_file.hpp"

using cardgames::InputError;
using nlohmann::json;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    try {
        const apps::ResultsContents c = apps::read_results(fuzz::results_path(data, size), "eval", [](const json& line) {
            if (!line.contains("loss") || !line["loss"].is_array()) throw InputError("missing field \"loss\"");
        });
        const auto policies = c.header["options"].value("policies", std::vector<std::string>());
        std::vector<std::vector<double>> losses(policies.size());
        for (const json& line : c.results) {
            if (line["loss"].size() != policies.size()) throw InputError("field \"loss\" must hold one number per policy");
            for (std::size_t p = 0; p < policies.size(); ++p) {
                if (!line["loss"][p].is_number()) throw InputError("field \"loss\" must hold numbers");
                losses[p].push_back(line["loss"][p].get<double>());
            }
        }
        apps::format_policy_summary(apps::summarize_policies(policies, losses), "best bid");
    } catch (const InputError&) {
    }
    return 0;
}
