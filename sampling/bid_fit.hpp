#pragma once
// Fitting the Spades bid model (bid_model.hpp) with Eigen: ridge-regularised logistic regression
// by iteratively reweighted least squares, on standardised features (the weights are returned on
// the raw features). The tricks model stacks one binary row "tricks >= k" per sample and k, with
// an intercept per k and slopes shared over k (the cumulative logistic model fitted as a
// composite likelihood), so it extrapolates to hands stronger than any in the data.

#include <string>
#include <vector>

#include "sampling/bid_model.hpp"

namespace sampling {

// One seat of one training hand: its features at bid time, its bid and the tricks it took.
struct BidSample {
    std::vector<double> x;
    int sure = 0;  // sure_tricks of the hand
    int bid = 0;   // 0: nil
    int tricks = 0;
};

struct LogisticFit {
    double intercept = 0;
    std::vector<double> weights;
};
// P(y = 1 | x) = sigmoid(intercept + weights . x); `ridge` on the standardised weights.
LogisticFit fit_logistic(const std::vector<std::vector<double>>& x, const std::vector<int>& y,
                         double ridge = 1e-3, int iterations = 50);

// The whole model from the samples (nil bids train the nil model, the others the tricks model).
SpadesBidModel fit_bid_model(const std::vector<BidSample>& samples, const cardgames::Rules& rules,
                             double ridge = 1e-3);

// Held-out figures of a model: mean absolute error of the predicted mean tricks, mean log-loss of
// the observed tricks, and the nil model's log-loss (nil samples only).
struct BidFitFigures {
    long tricks_samples = 0, nil_samples = 0;
    double tricks_mae = 0, tricks_log_loss = 0, baseline_mae = 0;  // baseline: the rule bid
    double nil_log_loss = 0, nil_made_share = 0, nil_predicted_share = 0;
};
BidFitFigures bid_fit_figures(const SpadesBidModel& model, const std::vector<BidSample>& samples);

}  // namespace sampling
