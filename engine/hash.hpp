#pragma once
// Deterministic 64-bit mixing shared by the tables and the synthetic game. Same results on every
// platform and standard library (no std:: distributions).

#include <cstdint>

namespace engine {

constexpr std::uint64_t splitmix64(std::uint64_t x) {
    x += 0x9E3779B97F4A7C15ULL;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
    return x ^ (x >> 31);
}

constexpr std::uint64_t hash_combine(std::uint64_t seed, std::uint64_t value) {
    return splitmix64(seed ^ splitmix64(value));
}

// Smallest power of two >= n (n >= 1).
constexpr std::size_t round_up_pow2(std::size_t n) {
    std::size_t p = 1;
    while (p < n) p <<= 1;
    return p;
}

}  // namespace engine
