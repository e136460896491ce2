#pragma once
// Command-line names of the search settings shared by solve, bench and the Monte-Carlo bot.

#include <string>

#include "cardgames/cards/error.hpp"
#include "engine/types.hpp"

namespace apps {

inline engine::Algorithm algorithm_from_name(const std::string& name) {
    if (const auto a = engine::parse_algorithm(name)) return *a;
    std::string known;
    for (const auto& [a, n] : engine::kAlgorithmNames)
        known += (known.empty() ? "" : ", ") + std::string(n);
    throw cardgames::InputError("algorithm '" + name + "': expected one of " + known);
}

}  // namespace apps
