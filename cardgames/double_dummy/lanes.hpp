#pragma once
// Bit helpers on 16-bit suit lanes (bit r set = the card of rank r), shared by the double-dummy
// solver's source files.

#include <bit>
#include <cstdint>

namespace cardgames::lanes {

// Cards in a lane, by bytes from a table. Written out: without -mpopcnt (not in the x86-64
// baseline) std::popcount is a library call or a dozen instructions, and this is the solver's
// most frequent operation.
struct ByteCounts {
    std::uint8_t n[256];
    constexpr ByteCounts() : n() {
        for (int i = 0; i < 256; ++i)
            n[i] = static_cast<std::uint8_t>((i & 1) + (i >> 1 & 1) + (i >> 2 & 1) + (i >> 3 & 1) +
                                             (i >> 4 & 1) + (i >> 5 & 1) + (i >> 6 & 1) +
                                             (i >> 7 & 1));
    }
};
inline constexpr ByteCounts kByteCounts{};
constexpr int bits(std::uint32_t x) {
    return kByteCounts.n[x & 0xffu] + kByteCounts.n[x >> 8 & 0xffu];
}

constexpr int top_rank(std::uint16_t lane) {
    return lane ? 15 - std::countl_zero(lane) : 0;
}
// Bits strictly above rank r.
constexpr std::uint16_t above(int r) {
    return static_cast<std::uint16_t>(~((2u << r) - 1));
}

constexpr std::uint16_t without_lowest(std::uint16_t lane) {
    return static_cast<std::uint16_t>(lane & (lane - 1));
}

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
