#include "apps/experiments/eval_decisions.hpp"

#include <nlohmann/json.hpp>
#include <sstream>

#include "cardgames/cards/error.hpp"
#include "cardgames/cards/json_input.hpp"
#include "cardgames/rules/game.hpp"
#include "cardgames/rules/record.hpp"

namespace apps {

using namespace cardgames;
using nlohmann::json;

namespace {

bool seat_chosen(const std::string& seats, int seat) {
    if (seats == "all") return true;
    std::istringstream in(seats);
    std::string item;
    while (std::getline(in, item, ','))
        if (item == std::to_string(seat)) return true;
    return false;
}

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

// Re-runs one record (read and replayed already) and collects the chosen decisions.
void collect_from(const RecordedGame& record, const Rules& rules, const std::string& seats,
                  long line_no, long limit, std::vector<PlayDecision>& out) {
    Game game(rules, record.seed);
    for (const RecordedHand& h : record.hands) {
        game.set_deal(h.deal);
        std::size_t next_play = 0, next_exchange = 0;
        const int number = game.hand().number;
        while (!game.over() && game.hand().number == number) {
            const int seat = game.to_act();
            switch (game.phase()) {
                case Phase::kBlindNil:
                    game.choose_blind_nil(h.blind[seat]);
                    break;
                case Phase::kBid:
                    game.choose_bid(h.bids[seat]);
                    break;
                case Phase::kPass:
                    game.choose_pass(rules.game == GameKind::kHearts
                                         ? h.passes[seat]
                                         : h.exchanges[next_exchange++].second);
                    break;
                case Phase::kPlay: {
                    if (seat_chosen(seats, seat) &&
                        game.play_state().legal_moves(game.play_rules()).size() > 1) {
                        out.push_back(decision_at(game, rules, line_no));
                        if (static_cast<long>(out.size()) >= limit) return;
                    }
                    game.choose_card(h.plays[next_play++].card);
                    break;
                }
                case Phase::kGameOver:
                    break;
            }
        }
    }
}

}  // namespace

std::vector<PlayDecision> collect_decisions(const std::string& path, const std::string& text,
                                            const std::string& seats, long limit,
                                            std::deque<Rules>& rules_store) {
    std::vector<PlayDecision> out;
    std::istringstream in(text);
    std::string line;
    long line_no = 0;
    while (static_cast<long>(out.size()) < limit && std::getline(in, line)) {
        ++line_no;
        if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
        const std::string where = "'" + path + "' line " + std::to_string(line_no);
        try {
            const json line_json = parse_json_line(line);
            if (!is_game_record(line_json)) continue;
            const RecordedGame record = read_game_record(line_json);
            const ReplayResult r = replay_record(record);
            if (!r.ok) throw InputError("the record does not replay: " + r.error);
            rules_store.push_back(record.rules);
            const Rules& rules = rules_store.back();
            if (seats != "all")
                for (char c : seats)
                    if (c != ',' && (c < '0' || c >= '0' + rules.players))
                        throw InputError("--seats '" + seats + "': expected 'all' or seats 0.." +
                                         std::to_string(rules.players - 1));
            collect_from(record, rules, seats, line_no, limit, out);
        } catch (const InputError& e) {
            rethrow_with_context(where, e);
        }
    }
    if (out.empty())
        throw InputError("'" + path +
                         "': no play decisions found (no game records, or only forced plays)");
    return out;
}

}  // namespace apps
