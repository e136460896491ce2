#include "apps/eval_decisions.hpp"

#include <nlohmann/json.hpp>
#include <sstream>

#include "cardgames/error.hpp"
#include "cardgames/game.hpp"
#include "cardgames/record.hpp"

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

CardSet cards_of(const std::string& text) {
    CardSet out;
    std::istringstream in(text);
    std::string word;
    while (in >> word) out |= parse_card(word);
    return out;
}

// The decision as the seat to play sees it, with the public facts a playout needs.
PlayDecision decision_at(const Game& game, const Rules& stored, long line_no) {
    const int seat = game.to_act();
    const int n = game.rules().players;
    PlayDecision d;
    d.info = game.info_state(seat);
    d.info.rules = &stored;
    d.record_line = line_no;
    d.hand = game.hand().number;
    d.taken = game.hand().taken;
    for (int s = 0; s < n; ++s) d.hand_sizes[s] = game.play_state().hands[s].size();
    // The seat knows where the cards it gave away are, until they are played.
    if (!d.info.passed.empty()) {
        const int to = game.rules().game == GameKind::kHearts ? (seat + game.hand().pass_offset + n) % n : (seat + 2) % 4;
        d.known[to] = d.info.passed - d.info.play.played;
    }
    return d;
}

// Re-runs one (already validated) record and collects the chosen decisions.
void collect_from(const json& record, const Rules& rules, const std::string& seats, long line_no, long limit,
                  std::vector<PlayDecision>& out) {
    Game game(rules, record.at("seed").get<std::uint64_t>());
    for (const json& h : record.at("hands")) {
        game.set_deal(parse_deal(h.at("deal").get<std::string>()));
        std::size_t next_play = 0, next_exchange = 0;
        const int number = game.hand().number;
        while (!game.over() && game.hand().number == number) {
            const int seat = game.to_act();
            switch (game.phase()) {
                case Phase::kBlindNil: game.choose_blind_nil(h.at("blind_nil").at(seat).get<bool>()); break;
                case Phase::kBid: game.choose_bid(h.at("bids").at(seat).get<int>()); break;
                case Phase::kPass:
                    if (rules.game == GameKind::kHearts) game.choose_pass(cards_of(h.at("passes").at(seat).get<std::string>()));
                    else game.choose_pass(cards_of(h.at("exchanges").at(next_exchange++).at("cards").get<std::string>()));
                    break;
                case Phase::kPlay: {
                    if (seat_chosen(seats, seat) && game.play_state().legal_moves(game.play_rules()).size() > 1) {
                        out.push_back(decision_at(game, rules, line_no));
                        if (static_cast<long>(out.size()) >= limit) return;
                    }
                    game.choose_card(parse_card(h.at("plays").at(next_play++).at(1).get<std::string>()));
                    break;
                }
                case Phase::kGameOver: break;
            }
        }
    }
}

}  // namespace

std::vector<PlayDecision> collect_decisions(const std::string& path, const std::string& text, const std::string& seats,
                                            long limit, std::deque<Rules>& rules_store) {
    std::vector<PlayDecision> out;
    std::istringstream in(text);
    std::string line;
    long line_no = 0;
    while (static_cast<long>(out.size()) < limit && std::getline(in, line)) {
        ++line_no;
        if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
        const std::string where = "'" + path + "' line " + std::to_string(line_no);
        json record;
        try {
            record = json::parse(line);
        } catch (const json::exception&) {
            throw InputError(where + ": not JSON");
        }
        try {
            if (!record.is_object() || record.value("type", "") != "game") continue;
            const ReplayResult r = replay_record(record);
            if (!r.ok) throw InputError("the record does not replay: " + r.error);
            rules_store.push_back(rules_from_json(record.at("rules")));
            const Rules& rules = rules_store.back();
            if (seats != "all")
                for (char c : seats)
                    if (c != ',' && (c < '0' || c >= '0' + rules.players))
                        throw InputError("--seats '" + seats + "': expected 'all' or seats 0.." + std::to_string(rules.players - 1));
            collect_from(record, rules, seats, line_no, limit, out);
        } catch (const InputError& e) {
            rethrow_with_context(where, e);
        } catch (const json::exception& e) {
            throw InputError(where + ": " + e.what());
        }
    }
    if (out.empty()) throw InputError("'" + path + "': no play decisions found (no game records, or only forced plays)");
    return out;
}

}  // namespace apps
