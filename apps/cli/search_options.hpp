#pragma once
// Command-line names of the search settings shared by solve, bench and the Monte-Carlo bot.

#include "cardgames/solve/solve.hpp"

namespace apps {

using cardgames::algorithm_from_name;

}  // namespace apps
