#pragma once
// Tournaments and evaluations from Python: cardgames.tournament() and cardgames.evaluate() run the
// experiments library (apps/experiments/) with the command line's options as keyword arguments.
// A seat may be a bot spec or any Python object with act(observation) -> action; such a player is
// held by a C++ Player adaptor and called under the GIL, while the run itself goes with the GIL
// released, so that native bots on other threads keep running. Ctrl-C (KeyboardInterrupt) stops
// a run cleanly, leaving a file that resume=True continues.

#include <pybind11/pybind11.h>

namespace pycards {

// Adds _tournament, _evaluate and _read_results to the extension module.
void bind_runs(pybind11::module_& m);

}  // namespace pycards
