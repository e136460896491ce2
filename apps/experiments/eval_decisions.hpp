#pragma once
// The play decisions that `cardgames eval --mode play` evaluates, taken from game records: every
// record is replayed (replay_record, which checks it), and each card play of a chosen seat with
// more than one legal card becomes a PlayDecision (forced plays say nothing).

#include <deque>
#include <functional>
#include <string>
#include <vector>

#include "apps/experiments/eval_playout.hpp"

namespace apps {

// Passes each line of `text` (the contents of the input file `path`) that is not blank to `take`
// with its line number, while `more()` says so. An InputError from `take` is rethrown naming the
// path and the line.
void for_each_input_line(const std::string& path, const std::string& text,
                         const std::function<bool()>& more,
                         const std::function<void(const std::string& line, long line_no)>& take);

// `text` is the file's contents (JSON Lines; lines whose "type" is not "game" are skipped);
// `seats` is "all" or a comma list (parse_seats, against each record's players). Stops after
// `limit` decisions. The decisions' InfoStates point into `rules_store`, which must outlive them.
// Throws InputError naming the line.
std::vector<PlayDecision> collect_decisions(const std::string& path, const std::string& text,
                                            const std::string& seats, long limit,
                                            std::deque<cardgames::Rules>& rules_store);

}  // namespace apps
