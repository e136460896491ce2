#include "cardgames/rules/record.hpp"

#include "cardgames/cards/error.hpp"
#include "cardgames/cards/json_input.hpp"
#include "cardgames/cards/text.hpp"

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
        for (const auto& [seat, cards] : h.exchanges)
            ex.push_back({{"seat", seat}, {"cards", cards_to_string(cards)}});
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
    j["scores"] =
        std::vector<int>(h.scores_after.score.begin(), h.scores_after.score.begin() + units);
    if (rules.game == GameKind::kSpades)
        j["bags"] =
            std::vector<int>(h.scores_after.bags.begin(), h.scores_after.bags.begin() + units);
    else
        j["moon"] = h.score.moon_shooter;
    return j;
}

json game_record(const Game& game, const std::vector<std::string>& players,
                 const std::vector<FallbackNote>& fallbacks, const std::vector<int>& cheats) {
    const Rules& rules = game.rules();
    json j;
    j["type"] = "game";
    j["version"] = kRecordVersion;
    j["rules"] = rules_to_json(rules);
    j["seed"] = game.seed();
    j["players"] = players;
    if (!cheats.empty()) j["cheats"] = cheats;
    json hands = json::array();
    for (const HandRecord& h : game.finished_hands()) hands.push_back(hand_to_json(rules, h));
    j["hands"] = hands;
    const int units = rules.num_units();
    j["final_scores"] =
        std::vector<int>(game.scores().score.begin(), game.scores().score.begin() + units);
    j["winners"] = game.winners();
    j["complete"] = game.over();
    if (!fallbacks.empty()) {
        json notes = json::array();
        for (const FallbackNote& f : fallbacks)
            notes.push_back({{"hand", f.hand},
                             {"seat", f.seat},
                             {"decision", f.decision},
                             {"received", f.received},
                             {"reason", f.reason},
                             {"fallback", f.fallback}});
        j["fallbacks"] = notes;
    }
    return j;
}

json rules_to_json(const Rules& rules) {
    json r = json::object();
    for (const auto& [k, v] : rules_to_pairs(rules)) r[k] = v;
    return r;
}

Rules rules_from_json(const json& rules) {
    if (!rules.is_object()) throw InputError("\"rules\" must be an object of key: value");
    std::string text;
    for (const auto& [k, v] : rules.items()) {
        const std::string value = v.is_string() ? v.get<std::string>() : v.dump();
        // One key=value line each: a line break would smuggle in another key.
        if (k.find_first_of("\r\n=") != std::string::npos ||
            value.find_first_of("\r\n") != std::string::npos)
            throw InputError("key \"rules." + safe_text(k) + "\": a line break or '=' in a rule");
        text += k + "=" + value + "\n";
    }
    return parse_rules(text, "record rules", {});
}

Rules rules_from_json(const JsonField& rules) {
    try {
        return rules_from_json(rules.object());
    } catch (const InputError& e) {
        rethrow_with_context("key \"" + rules.path() + "\"", e);
    }
}

bool is_game_record(const json& line) {
    if (!line.is_object() || !line.contains("type")) return false;
    return JsonField(line, "")["type"].string() == "game";
}

namespace {

constexpr long long kMaxHands = 100000;
constexpr long long kMaxBid =
    52;  // past any deck: beyond it a "bid" is not one; within, the rules judge
constexpr long long kMaxScore = 1000000000;
constexpr std::size_t kDeckSize = 52;

CardSet parse_cards(const JsonField& f) {
    CardSet out;
    const std::string& text = f.string();
    std::size_t start = 0;
    while (start < text.size()) {
        auto end = text.find(' ', start);
        if (end == std::string::npos) end = text.size();
        if (end > start) {
            try {
                out |= parse_card(std::string_view(text).substr(start, end - start));
            } catch (const InputError& e) {
                rethrow_with_context("key \"" + f.path() + "\"", e);
            }
        }
        start = end + 1;
    }
    return out;
}

int seat_of(const JsonField& f, const Rules& rules) {
    return static_cast<int>(f.integer(0, rules.players - 1));
}

std::vector<int> integers(const JsonField& f, std::size_t lo, std::size_t hi, long long min,
                          long long max) {
    std::vector<int> out;
    const std::size_t n = f.array(lo, hi);
    for (std::size_t i = 0; i < n; ++i) out.push_back(static_cast<int>(f[i].integer(min, max)));
    return out;
}

RecordedHand read_hand(const JsonField& h, const Rules& rules) {
    RecordedHand out;
    const std::size_t n = static_cast<std::size_t>(rules.players);
    out.number = static_cast<int>(h["hand"].integer(0, kMaxHands));
    out.dealer = seat_of(h["dealer"], rules);
    try {
        out.deal = parse_deal(h["deal"].string());
    } catch (const InputError& e) {
        rethrow_with_context("key \"" + h["deal"].path() + "\"", e);
    }
    if (rules.game == GameKind::kSpades) {
        out.bids = integers(h["bids"], n, n, 0, kMaxBid);
        const JsonField blind = h["blind_nil"];
        for (std::size_t s = 0, k = blind.array(n, n); s < k; ++s)
            out.blind.push_back(blind[s].boolean());
        const JsonField ex = h["exchanges"];
        for (std::size_t i = 0, k = ex.array(0, 2 * n); i < k; ++i)
            out.exchanges.emplace_back(seat_of(ex[i]["seat"], rules), parse_cards(ex[i]["cards"]));
    } else {
        const JsonField passes = h["passes"];
        for (std::size_t s = 0, k = passes.array(n, n); s < k; ++s)
            out.passes.push_back(parse_cards(passes[s]));
    }
    const JsonField plays = h["plays"];
    for (std::size_t i = 0, k = plays.array(0, kDeckSize); i < k; ++i) {
        const JsonField p = plays[i];
        p.array(2, 2);
        const int seat = seat_of(p[0], rules);
        try {
            out.plays.push_back({static_cast<std::int8_t>(seat), parse_card(p[1].string())});
        } catch (const InputError& e) {
            rethrow_with_context("key \"" + p[1].path() + "\"", e);
        }
    }
    out.recorded = json::object();
    for (const char* key : {"trick_winners", "tricks", "hand_score", "scores", "bags"}) {
        if (!h.has(key)) continue;
        integers(h[key], 0, kDeckSize, -kMaxScore, kMaxScore);
        out.recorded[key] = h[key].json();
    }
    if (h.has("moon")) out.recorded["moon"] = h["moon"].integer(-1, rules.players - 1);
    if (h.has("pass_offset"))
        out.recorded["pass_offset"] = h["pass_offset"].integer(-rules.players, rules.players);
    return out;
}

// The keys a reader does not need are still checked, so that a record that passes is one the
// program could have written.
void check_optional_keys(const JsonField& r, const Rules& rules) {
    if (r.has("version") && r["version"].integer(0, kMaxScore) != kRecordVersion)
        r["version"].fail("record version " + std::to_string(r["version"].integer(0, kMaxScore)) +
                          ", this program reads " + std::to_string(kRecordVersion));
    if (!r.has("fallbacks")) return;
    const JsonField notes = r["fallbacks"];
    for (std::size_t i = 0, k = notes.array(); i < k; ++i) {
        notes[i]["hand"].integer(0, kMaxHands);
        seat_of(notes[i]["seat"], rules);
        for (const char* key : {"decision", "received", "reason", "fallback"})
            notes[i][key].string();
    }
}

std::string describe(const std::vector<int>& v) {
    return json(v).dump();
}

// A recorded outcome that is not what the rules give: the record is refused, naming the key.
[[noreturn]] void contradicts(const std::string& key, const std::string& recorded,
                              const std::string& derived) {
    throw InputError("key \"" + key + "\": recorded " + safe_text(recorded) +
                     " but the rules give " + derived);
}

// The decisions of a finished hand as the rules took them, against the record's: Spades bids
// and blind-nil flags, and the blind-nil exchanges (the replay consumed `exchanges_used` of
// them); Hearts passes (none in a hand that holds).
void check_decisions(const Rules& rules, const RecordedHand& h, const HandRecord& done,
                     std::size_t exchanges_used, const std::string& at) {
    for (int s = 0; s < rules.players; ++s) {
        const auto i = static_cast<std::size_t>(s);
        const std::string seat = "[" + std::to_string(s) + "]";
        if (rules.game == GameKind::kSpades) {
            if (h.blind[i] != done.bids[i].blind)
                contradicts(at + "blind_nil" + seat, h.blind[i] ? "true" : "false",
                            done.bids[i].blind ? "true" : "false");
            if (h.bids[i] != done.bids[i].tricks)
                contradicts(at + "bids" + seat, std::to_string(h.bids[i]),
                            std::to_string(done.bids[i].tricks) +
                                (done.bids[i].blind ? " (blind nil)" : ""));
        } else if (h.passes[i] != done.passed[i]) {
            contradicts(at + "passes" + seat, "\"" + cards_to_string(h.passes[i]) + "\"",
                        "\"" + cards_to_string(done.passed[i]) + "\"");
        }
    }
    if (exchanges_used < h.exchanges.size())
        contradicts(at + "exchanges[" + std::to_string(exchanges_used) + "]",
                    "an exchange by seat " + std::to_string(h.exchanges[exchanges_used].first),
                    std::to_string(exchanges_used) + " exchanges in this hand");
}

}  // namespace

RecordedGame read_game_record(const json& record) {
    const JsonField r(record, "");
    r.object();
    RecordedGame out;
    try {
        out.rules = rules_from_json(r["rules"].object());
    } catch (const InputError& e) {
        rethrow_with_context("key \"rules\"", e);
    }
    const std::size_t n = static_cast<std::size_t>(out.rules.players);
    out.seed = r["seed"].unsigned_integer();
    if (r.has("players"))
        for (std::size_t s = 0, k = r["players"].array(n, n); s < k; ++s)
            out.players.push_back(r["players"][s].string());
    if (r.has("cheats")) {
        out.cheats = integers(r["cheats"], 1, n, 0, out.rules.players - 1);
        for (std::size_t i = 1; i < out.cheats.size(); ++i)
            if (out.cheats[i] <= out.cheats[i - 1])
                r["cheats"][i].fail("seats in increasing order, each once");
    }
    const JsonField hands = r["hands"];
    for (std::size_t i = 0, k = hands.array(0, kMaxHands); i < k; ++i)
        out.hands.push_back(read_hand(hands[i], out.rules));
    if (r.has("winners"))
        out.winners = integers(r["winners"], 0, static_cast<std::size_t>(out.rules.num_units()), 0,
                               out.rules.num_units() - 1);
    out.complete_given = r.has("complete");
    out.complete = out.complete_given && r["complete"].boolean();
    if (r.has("final_scores")) {
        const auto units = static_cast<std::size_t>(out.rules.num_units());
        out.final_scores = integers(r["final_scores"], units, units, -kMaxScore, kMaxScore);
    }
    check_optional_keys(r, out.rules);
    return out;
}

ReplayResult replay_record(const json& record) {
    return replay_record(read_game_record(record));
}

ReplayResult replay_record(const RecordedGame& record, const PlayVisitor& before_play) {
    ReplayResult result;
    const Rules& rules = record.rules;
    Game game(rules, record.seed);
    const std::vector<RecordedHand>& hands = record.hands;
    auto fail = [&](const std::string& msg) {
        result.ok = false;
        result.error = msg;
        result.scores = game.scores();
        return result;
    };
    // A complete game without winners was stopped after its last hand (tournaments by hands).
    const bool stopped = record.complete && record.winners && record.winners->empty();
    for (std::size_t hi = 0; hi < hands.size(); ++hi) {
        const RecordedHand& h = hands[hi];
        const std::string where = "hand " + std::to_string(hi);
        const std::string at = "hands[" + std::to_string(hi) + "].";
        if (game.over()) return fail(where + ": the game was already over");
        if (stopped && hi + 1 == hands.size()) game.stop_after_hand();
        if (h.number != game.hand().number)
            contradicts(at + "hand", std::to_string(h.number), std::to_string(game.hand().number));
        if (h.dealer != game.hand().dealer)
            contradicts(at + "dealer", std::to_string(h.dealer),
                        std::to_string(game.hand().dealer));
        try {
            game.set_deal(h.deal);
        } catch (const InputError& e) {
            rethrow_with_context("key \"hands[" + std::to_string(hi) + "].deal\"", e);
        }
        std::size_t next_play = 0, next_exchange = 0;
        const int hand_number = game.hand().number;
        while (!game.over() && game.hand().number == hand_number && !game.hand().finished) {
            const int seat = game.to_act();
            std::string why, what;
            switch (game.phase()) {
                case Phase::kBlindNil:
                    what = "seat " + std::to_string(seat) + " blind nil decision";
                    if (h.blind[seat] && h.bids[seat] != 0)
                        contradicts(at + "bids[" + std::to_string(seat) + "]",
                                    std::to_string(h.bids[seat]), "0 (a blind nil)");
                    why = game.choose_blind_nil(h.blind[seat]);
                    break;
                case Phase::kBid:
                    what = "seat " + std::to_string(seat) + " bid " + std::to_string(h.bids[seat]);
                    why = game.choose_bid(h.bids[seat]);
                    break;
                case Phase::kPass:
                    if (rules.game == GameKind::kHearts) {
                        what = "seat " + std::to_string(seat) + " pass";
                        why = game.choose_pass(h.passes[seat]);
                    } else {
                        const std::string key =
                            at + "exchanges[" + std::to_string(next_exchange) + "]";
                        if (next_exchange >= h.exchanges.size())
                            contradicts(key, "none", "an exchange by seat " + std::to_string(seat));
                        what = "exchange " + std::to_string(next_exchange + 1);
                        const auto& [giver, cards] = h.exchanges[next_exchange++];
                        if (giver != seat)
                            contradicts(key + ".seat", std::to_string(giver), std::to_string(seat));
                        why = game.choose_pass(cards);
                    }
                    break;
                case Phase::kPlay: {
                    if (next_play >= h.plays.size())
                        return fail(where + ": the record ends after " + std::to_string(next_play) +
                                    " cards");
                    const PlayedCard& p = h.plays[next_play];
                    what = "card " + std::to_string(next_play + 1) + " (seat " +
                           std::to_string(p.seat) + " " + to_string(p.card) + ")";
                    if (p.seat != seat)
                        return fail(where + ", " + what + ": seat " + std::to_string(seat) +
                                    " is to play");
                    if (before_play) before_play(game);
                    ++next_play;
                    why = game.choose_card(p.card);
                    break;
                }
                case Phase::kGameOver:
                    break;
            }
            if (!why.empty()) return fail(where + ", " + what + ": illegal: " + why);
        }
        if (next_play != h.plays.size())
            return fail(where + ": " + std::to_string(h.plays.size() - next_play) +
                        " cards after the hand ended");
        const HandRecord& done = game.finished_hands().back();
        check_decisions(rules, h, done, next_exchange, at);
        const json recomputed = hand_to_json(rules, done);
        for (const auto& [key, value] : h.recorded.items()) {
            // A key of the other game (Hearts' moon in Spades) is not one the rules give.
            const json derived = recomputed.contains(key) ? recomputed[key] : json();
            if (value != derived)
                contradicts(at + key, value.dump(),
                            derived.is_null()
                                ? std::string(rules.game == GameKind::kSpades ? "none in Spades"
                                                                              : "none in Hearts")
                                : derived.dump());
        }
        result.played.push_back(done);
        ++result.hands;
    }
    result.scores = game.scores();
    result.winners = game.winners();
    const int units = rules.num_units();
    const std::vector<int> final_scores(result.scores.score.begin(),
                                        result.scores.score.begin() + units);
    if (record.final_scores && *record.final_scores != final_scores)
        contradicts("final_scores", describe(*record.final_scores), describe(final_scores));
    if (record.winners && *record.winners != result.winners)
        contradicts("winners", describe(*record.winners), describe(result.winners));
    if (record.complete_given && record.complete != game.over())
        contradicts(
            "complete", record.complete ? "true" : "false",
            game.over()
                ? "true (the game is over after " + std::to_string(result.hands) + " hands)"
                : "false (the game is not over after " + std::to_string(result.hands) + " hands)");
    return result;
}

}  // namespace cardgames
