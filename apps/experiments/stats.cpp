#include "apps/experiments/stats.hpp"

#include <algorithm>
#include <boost/math/distributions/normal.hpp>
#include <boost/math/distributions/students_t.hpp>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>

namespace apps {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kBestTolerance = 1e-9;

std::string fixed(double x, int decimals) {
    if (std::isnan(x)) return "-";
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, x);
    return buf;
}

std::string pad(std::string s, std::size_t width) {
    if (s.size() < width) s += std::string(width - s.size(), ' ');
    return s;
}

}  // namespace

void RunningMean::add(double x) {
    ++n_;
    sum_ += x;
    const double delta = x - mean_;
    mean_ += delta / static_cast<double>(n_);
    m2_ += delta * (x - mean_);
}

Interval RunningMean::interval(double level) const {
    Interval iv;
    iv.n = n_;
    iv.estimate = n_ == 0 ? 0 : sum_ / static_cast<double>(n_);
    iv.low = iv.high = kNaN;
    if (n_ < 2) return iv;
    const double sd = std::sqrt(std::max(0.0, m2_) / static_cast<double>(n_ - 1));
    const boost::math::students_t dist(static_cast<double>(n_ - 1));
    const double t = boost::math::quantile(boost::math::complement(dist, (1 - level) / 2));
    const double half = t * sd / std::sqrt(static_cast<double>(n_));
    iv.low = iv.estimate - half;
    iv.high = iv.estimate + half;
    return iv;
}

Interval mean_interval(const std::vector<double>& xs, double level) {
    RunningMean m;
    for (double x : xs) m.add(x);
    return m.interval(level);
}

Interval wilson_interval(long successes, long n, double level) {
    Interval iv;
    iv.n = n;
    iv.low = iv.high = kNaN;
    if (n < 1) return iv;
    const double p = static_cast<double>(successes) / static_cast<double>(n);
    const double nn = static_cast<double>(n);
    const double z =
        boost::math::quantile(boost::math::complement(boost::math::normal(), (1 - level) / 2));
    const double denom = 1 + z * z / nn;
    const double center = (p + z * z / (2 * nn)) / denom;
    const double half = z * std::sqrt(p * (1 - p) / nn + z * z / (4 * nn * nn)) / denom;
    iv.estimate = p;
    iv.low = center - half;
    iv.high = center + half;
    return iv;
}

std::string format_interval(const Interval& iv, int decimals) {
    return fixed(iv.estimate, decimals) + " [" + fixed(iv.low, decimals) + ", " +
           fixed(iv.high, decimals) + "]";
}

int TournamentTally::spec_index(const std::string& spec) {
    for (std::size_t i = 0; i < specs_.size(); ++i)
        if (specs_[i].spec == spec) return static_cast<int>(i);
    specs_.push_back({spec, 0, 0, {}, false});
    board_sum_.emplace_back(0.0, 0);
    return static_cast<int>(specs_.size() - 1);
}

void TournamentTally::add(const GameResult& g) {
    if (g.board != board_) {
        board_ = g.board;
        board_lines_ = 0;
        for (auto& b : board_sum_) b = {0.0, 0};
    }
    ++board_lines_;
    ++results_;
    std::vector<std::pair<std::string, int>> seen;  // (spec, unit) already counted in this line
    for (const SeatResult& s : g.seats) {
        const int i = spec_index(s.spec);
        Spec& spec = specs_[static_cast<std::size_t>(i)];
        spec.cheats = spec.cheats || s.cheats;
        if (std::find(seen.begin(), seen.end(), std::pair(s.spec, s.unit)) != seen.end()) continue;
        seen.emplace_back(s.spec, s.unit);
        ++spec.games;
        spec.wins += s.won ? 1 : 0;
        auto& board = board_sum_[static_cast<std::size_t>(i)];
        for (double x : s.hand_scores) {
            spec.score.add(x);
            board.first += x;
            ++board.second;
        }
    }
    if (rotations_ > 1 && board_lines_ == rotations_) end_board();
}

// A complete board: each pair of specs that played on it gets the difference of their means.
void TournamentTally::end_board() {
    ++complete_boards_;
    for (std::size_t a = 0; a < specs_.size(); ++a)
        for (std::size_t b = a + 1; b < specs_.size(); ++b) {
            const auto& x = board_sum_[a];
            const auto& y = board_sum_[b];
            if (x.second == 0 || y.second == 0) continue;
            pairs_[{static_cast<int>(a), static_cast<int>(b)}].add(
                x.first / static_cast<double>(x.second) - y.first / static_cast<double>(y.second));
        }
}

TournamentSummary TournamentTally::summary(double level) const {
    TournamentSummary out;
    for (const Spec& s : specs_)
        out.specs.push_back({s.spec, s.games, s.wins, wilson_interval(s.wins, s.games, level),
                             s.score.interval(level), s.cheats});
    if (rotations_ <= 1) return out;
    out.boards = complete_boards_;
    for (std::size_t a = 0; a < specs_.size(); ++a)
        for (std::size_t b = a + 1; b < specs_.size(); ++b) {
            const auto it = pairs_.find({static_cast<int>(a), static_cast<int>(b)});
            out.pairs.push_back(
                {specs_[a].spec, specs_[b].spec,
                 it == pairs_.end() ? RunningMean().interval(level) : it->second.interval(level)});
        }
    return out;
}

std::size_t TournamentTally::stored_values() const {
    return specs_.size() + pairs_.size() + board_sum_.size();
}

std::string format_summary(const TournamentSummary& summary, bool lower_is_better) {
    std::size_t width = 8;  // "player" and two spaces
    // A player that saw every hand is marked where its figures are read.
    auto label = [](const SpecSummary& s) {
        return s.spec + (s.sees_all_hands ? " (sees all hands)" : "");
    };
    for (const SpecSummary& s : summary.specs) width = std::max(width, label(s).size() + 2);
    std::string out = pad("player", width) + pad("games", 8) + pad("wins", 7) +
                      pad("win rate [95% CI]", 25) + "score/hand [95% CI]" +
                      (lower_is_better ? " (lower is better)" : "") + "\n";
    for (const SpecSummary& s : summary.specs)
        out += pad(label(s), width) + pad(std::to_string(s.games), 8) +
               pad(std::to_string(s.wins), 7) + pad(format_interval(s.win_rate, 3), 25) +
               format_interval(s.score_per_hand, 2) + "\n";
    if (!summary.pairs.empty()) {
        out += "\npaired comparison over " + std::to_string(summary.boards) +
               " complete boards (score/hand of A minus B on the same deals):\n";
        for (const PairedComparison& p : summary.pairs)
            out += "  " + p.a + " - " + p.b + ": " + format_interval(p.difference, 2) + "\n";
    }
    return out;
}

EvalTally::EvalTally(std::vector<std::string> policies)
    : policies_(std::move(policies)), best_(policies_.size(), 0), loss_(policies_.size()) {}

void EvalTally::add(const std::vector<double>& losses) {
    for (std::size_t p = 0; p < policies_.size(); ++p) {
        best_[p] += losses.at(p) <= kBestTolerance ? 1 : 0;
        loss_[p].add(losses[p]);
    }
    ++results_;
}

std::vector<PolicySummary> EvalTally::summary(double level) const {
    std::vector<PolicySummary> rows;
    for (std::size_t p = 0; p < policies_.size(); ++p)
        rows.push_back({policies_[p], wilson_interval(best_[p], loss_[p].n(), level),
                        loss_[p].interval(level)});
    return rows;
}

std::string format_policy_summary(const std::vector<PolicySummary>& rows,
                                  const std::string& best_label) {
    std::size_t width = 8;
    for (const PolicySummary& r : rows) width = std::max(width, r.policy.size() + 2);
    std::string out = pad("policy", width) + pad("items", 8) + pad(best_label + " [95% CI]", 28) +
                      "mean loss [95% CI]\n";
    for (const PolicySummary& r : rows)
        out += pad(r.policy, width) + pad(std::to_string(r.loss.n), 8) +
               pad(format_interval(r.best_rate, 3), 28) + format_interval(r.loss, 3) + "\n";
    return out;
}

}  // namespace apps
