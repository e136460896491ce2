#pragma once
// The self-play data format (docs/design/selfplay-format.md), written and read here only.
//
// A run's data is a folder of shards, shard-00000.cgsp, shard-00001.cgsp, ...: shard k holds the
// decision records of hands [k x shard_hands, (k+1) x shard_hands), in hand order and, within a
// hand, in the order the decisions were taken. A shard is a header of kShardHeaderSize bytes (a
// line naming the format, one JSON line with the run's options, zero bytes to the end) followed by
// records of kRecordSize bytes, little-endian, which numpy maps with a structured dtype. A record
// holds its hand whole (the deal, every action of the hand and every seat's result), so a record
// alone rebuilds the deciding seat's information state; its last two bytes check the others.

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <span>
#include <string>
#include <vector>

#include "apps/experiments/run.hpp"
#include "cardgames/cards/card.hpp"
#include "cardgames/encoding/actions.hpp"
#include "cardgames/encoding/game_state.hpp"
#include "cardgames/rules/info_state.hpp"
#include "cardgames/rules/rules.hpp"

namespace apps {

inline constexpr int kSelfplayFormat = 1;
inline constexpr std::size_t kShardHeaderSize = 4096;
inline constexpr std::size_t kRecordSize = 136;
// Actions in one hand at most: 6-player Hearts passing 4 cards each (24) and 48 cards played.
inline constexpr int kMaxHistory = 72;
// Legal actions of a decision at most: the bids 0..17 of 3-player Spades.
inline constexpr int kMaxValues = 18;
inline constexpr int kDeckCards = 52;
// The deal's code of a card no seat was dealt (3-, 5- and 6-player decks leave some out).
inline constexpr int kNotDealt = 7;
// The game's action numbering (cardgames/encoding/actions.hpp): a code in the history is the
// action less the base of the phase it was taken in.
inline constexpr int kPassActionBase = cardgames::encoding::kPassBase;
inline constexpr int kBidActionBase = cardgames::encoding::kBidBase;
inline constexpr int kBlindNilActionBase = cardgames::encoding::kNoBlindNil;

// A card's number, 0..51: suit x 13 + rank - 2 (2C = 0, AS = 51).
using cardgames::encoding::card_number;
using cardgames::encoding::card_of_number;
// The action that a history code stands for in `phase`, and back.
int action_of_code(cardgames::Phase phase, int code);
int code_of_action(int action);

// One decision of a recorded seat, as a record holds it.
struct DecisionRecord {
    std::uint32_t hand = 0;  // the hand's index in the run (its deal and bots derive from it)
    int seat = 0;
    cardgames::Phase phase = cardgames::Phase::kPlay;
    int ply = 0;     // actions of the hand before this decision: history[ply] is the one taken
    int action = 0;  // the action taken (Python numbering, 0..123)
    int legal = 0;   // legal actions; values[k] is the value of the k-th in ascending order
    int history_size = 0;
    int index = 0, count = 0;  // this record's place among its hand's records, and their number
    std::array<std::int16_t, cardgames::kMaxPlayers> result{};  // per seat: its unit's hand score
    std::array<std::uint8_t, kDeckCards> deal{};      // per card number: the seat dealt it
    std::array<std::uint8_t, kMaxHistory> history{};  // the hand's action codes, in order
    std::array<float, kMaxValues> values{};           // NaN: no value (and past `legal`)
};

// The record's kRecordSize bytes, with its check.
std::string encode_record(const DecisionRecord& r);
// Reads one record of kRecordSize bytes, checking its check bytes and that every field is in its
// range for `rules` (not that the history replays: replay_selfplay_hand does that). Throws
// InputError naming `where` and the field.
DecisionRecord decode_record(const unsigned char* bytes, const cardgames::Rules& rules,
                             const std::string& where);

// float <-> IEEE half (the values' storage; numpy's float16), round to nearest even.
std::uint16_t half_of(float x);
float float_of_half(std::uint16_t h);

// A shard's header: the text of its kShardHeaderSize bytes, and what it says.
struct ShardHeader {
    nlohmann::json options;  // the run's options (selfplay.hpp), the same in every shard
    long shard = 0;          // this shard's number
    long first_hand = 0;     // hands [first_hand, first_hand + shard_hands)
    long shard_hands = 0;    // options.shard_hands
    long hands = 0;          // options.hands: the run's
    cardgames::Rules rules;  // from options.rules

    std::string bytes() const;  // kShardHeaderSize bytes
};
// Reads a header from a file's first bytes (`size` of them, at least kShardHeaderSize); throws
// InputError naming `path` and the field.
ShardHeader parse_shard_header(const std::string& head, const std::string& path);
// The header of the shard file at `path`.
ShardHeader read_shard_header(const std::string& path);

std::string shard_name(long shard);  // "shard-00012.cgsp"

// The shards of a run, on rank 0: append() takes one hand's records (encoded, in order) per call,
// in hand order, and writes them with one write(2), to the shard of that hand. A shard only grows
// by whole hands, so after a kill it is its hands so far, perhaps plus part of one more: resume
// checks every existing shard (its header says the same options, its records are whole and
// checked) and cuts the last one back to its last whole hand. Never destroys a finished hand:
// without resume, a folder that holds shards is refused. The folder is locked (flock on
// .lock) while open, so a second run on it is refused.
class ShardWriter : public BatchOutput {
  public:
    // `options`: the run's options (selfplay.hpp), with "rules" and "shard_hands".
    ShardWriter(const std::string& folder, const nlohmann::json& options, bool resume);
    ~ShardWriter() override;
    ShardWriter(const ShardWriter&) = delete;
    ShardWriter& operator=(const ShardWriter&) = delete;

    long done() const override { return next_hand_; }
    void append(const std::string& records) override;
    // What the caller should tell the user about opening the folder (a cut hand dropped), or "".
    const std::string& note() const { return note_; }

  private:
    void open_folder(bool resume);
    // Closes the shard and lets go of the lock: a constructor that throws runs no destructor,
    // and a process that goes on (Python) must be able to open the folder again.
    void close_files();
    void open_shard(long shard, bool fresh);
    long resume_shard(long shard, const std::string& path);

    std::string folder_;
    nlohmann::json options_;
    cardgames::Rules rules_;
    long shard_hands_ = 0;
    long next_hand_ = 0;
    long open_shard_ = -1;
    int fd_ = -1;
    int lock_fd_ = -1;
    std::string note_;
};

// What a folder of shards holds, checked record by record: for `cardgames learn selfplay
// --report` and its tests. Throws InputError naming the file and the field.
struct SelfplaySummary {
    nlohmann::json options;
    long shards = 0, hands = 0, records = 0;
    std::array<long, 4> by_phase{};  // records per phase (blind nil, bid, pass, play)
};
SelfplaySummary read_selfplay(const std::string& folder);
// The shards of a run's folder, shard 0, 1, ... in order; InputError for a folder that holds none
// or a shard out of sequence.
std::vector<std::string> selfplay_shards(const std::string& folder);

// A trainer's reading of shards (Python's learn_data.load and load_cutoff): every record of
// `files`, in order, checked as read_selfplay checks a folder's (each header, record and the order
// of hands and records; a cut shard refused; every file of the first one's rules), the records of
// a hand agreeing on the hand, which is replayed once through the encoding's GameState.
struct ReplayedDecision {
    const DecisionRecord& record;
    const cardgames::encoding::GameState& state;  // before the decision's action
    const std::vector<int>& legal;  // ascending: record.values[k] is the value of legal[k]
};
struct ReplayedPlay {
    const DecisionRecord& first;                  // the hand's first record
    const cardgames::encoding::GameState& state;  // at the first lead of the play
    std::span<const int> plays;                   // the card actions from there to the end
};
struct SelfplayVisitor {
    unsigned phases = 0;  // bit p: hand `decision` the records of Phase p
    std::function<void(const ReplayedDecision&)> decision;
    std::function<void(const ReplayedPlay&)> play;  // once a hand, if set
};
void replay_selfplay(const std::vector<std::string>& files, const SelfplayVisitor& visitor);
// One hand's records, each decoded, and where each is (for errors): checks that they agree on the
// hand, replays it, checking that each decision at its ply is the recorded phase, seat, action and
// legal count and that the hand scores the recorded results, and hands the visitor what it asks.
void replay_selfplay_hand(const std::vector<DecisionRecord>& records,
                          const std::vector<std::string>& wheres, const cardgames::Rules& rules,
                          const SelfplayVisitor& visitor);
// The records of `files` whose phase is in `phases`, counted from their phase bytes alone (not
// checked): how many rows replay_selfplay's caller needs. InputError for a file it cannot read.
long count_selfplay_records(const std::vector<std::string>& files, unsigned phases);

}  // namespace apps
