// The linear fits from Python: cardgames.fit_policy(), fit_cutoff() and fit_bids() call the
// learning library's learn_*_fit (apps/learn/) with the options of `cardgames learn fit`,
// `cutoff-fit` and `bids-fit`, and return what the command prints as data; convert_model() and
// policy_data_report() are `learn convert` and `learn data --report`. The fit runs without
// the GIL; `made_by` (the command line that remakes the model, which its header names) comes from
// the Python wrapper (cardgames/learn.py).
#include <pybind11/stl.h>

#include <cmath>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "apps/learn/bids_fit.hpp"
#include "apps/learn/cutoff_fit.hpp"
#include "apps/learn/holdout.hpp"
#include "apps/learn/model_convert.hpp"
#include "apps/learn/policy_fit.hpp"
#include "apps/python/bindings.hpp"
#include "apps/python/convert.hpp"

namespace py = pybind11;

namespace pycards {

namespace {

long holdout_arg(const py::object& value) {
    if (value.is_none()) return apps::kDefaultHoldout;
    return static_cast<long>(
        whole_number(value, "holdout", apps::kMinHoldout, std::numeric_limits<long>::max()));
}

py::dict choice_dict(const apps::ChoiceMeasure& m) {
    const double k = m.decisions ? static_cast<double>(m.decisions) : 1.0;
    return py::dict(py::arg("decisions") = m.decisions, py::arg("agree") = m.agree,
                    py::arg("agreement") = m.agree / k, py::arg("loss") = m.regret / k);
}

py::dict py_fit_policy(const std::vector<std::string>& data, const std::string& out,
                       const py::object& holdout, const py::object& l2,
                       const py::object& temperature, const std::string& made_by) {
    apps::PolicyFitOptions options;
    options.data = data;
    options.out = out;
    options.holdout = holdout_arg(holdout);
    if (!l2.is_none()) options.l2 = real_number(l2, "l2");
    if (!temperature.is_none()) options.temperature = real_number(temperature, "temperature");
    options.made_by = made_by;
    const apps::PolicyFitReport r = [&] {
        py::gil_scoped_release release;
        return apps::learn_policy_fit(options);
    }();
    return py::dict(py::arg("decisions") = r.decisions, py::arg("hands") = r.hands,
                    py::arg("train_decisions") = r.fit.train_decisions,
                    py::arg("held_out_decisions") = r.fit.model_held.decisions,
                    py::arg("iterations") = r.fit.fit.iterations,
                    py::arg("converged") = r.fit.fit.converged,
                    py::arg("model_train") = choice_dict(r.fit.model_train),
                    py::arg("model_held_out") = choice_dict(r.fit.model_held),
                    py::arg("rule_held_out") = choice_dict(r.fit.rule_held),
                    py::arg("weights") = r.fit.fit.weights, py::arg("out") = r.out);
}

py::dict py_fit_cutoff(const std::vector<std::string>& data, const std::string& out,
                       const py::object& holdout, const py::object& ridge,
                       const std::string& made_by) {
    apps::CutoffFitOptions options;
    options.data = data;
    options.out = out;
    options.holdout = holdout_arg(holdout);
    if (!ridge.is_none()) options.ridge = real_number(ridge, "ridge");
    options.made_by = made_by;
    const apps::CutoffFitReport r = [&] {
        py::gil_scoped_release release;
        return apps::learn_cutoff_fit(options);
    }();
    const apps::CutoffErrors& e = r.fit.held_out;
    const double k = e.seats ? static_cast<double>(e.seats) : 1.0;
    const py::dict held(py::arg("seats") = e.seats, py::arg("mean_abs_error") = e.model_abs / k,
                        py::arg("shares_mean_abs_error") = e.shares_abs / k,
                        py::arg("rmse") = std::sqrt(e.model_sq / k),
                        py::arg("even_mean_abs_error") = e.even_abs / k,
                        py::arg("even_rmse") = std::sqrt(e.even_sq / k));
    return py::dict(py::arg("positions") = r.positions, py::arg("hands") = r.hands,
                    py::arg("train_seats") = r.fit.train_seats, py::arg("held_out") = held,
                    py::arg("weights") = r.fit.weights, py::arg("out") = r.out);
}

py::dict py_fit_bids(const std::vector<std::string>& data, const std::string& out,
                     const py::object& holdout, const py::object& ridge,
                     const std::vector<std::string>& test, const std::string& made_by) {
    apps::BidsFitOptions options;
    options.data = data;
    options.out = out;
    options.holdout = holdout_arg(holdout);
    if (!ridge.is_none()) options.ridge = real_number(ridge, "ridge");
    options.test = test;
    options.made_by = made_by;
    const apps::BidsFitReport r = [&] {
        py::gil_scoped_release release;
        return apps::learn_bids_fit(options);
    }();
    py::object held = py::none();
    if (r.held_out) {
        const sampling::BidFitFigures& f = *r.held_out;
        held = py::dict(
            py::arg("bids") = f.tricks_samples, py::arg("tricks_mean_abs_error") = f.tricks_mae,
            py::arg("rule_bid_mean_abs_error") = f.baseline_mae,
            py::arg("tricks_log_loss") = f.tricks_log_loss, py::arg("nil_bids") = f.nil_samples,
            py::arg("nil_made_share") = f.nil_made_share,
            py::arg("nil_predicted_share") = f.nil_predicted_share,
            py::arg("nil_log_loss") = f.nil_log_loss);
    }
    return py::dict(py::arg("seats") = r.seats, py::arg("nil_bids") = r.nil,
                    py::arg("train_seats") = r.train_seats, py::arg("held_out") = held,
                    py::arg("figures") = r.figures, py::arg("out") = r.out);
}

py::dict py_convert_model(const std::string& path, const std::string& out) {
    const apps::ConvertReport r = apps::convert_model(path, out);
    return py::dict(py::arg("in") = r.in, py::arg("out") = r.out, py::arg("kind") = r.kind,
                    py::arg("form") = r.form, py::arg("from_version") = r.from_version,
                    py::arg("weights") = r.weights);
}

py::dict py_policy_data_report(const std::string& path) {
    const apps::PolicyDataReport r = apps::report_policy_data(path);
    return py::dict(py::arg("path") = r.path, py::arg("form") = r.form, py::arg("hands") = r.hands,
                    py::arg("decisions") = r.decisions, py::arg("cards") = r.cards);
}

}  // namespace

void bind_learn(py::module_& m) {
    m.def("_fit_policy", &py_fit_policy, py::kw_only(), py::arg("data"), py::arg("out"),
          py::arg("holdout") = py::none(), py::arg("l2") = py::none(),
          py::arg("temperature") = py::none(), py::arg("made_by"));
    m.def("_fit_cutoff", &py_fit_cutoff, py::kw_only(), py::arg("data"), py::arg("out"),
          py::arg("holdout") = py::none(), py::arg("ridge") = py::none(), py::arg("made_by"));
    m.def("_fit_bids", &py_fit_bids, py::kw_only(), py::arg("data"), py::arg("out"),
          py::arg("holdout") = py::none(), py::arg("ridge") = py::none(),
          py::arg("test") = std::vector<std::string>{}, py::arg("made_by"));
    m.def("_convert_model", &py_convert_model, py::arg("path"), py::arg("out"));
    m.def("_policy_data_report", &py_policy_data_report, py::arg("path"));
}

}  // namespace pycards
