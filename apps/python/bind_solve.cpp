// solve(): the position solver of `cardgames solve` (cardgames/solve), its options as keyword
// arguments and its answer as the JSON `solve --json` prints, as Python values.
#include <pybind11/stl.h>

#include <optional>
#include <string>
#include <vector>

#include "apps/python/bindings.hpp"
#include "apps/python/convert.hpp"
#include "cardgames/cards/error.hpp"
#include "cardgames/solve/solve.hpp"

namespace py = pybind11;
using namespace cardgames;

namespace pycards {

namespace {

py::dict py_solve(const std::optional<std::string>& game, const std::optional<std::string>& preset,
                  const std::optional<std::vector<std::string>>& rules, const std::string& deal,
                  const std::optional<std::string>& leader, const std::string& trick,
                  const std::optional<bool>& broken, const std::string& algorithm, bool leaf_tables,
                  bool no_tt, const std::string& utility, const std::optional<std::string>& bids,
                  int depth, std::uint64_t nodes) {
    if (depth < 0 || depth > kMaxTricks)
        throw InputError("depth " + std::to_string(depth) + ": expected a whole number from 0 to " +
                         std::to_string(kMaxTricks));
    const Rules r =
        resolve_rules(game, preset.value_or(""), rules.value_or(std::vector<std::string>{}));
    SolveOptions o;
    o.deal = deal;
    o.leader = leader;
    o.trick = trick;
    o.broken = broken ? (*broken ? "true" : "false") : "";
    o.algorithm = algorithm;
    o.leaf_tables = leaf_tables;
    o.no_tt = no_tt;
    o.utility = utility;
    o.bids = bids;
    o.depth = depth;
    o.nodes = nodes;
    const SolveRequest request = solve_request(r, o);
    Solution sol;
    {
        py::gil_scoped_release release;
        sol = solve(request);
    }
    return to_python(solution_json(sol));
}

}  // namespace

void bind_solve(py::module_& m) {
    m.def("solve", &py_solve, py::kw_only(), py::arg("game") = py::none(),
          py::arg("preset") = py::none(), py::arg("rules") = py::none(), py::arg("deal"),
          py::arg("leader") = py::none(), py::arg("trick") = "", py::arg("broken") = py::none(),
          py::arg("algorithm") = "", py::arg("leaf_tables") = false, py::arg("no_tt") = false,
          py::arg("utility") = "", py::arg("bids") = py::none(), py::arg("depth") = 0,
          py::arg("nodes") = 0);
}

}  // namespace pycards
