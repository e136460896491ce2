// cardgames solve: the exact (or depth-limited) value of a position and of every legal card. The
// request, the search and the answer are the library's (cardgames/solve/solve.hpp); this file
// reads the command line and prints.
#include "cardgames/solve/solve.hpp"

#include <iostream>
#include <optional>

#include "apps/cli/common.hpp"
#include "cardgames/cards/error.hpp"

namespace apps {

using namespace cardgames;

namespace {

// The command line, read and checked; none for --help.
std::optional<SolveRequest> read_request(int argc, char** argv, std::string& format) {
    RulesOptions ro;
    SolveOptions o;
    std::string leader_text = "0", bids_text;
    po::options_description desc("solve options");
    ro.add_to(desc);
    desc.add_options()("deal", po::value(&o.deal)->required(),
                       "the position: PBN 'N:...' or '<players>:...' (hands may be short)")(
        "leader", po::value(&leader_text),
        "seat on lead (0..n-1 or N/E/S/W; default 0, or the first-lead card's holder)")(
        "trick", po::value(&o.trick),
        "cards already on the table this trick, from the leader on ('QS 2S')")(
        "broken", po::value(&o.broken),
        "spades/hearts broken: true or false (default: true unless a full deal)")(
        "algorithm", po::value(&o.algorithm),
        "maxn, shallow, bnb, lastbranch, speculative, paranoid, alphabeta, dd (default: dd "
        "where it applies, "
        "else speculative)")("leaf-tables", po::bool_switch(&o.leaf_tables),
                             "prune with leaf-value (outcome) tables")(
        "no-tt", po::bool_switch(&o.no_tt), "no transposition table")(
        "utility", po::value(&o.utility), "tricks, score or margin (Spades), points (Hearts)")(
        "bids", po::value(&bids_text),
        "Spades score and margin utilities: one bid per seat, '3,4,nil,2' (bnil: blind nil)")(
        "depth", number(&o.depth, 0, kMaxTricks),
        "search this many tricks deep (cut-off evaluation beyond); 0 = to the end")(
        "nodes", number(&o.nodes), "stop after this many expansions (0 = no limit)")(
        "format", po::value(&format), "text or json");
    po::variables_map given;
    if (!parse_args("solve", argc, argv, desc, given)) return std::nullopt;
    if (format != "text" && format != "json")
        throw InputError("--format '" + format + "': expected text or json");
    const Rules rules = ro.resolve();
    if (given.count("leader")) o.leader = leader_text;
    if (given.count("bids")) o.bids = bids_text;
    return solve_request(rules, o);
}

}  // namespace

int cmd_solve(int argc, char** argv) {
    return guarded("solve", [&] {
        std::string format = "text";
        const std::optional<SolveRequest> request = read_request(argc, argv, format);
        if (!request) return 0;  // --help
        const Solution solution = solve(*request);
        if (format == "json")
            std::cout << solution_json(solution).dump() << "\n";
        else
            std::cout << solution_text(solution);
        return 0;
    });
}

}  // namespace apps
