// The models library for Python: load_network, Network.evaluate and card_features.
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <memory>
#include <string>
#include <vector>

#include "apps/python/bindings.hpp"
#include "cardgames/cards/error.hpp"
#include "cardgames/models/card_features.hpp"
#include "cardgames/models/network.hpp"

namespace py = pybind11;
using cardgames::InputError;
namespace models = cardgames::models;

namespace pycards {

namespace {

// A network read from its file, with one evaluator (Python calls it from one thread at a time).
class PyNetwork {
  public:
    explicit PyNetwork(const std::string& path)
        : net_(std::make_shared<models::Network>(models::read_model_file(path))),
          evaluator_(*net_) {}

    const models::Network& net() const { return *net_; }

    // rows of 0/1 features [N, inputs] -> outputs [N, outputs].
    py::array_t<float> evaluate(
        const py::array_t<float, py::array::c_style | py::array::forcecast>& x) {
        if (x.ndim() != 2 || x.shape(1) != net_->inputs())
            throw InputError("features: shape " + shape_text(x) + ", expected [N, " +
                             std::to_string(net_->inputs()) + "]");
        const auto rows = x.shape(0);
        py::array_t<float> out({rows, static_cast<py::ssize_t>(net_->outputs())});
        auto in = x.unchecked<2>();
        auto o = out.mutable_unchecked<2>();
        std::vector<int> active;
        for (py::ssize_t r = 0; r < rows; ++r) {
            active.clear();
            for (py::ssize_t c = 0; c < x.shape(1); ++c) {
                const float v = in(r, c);
                if (v == 1.0f)
                    active.push_back(static_cast<int>(c));
                else if (v != 0.0f)
                    throw InputError("features row " + std::to_string(r) + " column " +
                                     std::to_string(c) + ": " + std::to_string(v) +
                                     ", expected 0 or 1");
            }
            if (static_cast<int>(active.size()) > models::max_active_card_features(net_->players()))
                throw InputError("features row " + std::to_string(r) + ": " +
                                 std::to_string(active.size()) + " features on, at most " +
                                 std::to_string(models::max_active_card_features(net_->players())));
            evaluator_.refresh(active);
            const std::span<const float> y = evaluator_.evaluate();
            for (std::size_t k = 0; k < y.size(); ++k) o(r, static_cast<py::ssize_t>(k)) = y[k];
        }
        return out;
    }

  private:
    static std::string shape_text(const py::array& a) {
        std::string s = "[";
        for (py::ssize_t i = 0; i < a.ndim(); ++i)
            s += (i ? ", " : "") + std::to_string(a.shape(i));
        return s + "]";
    }
    std::shared_ptr<const models::Network> net_;
    models::Evaluator evaluator_;
};

}  // namespace

void bind_models(py::module_& m) {
    m.attr("CARD_FEATURE_SET") = models::kCardFeatureSet;
    m.attr("CARD_FEATURE_VERSION") = models::kCardFeatureVersion;
    m.def("card_feature_count", &models::card_feature_count, py::arg("players"),
          "How many card features a network for that many players reads: 52 + 108 * players.");
    m.def(
        "players_of_form",
        [](const std::string& form) { return models::players_of_form(form, "form"); },
        py::arg("form"),
        "The players at a table of a form name as model files give it ('hearts4' 4, "
        "'spades-partnership' 4); InputError for a name that is no form.");
    m.def("max_active_card_features", &models::max_active_card_features, py::arg("players"),
          "The most card features that are on at once at a table of that many players.");
    m.def(
        "card_features",
        [](const GameState& state, int seat) {
            models::ActiveFeatures f;
            models::card_features(state.info_state(seat), f);
            return std::vector<int>(f.index.begin(), f.index.begin() + f.count);
        },
        py::arg("state"), py::arg("seat"),
        "The card features that are on for the seat (docs/design/network-format.md), ascending.");
    py::class_<PyNetwork>(m, "Network",
                          "A network read from a model file, run by the engine's C++.")
        .def_property_readonly("form", [](const PyNetwork& n) { return n.net().form(); })
        .def_property_readonly("task", [](const PyNetwork& n) { return n.net().task(); })
        .def_property_readonly("inputs", [](const PyNetwork& n) { return n.net().inputs(); })
        .def_property_readonly("outputs", [](const PyNetwork& n) { return n.net().outputs(); })
        .def_property_readonly("accumulator_size",
                               [](const PyNetwork& n) { return n.net().accumulator_size(); })
        .def("evaluate", &PyNetwork::evaluate, py::arg("features"),
             "Outputs [N, outputs] of 0/1 card features [N, inputs], by the C++ forward pass.");
    m.def(
        "load_network",
        [](const std::string& path, const std::string& form, const std::string& task) {
            auto n = std::make_unique<PyNetwork>(path);
            n->net().check(form, task);
            return n;
        },
        py::arg("path"), py::arg("form") = "", py::arg("task") = "",
        "Reads a network file; a bad file, or one made for another form or task (when given), "
        "raises InputError (a ValueError) naming the file and the field.");
}

}  // namespace pycards
