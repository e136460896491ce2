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

double mean_of(const std::vector<double>& xs) {
    double sum = 0;
    for (double x : xs) sum += x;
    return xs.empty() ? 0 : sum / static_cast<double>(xs.size());
}

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

Interval mean_interval(const std::vector<double>& xs, double level) {
    Interval iv;
    iv.n = static_cast<long>(xs.size());
    iv.estimate = mean_of(xs);
    iv.low = iv.high = kNaN;
    if (iv.n < 2) return iv;
    double ss = 0;
    for (double x : xs) ss += (x - iv.estimate) * (x - iv.estimate);
    const double sd = std::sqrt(ss / static_cast<double>(iv.n - 1));
    const boost::math::students_t dist(static_cast<double>(iv.n - 1));
    const double t = boost::math::quantile(boost::math::complement(dist, (1 - level) / 2));
    const double half = t * sd / std::sqrt(static_cast<double>(iv.n));
    iv.low = iv.estimate - half;
    iv.high = iv.estimate + half;
    return iv;
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

TournamentSummary summarize(const std::vector<GameResult>& results, int rotations, double level) {
    TournamentSummary out;
    std::vector<std::string> order;
    std::map<std::string, std::vector<double>> scores;
    std::map<std::string, long> games, wins;
    std::map<std::string, bool> cheats;
    // Per board: the lines seen and, per spec, the sum and count of its seat-hand scores.
    std::map<long, int> board_lines;
    std::map<long, std::map<std::string, std::pair<double, long>>> board_scores;
    for (const GameResult& g : results) {
        ++board_lines[g.board];
        std::vector<std::pair<std::string, int>> seen;  // (spec, unit) already counted in this line
        for (const SeatResult& s : g.seats) {
            cheats[s.spec] = cheats[s.spec] || s.cheats;
            if (std::find(seen.begin(), seen.end(), std::pair(s.spec, s.unit)) != seen.end())
                continue;
            seen.emplace_back(s.spec, s.unit);
            if (!games.count(s.spec)) order.push_back(s.spec);
            ++games[s.spec];
            wins[s.spec] += s.won ? 1 : 0;
            auto& bs = board_scores[g.board][s.spec];
            for (double x : s.hand_scores) {
                scores[s.spec].push_back(x);
                bs.first += x;
                ++bs.second;
            }
        }
    }
    for (const std::string& spec : order)
        out.specs.push_back({spec, games[spec], wins[spec],
                             wilson_interval(wins[spec], games[spec], level),
                             mean_interval(scores[spec], level), cheats[spec]});
    if (rotations <= 1) return out;
    for (const auto& [board, lines] : board_lines) out.boards += lines == rotations ? 1 : 0;
    for (std::size_t i = 0; i < order.size(); ++i)
        for (std::size_t k = i + 1; k < order.size(); ++k) {
            std::vector<double> diffs;
            for (const auto& [board, per_spec] : board_scores) {
                if (board_lines[board] != rotations) continue;
                const auto a = per_spec.find(order[i]), b = per_spec.find(order[k]);
                if (a == per_spec.end() || b == per_spec.end() || !a->second.second ||
                    !b->second.second)
                    continue;
                diffs.push_back(a->second.first / a->second.second -
                                b->second.first / b->second.second);
            }
            out.pairs.push_back({order[i], order[k], mean_interval(diffs, level)});
        }
    return out;
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

std::vector<PolicySummary> summarize_policies(const std::vector<std::string>& policies,
                                              const std::vector<std::vector<double>>& losses,
                                              double level) {
    std::vector<PolicySummary> rows;
    for (std::size_t i = 0; i < policies.size(); ++i) {
        const std::vector<double>& l = losses.at(i);
        const long best =
            std::count_if(l.begin(), l.end(), [](double x) { return x <= kBestTolerance; });
        rows.push_back({policies[i], wilson_interval(best, static_cast<long>(l.size()), level),
                        mean_interval(l, level)});
    }
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
