#include "apps/python/convert.hpp"

#include <pybind11/stl.h>

#include <limits>
#include <optional>
#include <string>

#include "cardgames/cards/error.hpp"
#include "cardgames/cards/text.hpp"

namespace py = pybind11;
using namespace cardgames;

namespace pycards {

const char* const kPhaseNames[5] = {"blind_nil", "bid", "pass", "play", "over"};

py::object to_python(const nlohmann::json& j) {
    return py::module_::import("json").attr("loads")(j.dump());
}

namespace {

py::list card_list(CardSet cards) {
    py::list l;
    for (Card c : cards) l.append(to_string(c));
    return l;
}

// The value as Python's int, or nullopt when it is not a whole number (floats and strings are not).
std::optional<py::int_> as_int(const py::handle& value) {
    if (!PyIndex_Check(value.ptr())) return std::nullopt;
    PyObject* n = PyNumber_Index(value.ptr());
    if (!n) throw py::error_already_set();
    return py::reinterpret_steal<py::int_>(n);
}

[[noreturn]] void refuse(const py::handle& value, const std::string& what, const std::string& lo,
                         const std::string& hi) {
    throw InputError(what + " " + py::repr(value).cast<std::string>() +
                     ": expected a whole number from " + lo + " to " + hi);
}

}  // namespace

long long whole_number(const py::handle& value, const std::string& what, long long lo,
                       long long hi) {
    const std::optional<py::int_> n = as_int(value);
    if (!n) refuse(value, what, std::to_string(lo), std::to_string(hi));
    int overflow = 0;
    const long long v = PyLong_AsLongLongAndOverflow(n->ptr(), &overflow);
    if (overflow != 0 || v < lo || v > hi)
        refuse(value, what, std::to_string(lo), std::to_string(hi));
    return v;
}

double real_number(const py::handle& value, const std::string& what) {
    if (py::isinstance<py::bool_>(value) ||
        !(py::isinstance<py::float_>(value) || PyIndex_Check(value.ptr())))
        throw InputError(what + " " + py::repr(value).cast<std::string>() + ": expected a number");
    return py::cast<double>(py::float_(py::reinterpret_borrow<py::object>(value)));
}

std::uint64_t seed_arg(const py::handle& value, const std::string& what) {
    const std::optional<py::int_> n = as_int(value);
    const std::string hi = std::to_string(std::numeric_limits<std::uint64_t>::max());
    if (!n || PyObject_RichCompareBool(n->ptr(), py::int_(0).ptr(), Py_LT) == 1)
        refuse(value, what, "0", hi);
    const unsigned long long v = PyLong_AsUnsignedLongLong(n->ptr());
    if (PyErr_Occurred()) {
        PyErr_Clear();
        refuse(value, what, "0", hi);
    }
    return v;
}

py::dict info_dict(const InfoState& info, bool choosing_pass, CardSet pending,
                   const std::vector<int>& legal) {
    const Rules& rules = *info.rules;
    const int seat = info.seat;
    const int n = rules.players;
    py::dict d;
    d["seat"] = seat;
    d["phase"] = kPhaseNames[static_cast<int>(info.phase)];
    d["hand_number"] = info.hand_number;
    d["dealer"] = info.dealer;
    d["hand"] = card_list(info.hand);
    d["dealt"] = card_list(info.dealt);
    d["passed"] = card_list(info.passed);
    d["received"] = card_list(info.received);
    if (choosing_pass) d["pass_chosen"] = card_list(pending);
    d["pass_to"] = info.pass_to >= 0 ? py::object(py::int_(info.pass_to)) : py::none();
    d["pass_count"] = info.pass_count;
    py::list bids;
    for (int p = 0; p < n; ++p)
        bids.append(info.bids[p].made()
                        ? py::object(py::dict(py::arg("tricks") = info.bids[p].tricks,
                                              py::arg("blind") = info.bids[p].blind))
                        : py::none());
    d["bids"] = bids;
    py::list plays;
    for (const PlayedCard& p : info.plays)
        plays.append(py::make_tuple(static_cast<int>(p.seat), to_string(p.card)));
    d["plays"] = plays;
    py::list winners;
    for (int t = 0; t < info.play.tricks_played; ++t)
        winners.append(static_cast<int>(info.trick_winners[t]));
    d["trick_winners"] = winners;
    py::list trick;
    for (int i = 0; i < info.play.trick_size; ++i)
        trick.append(py::make_tuple((info.play.leader + i) % n, to_string(info.play.trick[i])));
    d["trick"] = trick;
    d["leader"] = static_cast<int>(info.play.leader);
    d["broken"] = info.play.broken;
    d["tricks_won"] =
        std::vector<int>(info.play.tricks_won.begin(), info.play.tricks_won.begin() + n);
    d["points_taken"] = std::vector<int>(info.play.points.begin(), info.play.points.begin() + n);
    const int units = rules.num_units();
    d["scores"] = std::vector<int>(info.scores.score.begin(), info.scores.score.begin() + units);
    d["bags"] = std::vector<int>(info.scores.bags.begin(), info.scores.bags.begin() + units);
    d["legal_actions"] = legal;
    return d;
}

}  // namespace pycards
