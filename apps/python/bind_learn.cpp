// The linear fits from Python: cardgames.fit_policy(), fit_cutoff() and fit_bids() call the
// learning library's learn_*_fit (apps/learn/) with the options of `cardgames learn fit`,
// `cutoff-fit` and `bids-fit`, and return what the command prints as data; convert_model() and
// policy_data_report() are `learn convert` and `learn data --report`. The fit runs without
// the GIL; `made_by` (the command line that remakes the model, which its header names) comes from
// the Python wrapper (cardgames/learn.py). _load_selfplay() and _load_cutoff() read self-play
// shards for a trainer (cardgames/learn_data.py) with the learning library's reader.
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "apps/learn/bids_fit.hpp"
#include "apps/learn/cutoff_fit.hpp"
#include "apps/learn/holdout.hpp"
#include "apps/learn/model_convert.hpp"
#include "apps/learn/policy_fit.hpp"
#include "apps/learn/selfplay_format.hpp"
#include "apps/python/bindings.hpp"
#include "apps/python/convert.hpp"
#include "cardgames/encoding/tensors.hpp"
#include "cardgames/models/card_features.hpp"

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

unsigned phase_mask(const std::vector<int>& phases) {
    unsigned mask = 0;
    for (int p : phases) {
        if (p < 0 || p > static_cast<int>(cardgames::Phase::kPlay))
            throw cardgames::InputError("phase " + std::to_string(p) +
                                        ": expected 0..3 (blind nil, bid, pass, play)");
        mask |= 1u << p;
    }
    return mask;
}

// The decisions of `phases` as arrays, absolute results (learn_data.load turns them).
py::dict py_load_selfplay(const std::vector<std::string>& files, const std::vector<int>& phases,
                          int card_version, bool information_state) {
    using cardgames::encoding::information_state_layout;
    using cardgames::encoding::kNumActions;
    if (files.empty()) throw cardgames::InputError("no shards given");
    checked_card_version(card_version);
    const unsigned mask = phase_mask(phases);
    const cardgames::Rules rules = apps::read_shard_header(files.front()).rules;
    const py::ssize_t n = apps::count_selfplay_records(files, mask);
    const py::ssize_t cards =
        cardgames::models::card_feature_count(rules.game, rules.players, card_version);
    const py::ssize_t width =
        information_state ? cardgames::encoding::layout_size(information_state_layout(rules)) : 0;
    const py::ssize_t players = rules.players;
    py::array_t<std::uint8_t> card_features({n, cards});
    py::array_t<float> features({information_state ? n : 0, width});
    py::array_t<bool> legal({n, static_cast<py::ssize_t>(kNumActions)});
    py::array_t<float> values({n, static_cast<py::ssize_t>(kNumActions)});
    py::array_t<std::int64_t> action(n), seat(n), phase(n), hand(n);
    py::array_t<float> result({n, players});
    std::uint8_t* cf = card_features.mutable_data();
    float* fe = features.mutable_data();
    bool* le = legal.mutable_data();
    float* va = values.mutable_data();
    std::int64_t *ac = action.mutable_data(), *se = seat.mutable_data(), *ph = phase.mutable_data(),
                 *ha = hand.mutable_data();
    float* re = result.mutable_data();
    {
        py::gil_scoped_release release;
        std::fill(cf, cf + n * cards, std::uint8_t{0});
        std::fill(fe, fe + (information_state ? n : 0) * width, 0.0f);
        std::fill(le, le + n * kNumActions, false);
        std::fill(va, va + n * kNumActions, std::numeric_limits<float>::quiet_NaN());
        py::ssize_t i = 0;
        cardgames::models::ActiveFeatures active;
        apps::SelfplayVisitor visitor;
        visitor.phases = mask;
        visitor.decision = [&](const apps::ReplayedDecision& d) {
            // The files changed since they were counted (a run still writing them).
            if (i == n) throw cardgames::InputError("the shards grew while they were read");
            const apps::DecisionRecord& r = d.record;
            cardgames::models::card_features(d.state.info_state(r.seat), card_version, active);
            for (int k = 0; k < active.count; ++k) cf[i * cards + active.index[k]] = 1;
            if (information_state)
                cardgames::encoding::information_state_tensor(d.state, r.seat, fe + i * width);
            for (std::size_t k = 0; k < d.legal.size(); ++k) {
                le[i * kNumActions + d.legal[k]] = true;
                va[i * kNumActions + d.legal[k]] = r.values[k];
            }
            ac[i] = r.action;
            se[i] = r.seat;
            ph[i] = static_cast<std::int64_t>(r.phase);
            ha[i] = r.hand;
            for (int p = 0; p < players; ++p) re[i * players + p] = r.result[p];
            ++i;
        };
        apps::replay_selfplay(files, visitor);
        if (i != n) throw cardgames::InputError("the shards changed while they were read");
    }
    py::dict out(py::arg("card_features") = card_features, py::arg("legal") = legal,
                 py::arg("values") = values, py::arg("action") = action, py::arg("seat") = seat,
                 py::arg("phase") = phase, py::arg("hand") = hand, py::arg("result") = result);
    if (information_state) out["features"] = features;
    return out;
}

// Every trick boundary of every hand's play: (deal features, rest, hand).
py::tuple py_load_cutoff(const std::vector<std::string>& files) {
    if (files.empty()) throw cardgames::InputError("no shards given");
    const cardgames::Rules rules = apps::read_shard_header(files.front()).rules;
    std::vector<sampling::CutoffNetSample> samples;
    std::vector<std::int64_t> hands;
    {
        py::gil_scoped_release release;
        apps::SelfplayVisitor visitor;
        visitor.play = [&](const apps::ReplayedPlay& p) {
            const auto hand = play_cutoff_samples(p.state, p.plays);  // replayed: legal
            samples.insert(samples.end(), hand.begin(), hand.end());
            hands.insert(hands.end(), hand.size(), p.first.hand);
        };
        apps::replay_selfplay(files, visitor);
    }
    const py::tuple arrays = cutoff_arrays(samples, rules);
    return py::make_tuple(
        arrays[0], arrays[1],
        py::array_t<std::int64_t>(static_cast<py::ssize_t>(hands.size()), hands.data()));
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
    m.def("_load_selfplay", &py_load_selfplay, py::arg("files"), py::arg("phases"),
          py::arg("card_version"), py::arg("information_state"));
    m.def("_load_cutoff", &py_load_cutoff, py::arg("files"));
    m.def("_selfplay_shards", &apps::selfplay_shards, py::arg("folder"));
    m.def(
        "_read_shard_header",
        [](const std::string& path) {
            const apps::ShardHeader h = apps::read_shard_header(path);
            return to_python({{"options", h.options},
                              {"shard", h.shard},
                              {"first_hand", h.first_hand},
                              {"header_size", apps::kShardHeaderSize},
                              {"record_size", apps::kRecordSize}});
        },
        py::arg("path"));
}

}  // namespace pycards
