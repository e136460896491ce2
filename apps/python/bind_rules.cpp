// The class Rules: a rule set from a preset and `--rule` overrides, as the command line builds it.
#include <pybind11/stl.h>

#include <string>
#include <vector>

#include "apps/python/bindings.hpp"
#include "cardgames/encoding/actions.hpp"
#include "cardgames/rules/rules.hpp"

namespace py = pybind11;
using namespace cardgames;

namespace pycards {

namespace {

// A Python value as the text of a `--rule key=value` override: booleans as true/false.
std::string override_text(const std::string& key, const py::handle& value) {
    std::string text;
    if (py::isinstance<py::bool_>(value))
        text = value.cast<bool>() ? "true" : "false";
    else
        text = py::str(value).cast<std::string>();
    return key + "=" + text;
}

}  // namespace

PyRules PyRules::make(const std::optional<std::string>& preset,
                      const std::optional<std::string>& game, const py::kwargs& overrides) {
    std::vector<std::string> texts;
    for (const auto& [k, v] : overrides) texts.push_back(override_text(py::str(k), v));
    return PyRules{resolve_rules(game, preset.value_or(""), texts)};
}

py::dict PyRules::to_dict() const {
    py::dict d;
    for (const auto& [k, v] : rules_to_pairs(rules)) d[py::str(k)] = v;
    return d;
}

PyRules PyRules::from_pairs(const py::dict& pairs) {
    std::string ini;
    for (const auto& [k, v] : pairs)
        ini += py::str(k).cast<std::string>() + " = " + py::str(v).cast<std::string>() + "\n";
    return PyRules{parse_rules(ini, "rules", {})};
}

py::class_<PyRules> bind_rules(py::module_& m) {
    py::class_<PyRules> rules(m, "Rules");
    rules
        .def(py::init(&PyRules::make), py::arg("preset") = py::none(), py::arg("game") = py::none())
        .def_property_readonly("players", [](const PyRules& r) { return r.rules.players; })
        .def_property_readonly("game", [](const PyRules& r) { return game_name(r.rules.game); })
        .def_property_readonly("cards_per_hand",
                               [](const PyRules& r) { return r.rules.cards_per_hand(); })
        .def_property_readonly("num_units", [](const PyRules& r) { return r.rules.num_units(); })
        .def_property_readonly("num_actions", [](const PyRules&) { return encoding::kNumActions; })
        .def("to_dict", &PyRules::to_dict)
        .def("__eq__",
             [](const PyRules& a, const PyRules& b) {
                 return rules_to_pairs(a.rules) == rules_to_pairs(b.rules);
             })
        .def("__repr__",
             [](const PyRules& r) {
                 std::string s = "Rules(game=" + game_name(r.rules.game);
                 for (const auto& [k, v] : rules_to_pairs(r.rules))
                     if (k != "game") s += ", " + k + "=" + v;
                 return s + ")";
             })
        // Pickling at every protocol, as State's (bind_state.cpp).
        .def("__reduce__",
             [](const PyRules& r) {
                 return py::make_tuple(py::module_::import("copyreg").attr("__newobj__"),
                                       py::make_tuple(py::type::of<PyRules>()), r.to_dict());
             })
        .def(py::pickle([](const PyRules& r) { return r.to_dict(); },
                        [](const py::dict& d) { return PyRules::from_pairs(d); }));
    return rules;
}

}  // namespace pycards
