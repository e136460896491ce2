#include "sampling/bid_fit.hpp"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace sampling {

namespace {

// Column means and standard deviations (1 for a constant column, which then weighs nothing).
struct Scaling {
    Eigen::VectorXd mean, sd;
};

Scaling scaling_of(const std::vector<std::vector<double>>& x, std::size_t d) {
    Scaling s{Eigen::VectorXd::Zero(static_cast<Eigen::Index>(d)),
              Eigen::VectorXd::Zero(static_cast<Eigen::Index>(d))};
    const double n = static_cast<double>(std::max<std::size_t>(1, x.size()));
    for (const auto& row : x)
        for (std::size_t j = 0; j < d; ++j) s.mean[j] += row[j] / n;
    for (const auto& row : x)
        for (std::size_t j = 0; j < d; ++j)
            s.sd[j] += (row[j] - s.mean[j]) * (row[j] - s.mean[j]) / n;
    for (std::size_t j = 0; j < d; ++j) s.sd[j] = s.sd[j] > 1e-12 ? std::sqrt(s.sd[j]) : 1.0;
    return s;
}

// Newton's method (IRLS) for the penalised logistic log-likelihood over design `z`: the first
// `intercepts` columns carry a tiny penalty (only to stay finite where a class never occurs), the
// others `ridge` times the row count.
Eigen::VectorXd irls(const Eigen::MatrixXd& z, const Eigen::VectorXd& y, int intercepts,
                     double ridge, int iterations) {
    const Eigen::Index p = z.cols();
    const double n = static_cast<double>(std::max<Eigen::Index>(1, z.rows()));
    Eigen::VectorXd penalty = Eigen::VectorXd::Constant(p, ridge * n);
    penalty.head(intercepts).setConstant(1e-6 * n);
    Eigen::VectorXd beta = Eigen::VectorXd::Zero(p);
    for (int it = 0; it < iterations; ++it) {
        const Eigen::VectorXd eta = z * beta;
        const Eigen::VectorXd prob = (1.0 + (-eta.array()).exp()).inverse().matrix();
        const Eigen::VectorXd w = (prob.array() * (1 - prob.array())).max(1e-10).matrix();
        const Eigen::VectorXd grad = z.transpose() * (y - prob) - penalty.cwiseProduct(beta);
        Eigen::MatrixXd h = z.transpose() * w.asDiagonal() * z;
        h.diagonal() += penalty;
        const Eigen::VectorXd step = h.ldlt().solve(grad);
        beta += step;
        if (step.cwiseAbs().maxCoeff() < 1e-9) break;
    }
    return beta;
}

}  // namespace

LogisticFit fit_logistic(const std::vector<std::vector<double>>& x, const std::vector<int>& y,
                         double ridge, int iterations) {
    if (x.empty()) throw std::invalid_argument("fit_logistic: no samples");
    const std::size_t d = x.front().size();
    const Scaling sc = scaling_of(x, d);
    const auto n = static_cast<Eigen::Index>(x.size());
    Eigen::MatrixXd z(n, static_cast<Eigen::Index>(d) + 1);
    Eigen::VectorXd yy(n);
    for (Eigen::Index i = 0; i < n; ++i) {
        z(i, 0) = 1;
        for (std::size_t j = 0; j < d; ++j)
            z(i, static_cast<Eigen::Index>(j) + 1) = (x[i][j] - sc.mean[j]) / sc.sd[j];
        yy[i] = y[i];
    }
    const Eigen::VectorXd beta = irls(z, yy, 1, ridge, iterations);
    LogisticFit fit;
    fit.intercept = beta[0];
    for (std::size_t j = 0; j < d; ++j) {
        const double w = beta[static_cast<Eigen::Index>(j) + 1] / sc.sd[j];
        fit.weights.push_back(w);
        fit.intercept -= w * sc.mean[j];
    }
    return fit;
}

SpadesBidModel fit_bid_model(const std::vector<BidSample>& samples, const cardgames::Rules& rules,
                             double ridge) {
    SpadesBidModel m;
    m.players = rules.players;
    m.cards = rules.cards_per_hand();
    m.partnership = rules.is_partnership();
    const std::size_t d = bid_feature_names().size();
    const int cards = m.cards;

    std::vector<std::vector<double>> trick_x, nil_x, all_x;
    std::vector<const BidSample*> trick_samples;
    std::vector<int> nil_y;
    for (const BidSample& s : samples) {
        all_x.push_back(s.x);
        if (s.bid == 0) {
            nil_x.push_back(s.x);
            nil_y.push_back(s.tricks == 0 ? 1 : 0);
        } else {
            trick_x.push_back(s.x);
            trick_samples.push_back(&s);
        }
    }
    if (trick_x.empty() || nil_x.empty())
        throw std::invalid_argument("fit_bid_model: the data needs both nil and other bids");

    // Tricks: rows (sample, k) for k = 1..cards, "tricks >= k".
    const Scaling sc = scaling_of(trick_x, d);
    const auto rows = static_cast<Eigen::Index>(trick_x.size()) * cards;
    Eigen::MatrixXd z = Eigen::MatrixXd::Zero(rows, cards + static_cast<Eigen::Index>(d));
    Eigen::VectorXd y(rows);
    Eigen::Index r = 0;
    for (std::size_t i = 0; i < trick_x.size(); ++i)
        for (int k = 1; k <= cards; ++k, ++r) {
            z(r, k - 1) = 1;
            for (std::size_t j = 0; j < d; ++j)
                z(r, cards + static_cast<Eigen::Index>(j)) =
                    (trick_x[i][j] - sc.mean[j]) / sc.sd[j];
            y[r] = trick_samples[i]->tricks >= k ? 1 : 0;
        }
    const Eigen::VectorXd beta = irls(z, y, cards, ridge, 100);
    double shift = 0;
    for (std::size_t j = 0; j < d; ++j) {
        const double w = beta[cards + static_cast<Eigen::Index>(j)] / sc.sd[j];
        m.trick_weights.push_back(w);
        shift += w * sc.mean[j];
    }
    for (int k = 0; k < cards; ++k) m.trick_intercepts.push_back(beta[k] - shift);

    const LogisticFit nil = fit_logistic(nil_x, nil_y, ridge);
    m.nil_intercept = nil.intercept;
    m.nil_weights = nil.weights;

    // The partner's tricks around a bid, from the bids the rule player would have made (a
    // partner's bid as the model meets it), lightly smoothed so no residual is impossible.
    const auto& names = bid_feature_names();
    const auto rule_col =
        static_cast<std::size_t>(std::find(names.begin(), names.end(), "rule_bid") - names.begin());
    m.partner_residual.assign(2 * static_cast<std::size_t>(cards) + 1, 0.01);
    for (const BidSample* s : trick_samples)
        if (std::lround(s->x[rule_col]) == s->bid)
            m.partner_residual[static_cast<std::size_t>(s->tricks - s->bid + cards)] += 1;
    double total = 0;
    for (double v : m.partner_residual) total += v;
    for (double& v : m.partner_residual) v /= total;

    double blind = 0;
    for (const auto& x : all_x) blind += m.nil_made(x);
    m.blind_nil_made = blind / static_cast<double>(all_x.size());
    return m;
}

BidFitFigures bid_fit_figures(const SpadesBidModel& model, const std::vector<BidSample>& samples) {
    BidFitFigures f;
    const auto& names = bid_feature_names();
    const auto rule_col =
        static_cast<std::size_t>(std::find(names.begin(), names.end(), "rule_bid") - names.begin());
    for (const BidSample& s : samples) {
        if (s.bid == 0) {
            const double p = std::clamp(model.nil_made(s.x), 1e-12, 1 - 1e-12);
            const bool made = s.tricks == 0;
            f.nil_log_loss -= std::log(made ? p : 1 - p);
            f.nil_made_share += made;
            f.nil_predicted_share += p;
            ++f.nil_samples;
            continue;
        }
        const std::vector<double> p = model.tricks(s.x, s.sure);
        double mean = 0;
        for (std::size_t k = 0; k < p.size(); ++k) mean += static_cast<double>(k) * p[k];
        f.tricks_mae += std::abs(mean - s.tricks);
        f.tricks_log_loss -= std::log(std::max(1e-12, p[static_cast<std::size_t>(s.tricks)]));
        f.baseline_mae += std::abs(s.x[rule_col] - s.tricks);
        ++f.tricks_samples;
    }
    if (f.tricks_samples > 0) {
        const auto n = static_cast<double>(f.tricks_samples);
        f.tricks_mae /= n;
        f.tricks_log_loss /= n;
        f.baseline_mae /= n;
    }
    if (f.nil_samples > 0) {
        const auto n = static_cast<double>(f.nil_samples);
        f.nil_log_loss /= n;
        f.nil_made_share /= n;
        f.nil_predicted_share /= n;
    }
    return f;
}

}  // namespace sampling
