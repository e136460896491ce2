// The models library for Python: load_network, Network.evaluate and card_features.
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <memory>
#include <string>
#include <vector>

#include "apps/python/bindings.hpp"
#include "cardgames/cards/error.hpp"
#include "cardgames/models/card_features.hpp"
#include "cardgames/models/deal_features.hpp"
#include "cardgames/models/network.hpp"
#include "cardgames/search/trick_play.hpp"
#include "sampling/cutoff_net.hpp"

namespace py = pybind11;
using cardgames::InputError;
namespace models = cardgames::models;

namespace pycards {

namespace {

// A network read from its file, with one evaluator (Python calls it from one thread at a time),
// and the file's arrays, from which the trainer starts a network (train --init).
class PyNetwork {
  public:
    explicit PyNetwork(const std::string& path) : PyNetwork(models::read_model_file(path)) {}

    explicit PyNetwork(models::ModelFile file)
        : net_(std::make_shared<models::Network>(file)),
          tensors_(std::move(file.tensors)),
          evaluator_(*net_),
          max_active_(models::network_features(net_->task(), net_->form(), net_->players(),
                                               net_->card_version())
                          .max_active) {}

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
            if (static_cast<int>(active.size()) > max_active_)
                throw InputError("features row " + std::to_string(r) + ": " +
                                 std::to_string(active.size()) + " features on, at most " +
                                 std::to_string(max_active_));
            evaluator_.refresh(active);
            const std::span<const float> y = evaluator_.evaluate();
            for (std::size_t k = 0; k < y.size(); ++k) o(r, static_cast<py::ssize_t>(k)) = y[k];
        }
        return out;
    }

    // The file's arrays by name, as stored (row-major, in the file's shape and type).
    py::dict tensors() const {
        py::dict out;
        for (const models::Tensor& t : tensors_) {
            std::vector<py::ssize_t> shape(t.shape.begin(), t.shape.end());
            switch (t.dtype) {
                case models::DType::kF32:
                    out[py::str(t.name)] = py::array_t<float>(shape, t.f32.data());
                    break;
                case models::DType::kI16:
                    out[py::str(t.name)] = py::array_t<std::int16_t>(shape, t.i16.data());
                    break;
                case models::DType::kF64:
                    out[py::str(t.name)] = py::array_t<double>(shape, t.f64.data());
                    break;
            }
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
    std::vector<models::Tensor> tensors_;
    models::Evaluator evaluator_;
    int max_active_ = 0;  // of the network's feature set
};

// play_cutoff_samples as arrays, the state and every play checked first: they come from Python.
py::tuple cutoff_samples(const GameState& state, const std::vector<int>& plays) {
    const cardgames::Game& game = state.game();
    if (state.terminal() || game.phase() != cardgames::Phase::kPlay ||
        game.play_state().trick_size != 0)
        throw InputError("cutoff_samples: the state is not at a trick boundary of the play");
    const auto left = static_cast<std::size_t>(game.play_state().cards_left());
    if (plays.size() != left)
        throw InputError("cutoff_samples: " + std::to_string(plays.size()) +
                         " plays, the rest of the hand is " + std::to_string(left));
    GameState check = state;
    for (std::size_t k = 0; k < plays.size(); ++k) {
        try {
            if (plays[k] < 0 || plays[k] >= 52) throw InputError("not a card action (0..51)");
            check.apply(plays[k]);
        } catch (const std::exception& e) {
            throw InputError("cutoff_samples: plays[" + std::to_string(k) + "] " +
                             std::to_string(plays[k]) + ": " + e.what());
        }
    }
    return cutoff_arrays(play_cutoff_samples(state, plays), state.rules());
}

}  // namespace

int checked_card_version(int version) {
    if (version < 1 || version > models::kCardFeatureVersion)
        throw InputError("card features version " + std::to_string(version) + ": expected 1.." +
                         std::to_string(models::kCardFeatureVersion));
    return version;
}

py::tuple cutoff_arrays(const std::vector<sampling::CutoffNetSample>& samples,
                        const cardgames::Rules& rules) {
    const int n = rules.players;
    const auto width = static_cast<py::ssize_t>(models::deal_feature_count(rules.game, n));
    const auto rows = static_cast<py::ssize_t>(samples.size());
    py::array_t<std::uint8_t> x({rows, width});
    py::array_t<std::int32_t> rest({rows, static_cast<py::ssize_t>(n)});
    auto xo = x.mutable_unchecked<2>();
    auto ro = rest.mutable_unchecked<2>();
    for (py::ssize_t r = 0; r < rows; ++r) {
        const auto& s = samples[static_cast<std::size_t>(r)];
        for (py::ssize_t c = 0; c < width; ++c) xo(r, c) = 0;
        for (int f : s.features.view()) xo(r, f) = 1;
        for (int p = 0; p < n; ++p) ro(r, p) = s.rest[static_cast<std::size_t>(p)];
    }
    return py::make_tuple(x, rest);
}

std::vector<sampling::CutoffNetSample> play_cutoff_samples(const GameState& state,
                                                           std::span<const int> plays) {
    const cardgames::Game& game = state.game();
    cardgames::ScoreContext context;
    context.bids = game.hand().bids;
    const cardgames::TrickPlay start(state.rules(), game.play_state(), game.hand().taken);
    std::vector<cardgames::Card> cards;
    cards.reserve(plays.size());
    for (int play : plays) cards.push_back(cardgames::encoding::card_of_number(play));
    return sampling::cutoff_net_samples(start, context, cards);
}

void bind_models(py::module_& m) {
    m.attr("CARD_FEATURE_SET") = models::kCardFeatureSet;
    m.attr("CARD_FEATURE_VERSION") = models::kCardFeatureVersion;
    m.def(
        "card_feature_count",
        [](const std::string& form, int version) {
            return models::card_feature_count(cardgames::game_of_form(form),
                                              models::players_of_form(form, "form"),
                                              checked_card_version(version));
        },
        py::arg("form"), py::arg("version") = models::kCardFeatureVersion,
        "How many card features of that version a network for the form reads ('hearts4', "
        "'spades-partnership'; docs/design/network-format.md).");
    m.def(
        "players_of_form",
        [](const std::string& form) { return models::players_of_form(form, "form"); },
        py::arg("form"),
        "The players at a table of a form name as model files give it ('hearts4' 4, "
        "'spades-partnership' 4); InputError for a name that is no form.");
    m.def(
        "max_active_card_features",
        [](const std::string& form, int version) {
            return models::max_active_card_features(models::players_of_form(form, "form"),
                                                    checked_card_version(version));
        },
        py::arg("form"), py::arg("version") = models::kCardFeatureVersion,
        "The most card features of that version that are on at once at a table of the form.");
    m.def(
        "card_features",
        [](const GameState& state, int seat, int version) {
            models::ActiveFeatures f;
            models::card_features(state.info_state(seat), checked_card_version(version), f);
            return std::vector<int>(f.index.begin(), f.index.begin() + f.count);
        },
        py::arg("state"), py::arg("seat"), py::arg("version") = models::kCardFeatureVersion,
        "The card features of that version that are on for the seat (docs/design/"
        "network-format.md), ascending.");
    m.attr("DEAL_FEATURE_SET") = models::kDealFeatureSet;
    m.attr("DEAL_FEATURE_VERSION") = models::kDealFeatureVersion;
    m.def(
        "deal_feature_count",
        [](const std::string& form) {
            return models::deal_feature_count(cardgames::game_of_form(form),
                                              models::players_of_form(form, "form"));
        },
        py::arg("form"),
        "How many deal features a cut-off network of the form reads (docs/design/"
        "network-format.md).");
    m.def("cutoff_samples", &cutoff_samples, py::arg("state"), py::arg("plays"),
          "What a cut-off network learns from, for a hand's play from `state` (at a trick "
          "boundary) on: (deal features [T, D] uint8, what each seat took in the rest of the hand "
          "[T, players]: penalty points or tricks).");
    py::class_<PyNetwork>(m, "Network",
                          "A network read from a model file, run by the engine's C++.")
        .def_property_readonly("form", [](const PyNetwork& n) { return n.net().form(); })
        .def_property_readonly("task", [](const PyNetwork& n) { return n.net().task(); })
        .def_property_readonly("inputs", [](const PyNetwork& n) { return n.net().inputs(); })
        .def_property_readonly(
            "card_version", [](const PyNetwork& n) { return n.net().card_version(); },
            "The version of the card features it reads (0: a cut-off network's deal features).")
        .def_property_readonly("outputs", [](const PyNetwork& n) { return n.net().outputs(); })
        .def_property_readonly("accumulator_size",
                               [](const PyNetwork& n) { return n.net().accumulator_size(); })
        .def_property_readonly("ft_scale", [](const PyNetwork& n) { return n.net().ft_scale(); })
        .def_property_readonly("output_scale",
                               [](const PyNetwork& n) { return n.net().output_scale(); })
        .def("tensors", &PyNetwork::tensors,
             "The file's arrays by name (ft.weight int16 [inputs, width], ft.bias, then l1.weight "
             "float32 [out, in], l1.bias, ..., out.weight, out.bias), copies.")
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
