#include "apps/experiments/eval_decisions.hpp"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <sstream>

#include "apps/experiments/eval.hpp"
#include "cardgames/cards/error.hpp"
#include "cardgames/cards/json_input.hpp"
#include "cardgames/rules/game.hpp"
#include "cardgames/rules/record.hpp"

namespace apps {

using namespace cardgames;
using nlohmann::json;

namespace {

// The decision as the seat to play sees it, with the public facts a playout needs.
PlayDecision decision_at(const Game& game, const Rules& stored, long line_no) {
    const int seat = game.to_act();
    PlayDecision d;
    d.info = game.info_state(seat);
    d.info.rules = &stored;
    d.record_line = line_no;
    d.hand = game.hand().number;
    return d;
}

}  // namespace

void for_each_input_line(const std::string& path, const std::string& text,
                         const std::function<bool()>& more,
                         const std::function<void(const std::string& line, long line_no)>& take) {
    std::istringstream in(text);
    std::string line;
    long line_no = 0;
    while (more() && std::getline(in, line)) {
        ++line_no;
        if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
        try {
            take(line, line_no);
        } catch (const InputError& e) {
            rethrow_with_context("'" + path + "' line " + std::to_string(line_no), e);
        }
    }
}

std::vector<PlayDecision> collect_decisions(const std::string& path, const std::string& text,
                                            const std::string& seats, long limit,
                                            std::deque<Rules>& rules_store) {
    std::vector<PlayDecision> out;
    const auto more = [&] { return static_cast<long>(out.size()) < limit; };
    for_each_input_line(path, text, more, [&](const std::string& line, long line_no) {
        const json line_json = parse_json_line(line);
        if (!is_game_record(line_json)) return;
        const RecordedGame record = read_game_record(line_json);
        rules_store.push_back(record.rules);
        const Rules& rules = rules_store.back();
        const std::vector<int> chosen = parse_seats(seats, rules.players);
        // Forced plays say nothing about a policy; a record that does not replay gives none.
        std::vector<PlayDecision> found;
        const ReplayResult r = replay_record(record, [&](const Game& game) {
            const int seat = game.to_act();
            if (static_cast<long>(out.size() + found.size()) < limit &&
                std::find(chosen.begin(), chosen.end(), seat) != chosen.end() &&
                game.play_state().legal_moves(game.play_rules()).size() > 1)
                found.push_back(decision_at(game, rules, line_no));
        });
        if (!r.ok) throw InputError("the record does not replay: " + r.error);
        out.insert(out.end(), found.begin(), found.end());
    });
    if (out.empty())
        throw InputError("'" + path +
                         "': no play decisions found (no game records, or only forced plays)");
    return out;
}

}  // namespace apps
