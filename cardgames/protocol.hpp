#pragma once
// The text protocol between a table and a bot (docs/PROTOCOL.md): one line per message, words
// separated by spaces, cards in the notation of RULES.md. The table tells the bot the game, its
// hand and every public event, and asks it for decisions; the bot answers each `ask` with one line.
//
// TableWriter (table side) turns the InfoStates a seat is given at its decisions, plus the record of
// each finished hand, into the protocol's lines. BotView (bot side) reads those lines back into the
// very InfoState the table's seat saw, so an in-process bot behind `cardgames bot` decides exactly
// as it would at our own table. check_answer (table side) parses a bot's answer and checks it
// against the rules; format_answer (bot side) writes one.

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "cardgames/game.hpp"
#include "cardgames/info_state.hpp"
#include "cardgames/rules.hpp"

namespace cardgames::protocol {

inline constexpr int kVersion = 1;
inline constexpr const char* kHello = "cardgames-protocol";

// A line the bot side cannot make sense of (unknown version, bad card, event out of turn).
class ProtocolError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// The protocol's word for a decision: "blind_nil", "bid", "pass", "play".
std::string decision_name(Phase phase);

// Table side, one per seat and game. Keeps what it has already told the bot, so each call sends
// only what is new; events always reach the bot in the order they happened.
class TableWriter {
public:
    explicit TableWriter(std::uint64_t bot_seed) : bot_seed_(bot_seed) {}

    // The lines to send before a decision: the start of the session (first call), the events since
    // the last call, then the `ask` line last.
    std::vector<std::string> decision(const InfoState& info);
    // The lines to send when a hand is over: its remaining events, `handover`, and `gameover` when
    // the game ends. Nothing before the first decision (the bot has not been started then).
    std::vector<std::string> hand_over(const HandRecord& hand, bool game_over, const std::vector<int>& winners);
    // The last line of a session.
    static std::string end_line() { return "end"; }

    bool started() const { return started_; }

private:
    void start(const InfoState& info, std::vector<std::string>& out);
    void start_hand(const InfoState& info, std::vector<std::string>& out);
    void send_card(const PlayedCard& p, std::vector<std::string>& out);
    std::string ask_line(const InfoState& info) const;

    std::uint64_t bot_seed_;
    bool started_ = false;
    Rules rules_;
    int seat_ = -1;
    int hand_ = -1;
    int dealer_ = 0;
    bool hand_closed_ = true;
    bool cards_sent_ = false;
    bool passes_sent_ = false;
    std::uint32_t bids_sent_ = 0;       // bit per seat
    std::size_t plays_sent_ = 0;
    std::size_t exchanges_sent_ = 0;    // blind-nil exchange steps told
    CardSet exchange_given_told_, exchange_received_told_;
};

// Bot side: rebuilds the seat's InfoState from the table's lines. Not copyable (the InfoState
// points at the Rules it holds).
class BotView {
public:
    BotView() = default;
    BotView(const BotView&) = delete;
    BotView& operator=(const BotView&) = delete;

    // Reads one line. Returns the decision asked for when the line is an `ask`, else nullopt.
    // Throws ProtocolError naming what is wrong.
    std::optional<Phase> feed(std::string_view line);

    const InfoState& info() const { return info_; }
    bool started() const { return info_.rules != nullptr; }
    bool ended() const { return ended_; }
    std::uint64_t seed() const { return seed_; }
    // Set by a `game` line: a new game begins (a bot built for the previous one should be rebuilt).
    int games_started() const { return games_; }
    // When the `ask` listed choices that differ from what the rebuilt state allows: the difference.
    const std::string& choice_mismatch() const { return mismatch_; }

private:
    void start_play(int leader);
    void need_rules(const std::string& what) const;

    Rules rules_;
    PlayRules play_rules_;
    InfoState info_;
    std::uint64_t seed_ = 0;
    int games_ = 0;
    bool play_started_ = false;
    bool ended_ = false;
    std::string mismatch_;
};

// A bot's answer, parsed and checked against the decision it answers.
struct Answer {
    enum class Status { kOk, kMalformed, kIllegal };
    Status status = Status::kOk;
    std::string why;  // for kMalformed and kIllegal
    bool blind = false;
    int bid = -1;
    CardSet cards;
    Card card = kNoCard;
};

// Parses `line` as the answer to the decision in `info` (whose phase says which). The answer is
// the choice itself ("4", "AS", "2C 3D 4H", "yes"); the decision's name in front ("play AS") is
// tolerated.
Answer check_answer(const InfoState& info, std::string_view line);

// Bot side: the answer line for a decision.
std::string format_blind_nil(bool blind);
std::string format_bid(int tricks);
std::string format_pass(CardSet cards);
std::string format_play(Card card);

}  // namespace cardgames::protocol
