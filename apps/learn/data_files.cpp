#include "apps/learn/data_files.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <system_error>

#include "apps/experiments/results_file.hpp"
#include "cardgames/cards/error.hpp"
#include "cardgames/cards/json_input.hpp"

namespace apps {

nlohmann::json SelfPlayPlan::options(const nlohmann::json& features) const {
    return {{"rules", cardgames::form_name(rules)},
            {"players", specs},
            {"hands", hands},
            {"seed", seed},
            {"features", features}};
}

double rounded_for_file(double x) {
    return std::round(x * 1e4) / 1e4;
}

DataFileSource read_data_file(
    const std::string& path, const std::string& command, const std::string& header_command,
    const std::function<nlohmann::json(const std::string& form)>& features_of, std::string& form,
    const std::function<void(const nlohmann::json&, int)>& on_line) {
    using cardgames::JsonField;
    std::uint64_t seed = 0;
    int players = 0;
    std::string specs;
    auto header_check = [&](const nlohmann::json& header) {
        const JsonField options = JsonField(header, "header")["options"];
        const std::string rules = options["rules"].string();
        if (options["features"].json() != features_of(rules))
            options["features"].fail("not this program's features; regenerate the data");
        if (!form.empty() && rules != form)
            options["rules"].fail("'" + rules + "' data beside '" + form + "' data");
        form = rules;
        seed = options["seed"].unsigned_integer();
        const JsonField list = options["players"];
        players = static_cast<int>(list.array(1, cardgames::kMaxPlayers));
        for (int i = 0; i < players; ++i) specs += (i ? "," : "") + list[i].string();
    };
    long hands = 0;
    std::uint64_t fingerprint = 0;
    read_results(
        path, header_command, header_check,
        [&](const nlohmann::json& line) {
            on_line(line, players);
            ++hands;
        },
        &fingerprint);
    return {fmt::format("{} (seed {}, {} hands, fnv1a {:016x})", path, seed, hands, fingerprint),
            fmt::format("cardgames {} --preset {} --players \"{}\" --hands {} --seed {} --out {}",
                        command, form, specs, hands, seed, path),
            hands, seed};
}

void require_fit_files(const std::vector<std::string>& data, const std::string& out,
                       const std::string& data_command) {
    using cardgames::InputError;
    if (data.empty()) throw InputError("--data is required: a `" + data_command + "` file");
    if (out.empty()) throw InputError("--out is required: the model file to write");
}

void check_model_out(const std::string& out, const std::vector<std::string>& inputs) {
    namespace fs = std::filesystem;
    using cardgames::InputError;
    check_file_path(out, "--out");
    const fs::path folder =
        fs::path(out).parent_path().empty() ? fs::path(".") : fs::path(out).parent_path();
    std::error_code ec;
    if (!fs::is_directory(folder, ec))
        throw InputError("--out '" + out + "': the folder '" + folder.string() + "' " +
                         (fs::exists(folder, ec) ? "is not a folder" : "does not exist") +
                         "; create it or choose another file");
    // A model file is written beside its path and renamed over it (write_model_file): that
    // takes the folder's write permission.
    if (::access(folder.c_str(), W_OK | X_OK) != 0)
        throw InputError("--out '" + out + "': cannot write in the folder '" + folder.string() +
                         "' (" + std::strerror(errno) + ")");
    for (const std::string& in : inputs)
        if (fs::equivalent(out, in, ec))
            throw InputError("--out '" + out + "': the same file as the input '" + in +
                             "'; the model would replace its own data, choose another file");
}

std::vector<std::pair<std::string, std::string>> model_metadata(
    const std::string& form, const std::string& made_by,
    const std::vector<DataFileSource>& sources) {
    std::string seeds;
    for (const DataFileSource& s : sources)
        seeds += (seeds.empty() ? "" : " ") + std::to_string(s.seed);
    std::vector<std::pair<std::string, std::string>> meta = {
        {"form", form}, {"command", made_by}, {"seeds", seeds}};
    for (std::size_t i = 0; i < sources.size(); ++i) {
        const std::string suffix = i ? std::to_string(i + 1) : std::string();
        meta.emplace_back("data" + suffix, sources[i].file);
        meta.emplace_back("data_command" + suffix, sources[i].command);
    }
    return meta;
}

}  // namespace apps
