// cardgames bench (search): fixed positions, every algorithm, one thread. The node counts are
// deterministic (no clock or thread influences a search), so the closing `bench signature: N` --
// total expansions of the default configuration (`cardgames solve`'s: speculative max^n with the
// transposition table, no leaf-value tables) over every position -- changes only when search
// behaviour changes, like Stockfish's bench.
//
// Position files: one position per line, '#' starts a comment line:
//   name | preset | utility | depth | leader | bids | deal
// depth is in tricks (0 = search to the end), bids is '-' or one bid per seat ('2,nil,3').
#include "apps/cli/bench_search.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>

#include "apps/cli/common.hpp"
#include "apps/cli/search_options.hpp"
#include "cardgames/cards/error.hpp"
#include "cardgames/cards/text.hpp"
#include "cardgames/cards/text_file.hpp"
#include "cardgames/rules/position.hpp"
#include "cardgames/search/trick_game.hpp"
#include "engine/search.hpp"

namespace apps {

using namespace cardgames;

namespace {

struct BenchPosition {
    std::string name;
    std::string preset;
    Utility utility = Utility::kTricks;
    int depth = 0;  // tricks; 0 = to the end
    int leader = 0;
    std::string bids_text;
    std::string deal_text;
    Rules rules;
    PlayState state;
    ScoreContext context;
    std::string where;  // file:line
};

// One configuration of the search, as the bench names it.
struct BenchConfig {
    std::string name;
    engine::Algorithm algorithm;
    bool tables = false;
    bool tt = false;
};

const std::vector<BenchConfig>& all_configs() {
    using A = engine::Algorithm;
    static const std::vector<BenchConfig> configs = {
        {"maxn", A::kMaxn},
        {"shallow", A::kShallow},
        {"shallow+lt", A::kShallow, true},
        {"bnb", A::kBnb},
        {"bnb+lt", A::kBnb, true},
        {"lastbranch", A::kLastBranch},
        {"lastbranch+lt", A::kLastBranch, true},
        {"speculative", A::kSpeculative},
        {"speculative+lt", A::kSpeculative, true},
        {"speculative+tt", A::kSpeculative, false, true},
        {"speculative+lt+tt", A::kSpeculative, true, true},
        {"paranoid", A::kParanoid},
        {"alphabeta", A::kAlphaBeta},
        {"alphabeta+tt", A::kAlphaBeta, false, true},
    };
    return configs;
}

bool two_sided_ok(const BenchPosition& p) {
    return p.rules.is_partnership() && p.utility == Utility::kTricks;
}

// Whether a configuration means something on a position: leaf-value tables only where the engine
// uses them (searches to the end), alphabeta only for two sides.
bool applies(const BenchConfig& c, const BenchPosition& p) {
    if (c.tables && p.depth != 0) return false;
    if (c.algorithm == engine::Algorithm::kAlphaBeta) return two_sided_ok(p);
    return true;
}

// The configuration whose expansions make the signature on this position.
bool is_signature(const BenchConfig& c) {
    return c.name == "speculative+tt";
}

std::string trim(const std::string& s) {
    const auto b = s.find_first_not_of(" \t\r");
    if (b == std::string::npos) return "";
    const auto e = s.find_last_not_of(" \t\r");
    return s.substr(b, e - b + 1);
}

BenchPosition parse_position_line(const std::string& line, const std::string& where) {
    std::vector<std::string> f;
    for (const std::string_view part : cardgames::split_list(line, '|'))
        f.push_back(trim(std::string(part)));
    if (f.size() != 7)
        throw InputError(
            where + ": expected 7 fields 'name | preset | utility | depth | leader | bids | deal'");
    BenchPosition p;
    p.where = where;
    p.name = f[0];
    p.preset = f[1];
    p.bids_text = f[5];
    p.deal_text = f[6];
    try {
        p.rules = load_rules(preset_path(p.preset), {});
        p.utility = parse_utility(f[2]);
        char* end = nullptr;
        const long d = std::strtol(f[3].c_str(), &end, 10);
        if (f[3].empty() || *end || d < 0)
            throw InputError("depth '" + f[3] + "': expected 0 (to the end) or more tricks");
        p.depth = static_cast<int>(d);
        p.leader = parse_seat(f[4], p.rules.players);
        const Deal deal = parse_deal(p.deal_text);
        p.state = position_from_deal(p.rules, deal, p.leader, {});
        if (p.utility == Utility::kScore) {
            if (p.bids_text == "-") throw InputError("the score utility needs bids");
            p.context.bids = parse_bid_list(p.bids_text, p.rules, "bids");
        }
        // Checks that the utility fits the game.
        TrickGame check(p.rules, p.state, p.utility, {}, p.context);
    } catch (const InputError& e) {
        rethrow_with_context(where, e);
    }
    return p;
}

std::vector<BenchPosition> load_positions(const std::string& spec) {
    const std::filesystem::path root =
        spec.empty() ? data_dir() / "bench" : std::filesystem::path(spec);
    std::vector<std::filesystem::path> files;
    if (std::filesystem::is_directory(root)) {
        for (const auto& e : std::filesystem::directory_iterator(root))
            if (e.is_regular_file() && e.path().extension() == ".txt") files.push_back(e.path());
        std::sort(files.begin(), files.end());
    } else {
        files.push_back(root);
    }
    std::vector<BenchPosition> out;
    for (const auto& file : files) {
        std::istringstream in(read_text_file(file, "--positions"));
        std::string line;
        int number = 0;
        while (std::getline(in, line)) {
            ++number;
            const std::string t = trim(line);
            if (t.empty() || t[0] == '#') continue;
            out.push_back(
                parse_position_line(t, file.filename().string() + ":" + std::to_string(number)));
        }
    }
    if (out.empty()) throw InputError("--positions: no position in '" + root.string() + "'");
    return out;
}

std::vector<BenchConfig> select_configs(const std::string& list) {
    if (list.empty()) return all_configs();
    std::vector<BenchConfig> out;
    for (const std::string_view item : cardgames::split_list(list)) {
        const std::string w = trim(std::string(item));
        const auto it = std::find_if(all_configs().begin(), all_configs().end(),
                                     [&](const BenchConfig& c) { return c.name == w; });
        if (it == all_configs().end()) {
            std::string known;
            for (const auto& c : all_configs()) known += (known.empty() ? "" : ", ") + c.name;
            throw InputError("--algorithms: '" + w + "' is not one of " + known);
        }
        out.push_back(*it);
    }
    return out;
}

struct Run {
    std::uint64_t expansions = 0;
    std::uint64_t nodes = 0;
    double seconds = 0;
    engine::Tuple value{};
    engine::Utility score = 0;
    Card best{};
    bool ran = false;
    engine::SearchStats stats;
};

Run run_one(const BenchPosition& p, const BenchConfig& c) {
    engine::SearchOptions o;
    o.algorithm = c.algorithm;
    o.outcome_tables = c.tables;
    o.tt_entries = c.tt ? std::size_t{1} << 20 : 0;
    o.depth_limit = p.depth > 0 ? p.depth : engine::kNoDepthLimit;
    TrickGame game(p.rules, p.state, p.utility, {}, p.context);
    engine::Searcher<TrickGame> searcher(o);
    const auto start = std::chrono::steady_clock::now();
    const auto r = searcher.search(game);
    Run run;
    run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    run.expansions = r.stats.expansions;
    run.nodes = r.stats.nodes;
    run.value = r.value;
    run.score = r.score;
    run.best = r.best_move;
    run.stats = r.stats;
    run.ran = true;
    return run;
}

// Positions are grouped by preset, utility and whether they are searched to the end.
std::string group_of(const BenchPosition& p) {
    return fmt::format("{} {} {}", p.preset, utility_name(p.utility),
                       p.depth == 0 ? "exact" : "depth-limited");
}

std::string group_title(const BenchPosition& p, int count, int min_left, int max_left,
                        int min_depth, int max_depth) {
    std::string range =
        min_left == max_left ? std::to_string(min_left) : fmt::format("{}-{}", min_left, max_left);
    std::string how = p.depth == 0 ? "searched to the end"
                                   : (min_depth == max_depth
                                          ? fmt::format("{} tricks deep", min_depth)
                                          : fmt::format("{}-{} tricks deep", min_depth, max_depth));
    return fmt::format("{}, utility {}, {} tricks left, {}: {} position{}", p.preset,
                       utility_name(p.utility), range, how, count, count == 1 ? "" : "s");
}

double reduction(std::uint64_t reference, std::uint64_t expansions) {
    return expansions == 0 ? 0.0 : static_cast<double>(reference) / static_cast<double>(expansions);
}

// The positions of one group (same preset, utility and search to the end or not), and every
// applicable configuration's run on each: runs[position][config].
struct Group {
    std::string name;
    std::vector<std::size_t> members;  // indexes into the positions
    std::vector<std::vector<Run>> runs;
};

// Groups in order of first appearance.
std::vector<Group> group_positions(const std::vector<BenchPosition>& positions) {
    std::vector<Group> groups;
    for (std::size_t i = 0; i < positions.size(); ++i) {
        const std::string name = group_of(positions[i]);
        auto it = std::find_if(groups.begin(), groups.end(),
                               [&](const Group& g) { return g.name == name; });
        if (it == groups.end()) it = groups.insert(groups.end(), Group{name, {}, {}});
        it->members.push_back(i);
    }
    return groups;
}

std::vector<std::vector<Run>> search_group(const Group& group,
                                           const std::vector<BenchPosition>& positions,
                                           const std::vector<BenchConfig>& configs) {
    std::vector<std::vector<Run>> runs(group.members.size(), std::vector<Run>(configs.size()));
    for (std::size_t k = 0; k < group.members.size(); ++k) {
        const BenchPosition& p = positions[group.members[k]];
        for (std::size_t c = 0; c < configs.size(); ++c)
            if (applies(configs[c], p)) runs[k][c] = run_one(p, configs[c]);
    }
    return runs;
}

// Every max^n variant must give plain max^n's tuple and move; alphabeta its side sum. Names each
// disagreement on stderr and returns how many there were.
int count_mismatches(const Group& group, const std::vector<BenchPosition>& positions,
                     const std::vector<BenchConfig>& configs) {
    int mismatches = 0;
    for (std::size_t k = 0; k < group.members.size(); ++k) {
        const BenchPosition& p = positions[group.members[k]];
        const Run* reference = nullptr;
        for (std::size_t c = 0; c < configs.size(); ++c) {
            const Run& run = group.runs[k][c];
            if (!run.ran) continue;
            if (configs[c].algorithm == engine::Algorithm::kMaxn) reference = &run;
            if (!reference || configs[c].algorithm == engine::Algorithm::kParanoid) continue;
            const bool two = configs[c].algorithm == engine::Algorithm::kAlphaBeta;
            const bool same = two ? run.score == reference->value[0] + reference->value[2] &&
                                        run.best == reference->best
                                  : run.value == reference->value && run.best == reference->best;
            if (!same) {
                ++mismatches;
                std::cerr << fmt::format("bench: {} ({}): {} disagrees with maxn\n", p.name,
                                         p.where, configs[c].name);
            }
        }
    }
    return mismatches;
}

// The signature's share of a group: expansions of the default configuration, if it ran.
std::optional<std::uint64_t> signature_part(const Group& group,
                                            const std::vector<BenchConfig>& configs) {
    std::optional<std::uint64_t> part;
    for (const auto& row : group.runs)
        for (std::size_t c = 0; c < configs.size(); ++c)
            if (row[c].ran && is_signature(configs[c])) part = part.value_or(0) + row[c].expansions;
    return part;
}

// JSON: one line per position and configuration.
void print_runs_json(const Group& group, const std::vector<BenchPosition>& positions,
                     const std::vector<BenchConfig>& configs) {
    for (std::size_t k = 0; k < group.members.size(); ++k) {
        const BenchPosition& p = positions[group.members[k]];
        for (std::size_t c = 0; c < configs.size(); ++c) {
            const Run& run = group.runs[k][c];
            if (!run.ran) continue;
            nlohmann::json j;
            j["position"] = p.name;
            j["group"] = group.name;
            j["config"] = configs[c].name;
            j["depth"] = p.depth;
            j["expansions"] = run.expansions;
            j["nodes"] = run.nodes;
            j["ms"] = run.seconds * 1000.0;
            j["best"] = to_string(run.best);
            j["re_searches"] = run.stats.re_searches;
            j["shallow_prunes"] = run.stats.shallow_prunes;
            j["sequence_prunes"] = run.stats.sequence_prunes;
            j["immediate_prunes"] = run.stats.immediate_prunes;
            j["outcome_prunes"] = run.stats.outcome_prunes;
            j["tt_hits"] = run.stats.tt_hits;
            std::cout << j.dump() << "\n";
        }
    }
}

// A configuration's totals over the positions of a group.
Run group_total(const Group& group, std::size_t c) {
    Run t;
    for (const auto& row : group.runs) {
        if (!row[c].ran) continue;
        t.ran = true;
        t.expansions += row[c].expansions;
        t.nodes += row[c].nodes;
        t.seconds += row[c].seconds;
    }
    return t;
}

// The group's table: totals over its positions, reduction = maxn expansions / expansions.
void print_group(const Group& group, const std::vector<BenchPosition>& positions,
                 const std::vector<BenchConfig>& configs, bool json, bool per_position) {
    int min_left = 99, max_left = 0, min_depth = 99, max_depth = 0;
    for (std::size_t i : group.members) {
        const int left = positions[i].state.hands[positions[i].leader].size();
        min_left = std::min(min_left, left);
        max_left = std::max(max_left, left);
        min_depth = std::min(min_depth, positions[i].depth);
        max_depth = std::max(max_depth, positions[i].depth);
    }
    std::optional<std::size_t> maxn_index;
    for (std::size_t c = 0; c < configs.size(); ++c)
        if (configs[c].algorithm == engine::Algorithm::kMaxn) maxn_index = c;
    const Run reference = maxn_index ? group_total(group, *maxn_index) : Run{};
    if (!json) {
        std::cout << group_title(positions[group.members.front()],
                                 static_cast<int>(group.members.size()), min_left, max_left,
                                 min_depth, max_depth)
                  << "\n";
        std::cout << fmt::format("  {:<20}{:>14}{:>14}{:>10}{:>12}{:>11}\n", "algorithm",
                                 "expansions", "nodes", "ms", "knodes/s", "reduction");
    }
    for (std::size_t c = 0; c < configs.size(); ++c) {
        const Run t = group_total(group, c);
        if (!t.ran) continue;
        const double rate = t.seconds > 0 ? static_cast<double>(t.nodes) / t.seconds / 1000.0 : 0.0;
        const double red = reference.ran ? reduction(reference.expansions, t.expansions) : 0.0;
        if (json) {
            nlohmann::json j;
            j["group"] = group.name;
            j["config"] = configs[c].name;
            j["positions"] = group.members.size();
            j["expansions"] = t.expansions;
            j["nodes"] = t.nodes;
            j["ms"] = t.seconds * 1000.0;
            if (reference.ran) {
                j["maxn_expansions"] = reference.expansions;
                j["reduction"] = red;
            }
            std::cout << j.dump() << "\n";
            continue;
        }
        std::cout << fmt::format("  {:<20}{:>14}{:>14}{:>10.0f}{:>12.0f}{:>11}\n", configs[c].name,
                                 t.expansions, t.nodes, t.seconds * 1000.0, rate,
                                 reference.ran ? fmt::format("{:.2f}", red) : std::string("-"));
        if (per_position)
            for (std::size_t k = 0; k < group.members.size(); ++k)
                if (group.runs[k][c].ran)
                    std::cout << fmt::format("      {:<18}{:>14}{:>14}{:>10.1f}\n",
                                             positions[group.members[k]].name,
                                             group.runs[k][c].expansions, group.runs[k][c].nodes,
                                             group.runs[k][c].seconds * 1000.0);
    }
    if (!json) std::cout << "\n";
}

void print_summary(std::optional<std::uint64_t> signature, int mismatches, bool json) {
    if (json) {
        nlohmann::json j;
        j["signature"] = signature.value_or(0);
        j["mismatches"] = mismatches;
        std::cout << j.dump() << "\n";
        return;
    }
    if (mismatches)
        std::cout << mismatches << " result(s) disagree with plain max^n (see stderr)\n";
    std::cout << "bench signature: "
              << (signature ? std::to_string(*signature)
                            : std::string("- (default configuration not run)"))
              << "\n";
}

}  // namespace

void add_bench_search_options(po::options_description& desc, BenchSearchOptions& options) {
    desc.add_options()("positions", po::value(&options.positions),
                       "bench positions: a file or a directory of *.txt (default data/bench)")(
        "algorithms", po::value(&options.algorithms),
        "comma-separated configurations (default all): maxn, shallow, bnb, lastbranch, "
        "speculative, each with +lt "
        "(leaf-value tables), speculative+tt, speculative+lt+tt, paranoid, alphabeta, "
        "alphabeta+tt")("format", po::value(&options.format)->default_value("text"),
                        "text or json (JSON Lines)")(
        "per-position", po::bool_switch(&options.per_position),
        "text: also print one line per position and configuration")(
        "dds-compare", number(&options.dds_compare, 1, kMaxDdsDeals),
        "instead: solve N partnership deals with our double-dummy solver (--algorithms alphabeta: "
        "the generic "
        "search) and with DDS (needs libdds) and compare")(
        "dds-tricks", number(&options.dds_tricks, 1, 13)->default_value(13),
        "--dds-compare: tricks per hand (1-13)")("dds-seed",
                                                 seed_value(&options.dds_seed)->default_value(1),
                                                 "--dds-compare: seed of the deals")(
        "dds-repeat", number(&options.dds_repeat, 1, kMaxDdsRepeat)->default_value(1),
        "--dds-compare: solve each deal this many times with each solver, in turn, and keep the "
        "fastest time "
        "(on a noisy machine)");
}

int bench_search(const BenchSearchOptions& options) {
    if (options.format != "text" && options.format != "json")
        throw InputError("--format '" + options.format + "': expected text or json");
    if (options.dds_compare > 0) return bench_dds_compare(options);
    const std::vector<BenchPosition> positions = load_positions(options.positions);
    const std::vector<BenchConfig> configs = select_configs(options.algorithms);
    const bool json = options.format == "json";

    std::optional<std::uint64_t> signature;
    int mismatches = 0;
    for (Group& group : group_positions(positions)) {
        group.runs = search_group(group, positions, configs);
        if (const auto part = signature_part(group, configs))
            signature = signature.value_or(0) + *part;
        mismatches += count_mismatches(group, positions, configs);
        if (json) print_runs_json(group, positions, configs);
        print_group(group, positions, configs, json, options.per_position);
    }
    print_summary(signature, mismatches, json);
    return mismatches ? 1 : 0;
}

}  // namespace apps
