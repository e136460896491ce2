#pragma once
// Choosing one of several candidates (bids, blind nil, Hearts passes) by their values on sampled
// deals shared by all of them (common random numbers), as pimc_bidding.cpp does. The first
// candidate is the natural choice (the rule player's); another is taken only when it beats the
// first clearly. A race spends the play-outs where the choice is close: every candidate is valued
// on the first round of deals, then the better half of the challengers and the first candidate on
// as many deals again, and so on (successive halving) up to a cap. Deal r is the same deal
// whichever round values it, so the values are the same for any thread count and any round size.

#include <cstddef>
#include <functional>
#include <vector>

namespace sampling {

// Values by candidate, then by deal: values[c][r] is candidate c's value on deal r.
using CandidateValues = std::vector<std::vector<double>>;

// Sets values[c][r] for every candidate c of `which` and every deal r of [first, first + count)
// (the inner vectors are already sized to hold them).
using DealValuer = std::function<void(const std::vector<std::size_t>& which, int first, int count,
                                      CandidateValues& values)>;

// How much candidate c gains over candidate 0, on the deals both were valued on (a value may be
// NaN: a deal left unvalued, pimc:ms): the mean paired difference and its standard error.
struct Gain {
    double mean = 0, se = 0;
};
Gain gain_over_first(const CandidateValues& values, std::size_t c);

// The candidate to take of `alive` (candidate 0 among them): candidate 0 unless another leads it
// by more than `margin` standard errors of their paired difference, and then the one of those
// that leads it most (ties to the earlier). With many candidates and few deals the best-looking
// mean is often luck (the winner's curse), hence the margin.
inline constexpr double kClearMargin = 2;
std::size_t best_of(const CandidateValues& values, const std::vector<std::size_t>& alive,
                    double margin = kClearMargin);

// Values `candidates` candidates by `value_deals` and returns the one to take (best_of). Every
// candidate is valued on deals [0, first_round); then, while challengers remain and fewer than
// `most` deals have been valued, candidate 0 and the better half of the challengers (by their
// gain over candidate 0; ties to the earlier) on as many deals again, at most `most` in all. With
// `most` <= `first_round` every candidate is valued on `first_round` deals and no more. `out`
// (if given) receives the values the race ended with.
std::size_t race(std::size_t candidates, int first_round, int most, const DealValuer& value_deals,
                 double margin = kClearMargin, CandidateValues* out = nullptr);
// A candidate's mean over the deals it was valued on (NaN: none).
double mean_value(const std::vector<double>& values);

}  // namespace sampling
