#pragma once
// Summary statistics of tournament and evaluation results: pure functions over plain values, so a
// test can check them against hand-computed numbers. Means get a Student t interval; proportions
// (win rate, agreement) a Wilson score interval, which stays inside [0, 1] and behaves at 0 and n.

#include <string>
#include <vector>

namespace apps {

// An estimate with its confidence interval; low and high are NaN when n is too small for one.
struct Interval {
    double estimate = 0;
    double low = 0;
    double high = 0;
    long n = 0;
};

// Mean of xs with a two-sided Student t interval at `level` (n-1 degrees of freedom; needs n >= 2).
Interval mean_interval(const std::vector<double>& xs, double level = 0.95);
// Proportion successes/n with a two-sided Wilson score interval at `level` (needs n >= 1).
Interval wilson_interval(long successes, long n, double level = 0.95);
// "0.523 [0.481, 0.565]" with `decimals` digits; "-" for a missing bound.
std::string format_interval(const Interval& iv, int decimals);

// One tournament result line (a game or a hand) reduced to what the table needs, seat by seat.
struct SeatResult {
    std::string spec;
    int unit = 0;  // partners share a unit: one observation between them
    bool won = false;
    std::vector<double> hand_scores;  // the score of the seat's unit in each hand
    bool cheats = false;              // the seat is in the record's "cheats": it saw every hand
};
struct GameResult {
    long board = 0;
    int rotation = 0;
    std::vector<SeatResult> seats;
};

// Bounds of what a results file may hold: past them a value is not a result but a broken file.
inline constexpr long kMaxResultCount = 1L << 40;  // games, hands, decisions in one file
inline constexpr double kMaxHandScore = 1e6;       // a hand's score, a value or loss of eval

// Per player spec: the games it played (per scoring unit: partners of one spec count once, a
// spec at two cutthroat seats twice), the wins among them, and the score per hand of its units.
struct SpecSummary {
    std::string spec;
    long games = 0;
    long wins = 0;
    Interval win_rate;
    Interval score_per_hand;
    bool sees_all_hands = false;  // it cheated in some seat (the `oracle`): the table says so
};
// Duplicate mode: per complete board, the mean score per hand of spec a minus that of spec b on
// the same deals; the interval is over boards.
struct PairedComparison {
    std::string a;
    std::string b;
    Interval difference;
};
struct TournamentSummary {
    std::vector<SpecSummary> specs;       // in order of first appearance
    std::vector<PairedComparison> pairs;  // duplicate mode only, every pair of specs
    long boards = 0;                      // complete boards used for the pairs
};

// `rotations` is the number of lines per board (1 when not duplicate): only boards with all of
// them enter the paired comparison.
TournamentSummary summarize(const std::vector<GameResult>& results, int rotations,
                            double level = 0.95);
std::string format_summary(const TournamentSummary& summary, bool lower_is_better);

// Evaluation table: per policy, how often it matched the best choice and its mean loss.
struct PolicySummary {
    std::string policy;
    Interval best_rate;
    Interval loss;
};
// losses[i][k]: the loss of policy i at item k (0 means it made a best choice).
std::vector<PolicySummary> summarize_policies(const std::vector<std::string>& policies,
                                              const std::vector<std::vector<double>>& losses,
                                              double level = 0.95);
std::string format_policy_summary(const std::vector<PolicySummary>& rows,
                                  const std::string& best_label);

}  // namespace apps
