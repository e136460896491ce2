#pragma once
// The text protocol between a table and a bot (docs/PROTOCOL.md): one line per message, words
// separated by spaces, cards in the notation of RULES.md. The table tells the bot the game, its
// hand and every public event, and asks it for decisions; the bot answers each `ask` with one line.
//
// TableWriter (table side) turns the InfoStates a seat is given at its decisions, plus the record
// of each finished hand, into the protocol's lines. BotView (bot side) reads those lines back into
// the very InfoState the table's seat saw, so an in-process bot behind `cardgames bot` decides
// exactly as it would at our own table. check_answer (table side) parses a bot's answer and checks
// it against the rules; format_answer (bot side) writes one.

#include <cstdint>
#include <functional>
#include <istream>
#include <memory>
#include <optional>
#include <ostream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "cardgames/cards/error.hpp"
#include "cardgames/rules/constraints.hpp"
#include "cardgames/rules/game.hpp"
#include "cardgames/rules/info_state.hpp"
#include "cardgames/rules/player.hpp"
#include "cardgames/rules/rules.hpp"

namespace cardgames::protocol {

inline constexpr int kVersion = 1;
inline constexpr const char* kHello = "cardgames-protocol";

// A line the bot side cannot make sense of (unknown version, bad card, event out of turn, a number
// out of range, choices the bot's own account does not give): bad input, exit status 2.
class ProtocolError : public InputError {
  public:
    using InputError::InputError;
};

// Bounds the bot side holds the table's numbers to, so that no sum or difference of scores
// overflows: scores, deltas and the rules' score options are within +-kMaxScore; hand numbers
// are 0..kMaxHandNumber.
inline constexpr int kMaxScore = 10'000'000;
inline constexpr int kMaxHandNumber = 1'000'000'000;
// The longest table line the bot side reads.
inline constexpr std::size_t kMaxLineBytes = 64 * 1024;

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
    std::vector<std::string> hand_over(const HandRecord& hand, bool game_over,
                                       const std::vector<int>& winners);
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
    std::uint32_t bids_sent_ = 0;  // bit per seat
    std::size_t plays_sent_ = 0;
    std::size_t exchanges_sent_ = 0;  // blind-nil exchange steps told
    CardSet exchange_given_told_, exchange_received_told_;
};

// Bot side: rebuilds the seat's InfoState from the table's lines, checking each line against the
// state built so far: counts, ranges, the cards each seat can hold, the order of events, and the
// choices of each `ask` against the bot's own account of them. Not copyable (the InfoState points
// at the Rules it holds).
// The key=value words of a table line and the others (protocol.cpp).
struct Words;

class BotView {
  public:
    BotView() = default;
    BotView(const BotView&) = delete;
    BotView& operator=(const BotView&) = delete;

    // Reads one line. Returns the decision asked for when the line is an `ask`, else nullopt.
    // Throws ProtocolError naming the line's text and what is wrong with it.
    std::optional<Phase> feed(std::string_view line);

    const InfoState& info() const { return info_; }
    bool started() const { return info_.rules != nullptr; }
    bool ended() const { return ended_; }
    std::uint64_t seed() const { return seed_; }
    // Set by a `game` line: a new game begins (a bot built for the previous one should be rebuilt).
    int games_started() const { return games_; }

  private:
    // Where the session stands: which lines may come next.
    enum class Stage { kHello, kNoGame, kGameLine, kBetweenHands, kHand, kGameOver };

    // The stages of feed: the lines about the session itself (the protocol line, `end`; true when
    // `words` was one), then the game's events, each checked against what came before.
    bool read_session_line(const std::vector<std::string>& words);
    std::optional<Phase> apply_event(const std::vector<std::string>& words);
    void on_game(const std::vector<std::string>& words);
    void on_rules(const std::vector<std::string>& words);
    void on_hand(const std::vector<std::string>& words);
    void on_cards(const std::vector<std::string>& words);
    void on_bid(const std::vector<std::string>& words);
    void on_exchange(const std::vector<std::string>& words);
    void on_passed(const std::vector<std::string>& words);
    void on_received(const std::vector<std::string>& words);
    void on_card(const std::vector<std::string>& words);
    // The stages of on_card: read the line, check the card is new, open the play with it when it
    // is the hand's first, check it against the turn and what this seat knows, then play it.
    PlayedCard parse_card_line(const std::vector<std::string>& words) const;
    void check_card_unplayed(Card card) const;
    void open_play(const PlayedCard& first);
    void check_card_fits(const PlayedCard& p);
    void apply_card(const PlayedCard& p);
    void on_trick(const std::vector<std::string>& words);
    void on_handover(const std::vector<std::string>& words);
    // The stages of on_handover: the scores after the hand, either as told (a table that does not
    // report its hands) or as this bot scores the hand it saw, each reported number checked.
    ScoreBoard told_scores(const Words& w) const;
    ScoreBoard checked_hand_result(const Words& w) const;
    void on_gameover(const std::vector<std::string>& words);
    Phase on_ask(const std::vector<std::string>& words);
    // The stages of on_ask: which decision is asked, checked against whose turn it is (a pass
    // also sets pass_count and pass_to), then the choices the table lists against this seat's.
    Phase asked_phase(const std::string& kind, const Words& w);
    Phase asked_bid(const std::string& kind, const Words& w) const;
    Phase asked_pass(const Words& w);
    Phase asked_play();
    void check_listed_cards(const Words& w) const;

    void need_stage(Stage stage, const std::string& what) const;
    int next_bidder() const;
    bool bidding_done() const;
    bool exchanges_done() const { return exchanges_done_ == exchange_steps_.size(); }
    int pass_offset() const { return rules_.pass_offset(info_.hand_number); }
    // Every card play of the hand may begin: cards dealt, bids, exchanges and passes all told.
    void need_play(const std::string& what) const;
    void start_play(int leader);
    // The seat that opens the hand's play, checked against `card` when the first card is told.
    int opening_leader() const;
    // Throws when no deal of the cards this seat has not seen fits what it knows.
    void check_deal_fits();
    Constraints constraints();

    Rules rules_;
    PlayRules play_rules_;
    InfoState info_;
    std::uint64_t seed_ = 0;
    int games_ = 0;
    bool ended_ = false;
    Stage stage_ = Stage::kHello;
    GameKind game_kind_ = GameKind::kHearts;  // from the `game` line, which `rules` must agree with
    int game_players_ = 0;
    int last_hand_ = -1;           // the number of the game's last hand, -1 before the first
    bool scores_settled_ = false;  // the scores are those after a `handover` the bot checked
    // The hand in progress.
    bool dealt_ = false;
    int bids_told_ = 0;
    std::vector<std::pair<int, int>> exchange_steps_;  // (giver, receiver), once every seat has bid
    std::size_t exchanges_done_ = 0;
    bool passed_ = false, received_ = false;
    bool play_started_ = false;
    bool trick_due_ = false;  // a trick is complete and its `trick` line has not come yet
    std::array<CardSet, kMaxPlayers> taken_{};
};

// Bot side: a whole session. Reads the table's lines from `in` and answers each `ask` on `out`
// (flushed) with the decision of the player `make_player` builds for each game from the seed of
// its `game` line. Returns at `end` or at the end of the input. Throws InputError (a ProtocolError,
// or an InputError of the player's) prefixed with "table line N: " when the lines do not add up.
using PlayerFactory = std::function<std::unique_ptr<Player>(std::uint64_t seed)>;
void run_bot_session(std::istream& in, std::ostream& out, const PlayerFactory& make_player);

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
