#include "sampling/race.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

namespace sampling {

Gain gain_over_first(const CandidateValues& values, std::size_t c) {
    const std::size_t deals = std::min(values[0].size(), values[c].size());
    double sum = 0, sq = 0;
    std::size_t paired = 0;
    for (std::size_t r = 0; r < deals; ++r) {
        const double d = values[c][r] - values[0][r];
        if (std::isnan(d)) continue;  // a deal the time limit left unvalued
        sum += d;
        sq += d * d;
        ++paired;
    }
    if (paired == 0) return {};
    const double n = static_cast<double>(paired);
    const double mean = sum / n;
    const double var = paired > 1 ? (sq - sum * mean) / (n - 1) : 0;
    return {mean, std::sqrt(std::max(0.0, var) / n)};
}

std::size_t best_of(const CandidateValues& values, const std::vector<std::size_t>& alive,
                    double margin) {
    std::size_t best = 0;
    double best_gain = 0;
    for (std::size_t c : alive) {
        if (c == 0) continue;
        const Gain g = gain_over_first(values, c);
        if (g.mean > margin * g.se && g.mean > best_gain + 1e-9) {
            best = c;
            best_gain = g.mean;
        }
    }
    return best;
}

std::size_t race(std::size_t candidates, int first_round, int most, const DealValuer& value_deals,
                 double margin, CandidateValues* out) {
    CandidateValues values(candidates);
    std::vector<std::size_t> alive(candidates);
    std::iota(alive.begin(), alive.end(), std::size_t{0});
    int dealt = 0;
    int next = first_round;
    for (;;) {
        for (std::size_t c : alive) values[c].resize(static_cast<std::size_t>(next));
        value_deals(alive, dealt, next - dealt, values);
        dealt = next;
        if (alive.size() < 2 || dealt >= most) break;
        // Candidate 0 stays as the reference; the better half of the challengers go on.
        std::vector<std::size_t> challengers(alive.begin() + 1, alive.end());
        std::vector<double> gain(candidates);
        for (std::size_t c : challengers) gain[c] = gain_over_first(values, c).mean;
        std::stable_sort(challengers.begin(), challengers.end(),
                         [&](std::size_t a, std::size_t b) { return gain[a] > gain[b]; });
        challengers.resize((challengers.size() + 1) / 2);
        std::sort(challengers.begin(), challengers.end());
        alive.resize(1);
        alive.insert(alive.end(), challengers.begin(), challengers.end());
        next = std::min(most, 2 * dealt);
    }
    const std::size_t best = best_of(values, alive, margin);
    if (out) *out = std::move(values);
    return best;
}

double mean_value(const std::vector<double>& values) {
    double sum = 0;
    int count = 0;
    for (double v : values)
        if (!std::isnan(v)) {
            sum += v;
            ++count;
        }
    return count > 0 ? sum / count : std::numeric_limits<double>::quiet_NaN();
}

}  // namespace sampling
