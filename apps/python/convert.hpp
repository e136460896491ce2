#pragma once
// Conversions between the engine's values and Python's, shared by State and by the Python players
// of tournaments and evaluations (which see what a State's seat sees).

#include <pybind11/pybind11.h>

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cardgames/rules/info_state.hpp"

namespace pycards {

// What a Python player of a run is asked about: a seat's InfoState (pointing at its own copy of the
// rules) and the cards it has chosen so far for the pass it is making. Observations carry it as
// "view", so that a Python policy can hand the decision to a native bot
// (make_bot(spec).act(observation)).
struct SeatView {
    cardgames::Rules rules;
    cardgames::InfoState info;
    cardgames::CardSet pending;

    SeatView(const cardgames::InfoState& seen, cardgames::CardSet chosen)
        : rules(*seen.rules), info(seen), pending(chosen) {
        info.rules = &rules;
    }
    SeatView(const SeatView& other) : SeatView(other.info, other.pending) {}
    SeatView& operator=(const SeatView&) = delete;
};

// The names of cardgames::Phase, in its order: what State.phase() returns.
extern const char* const kPhaseNames[5];

// A JSON value as the Python value json.loads gives.
pybind11::object to_python(const nlohmann::json& j);

// What a seat knows, as the dict State.info_state returns. `choosing_pass`: the seat is choosing a
// pass, and `pending` are the cards chosen so far (the dict's "pass_chosen"); `legal`: its legal
// actions when it is to act (else empty).
pybind11::dict info_dict(const cardgames::InfoState& info, bool choosing_pass,
                         cardgames::CardSet pending, const std::vector<int>& legal);

// A whole number argument or field `what` (its name, and where it was) from lo to hi: InputError
// (a ValueError) naming it and the value when it is not one, instead of pybind11's "incompatible
// function arguments" or "Unable to cast".
long long whole_number(const pybind11::handle& value, const std::string& what, long long lo,
                       long long hi);
// A number argument `what` (an int or a float, not a bool): InputError naming it and the value
// otherwise. The range is the library's to check.
double real_number(const pybind11::handle& value, const std::string& what);
// A seed argument: a whole number from 0 to 2^64 - 1, checked as whole_number checks.
std::uint64_t seed_arg(const pybind11::handle& value, const std::string& what);

}  // namespace pycards
