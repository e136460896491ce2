#pragma once
// Fitting linear models with Eigen, for the learned models (data/models/): the conditional logit
// (a softmax over each decision's alternatives, as a play-out policy chooses among legal cards).
// Inputs are plain vectors so that callers need not include Eigen.

#include <vector>

namespace sampling {

// One decision: `rows` alternatives, each a row of `features` numbers (row-major), and the target
// probability of each alternative (one-hot for "the choice was this one"; they sum to 1).
struct ChoiceGroup {
    int rows = 0;
    std::vector<double> x;       // rows * features
    std::vector<double> target;  // rows
    double weight = 1;
};

struct FitResult {
    std::vector<double> weights;
    int iterations = 0;
    double objective = 0;  // mean weighted log-likelihood per group at the end (penalty excluded)
    bool converged = false;
};

// Maximises sum_g weight_g * sum_i target_gi * log p_gi(w) - l2/2 |w|^2, where
// p_gi = exp(w.x_gi) / sum_j exp(w.x_gj), by Newton's method with step halving (the objective is
// concave; the L2 term makes it strictly so). Deterministic: the same groups give the same
// weights. Throws std::invalid_argument for a group whose sizes do not match `features`.
FitResult fit_conditional_logit(const std::vector<ChoiceGroup>& groups, int features, double l2,
                                int max_iterations = 50);

// Ridge least squares: the weights w minimising sum_i (y_i - w.x_i)^2 + ridge * rows *
// sum_{j != 0} var_j w_j^2 over rows x_i of `features` numbers (row-major in `x`), where var_j is
// the variance of column j (the penalty of ridge on standardised columns); column 0 is the
// intercept and is not penalised. Solved by Eigen's LDL^T on the normal equations; deterministic.
// Throws std::invalid_argument when the sizes do not match or there are no rows.
std::vector<double> fit_ridge(const std::vector<double>& x, const std::vector<double>& y,
                              int features, double ridge);

// The probabilities the model gives a group's alternatives.
std::vector<double> choice_probabilities(const ChoiceGroup& group, const std::vector<double>& w);

}  // namespace sampling
