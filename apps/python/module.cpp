// The `cardgames._cardgames` extension: Rules, State, bots and the solver for Python, over the
// engine, cardgames and sampling libraries. A front end: it converts, forwards and returns; the
// game's decisions are the libraries'. Long C++ calls (a bot thinking, a solve) release the GIL.
// Each area is bound in its own bind_*.cpp file (bindings.hpp).
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <cstdint>

#include "apps/python/bindings.hpp"
#include "cardgames/cards/error.hpp"
#include "cardgames/encoding/actions.hpp"

namespace py = pybind11;

PYBIND11_MODULE(_cardgames, m) {
    m.doc() = "The cardgames engine (Spades and Hearts) for Python; see the package docstring.";
    py::register_exception<cardgames::InputError>(m, "InputError", PyExc_ValueError);
    py::register_exception<cardgames::encoding::IllegalAction>(m, "IllegalActionError",
                                                               PyExc_ValueError);
    pycards::bind_actions(m);
    auto rules = pycards::bind_rules(m);
    auto state = pycards::bind_state(m);
    pycards::bind_tensors(rules, state);
    pycards::bind_bots(m);
    pycards::bind_runs(m);
    pycards::bind_learn(m);
    pycards::bind_models(m);
    pycards::bind_solve(m);
    // pybind11 looks numpy's C API up once, in function-local statics whose initialisation imports
    // numpy and lets go of the GIL on the way: a second thread reaching them at the same time,
    // holding the GIL, would wait forever. Made here, on the importing thread, for every thread.
    py::array_t<float> floats(1);
    py::array_t<std::int8_t> bytes(1);
}
