#include "sampling/fit.hpp"

#include <Eigen/Dense>
#include <cmath>
#include <stdexcept>

namespace sampling {

namespace {

using RowMatrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

Eigen::Map<const RowMatrix> rows_of(const ChoiceGroup& g, int features) {
    return Eigen::Map<const RowMatrix>(g.x.data(), g.rows, features);
}

// Softmax of the scores, shifted by their maximum so that exp never overflows.
Eigen::VectorXd softmax(const Eigen::VectorXd& scores) {
    Eigen::VectorXd p = (scores.array() - scores.maxCoeff()).exp();
    return p / p.sum();
}

// The weighted log-likelihood of every group (penalty excluded).
double log_likelihood(const std::vector<ChoiceGroup>& groups, int features,
                      const Eigen::VectorXd& w) {
    double total = 0;
    for (const ChoiceGroup& g : groups) {
        const Eigen::VectorXd s = rows_of(g, features) * w;
        const double top = s.maxCoeff();
        const double log_sum = top + std::log((s.array() - top).exp().sum());
        for (int i = 0; i < g.rows; ++i)
            if (g.target[static_cast<std::size_t>(i)] > 0)
                total += g.weight * g.target[static_cast<std::size_t>(i)] * (s(i) - log_sum);
    }
    return total;
}

}  // namespace

std::vector<double> choice_probabilities(const ChoiceGroup& group, const std::vector<double>& w) {
    const int features = static_cast<int>(w.size());
    const Eigen::VectorXd p =
        softmax(rows_of(group, features) * Eigen::Map<const Eigen::VectorXd>(w.data(), features));
    return std::vector<double>(p.data(), p.data() + p.size());
}

FitResult fit_conditional_logit(const std::vector<ChoiceGroup>& groups, int features, double l2,
                                int max_iterations) {
    for (const ChoiceGroup& g : groups)
        if (g.rows < 1 || g.x.size() != static_cast<std::size_t>(g.rows) * features ||
            g.target.size() != static_cast<std::size_t>(g.rows))
            throw std::invalid_argument("fit_conditional_logit: a group's sizes do not match");
    Eigen::VectorXd w = Eigen::VectorXd::Zero(features);
    auto objective = [&](const Eigen::VectorXd& v) {
        return log_likelihood(groups, features, v) - 0.5 * l2 * v.squaredNorm();
    };
    FitResult out;
    double current = objective(w);
    for (int it = 0; it < max_iterations; ++it) {
        out.iterations = it + 1;
        Eigen::VectorXd gradient = -l2 * w;
        Eigen::MatrixXd hessian = -l2 * Eigen::MatrixXd::Identity(features, features);
        for (const ChoiceGroup& g : groups) {
            const auto x = rows_of(g, features);
            const Eigen::VectorXd p = softmax(x * w);
            const Eigen::VectorXd t =
                Eigen::Map<const Eigen::VectorXd>(g.target.data(), g.rows) * g.weight;
            // d/dw: sum_i t_i (x_i - mean_p x); the targets of a group sum to its weight.
            const Eigen::VectorXd mean = x.transpose() * p;
            gradient += x.transpose() * t - t.sum() * mean;
            const Eigen::MatrixXd centred = x.rowwise() - mean.transpose();
            hessian -= t.sum() * (centred.transpose() * p.asDiagonal() * centred);
        }
        const Eigen::VectorXd step = (-hessian).ldlt().solve(gradient);
        // Step halving keeps every accepted step an ascent, whatever the curvature far away.
        double scale = 1;
        Eigen::VectorXd next = w + step;
        double value = objective(next);
        while (value < current && scale > 1e-6) {
            scale /= 2;
            next = w + scale * step;
            value = objective(next);
        }
        if (value < current) break;
        const double gain = value - current;
        w = next;
        current = value;
        if (gain < 1e-10 * (1 + std::abs(current))) {
            out.converged = true;
            break;
        }
    }
    out.weights.assign(w.data(), w.data() + w.size());
    out.objective = groups.empty() ? 0 : log_likelihood(groups, features, w) / groups.size();
    return out;
}

std::vector<double> fit_ridge(const std::vector<double>& x, const std::vector<double>& y,
                              int features, double ridge) {
    if (features < 1 || y.empty() || x.size() != y.size() * static_cast<std::size_t>(features))
        throw std::invalid_argument("fit_ridge: sizes do not match");
    const auto n = static_cast<Eigen::Index>(y.size());
    const Eigen::Map<const RowMatrix> z(x.data(), n, features);
    const Eigen::Map<const Eigen::VectorXd> yy(y.data(), n);
    Eigen::MatrixXd h = z.transpose() * z;
    const Eigen::VectorXd g = z.transpose() * yy;
    const Eigen::VectorXd mean = z.colwise().mean().transpose();
    const double rows = static_cast<double>(n);
    for (Eigen::Index j = 0; j < features; ++j) {
        const double var = (z.col(j).array() - mean[j]).square().sum() / rows;
        // A constant column other than the intercept gets a unit penalty so the system stays
        // solvable; the intercept a tiny one only.
        h(j, j) += j == 0 ? 1e-9 * rows : ridge * rows * (var > 1e-12 ? var : 1.0);
    }
    const Eigen::VectorXd w = h.ldlt().solve(g);
    return std::vector<double>(w.data(), w.data() + w.size());
}

}  // namespace sampling
