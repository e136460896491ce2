#pragma once
// Bit helpers on 16-bit suit lanes (bit r set = the card of rank r), shared by the double-dummy
// solver's source files.

#include <bit>
#include <cstdint>

namespace cardgames::lanes {

// Cards in a lane. Written out: without -mpopcnt (not in the x86-64 baseline) std::popcount is a
// library call, and this is the solver's most frequent operation.
constexpr int bits(std::uint32_t x) {
    x = x - ((x >> 1) & 0x5555u);
    x = (x & 0x3333u) + ((x >> 2) & 0x3333u);
    x = (x + (x >> 4)) & 0x0f0fu;
    return static_cast<int>((x + (x >> 8)) & 0x1fu);
}

constexpr int top_rank(std::uint16_t lane) { return lane ? 15 - std::countl_zero(lane) : 0; }
// Bits strictly above rank r.
constexpr std::uint16_t above(int r) { return static_cast<std::uint16_t>(~((2u << r) - 1)); }

// The n highest cards of a lane.
constexpr std::uint16_t top_cards(std::uint16_t lane, int n) {
    std::uint16_t out = 0;
    for (; n > 0 && lane; --n) {
        const auto bit = static_cast<std::uint16_t>(1u << top_rank(lane));
        out = static_cast<std::uint16_t>(out | bit);
        lane = static_cast<std::uint16_t>(lane & ~bit);
    }
    return out;
}

}  // namespace cardgames::lanes
