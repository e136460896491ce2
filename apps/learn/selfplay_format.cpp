#include "apps/learn/selfplay_format.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <bit>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <optional>

#include "apps/experiments/results_file.hpp"
#include "cardgames/cards/error.hpp"
#include "cardgames/cards/json_input.hpp"
#include "cardgames/rules/dealing.hpp"
#include "cardgames/rules/game.hpp"
#include "cardgames/rules/record.hpp"

namespace apps {

using cardgames::CardSet;
using cardgames::InputError;
using cardgames::Phase;
using nlohmann::json;

namespace {

// Byte offsets of the record's fields (docs/design/selfplay-format.md).
constexpr std::size_t kHandAt = 0, kSeatAt = 4, kPhaseAt = 5, kPlyAt = 6, kActionAt = 7,
                      kLegalAt = 8, kHistorySizeAt = 9, kIndexAt = 10, kCountAt = 11,
                      kResultAt = 12, kDealAt = 24, kHistoryAt = 44, kValuesAt = 98, kCheckAt = 134;
constexpr int kDealBits = 3, kHistoryBits = 6;
static_assert(kResultAt + 2 * cardgames::kMaxPlayers == kDealAt);
static_assert(kDealAt + (kDeckCards * kDealBits + 7) / 8 == kHistoryAt);
static_assert(kHistoryAt + (kMaxHistory * kHistoryBits + 7) / 8 == kValuesAt);
static_assert(kValuesAt + 2 * kMaxValues == kCheckAt && kCheckAt + 2 == kRecordSize);

constexpr const char* kMagic = "cardgames-selfplay";

void put_bits(unsigned char* at, int bit, int width, unsigned value) {
    for (int i = 0; i < width; ++i, ++bit)
        if (value >> i & 1u)
            at[bit / 8] = static_cast<unsigned char>(at[bit / 8] | 1u << (bit % 8));
}

unsigned get_bits(const unsigned char* at, int bit, int width) {
    unsigned v = 0;
    for (int i = 0; i < width; ++i, ++bit)
        v |= static_cast<unsigned>(at[bit / 8] >> (bit % 8) & 1u) << i;
    return v;
}

void put_u16(unsigned char* at, std::uint16_t v) {
    at[0] = static_cast<unsigned char>(v & 0xff);
    at[1] = static_cast<unsigned char>(v >> 8);
}

std::uint16_t get_u16(const unsigned char* at) {
    return static_cast<std::uint16_t>(at[0] | at[1] << 8);
}

// The record's check: FNV-1a of its other bytes, folded to 16 bits.
std::uint16_t check_of(const unsigned char* bytes) {
    const std::uint64_t h = fnv1a(std::string_view(reinterpret_cast<const char*>(bytes), kCheckAt));
    return static_cast<std::uint16_t>((h ^ h >> 16 ^ h >> 32 ^ h >> 48) & 0xffff);
}

[[noreturn]] void bad_field(const std::string& where, const std::string& field,
                            const std::string& what) {
    throw InputError(where + ": field '" + field + "': " + what);
}

}  // namespace

int action_of_code(Phase phase, int code) {
    switch (phase) {
        case Phase::kBlindNil:
            return kBlindNilActionBase + code;
        case Phase::kBid:
            return kBidActionBase + code;
        case Phase::kPass:
            return kPassActionBase + code;
        default:
            return code;
    }
}

int code_of_action(int action) {
    if (action >= kBlindNilActionBase) return action - kBlindNilActionBase;
    if (action >= kBidActionBase) return action - kBidActionBase;
    if (action >= kPassActionBase) return action - kPassActionBase;
    return action;
}

std::uint16_t half_of(float x) {
    const std::uint32_t f = std::bit_cast<std::uint32_t>(x);
    const std::uint16_t sign = static_cast<std::uint16_t>(f >> 16 & 0x8000);
    const std::uint32_t abs = f & 0x7fffffff;
    if (abs >= 0x7f800000)  // inf or NaN
        return static_cast<std::uint16_t>(sign | 0x7c00 | (abs > 0x7f800000 ? 0x200 : 0));
    if (abs >= 0x477ff000) return static_cast<std::uint16_t>(sign | 0x7c00);  // rounds to inf
    if (abs < 0x38800000) {  // a subnormal half (or zero): x / 2^-24, rounded to nearest even
        const float scaled = std::bit_cast<float>(abs) * 16777216.0f;
        return static_cast<std::uint16_t>(sign |
                                          static_cast<std::uint16_t>(std::nearbyint(scaled)));
    }
    // A normal half: drop 13 bits of the mantissa, rounding to nearest even (a carry into the
    // exponent is the right result).
    const std::uint32_t rebased = abs - 0x38000000;
    const std::uint32_t rounded = rebased + 0xfff + (rebased >> 13 & 1);
    return static_cast<std::uint16_t>(sign | rounded >> 13);
}

float float_of_half(std::uint16_t h) {
    const std::uint32_t sign = static_cast<std::uint32_t>(h & 0x8000) << 16;
    const std::uint32_t exp = h >> 10 & 0x1f, man = h & 0x3ff;
    if (exp == 0) {
        const float v = static_cast<float>(man) / 16777216.0f;
        return sign ? -v : v;
    }
    if (exp == 31) return std::bit_cast<float>(sign | 0x7f800000 | man << 13);
    return std::bit_cast<float>(sign | (exp + 112) << 23 | man << 13);
}

std::string encode_record(const DecisionRecord& r) {
    std::string out(kRecordSize, '\0');
    auto* b = reinterpret_cast<unsigned char*>(out.data());
    for (int i = 0; i < 4; ++i) b[kHandAt + i] = static_cast<unsigned char>(r.hand >> (8 * i));
    b[kSeatAt] = static_cast<unsigned char>(r.seat);
    b[kPhaseAt] = static_cast<unsigned char>(r.phase);
    b[kPlyAt] = static_cast<unsigned char>(r.ply);
    b[kActionAt] = static_cast<unsigned char>(r.action);
    b[kLegalAt] = static_cast<unsigned char>(r.legal);
    b[kHistorySizeAt] = static_cast<unsigned char>(r.history_size);
    b[kIndexAt] = static_cast<unsigned char>(r.index);
    b[kCountAt] = static_cast<unsigned char>(r.count);
    for (int s = 0; s < cardgames::kMaxPlayers; ++s)
        put_u16(b + kResultAt + 2 * s, static_cast<std::uint16_t>(r.result[s]));
    for (int c = 0; c < kDeckCards; ++c) put_bits(b + kDealAt, c * kDealBits, kDealBits, r.deal[c]);
    for (int i = 0; i < r.history_size; ++i)
        put_bits(b + kHistoryAt, i * kHistoryBits, kHistoryBits, r.history[i]);
    for (int k = 0; k < kMaxValues; ++k) put_u16(b + kValuesAt + 2 * k, half_of(r.values[k]));
    put_u16(b + kCheckAt, check_of(b));
    return out;
}

DecisionRecord decode_record(const unsigned char* b, const cardgames::Rules& rules,
                             const std::string& where) {
    if (get_u16(b + kCheckAt) != check_of(b))
        bad_field(where, "check", "does not match the record's bytes (a damaged record)");
    DecisionRecord r;
    r.hand = static_cast<std::uint32_t>(b[0] | b[1] << 8 | b[2] << 16) |
             static_cast<std::uint32_t>(b[3]) << 24;
    auto byte = [&](std::size_t at, const char* field, int hi) {
        if (b[at] > hi)
            bad_field(where, field, std::to_string(b[at]) + " is more than " + std::to_string(hi));
        return static_cast<int>(b[at]);
    };
    r.seat = byte(kSeatAt, "seat", rules.players - 1);
    r.phase = static_cast<Phase>(byte(kPhaseAt, "phase", static_cast<int>(Phase::kPlay)));
    r.history_size = byte(kHistorySizeAt, "history_size", kMaxHistory);
    r.ply = byte(kPlyAt, "ply", r.history_size - 1);
    r.action = byte(kActionAt, "action", kBlindNilActionBase + 1);
    r.legal = byte(kLegalAt, "legal", 64);
    if (r.legal < 1) bad_field(where, "legal", "0: a decision has a legal action");
    r.count = byte(kCountAt, "count", r.history_size);
    r.index = byte(kIndexAt, "index", r.count - 1);
    for (int s = 0; s < cardgames::kMaxPlayers; ++s) {
        r.result[s] = static_cast<std::int16_t>(get_u16(b + kResultAt + 2 * s));
        if (s >= rules.players && r.result[s] != 0)
            bad_field(
                where, "result",
                "a result for seat " + std::to_string(s) + " of " + std::to_string(rules.players));
    }
    for (int c = 0; c < kDeckCards; ++c) {
        r.deal[c] = static_cast<std::uint8_t>(get_bits(b + kDealAt, c * kDealBits, kDealBits));
        if (r.deal[c] != kNotDealt && r.deal[c] >= rules.players)
            bad_field(where, "deal",
                      "card " + std::to_string(c) + " dealt to seat " + std::to_string(r.deal[c]));
    }
    for (int i = 0; i < kMaxHistory; ++i) {
        r.history[i] =
            static_cast<std::uint8_t>(get_bits(b + kHistoryAt, i * kHistoryBits, kHistoryBits));
        if (i >= r.history_size && r.history[i] != 0)
            bad_field(where, "history", "codes after its history_size");
    }
    for (int k = 0; k < kMaxValues; ++k) {
        r.values[k] = float_of_half(get_u16(b + kValuesAt + 2 * k));
        if (std::isinf(r.values[k])) bad_field(where, "values", "an infinite value");
        if (k >= r.legal && !std::isnan(r.values[k]))
            bad_field(where, "values", "a value past the legal actions");
    }
    return r;
}

std::string ShardHeader::bytes() const {
    const json j = {{"options", options},
                    {"shard", shard},
                    {"first_hand", first_hand},
                    {"header_size", kShardHeaderSize},
                    {"record_size", kRecordSize}};
    std::string out =
        std::string(kMagic) + " " + std::to_string(kSelfplayFormat) + "\n" + j.dump() + "\n";
    if (out.size() > kShardHeaderSize)
        throw InputError("the run's options take more than " + std::to_string(kShardHeaderSize) +
                         " bytes: shorter bot specs");
    out.resize(kShardHeaderSize, '\0');
    return out;
}

ShardHeader parse_shard_header(const std::string& head, const std::string& path) {
    const std::string where = "'" + path + "'";
    const std::string magic = std::string(kMagic) + " ";
    if (head.size() < kShardHeaderSize || head.compare(0, magic.size(), magic) != 0)
        bad_field(where, "header", "not a cardgames self-play shard");
    const std::size_t nl = head.find('\n');
    if (head.substr(magic.size(), nl - magic.size()) != std::to_string(kSelfplayFormat))
        bad_field(where, "header",
                  "format '" + head.substr(magic.size(), nl - magic.size()) +
                      "', this program reads " + std::to_string(kSelfplayFormat));
    const std::size_t end = head.find('\n', nl + 1);
    if (end == std::string::npos || end >= kShardHeaderSize ||
        head.find_first_not_of('\0', end + 1) < kShardHeaderSize)
        bad_field(where, "header", "not one JSON line followed by zero bytes");
    ShardHeader h;
    try {
        const json j = json::parse(head.substr(nl + 1, end - nl - 1));
        const cardgames::JsonField f(j, "");
        if (f["header_size"].integer(0, 1 << 30) != static_cast<long long>(kShardHeaderSize))
            f["header_size"].fail("not " + std::to_string(kShardHeaderSize));
        if (f["record_size"].integer(0, 1 << 30) != static_cast<long long>(kRecordSize))
            f["record_size"].fail("not " + std::to_string(kRecordSize));
        h.options = f["options"].object();
        const cardgames::JsonField o = f["options"];
        h.shard_hands = static_cast<long>(o["shard_hands"].integer(1, 1'000'000'000));
        h.hands = static_cast<long>(o["hands"].integer(1, 1'000'000'000));
        h.shard = static_cast<long>(f["shard"].integer(0, 1'000'000'000));
        h.first_hand = static_cast<long>(f["first_hand"].integer(0, 1'000'000'000));
        if (h.first_hand != h.shard * h.shard_hands)
            f["first_hand"].fail("not shard x shard_hands");
        h.rules = cardgames::rules_from_json(o["rules"]);
        // What the readers name a run by (learn_data's meta, data-command lines).
        o["form"].string();
        o["features"].object();
        o["seed"].unsigned_integer();
        const auto players = static_cast<std::size_t>(h.rules.players);
        o["players"].array(players, players);
        for (std::size_t k = 0; k < players; ++k) o["players"][k].string();
    } catch (const json::exception& e) {
        bad_field(where, "header", std::string("not JSON (") + e.what() + ")");
    } catch (const InputError& e) {
        bad_field(where, "header", e.what());
    }
    return h;
}

std::string shard_name(long shard) {
    std::string digits = std::to_string(shard);
    if (digits.size() < 5) digits.insert(0, 5 - digits.size(), '0');
    return "shard-" + digits + ".cgsp";
}

namespace {

std::string read_head(const std::string& path, std::uintmax_t& size) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw InputError("'" + path + "': cannot open for reading");
    std::string head(kShardHeaderSize, '\0');
    in.read(head.data(), static_cast<std::streamsize>(head.size()));
    head.resize(static_cast<std::size_t>(in.gcount()));
    size = std::filesystem::file_size(path);
    return head;
}

// The shard files of a folder in order, checked to be shard 0, 1, ... with nothing else named
// like a shard among them.
std::vector<std::string> shard_paths(const std::string& folder) {
    namespace fs = std::filesystem;
    std::vector<std::string> out;
    for (long k = 0;; ++k) {
        const fs::path p = fs::path(folder) / shard_name(k);
        if (!fs::exists(p)) break;
        out.push_back(p.string());
    }
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(folder, ec)) {
        const std::string name = entry.path().filename().string();
        if (name.ends_with(".cgsp") &&
            std::find(out.begin(), out.end(), entry.path().string()) == out.end())
            throw InputError("'" + entry.path().string() + "': a shard out of sequence (shard " +
                             std::to_string(out.size()) + " is missing)");
    }
    return out;
}

// Reads the records of one shard in order, checking each and how they follow one another: hands
// ascending inside the shard's range, each hand's records numbered 0..count-1. `each(record,
// end)` gets each record and the byte offset after it. Returns the offset after the last whole
// hand and how many hands it holds; `cut` is set when bytes follow it (a partial record or hand).
struct Scan {
    std::uintmax_t whole = kShardHeaderSize;
    long hands = 0;
    long next_hand = 0;
    bool cut = false;
};

template <class Each>
Scan scan_shard(const std::string& path, const ShardHeader& h, Each each) {
    std::ifstream in(path, std::ios::binary);
    in.seekg(static_cast<std::streamoff>(kShardHeaderSize));
    Scan s;
    s.next_hand = h.first_hand;
    std::string buf(kRecordSize, '\0');
    std::uintmax_t at = kShardHeaderSize;
    int expect_index = 0, count = 0;
    long hand = -1;
    for (;;) {
        in.read(buf.data(), static_cast<std::streamsize>(kRecordSize));
        const auto got = static_cast<std::size_t>(in.gcount());
        if (got == 0) break;
        if (got < kRecordSize) {
            s.cut = true;
            break;
        }
        const std::string where =
            "'" + path + "' record " + std::to_string((at - kShardHeaderSize) / kRecordSize);
        const DecisionRecord r =
            decode_record(reinterpret_cast<const unsigned char*>(buf.data()), h.rules, where);
        if (expect_index == 0) {
            if (static_cast<long>(r.hand) < s.next_hand ||
                static_cast<long>(r.hand) >= h.first_hand + h.shard_hands)
                bad_field(where, "hand",
                          std::to_string(r.hand) +
                              " out of order or outside "
                              "the shard's hands");
            hand = r.hand;
            count = r.count;
        } else if (static_cast<long>(r.hand) != hand || r.count != count) {
            bad_field(where, "hand", "hand " + std::to_string(hand) + " ends early");
        }
        if (r.index != expect_index)
            bad_field(where, "index",
                      std::to_string(r.index) + ", expected " + std::to_string(expect_index));
        at += kRecordSize;
        each(r, where);
        if (++expect_index == count) {
            expect_index = 0;
            ++s.hands;
            s.next_hand = hand + 1;
            s.whole = at;
        }
    }
    if (expect_index != 0) s.cut = true;
    return s;
}

// Reads a shard hand by hand: replays each (replay_selfplay_hand, handing `visitor` what it asks),
// then gives `each` its records. Refuses a shard cut short; returns its hands.
template <class Each>
long replay_shard(const std::string& path, const ShardHeader& h, const SelfplayVisitor& visitor,
                  Each each) {
    std::vector<DecisionRecord> hand;  // the records of the hand being read, and where each is
    std::vector<std::string> wheres;
    const Scan s = scan_shard(path, h, [&](const DecisionRecord& r, const std::string& where) {
        hand.push_back(r);
        wheres.push_back(where);
        if (r.index + 1 < r.count) return;
        replay_selfplay_hand(hand, wheres, h.rules, visitor);
        each(hand);
        hand.clear();
        wheres.clear();
    });
    if (s.cut)
        bad_field("'" + path + "'", "records",
                  "cut short after " + std::to_string(s.hands) +
                      " whole hands (resume the run with --resume to finish it)");
    return s.hands;
}

}  // namespace

std::vector<std::string> selfplay_shards(const std::string& folder) {
    if (!std::filesystem::is_directory(folder))
        throw InputError("'" + folder + "': not a folder of self-play shards");
    std::vector<std::string> paths = shard_paths(folder);
    if (paths.empty()) throw InputError("'" + folder + "': no shards (shard-00000.cgsp)");
    return paths;
}

SelfplaySummary read_selfplay(const std::string& folder) {
    SelfplaySummary out;
    const std::vector<std::string> paths = selfplay_shards(folder);
    for (std::size_t k = 0; k < paths.size(); ++k) {
        std::uintmax_t size = 0;
        const ShardHeader h = parse_shard_header(read_head(paths[k], size), paths[k]);
        if (k == 0) out.options = h.options;
        if (h.options != out.options)
            bad_field("'" + paths[k] + "'", "header", "other options than shard 0's");
        if (h.shard != static_cast<long>(k))
            bad_field("'" + paths[k] + "'", "header",
                      "says it is shard " + std::to_string(h.shard));
        const long hands = replay_shard(paths[k], h, {}, [&](const auto& records) {
            for (const DecisionRecord& d : records)
                ++out.by_phase[static_cast<std::size_t>(d.phase)];
            out.records += static_cast<long>(records.size());
        });
        const long expected = std::min(h.shard_hands, h.hands - h.first_hand);
        if (k + 1 < paths.size() && hands != expected)
            bad_field("'" + paths[k] + "'", "records",
                      std::to_string(hands) + " hands of " + std::to_string(expected));
        out.hands += hands;
        ++out.shards;
    }
    return out;
}

namespace {

// A deal as the record holds it (per card number, the seat dealt it).
cardgames::Deal deal_of(const DecisionRecord& r, int players) {
    cardgames::Deal deal;
    deal.players = players;
    for (int c = 0; c < kDeckCards; ++c)
        if (r.deal[c] != kNotDealt) deal.hands[r.deal[c]] |= card_of_number(c);
    return deal;
}

// Checks that each record of a hand says what the first says of the hand, and that their plies
// ascend (a hand's decisions are recorded in the order they were taken).
void check_same_hand(const std::vector<DecisionRecord>& records,
                     const std::vector<std::string>& wheres) {
    const DecisionRecord& first = records.front();
    for (std::size_t k = 1; k < records.size(); ++k) {
        const DecisionRecord& r = records[k];
        const char* field = r.history_size != first.history_size ? "history_size"
                            : r.history != first.history         ? "history"
                            : r.deal != first.deal               ? "deal"
                            : r.result != first.result           ? "result"
                                                                 : nullptr;
        if (field) bad_field(wheres[k], field, "not the same as in the hand's first record");
        if (r.ply <= records[k - 1].ply)
            bad_field(wheres[k], "ply", "not after the previous record's");
    }
}

}  // namespace

void replay_selfplay_hand(const std::vector<DecisionRecord>& records,
                          const std::vector<std::string>& wheres, const cardgames::Rules& rules,
                          const SelfplayVisitor& visitor) {
    using cardgames::encoding::GameState;
    check_same_hand(records, wheres);
    const DecisionRecord& first = records.front();
    std::optional<GameState> replayed;
    try {
        replayed.emplace(
            GameState::replay(rules, 0, 1, {{{0, 0}, deal_of(first, rules.players)}}, {}));
    } catch (const InputError& e) {
        bad_field(wheres[0], "deal", e.what());
    }
    GameState& state = *replayed;
    std::vector<int> actions(static_cast<std::size_t>(first.history_size));
    std::vector<int> legal;
    std::size_t next = 0;              // the next record to meet
    std::optional<GameState> at_play;  // handed to visitor.play once the hand has replayed
    int play_ply = 0;
    for (int ply = 0; ply < first.history_size; ++ply) {
        if (state.terminal()) bad_field(wheres[0], "history", "actions after the hand is over");
        const Phase phase = state.game().phase();
        const int action = action_of_code(phase, first.history[static_cast<std::size_t>(ply)]);
        actions[static_cast<std::size_t>(ply)] = action;
        if (phase == Phase::kPlay && visitor.play && !at_play) {
            at_play.emplace(state);
            play_ply = ply;
        }
        if (next < records.size() && records[next].ply == ply) {
            const DecisionRecord& r = records[next];
            const std::string& where = wheres[next];
            legal = state.legal_actions();
            if (r.phase != phase || r.seat != state.current_player())
                bad_field(where, "phase", "not the phase and seat to act at its ply");
            if (r.action != action)
                bad_field(where, "action", "not the history's action at its ply");
            if (r.legal != static_cast<int>(legal.size()))
                bad_field(where, "legal", "not the number of legal actions at its ply");
            if (visitor.decision && (visitor.phases >> static_cast<unsigned>(phase) & 1u))
                visitor.decision({r, state, legal});
            ++next;
        }
        try {
            state.apply(action);
        } catch (const std::exception& e) {
            bad_field(wheres[0], "history", "action " + std::to_string(ply) + ": " + e.what());
        }
    }
    if (!state.terminal()) bad_field(wheres[0], "history", "ends before the hand does");
    const std::vector<int> returns = state.returns();
    for (int s = 0; s < rules.players; ++s)
        if (first.result[static_cast<std::size_t>(s)] != returns[static_cast<std::size_t>(s)])
            bad_field(wheres[0], "result",
                      "seat " + std::to_string(s) + " did not score " +
                          std::to_string(first.result[static_cast<std::size_t>(s)]) +
                          " in the hand");
    if (at_play)
        visitor.play({first, *at_play,
                      std::span<const int>(actions).subspan(static_cast<std::size_t>(play_ply))});
}

ShardHeader read_shard_header(const std::string& path) {
    std::uintmax_t size = 0;
    return parse_shard_header(read_head(path, size), path);
}

void replay_selfplay(const std::vector<std::string>& files, const SelfplayVisitor& visitor) {
    json rules_of_first;
    for (std::size_t k = 0; k < files.size(); ++k) {
        const ShardHeader h = read_shard_header(files[k]);
        if (k == 0) rules_of_first = h.options["rules"];
        if (h.options["rules"] != rules_of_first)
            bad_field("'" + files[k] + "'", "rules",
                      "other rules than those of '" + files[0] + "'");
        replay_shard(files[k], h, visitor, [](const auto&) {});
    }
}

long count_selfplay_records(const std::vector<std::string>& files, unsigned phases) {
    long n = 0;
    std::string buf(kRecordSize, '\0');
    for (const std::string& path : files) {
        std::ifstream in(path, std::ios::binary);
        if (!in) throw InputError("'" + path + "': cannot open for reading");
        in.seekg(static_cast<std::streamoff>(kShardHeaderSize));
        while (in.read(buf.data(), static_cast<std::streamsize>(kRecordSize))) {
            const auto phase = static_cast<unsigned char>(buf[kPhaseAt]);
            if (phase < 32 && (phases >> phase & 1u)) ++n;
        }
    }
    return n;
}

ShardWriter::ShardWriter(const std::string& folder, const json& options, bool resume)
    : folder_(folder), options_(options) {
    try {
        open_folder(resume);
    } catch (...) {
        close_files();
        throw;
    }
}

void ShardWriter::open_folder(bool resume) {
    namespace fs = std::filesystem;
    const std::string& folder = folder_;
    rules_ = cardgames::rules_from_json(options_.at("rules"));
    shard_hands_ = options_.at("shard_hands").get<long>();
    std::error_code ec;
    if (fs::exists(folder) && !fs::is_directory(folder))
        throw InputError("--out '" + folder + "': not a folder; give a folder for the shards");
    fs::create_directories(folder, ec);
    if (ec)
        throw InputError("--out '" + folder + "': cannot make the folder (" + ec.message() + ")");
    const std::string lock = (fs::path(folder) / ".lock").string();
    lock_fd_ = ::open(lock.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
    if (lock_fd_ < 0 || ::flock(lock_fd_, LOCK_EX | LOCK_NB) != 0)
        throw InputError("--out '" + folder +
                         "': another run is writing this folder (or it cannot be locked); wait "
                         "for it to end or choose another folder");
    const std::vector<std::string> paths = shard_paths(folder);
    if (!paths.empty() && !resume)
        throw InputError("--out '" + folder +
                         "': the folder holds shards; add --resume to continue the run, or "
                         "choose another folder");
    if (paths.empty()) return;  // the first append opens shard 0
    for (std::size_t k = 0; k + 1 < paths.size(); ++k) {
        const long next = resume_shard(static_cast<long>(k), paths[k]);
        if (next != std::min<long>((static_cast<long>(k) + 1) * shard_hands_,
                                   options_.at("hands").get<long>()))
            bad_field("'" + paths[k] + "'", "records",
                      "ends at hand " + std::to_string(next) + ", before the shard's last");
    }
    next_hand_ = resume_shard(static_cast<long>(paths.size()) - 1, paths.back());
}

// Checks shard `shard` against this run, cuts it back to its last whole hand, and returns the
// hand that follows it.
long ShardWriter::resume_shard(long shard, const std::string& path) {
    namespace fs = std::filesystem;
    std::uintmax_t size = 0;
    const std::string head = read_head(path, size);
    ShardHeader expected;
    expected.options = options_;
    expected.shard = shard;
    expected.first_hand = shard * shard_hands_;
    const std::string want = expected.bytes();
    if (head.size() < kShardHeaderSize && want.compare(0, head.size(), head) == 0) {
        fs::resize_file(path, 0);  // killed while writing the header: start the shard afresh
        open_shard(shard, true);
        return expected.first_hand;
    }
    const ShardHeader h = parse_shard_header(head, path);
    if (head != want)
        throw InputError("'" + path + "': made by a run with other options (" + h.options.dump() +
                         "); resume with the same options or choose another "
                         "--out");
    const Scan s = scan_shard(path, h, [](const DecisionRecord&, const std::string&) {});
    if (s.cut || s.whole != size) {
        note_ = "'" + path + "': dropping " + std::to_string(size - s.whole) +
                " bytes of an unfinished hand (the previous run was killed while writing it)";
        fs::resize_file(path, s.whole);
    }
    open_shard(shard, false);
    return s.next_hand;
}

void ShardWriter::open_shard(long shard, bool fresh) {
    namespace fs = std::filesystem;
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
    const std::string path = (fs::path(folder_) / shard_name(shard)).string();
    fd_ = ::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (fd_ < 0)
        throw RunError("'" + path + "': cannot open for writing (" + std::strerror(errno) + ")");
    open_shard_ = shard;
    if (fresh) {
        ShardHeader h;
        h.options = options_;
        h.shard = shard;
        h.first_hand = shard * shard_hands_;
        const std::string bytes = h.bytes();
        if (::ftruncate(fd_, 0) != 0 ||
            ::write(fd_, bytes.data(), bytes.size()) != static_cast<ssize_t>(bytes.size()))
            throw RunError("'" + path + "': writing the header failed (" + std::strerror(errno) +
                           ")");
    }
}

void ShardWriter::append(const std::string& records) {
    const long shard = next_hand_ / shard_hands_;
    if (shard != open_shard_) open_shard(shard, true);
    struct stat st {};
    if (::fstat(fd_, &st) != 0) throw RunError("'" + folder_ + "': stat failed");
    if (const auto failed = append_whole(fd_, records, static_cast<std::uintmax_t>(st.st_size)))
        throw RunError("'" + folder_ + "/" + shard_name(shard) + "': write failed (" +
                       std::strerror(failed->error) + ")" +
                       (failed->cut ? "" : ", and cutting it back too") +
                       "; the hands before it are kept: free the space and run the same "
                       "command with --resume");
    ++next_hand_;
}

ShardWriter::~ShardWriter() {
    close_files();
}

void ShardWriter::close_files() {
    if (fd_ >= 0) ::close(fd_);
    if (lock_fd_ >= 0) ::close(lock_fd_);
    fd_ = lock_fd_ = -1;
}

}  // namespace apps
