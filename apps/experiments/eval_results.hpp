#pragma once
// The results file of an evaluation, written and read here only: its header (the plan: every
// option and input fingerprint that decides the results) and its result lines, one per deal-seat
// (bid mode: deal, seat, the value of every bid, best_bid, each policy's bid, loss) or per decision
// (play mode: record_line, hand, trick, seat, legal cards and their values, best, each policy's
// choice, loss). Reading checks types, required keys and ranges against the header (a line of the
// other mode, a choice that is not legal) and throws cardgames::InputError naming the key;
// ResultsFile and read_results add the file and the line.

#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "apps/experiments/stats.hpp"
#include "cardgames/cards/card.hpp"
#include "cardgames/cards/deal.hpp"
#include "cardgames/rules/rules.hpp"

namespace apps {

// An evaluation run: everything in options() decides the results, so it is the file's header.
struct EvalPlan {
    bool bid_mode = true;
    std::vector<std::string> policies;  // policy p is entry p of the PlayerFactory
    std::string reference = "rule";     // plays the hands out and values the choices
    int samples = 16;                   // sampled layouts per item
    std::uint64_t seed = 1;
    std::string seats = "all";  // as given: "all" or a list such as "0,2"
    long count = 0;             // deals (bid) or decisions (play) asked for
    cardgames::Rules rules;     // bid mode: the rules of the deals
    std::string input_fnv1a;    // fingerprint of the deal set (bid) or the records (play)

    nlohmann::json options() const;
};

// The plan from an eval header ({"type":"header",...,"options":{...}}).
EvalPlan eval_plan_from_header(const nlohmann::json& header);

// FNV-1a of an input file as 16 hex digits: --resume refuses a deal set or records file that
// changed.
std::string input_fingerprint(const std::string& text);

// The keys that name an item on its result line, as they are written: bid mode "deal_index",
// "deal", "seat"; play mode "record_line", "hand", "trick", "seat", "legal".
nlohmann::json eval_bid_identity(long deal_index, const cardgames::Deal& deal, int seat);
nlohmann::json eval_play_identity(long record_line, int hand, int trick, int seat,
                                  const std::vector<cardgames::Card>& legal);

// What the items of a run are, from its input (the deal set or the records): how many, and the
// identity (as above) of item `index` < total.
struct EvalItems {
    long total = 0;
    std::function<nlohmann::json(long index)> identity;
};
// The items of a plan's input, once the plan is read from a header (eval --report with the input
// file): an empty function when there is no input to check against.
using EvalInput = std::function<EvalItems(const EvalPlan& plan)>;

// Bid mode, item `index`: `values[b]` the value of bid b (bids below `lowest_bid` are not allowed:
// null), the best bid, each policy's bid and loss.
std::string eval_bid_line(long index, long deal_index, const cardgames::Deal& deal, int seat,
                          const std::vector<double>& values, int lowest_bid, int best_bid,
                          const std::vector<int>& bids, const std::vector<double>& losses);
// Play mode, item `index`: the decision (its record's line, hand, trick, seat), the legal cards
// and their values, the best card, each policy's card and loss.
std::string eval_play_line(long index, long record_line, int hand, int trick, int seat,
                           const std::vector<cardgames::Card>& legal,
                           const std::vector<double>& values, cardgames::Card best,
                           const std::vector<cardgames::Card>& choices,
                           const std::vector<double>& losses);

// The loss of each policy on a result line, after the line is checked: its keys for the plan's
// mode; its index within the header's count (bid mode: count deals times the seats); its identity:
// the item of `items` for its index when given, else what the header alone says (bid mode: the
// deal index and seat of the index, a deal of the rules); its own values: no value for a bid the
// rules do not allow, the best bid or card one of highest value, each policy's choice allowed,
// and each loss the best value minus the value of the policy's choice.
std::vector<double> eval_result_from_json(const nlohmann::json& line, const EvalPlan& plan,
                                          const EvalItems* items = nullptr);

// A whole eval results file, read line by line and checked as above: its plan, how many results
// it holds and, per policy, how often it made a best choice and its mean loss (EvalTally). `each`
// (if given) sees every result line and its losses, in index order.
struct EvalFile {
    EvalPlan plan;
    long results = 0;
    std::vector<PolicySummary> summary;
};
using EvalLineFn =
    std::function<void(const nlohmann::json& line, const std::vector<double>& losses)>;
EvalFile read_eval_file(const std::string& path, const EvalInput& input = {},
                        const EvalLineFn& each = {});
// The table of an EvalTally summary as the command line prints it.
std::string format_eval_summary(const std::vector<PolicySummary>& rows, bool bid_mode);

// The table `eval --report` prints for a whole results file (each item checked against `input`'s
// items when given).
std::string eval_report(const std::string& path, const EvalInput& input = {});

}  // namespace apps
