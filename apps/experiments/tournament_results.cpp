#include "apps/experiments/tournament_results.hpp"

#include <algorithm>
#include <optional>

#include "apps/experiments/results_file.hpp"
#include "cardgames/cards/deal.hpp"
#include "cardgames/cards/error.hpp"
#include "cardgames/cards/json_input.hpp"
#include "cardgames/cards/seeds.hpp"
#include "cardgames/rules/dealing.hpp"
#include "cardgames/rules/game_runner.hpp"
#include "cardgames/rules/record.hpp"
#include "cardgames/rules/scoring.hpp"

namespace apps {

using cardgames::InputError;
using cardgames::JsonField;
using nlohmann::json;

namespace {

std::vector<std::string> strings(const JsonField& f, std::size_t lo, std::size_t hi) {
    std::vector<std::string> out;
    for (std::size_t i = 0, n = f.array(lo, hi); i < n; ++i) out.push_back(f[i].string());
    return out;
}

void expect_index(const JsonField& f, long long expected) {
    if (f.integer(0, kMaxResultCount) != expected)
        f.fail("expected " + std::to_string(expected) + " (from the line's index), found " +
               f.json().dump());
}

// The seat fields of a finished game (one hand when by hands), as written and as checked.
struct SeatFields {
    json units = json::array(), wins = json::array(), scores = json::array();
};

SeatFields seat_fields(const TournamentPlan& plan, const std::vector<cardgames::HandRecord>& hands,
                       const std::vector<int>& game_winners) {
    const cardgames::Rules& rules = plan.rules;
    const std::vector<int> winners =
        plan.by_hands ? cardgames::hand_winners(rules, hands.back().score) : game_winners;
    SeatFields out;
    for (int s = 0; s < rules.players; ++s) {
        const int unit = rules.unit_of(s);
        out.units.push_back(unit);
        out.wins.push_back(std::find(winners.begin(), winners.end(), unit) != winners.end() ? 1
                                                                                            : 0);
        json per_hand = json::array();
        for (const cardgames::HandRecord& h : hands) per_hand.push_back(h.score.delta[unit]);
        out.scores.push_back(per_hand);
    }
    return out;
}

// The game as the rules replay it (replay_record checks every recorded outcome), dealt the
// board's deals of this run, with the seat fields it gives.
void check_against_replay(const JsonField& f, const cardgames::RecordedGame& record,
                          const TournamentPlan& plan, long board) {
    const cardgames::ReplayResult replayed = cardgames::replay_record(record);
    if (!replayed.ok) f["hands"].fail("the game does not replay: " + replayed.error);
    if (replayed.played.size() != record.hands.size())
        f["hands"].fail(std::to_string(replayed.played.size()) + " of " +
                        std::to_string(record.hands.size()) + " hands replayed");
    for (std::size_t h = 0; h < record.hands.size(); ++h) {
        const cardgames::RecordedHand& hand = record.hands[h];
        if (hand.deal != cardgames::tournament_deal(plan.rules, plan.seed, board, hand.number))
            f["hands"][h]["deal"].fail("not the deal of board " + std::to_string(board) +
                                       " (hand " + std::to_string(hand.number) +
                                       ") of the header's seed");
    }
    const SeatFields expected = seat_fields(plan, replayed.played, replayed.winners);
    for (int s = 0; s < plan.rules.players; ++s) {
        const auto seat = static_cast<std::size_t>(s);
        if (f["seat_win"][seat].json() != expected.wins[seat])
            f["seat_win"][seat].fail("recorded " + f["seat_win"][seat].json().dump() +
                                     " but the replayed game gives " + expected.wins[seat].dump());
        for (std::size_t h = 0; h < record.hands.size(); ++h)
            if (f["seat_hand_scores"][seat][h].json() != expected.scores[seat][h])
                f["seat_hand_scores"][seat][h].fail(
                    "recorded " + f["seat_hand_scores"][seat][h].json().dump() +
                    " but the replayed game gives " + expected.scores[seat][h].dump());
    }
}

}  // namespace

std::vector<std::string> TournamentPlan::seat_specs(int rotation) const {
    const int n = rules.players;
    std::vector<std::string> out(n);
    for (int e = 0; e < n; ++e) out[(e + rotation) % n] = specs[e];
    return out;
}

json TournamentPlan::options() const {
    json o{{"rules", cardgames::rules_to_json(rules)},
           {"players", specs},
           {by_hands ? "hands" : "games", count},
           {"duplicate", duplicate},
           {"seed", seed},
           {"record_version", cardgames::kRecordVersion}};
    if (!cheats.empty()) o["cheats"] = cheats;
    if (seat_seeds) o["seat_seeds"] = true;  // absent when off: older files read the same
    return o;
}

TournamentPlan tournament_plan_from_header(const json& header) {
    const JsonField o = JsonField(header, "")["options"];
    TournamentPlan plan;
    plan.rules = cardgames::rules_from_json(o["rules"]);
    const auto n = static_cast<std::size_t>(plan.rules.players);
    plan.specs = strings(o["players"], n, n);
    if (o.has("games") == o.has("hands")) o.fail("expected exactly one of \"games\" and \"hands\"");
    plan.by_hands = o.has("hands");
    plan.count =
        static_cast<long>(o[plan.by_hands ? "hands" : "games"].integer(1, kMaxResultCount));
    plan.duplicate = o["duplicate"].boolean();
    plan.seed = o["seed"].unsigned_integer();
    if (o.has("seat_seeds")) plan.seat_seeds = o["seat_seeds"].boolean();
    if (o.has("cheats")) {
        const JsonField cheats = o["cheats"];
        for (std::size_t i = 0, k = cheats.array(1, n); i < k; ++i) {
            plan.cheats.push_back(static_cast<int>(cheats[i].integer(0, plan.rules.players - 1)));
            if (i > 0 && plan.cheats[i] <= plan.cheats[i - 1])
                cheats[i].fail("entries in increasing order, each once");
        }
    }
    if (o["record_version"].integer(0, kMaxResultCount) != cardgames::kRecordVersion)
        o["record_version"].fail("records of version " + std::to_string(cardgames::kRecordVersion) +
                                 " expected");
    return plan;
}

GameResult game_result_from_json(const json& line) {
    const cardgames::JsonField f(line, "");
    GameResult r;
    r.board = static_cast<long>(f["board"].integer(0, kMaxResultCount));
    r.rotation = static_cast<int>(f["rotation"].integer(0, cardgames::kMaxPlayers - 1));
    const cardgames::JsonField specs = f["players"], units = f["seat_unit"], wins = f["seat_win"],
                               scores = f["seat_hand_scores"];
    const std::size_t n = specs.array(1, cardgames::kMaxPlayers);
    for (const auto& seat_field : {units, wins, scores})
        if (seat_field.array() != n)
            seat_field.fail("one entry per seat in \"players\" (" + std::to_string(n) +
                            ") needed, found " + std::to_string(seat_field.array()));
    for (std::size_t s = 0; s < n; ++s) {
        SeatResult seat{specs[s].string(),
                        static_cast<int>(units[s].integer(0, cardgames::kMaxPlayers - 1)),
                        wins[s].integer(0, 1) != 0,
                        {}};
        for (std::size_t h = 0, k = scores[s].array(); h < k; ++h)
            seat.hand_scores.push_back(scores[s][h].number(-kMaxHandScore, kMaxHandScore));
        r.seats.push_back(std::move(seat));
    }
    if (f.has("cheats"))
        for (std::size_t i = 0, k = f["cheats"].array(1, n); i < k; ++i)
            r.seats[static_cast<std::size_t>(f["cheats"][i].integer(0, n - 1))].cheats = true;
    return r;
}

GameResult tournament_result_from_json(const json& line, const TournamentPlan& plan) {
    const JsonField f(line, "");
    const long index = static_cast<long>(f["index"].integer(0, plan.total() - 1));
    if (!cardgames::is_game_record(line)) f["type"].fail("expected \"game\" (a game result)");
    const cardgames::RecordedGame record = cardgames::read_game_record(line);
    GameResult r = game_result_from_json(line);
    const int n = plan.rules.players;
    const long board = index / plan.rotations();
    const int rotation = static_cast<int>(index % plan.rotations());
    expect_index(f["board"], board);
    expect_index(f["rotation"], rotation);
    if (cardgames::rules_to_pairs(record.rules) != cardgames::rules_to_pairs(plan.rules))
        f["rules"].fail("not the rules of the header");
    if (record.seed != cardgames::seeds::tournament_game(plan.seed, board))
        f["seed"].fail("not the seed of board " + std::to_string(board) + " of this run");
    if (record.players != plan.seat_specs(rotation))
        f["players"].fail("not the header's players in rotation " + std::to_string(rotation));
    if (!plan.cheats.empty()) {
        std::vector<int> seats;
        for (int e : plan.cheats) seats.push_back((e + rotation) % n);
        std::sort(seats.begin(), seats.end());
        if (record.cheats != seats)
            (f.has("cheats") ? f["cheats"] : f["players"])
                .fail("not the seats of the header's players that see every hand in rotation " +
                      std::to_string(rotation));
    }
    if (!record.complete) f["complete"].fail("a result is a finished game");
    if (plan.by_hands && record.hands.size() != 1)
        f["hands"].fail("one hand per result in a run by hands");
    for (int s = 0; s < n; ++s) {
        if (r.seats[s].unit != plan.rules.unit_of(s))
            f["seat_unit"][s].fail("seat " + std::to_string(s) + " plays for unit " +
                                   std::to_string(plan.rules.unit_of(s)));
        if (r.seats[s].hand_scores.size() != record.hands.size())
            f["seat_hand_scores"][s].fail("one score per hand of the record (" +
                                          std::to_string(record.hands.size()) + ")");
    }
    check_against_replay(f, record, plan, board);
    return r;
}

std::string tournament_result_line(const TournamentPlan& plan, long index,
                                   const cardgames::Game& game,
                                   const std::vector<std::unique_ptr<cardgames::Player>>& players) {
    const long board = index / plan.rotations();
    const int rotation = static_cast<int>(index % plan.rotations());
    json line = cardgames::game_record(game, plan.seat_specs(rotation),
                                       cardgames::collect_fallbacks(players),
                                       cardgames::cheating_seats(players));
    line["index"] = index;
    line["board"] = board;
    line["rotation"] = rotation;
    SeatFields fields = seat_fields(plan, game.finished_hands(),
                                    plan.by_hands ? std::vector<int>{} : game.winners());
    line["seat_unit"] = std::move(fields.units);
    line["seat_win"] = std::move(fields.wins);
    line["seat_hand_scores"] = std::move(fields.scores);
    return line.dump();
}

TournamentFile read_tournament_file(const std::string& path, const TournamentLineFn& each) {
    TournamentFile file;
    std::optional<TournamentTally> tally;
    read_results(
        path, "tournament",
        [&](const json& header) {
            file.plan = tournament_plan_from_header(header);
            tally.emplace(file.plan.rotations());
        },
        [&](const json& line) {
            const GameResult result = tournament_result_from_json(line, file.plan);
            tally->add(result);
            if (each) each(line, result);
        });
    file.results = tally->results();
    file.summary = tally->summary();
    return file;
}

std::string tournament_report(const std::string& path) {
    const TournamentFile file = read_tournament_file(path);
    return format_summary(file.summary, cardgames::lower_score_wins(file.plan.rules));
}

}  // namespace apps
