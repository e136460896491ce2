#pragma once
// The extension's parts, one bind_*.cpp file per area, each adding its names to the module
// (module.cpp calls them in order). They bind the libraries one to one: the game's encoding
// (cardgames/encoding), its rules, bots and runs; nothing about the game is decided here.

#include <pybind11/pybind11.h>

#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "cardgames/cards/error.hpp"
#include "cardgames/encoding/game_state.hpp"
#include "cardgames/rules/rules.hpp"
#include "sampling/cutoff_net.hpp"

namespace pycards {

using cardgames::encoding::GameState;

// Rules as Python sees them (the class Rules): a rule set.
struct PyRules {
    cardgames::Rules rules;

    static PyRules make(const std::optional<std::string>& preset,
                        const std::optional<std::string>& game, const pybind11::kwargs& overrides);
    // The rules as `key=value` pairs (what records store); Rules(**pairs) rebuilds them.
    pybind11::dict to_dict() const;
    static PyRules from_pairs(const pybind11::dict& pairs);
};

// An instance Python made without its value (State.__new__(State), a pickle without its state)
// has no C++ object: pybind11 would hand its methods uninitialised memory. Methods are bound
// through `checked`, which refuses such an instance with an InputError naming the class.
template <class T>
T& live(pybind11::handle self, const char* name) {
    if (!pybind11::isinstance<T>(self))
        throw pybind11::type_error(std::string(name) + " method called on another object");
    auto* instance = reinterpret_cast<pybind11::detail::instance*>(self.ptr());
    const pybind11::detail::value_and_holder v =
        instance->get_value_and_holder(pybind11::detail::get_type_info(typeid(T)));
    if (!v.holder_constructed())
        throw cardgames::InputError(std::string(name) +
                                    ": this object was never initialised (made by __new__, or "
                                    "unpickled without its state); make one the documented way");
    return v.value_ptr<T>() ? *v.value_ptr<T>() : throw std::logic_error("no value");
}
template <class T, class R, class... Args>
auto checked(const char* name, R (*f)(const T&, Args...)) {
    return [name, f](pybind11::handle self, Args... args) -> R {
        return f(live<T>(self, name), std::forward<Args>(args)...);
    };
}
template <class T, class R, class... Args>
auto checked(const char* name, R (T::*f)(Args...)) {
    return [name, f](pybind11::handle self, Args... args) -> R {
        return (live<T>(self, name).*f)(std::forward<Args>(args)...);
    };
}
template <class T, class R, class... Args>
auto checked(const char* name, R (T::*f)(Args...) const) {
    return [name, f](pybind11::handle self, Args... args) -> R {
        return (live<T>(self, name).*f)(std::forward<Args>(args)...);
    };
}

// `seat` when the state has such a seat, else InputError.
int checked_seat(const GameState& s, int seat);

// `version` when it is a version of the card features (1..CARD_FEATURE_VERSION), else InputError.
int checked_card_version(int version);

// The cut-off network's samples of a hand's play (sampling::cutoff_net_samples): `state` in the
// play phase at a trick boundary, `plays` the card actions from there to the end of the hand,
// legal ones (the caller checks: a replayed hand, or cutoff_samples for Python's).
std::vector<sampling::CutoffNetSample> play_cutoff_samples(const GameState& state,
                                                           std::span<const int> plays);
// Samples as (deal features [T, D] uint8, rest [T, players] int32).
pybind11::tuple cutoff_arrays(const std::vector<sampling::CutoffNetSample>& samples,
                              const cardgames::Rules& rules);

// The action numbering: NUM_ACTIONS and the other bases, card_action, action_card,
// action_to_string.
void bind_actions(pybind11::module_& m);
// The class Rules.
pybind11::class_<PyRules> bind_rules(pybind11::module_& m);
// The class State and new_game.
pybind11::class_<GameState> bind_state(pybind11::module_& m);
// The tensors: Rules' layouts and shapes, State's tensors and action mask.
void bind_tensors(pybind11::class_<PyRules>& rules, pybind11::class_<GameState>& state);
// The class Bot and make_bot.
void bind_bots(pybind11::module_& m);
// Tournaments, evaluations, self-play and the fits' data (_tournament, _evaluate, _read_results,
// _selfplay, _selfplay_report, _policy_data, _cutoff_data, _bids_data) and their seeds.
void bind_runs(pybind11::module_& m);
// The linear fits (_fit_policy, _fit_cutoff, _fit_bids).
void bind_learn(pybind11::module_& m);
// solve().
void bind_solve(pybind11::module_& m);
// The models library: load_network, Network.evaluate and card_features.
void bind_models(pybind11::module_& m);

}  // namespace pycards
