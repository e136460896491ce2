#pragma once
// Summary statistics of tournament and evaluation results: pure functions over plain values, so a
// test can check them against hand-computed numbers. Means get a Student t interval; proportions
// (win rate, agreement) a Wilson score interval, which stays inside [0, 1] and behaves at 0 and n.
// A run's table is kept as running sums (TournamentTally, EvalTally), fed one result at a time:
// their size depends on the number of specs or policies, never on the number of results.

#include <map>
#include <string>
#include <utility>
#include <vector>

namespace apps {

// An estimate with its confidence interval; low and high are NaN when n is too small for one.
struct Interval {
    double estimate = 0;
    double low = 0;
    double high = 0;
    long n = 0;
};

// A mean and variance kept as running sums (Welford), one value at a time.
class RunningMean {
  public:
    void add(double x);
    long n() const { return n_; }
    // The mean with a two-sided Student t interval at `level` (n-1 degrees of freedom; needs
    // n >= 2).
    Interval interval(double level = 0.95) const;

  private:
    long n_ = 0;
    double sum_ = 0;   // the mean is sum_ / n_, as a plain average would have it
    double mean_ = 0;  // Welford's running mean and sum of squared deviations
    double m2_ = 0;
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

// The tournament table as running sums: per spec its games, wins and score per hand; per pair of
// specs the paired difference over complete boards. Results are added in index order, so a board's
// rotations come one after another and only the board being added is held. `rotations` is the
// number of lines per board (1 when not duplicate): only boards with all of them enter the pairs.
class TournamentTally {
  public:
    explicit TournamentTally(int rotations) : rotations_(rotations) {}
    void add(const GameResult& result);
    long results() const { return results_; }
    TournamentSummary summary(double level = 0.95) const;
    // How many values the tally holds: it depends on the specs, not on the results added.
    std::size_t stored_values() const;

  private:
    struct Spec {
        std::string spec;
        long games = 0;
        long wins = 0;
        RunningMean score;
        bool cheats = false;  // it saw every hand in some seat (the `oracle`)
    };
    int spec_index(const std::string& spec);
    void end_board();

    int rotations_;
    long results_ = 0;
    std::vector<Spec> specs_;                           // in order of first appearance
    std::map<std::pair<int, int>, RunningMean> pairs_;  // (a, b), a < b: the paired differences
    long complete_boards_ = 0;
    long board_ = -1;                                 // the board being added
    int board_lines_ = 0;                             // its lines so far
    std::vector<std::pair<double, long>> board_sum_;  // per spec: its seat-hand scores there
};
std::string format_summary(const TournamentSummary& summary, bool lower_is_better);

// Evaluation table: per policy, how often it matched the best choice and its mean loss.
struct PolicySummary {
    std::string policy;
    Interval best_rate;
    Interval loss;
};
// The evaluation table as running sums, one result line (each policy's loss) at a time.
class EvalTally {
  public:
    explicit EvalTally(std::vector<std::string> policies);
    // One loss per policy (0 means it made a best choice).
    void add(const std::vector<double>& losses);
    long results() const { return results_; }
    std::vector<PolicySummary> summary(double level = 0.95) const;
    std::size_t stored_values() const { return 3 * policies_.size(); }

  private:
    std::vector<std::string> policies_;
    std::vector<long> best_;
    std::vector<RunningMean> loss_;
    long results_ = 0;
};
std::string format_policy_summary(const std::vector<PolicySummary>& rows,
                                  const std::string& best_label);

}  // namespace apps
