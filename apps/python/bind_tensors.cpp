// The tensors (cardgames/encoding/tensors.hpp) for Python: Rules' layouts, State's observation and
// information-state tensors and its legal-action mask, as numpy arrays.
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "apps/python/bindings.hpp"
#include "cardgames/encoding/tensors.hpp"

namespace py = pybind11;
using namespace cardgames;
using namespace cardgames::encoding;

namespace pycards {

namespace {

py::dict layout_dict(const std::vector<Slice>& layout) {
    py::dict d;
    for (const Slice& s : layout) d[py::str(s.name)] = py::slice(s.start, s.start + s.size(), 1);
    return d;
}

py::dict shape_dict(const std::vector<Slice>& layout) {
    py::dict d;
    for (const Slice& s : layout) d[py::str(s.name)] = py::tuple(py::cast(s.shape));
    return d;
}

py::array_t<float> tensor(const GameState& s, int seat, bool info) {
    checked_seat(s, seat);
    const auto layout = info ? information_state_layout(s.rules()) : observation_layout(s.rules());
    py::array_t<float> out(layout_size(layout));
    float* p = out.mutable_data();
    std::fill(p, p + out.size(), 0.0f);
    if (info)
        information_state_tensor(s, seat, p);
    else
        observation_tensor(s, seat, p);
    return out;
}

}  // namespace

void bind_tensors(py::class_<PyRules>& rules, py::class_<GameState>& state) {
    rules
        .def_property_readonly("observation_shape",
                               [](const PyRules& r) {
                                   return py::make_tuple(layout_size(observation_layout(r.rules)));
                               })
        .def_property_readonly(
            "information_state_shape",
            [](const PyRules& r) {
                return py::make_tuple(layout_size(information_state_layout(r.rules)));
            })
        .def_property_readonly(
            "observation_layout",
            [](const PyRules& r) { return layout_dict(observation_layout(r.rules)); })
        .def_property_readonly(
            "information_state_layout",
            [](const PyRules& r) { return layout_dict(information_state_layout(r.rules)); })
        .def_property_readonly("slice_shapes", [](const PyRules& r) {
            return shape_dict(information_state_layout(r.rules));
        });
    state
        .def("legal_actions_mask",
             [](py::handle self) {
                 const GameState& s = live<GameState>(self, "State");
                 py::array_t<std::int8_t> mask(kNumActions);
                 std::int8_t* p = mask.mutable_data();
                 std::fill(p, p + kNumActions, 0);
                 for (int a : s.legal_actions()) p[a] = 1;
                 return mask;
             })
        .def(
            "observation_tensor",
            [](py::handle self, int seat) {
                const GameState& s = live<GameState>(self, "State");
                return tensor(s, seat, false);
            },
            py::arg("seat"))
        .def(
            "information_state_tensor",
            [](py::handle self, int seat) {
                const GameState& s = live<GameState>(self, "State");
                return tensor(s, seat, true);
            },
            py::arg("seat"));
}

}  // namespace pycards
