#include "cardgames/record.hpp"

#include "cardgames/error.hpp"

namespace cardgames {

using nlohmann::json;

json hand_to_json(const Rules& rules, const HandRecord& h) {
    json j;
    j["hand"] = h.number;
    j["dealer"] = h.dealer;
    j["deal"] = deal_to_string(h.deal);
    if (rules.game == GameKind::kSpades) {
        json bids = json::array(), blind = json::array();
        for (int s = 0; s < rules.players; ++s) {
            bids.push_back(h.bids[s].tricks);
            blind.push_back(h.bids[s].blind);
        }
        j["bids"] = bids;
        j["blind_nil"] = blind;
        json ex = json::array();
        for (const auto& [seat, cards] : h.exchanges) ex.push_back({{"seat", seat}, {"cards", cards_to_string(cards)}});
        j["exchanges"] = ex;
    } else {
        j["pass_offset"] = h.pass_offset;
        json passes = json::array();
        for (int s = 0; s < rules.players; ++s) passes.push_back(cards_to_string(h.passed[s]));
        j["passes"] = passes;
    }
    json plays = json::array();
    for (const PlayedCard& p : h.plays) plays.push_back(json::array({p.seat, to_string(p.card)}));
    j["plays"] = plays;
    j["trick_winners"] = h.trick_winners;
    std::vector<int> tricks(h.tricks.begin(), h.tricks.begin() + rules.players);
    j["tricks"] = tricks;
    const int units = rules.num_units();
    j["hand_score"] = std::vector<int>(h.score.delta.begin(), h.score.delta.begin() + units);
    j["scores"] = std::vector<int>(h.scores_after.score.begin(), h.scores_after.score.begin() + units);
    if (rules.game == GameKind::kSpades)
        j["bags"] = std::vector<int>(h.scores_after.bags.begin(), h.scores_after.bags.begin() + units);
    else
        j["moon"] = h.score.moon_shooter;
    return j;
}

json game_record(const Game& game, const std::vector<std::string>& players, const std::vector<FallbackNote>& fallbacks) {
    const Rules& rules = game.rules();
    json j;
    j["type"] = "game";
    j["version"] = kRecordVersion;
    json r = json::object();
    for (const auto& [k, v] : rules_to_pairs(rules)) r[k] = v;
    j["rules"] = r;
    j["seed"] = game.seed();
    j["players"] = players;
    json hands = json::array();
    for (const HandRecord& h : game.finished_hands()) hands.push_back(hand_to_json(rules, h));
    j["hands"] = hands;
    const int units = rules.num_units();
    j["final_scores"] = std::vector<int>(game.scores().score.begin(), game.scores().score.begin() + units);
    j["winners"] = game.winners();
    j["complete"] = game.over();
    if (!fallbacks.empty()) {
        json notes = json::array();
        for (const FallbackNote& f : fallbacks)
            notes.push_back({{"hand", f.hand}, {"seat", f.seat}, {"decision", f.decision}, {"received", f.received},
                             {"reason", f.reason}, {"fallback", f.fallback}});
        j["fallbacks"] = notes;
    }
    return j;
}

Rules rules_from_json(const json& rules) {
    if (!rules.is_object()) throw InputError("\"rules\" must be an object of key: value");
    std::string text;
    for (const auto& [k, v] : rules.items()) text += k + "=" + (v.is_string() ? v.get<std::string>() : v.dump()) + "\n";
    return parse_rules(text, "record rules", {});
}

namespace {

// Typed access that names the missing or mistyped field.
template <class T>
T field(const json& j, const char* name, const std::string& where) {
    if (!j.is_object() || !j.contains(name)) throw InputError(where + ": missing field \"" + name + "\"");
    try {
        return j.at(name).get<T>();
    } catch (const json::exception&) {
        throw InputError(where + ": field \"" + name + "\" has the wrong type (" + j.at(name).dump() + ")");
    }
}

CardSet parse_cards(const std::string& text, const std::string& where) {
    CardSet out;
    std::size_t start = 0;
    while (start < text.size()) {
        auto end = text.find(' ', start);
        if (end == std::string::npos) end = text.size();
        if (end > start) {
            try {
                out |= parse_card(text.substr(start, end - start));
            } catch (const InputError& e) {
                rethrow_with_context(where, e);
            }
        }
        start = end + 1;
    }
    return out;
}

std::string describe(const std::vector<int>& v) {
    std::string s = "[";
    for (std::size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
    return s + "]";
}

}  // namespace

ReplayResult replay_record(const json& record) {
    ReplayResult result;
    const Rules rules = rules_from_json(field<json>(record, "rules", "record"));
    Game game(rules, field<std::uint64_t>(record, "seed", "record"));
    const json hands = field<json>(record, "hands", "record");
    if (!hands.is_array()) throw InputError("record: \"hands\" must be an array");
    auto fail = [&](const std::string& msg) {
        result.ok = false;
        result.error = msg;
        result.scores = game.scores();
        return result;
    };
    // A complete game without winners was stopped after its last hand (tournaments by hands).
    const bool stopped = record.contains("complete") && record["complete"] == true && record.contains("winners") &&
                         record["winners"].is_array() && record["winners"].empty();
    for (std::size_t hi = 0; hi < hands.size(); ++hi) {
        const json& h = hands[hi];
        const std::string where = "hand " + std::to_string(hi);
        if (game.over()) return fail(where + ": the game was already over");
        if (stopped && hi + 1 == hands.size()) game.stop_after_hand();
        if (field<int>(h, "hand", where) != game.hand().number || field<int>(h, "dealer", where) != game.hand().dealer)
            return fail(where + ": hand number or dealer does not follow from the previous hand");
        try {
            game.set_deal(parse_deal(field<std::string>(h, "deal", where)));
        } catch (const InputError& e) {
            rethrow_with_context(where, e);
        }
        std::vector<int> bids, exchange_seats;
        std::vector<bool> blind;
        std::vector<CardSet> passes, exchange_cards;
        if (rules.game == GameKind::kSpades) {
            bids = field<std::vector<int>>(h, "bids", where);
            blind = field<std::vector<bool>>(h, "blind_nil", where);
            if (static_cast<int>(bids.size()) != rules.players || static_cast<int>(blind.size()) != rules.players)
                throw InputError(where + ": \"bids\" and \"blind_nil\" need one entry per seat");
            for (const json& e : field<json>(h, "exchanges", where)) {
                exchange_seats.push_back(field<int>(e, "seat", where + " exchange"));
                exchange_cards.push_back(parse_cards(field<std::string>(e, "cards", where + " exchange"), where + " exchange"));
            }
        } else {
            for (const auto& p : field<std::vector<std::string>>(h, "passes", where)) passes.push_back(parse_cards(p, where + " passes"));
        }
        const json plays = field<json>(h, "plays", where);
        std::size_t next_play = 0, next_exchange = 0;
        const int hand_number = game.hand().number;
        while (!game.over() && game.hand().number == hand_number && !game.hand().finished) {
            const int seat = game.to_act();
            std::string why, what;
            switch (game.phase()) {
                case Phase::kBlindNil:
                    what = "seat " + std::to_string(seat) + " blind nil decision";
                    why = game.choose_blind_nil(blind[seat]);
                    break;
                case Phase::kBid:
                    what = "seat " + std::to_string(seat) + " bid " + std::to_string(bids[seat]);
                    why = game.choose_bid(bids[seat]);
                    break;
                case Phase::kPass:
                    if (rules.game == GameKind::kHearts) {
                        if (static_cast<int>(passes.size()) != rules.players) return fail(where + ": \"passes\" needs one entry per seat");
                        what = "seat " + std::to_string(seat) + " pass";
                        why = game.choose_pass(passes[seat]);
                    } else {
                        if (next_exchange >= exchange_seats.size()) return fail(where + ": a blind nil exchange is missing");
                        what = "exchange " + std::to_string(next_exchange + 1);
                        if (exchange_seats[next_exchange] != seat)
                            return fail(where + ", " + what + ": seat " + std::to_string(exchange_seats[next_exchange]) +
                                        " gives cards but seat " + std::to_string(seat) + " is due");
                        why = game.choose_pass(exchange_cards[next_exchange++]);
                    }
                    break;
                case Phase::kPlay: {
                    if (next_play >= plays.size()) return fail(where + ": the record ends after " + std::to_string(next_play) + " cards");
                    const json& p = plays[next_play];
                    if (!p.is_array() || p.size() != 2 || !p[0].is_number_integer() || !p[1].is_string())
                        throw InputError(where + ", card " + std::to_string(next_play + 1) + ": expected [seat, \"card\"], got " + p.dump());
                    const int rseat = p[0].get<int>();
                    Card c;
                    try {
                        c = parse_card(p[1].get<std::string>());
                    } catch (const InputError& e) {
                        rethrow_with_context(where + ", card " + std::to_string(next_play + 1), e);
                    }
                    what = "card " + std::to_string(next_play + 1) + " (seat " + std::to_string(rseat) + " " + to_string(c) + ")";
                    if (rseat != seat) return fail(where + ", " + what + ": seat " + std::to_string(seat) + " is to play");
                    ++next_play;
                    why = game.choose_card(c);
                    break;
                }
                case Phase::kGameOver: break;
            }
            if (!why.empty()) return fail(where + ", " + what + ": illegal: " + why);
        }
        if (next_play != plays.size()) return fail(where + ": " + std::to_string(plays.size() - next_play) + " cards after the hand ended");
        const HandRecord& done = game.finished_hands().back();
        const json recomputed = hand_to_json(rules, done);
        for (const char* key : {"trick_winners", "tricks", "hand_score", "scores"}) {
            if (h.contains(key) && h[key] != recomputed[key])
                return fail(where + ": recorded \"" + key + "\" " + h[key].dump() + " but the rules give " + recomputed[key].dump());
        }
        ++result.hands;
    }
    result.scores = game.scores();
    result.winners = game.winners();
    if (record.contains("winners") && record["winners"] != json(result.winners))
        return fail("recorded winners " + record["winners"].dump() + " but the rules give " + describe(result.winners));
    if (record.contains("complete") && record["complete"].is_boolean() && record["complete"].get<bool>() && !game.over())
        return fail("the record says the game is complete but it is not over after " + std::to_string(result.hands) + " hands");
    return result;
}

}  // namespace cardgames
