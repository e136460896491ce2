#pragma once
// The cardgames test helpers that build positions (cards, played cards, a mid-play information
// state), by the short names the sampling tests use. In the tests' own anonymous namespace, so
// that they overload rather than hide a test's own helper of the same name when the sanitizer
// builds compile several test files as one (unity build).
#include "tests/cardgames/test_helpers.hpp"

namespace sampling {
namespace {

using cardgames::testing::C;
using cardgames::testing::cards;
using cardgames::testing::mid_play;
using cardgames::testing::pc;

}  // namespace
}  // namespace sampling
