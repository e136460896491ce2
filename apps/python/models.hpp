#pragma once
// The models library for Python: load_network, Network.evaluate and card_features.
#include <pybind11/pybind11.h>

namespace pycards {

void bind_models(pybind11::module_& m);

}  // namespace pycards
