#include "cardgames/protocol.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>

#include "cardgames/error.hpp"

namespace cardgames::protocol {

namespace {

std::vector<std::string> split_words(std::string_view line) {
    std::vector<std::string> out;
    std::size_t i = 0;
    while (i < line.size()) {
        while (i < line.size() && std::isspace(static_cast<unsigned char>(line[i]))) ++i;
        const std::size_t start = i;
        while (i < line.size() && !std::isspace(static_cast<unsigned char>(line[i]))) ++i;
        if (i > start) out.emplace_back(line.substr(start, i - start));
    }
    return out;
}

std::string lower(std::string s) {
    for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

bool parse_int(std::string_view text, long long& out) {
    if (text.empty()) return false;
    const char* end = text.data() + text.size();
    const auto [ptr, ec] = std::from_chars(text.data(), end, out);
    return ec == std::errc() && ptr == end;
}

template <class Array>
std::string join_ints(const Array& values, int count) {
    std::string out;
    for (int i = 0; i < count; ++i) {
        if (i) out += ',';
        out += std::to_string(values[i]);
    }
    return out;
}

std::string pass_direction(int offset) {
    switch (offset) {
        case 1: return "left";
        case -1: return "right";
        case 2: return "across";
        default: return "hold";
    }
}

// Blind-nil card exchanges in the order Game makes them: for each blind bidder in bidding order,
// the partner gives two cards, then the bidder gives two back.
std::vector<std::pair<int, int>> exchange_steps(const Rules& rules, int dealer, const std::array<Bid, kMaxPlayers>& bids) {
    std::vector<std::pair<int, int>> steps;
    if (rules.game != GameKind::kSpades) return steps;
    for (int i = 0; i < rules.players; ++i) {
        const int seat = (dealer + 1 + i) % rules.players;
        if (!bids[seat].blind) continue;
        const int partner = (seat + 2) % 4;
        steps.push_back({partner, seat});
        steps.push_back({seat, partner});
    }
    return steps;
}

std::string bid_line(int seat, const Bid& b) {
    return "bid " + std::to_string(seat) + " " + std::to_string(b.tricks) + (b.blind ? " blind" : "");
}

std::string with_cards(std::string line, CardSet cards) {
    if (!cards.empty()) line += " " + cards_to_string(cards);
    return line;
}

// "key=value" words of a line; the other words in order.
struct Words {
    std::vector<std::pair<std::string, std::string>> params;
    std::vector<std::string> rest;

    const std::string* param(const std::string& key) const {
        for (const auto& [k, v] : params)
            if (k == key) return &v;
        return nullptr;
    }
};

Words classify(const std::vector<std::string>& words, std::size_t from) {
    Words w;
    for (std::size_t i = from; i < words.size(); ++i) {
        const auto eq = words[i].find('=');
        if (eq != std::string::npos && eq > 0) w.params.push_back({words[i].substr(0, eq), words[i].substr(eq + 1)});
        else w.rest.push_back(words[i]);
    }
    return w;
}

long long to_int(const std::string& text, const std::string& what) {
    long long v = 0;
    if (!parse_int(text, v)) throw ProtocolError(what + ": '" + text + "' is not a whole number");
    return v;
}

std::vector<int> int_list(const std::string& text, const std::string& what) {
    std::vector<int> out;
    std::size_t start = 0;
    while (start <= text.size() && !text.empty()) {
        auto comma = text.find(',', start);
        if (comma == std::string::npos) comma = text.size();
        out.push_back(static_cast<int>(to_int(text.substr(start, comma - start), what)));
        start = comma + 1;
    }
    return out;
}

Card card_word(const std::string& text, const std::string& what) {
    try {
        return parse_card(text);
    } catch (const InputError& e) {
        throw ProtocolError(what + ": " + e.what());
    }
}

CardSet card_words(const std::vector<std::string>& words, std::size_t from, const std::string& what) {
    CardSet out;
    for (std::size_t i = from; i < words.size(); ++i) out |= card_word(words[i], what);
    return out;
}

int seat_word(const std::vector<std::string>& words, std::size_t i, int players, const std::string& what) {
    if (i >= words.size()) throw ProtocolError(what + ": a seat is missing");
    const long long s = to_int(words[i], what);
    if (s < 0 || s >= players) throw ProtocolError(what + ": seat " + words[i] + " is not 0.." + std::to_string(players - 1));
    return static_cast<int>(s);
}

}  // namespace

std::string decision_name(Phase phase) {
    switch (phase) {
        case Phase::kBlindNil: return "blind_nil";
        case Phase::kBid: return "bid";
        case Phase::kPass: return "pass";
        case Phase::kPlay: return "play";
        case Phase::kGameOver: return "none";
    }
    return "none";
}

// ---------------------------------------------------------------- table side

void TableWriter::start(const InfoState& info, std::vector<std::string>& out) {
    started_ = true;
    rules_ = *info.rules;
    seat_ = info.seat;
    out.push_back(std::string(kHello) + " " + std::to_string(kVersion));
    out.push_back("game " + game_name(rules_.game) + " players=" + std::to_string(rules_.players) +
                  " seat=" + std::to_string(seat_) + " seed=" + std::to_string(bot_seed_));
    std::string rules = "rules";
    for (const auto& [k, v] : rules_to_pairs(rules_)) rules += " " + k + "=" + v;
    out.push_back(rules);
}

void TableWriter::start_hand(const InfoState& info, std::vector<std::string>& out) {
    hand_ = info.hand_number;
    dealer_ = info.dealer;
    hand_closed_ = false;
    cards_sent_ = passes_sent_ = false;
    bids_sent_ = 0;
    plays_sent_ = exchanges_sent_ = 0;
    exchange_given_told_ = exchange_received_told_ = CardSet();
    const int units = rules_.num_units();
    std::string line = "hand " + std::to_string(hand_) + " dealer=" + std::to_string(dealer_);
    if (rules_.game == GameKind::kHearts) line += " pass=" + pass_direction(rules_.pass_offset(hand_));
    line += " scores=" + join_ints(info.scores.score, units);
    if (rules_.game == GameKind::kSpades) line += " bags=" + join_ints(info.scores.bags, units);
    out.push_back(line);
}

void TableWriter::send_card(const PlayedCard& p, std::vector<std::string>& out) {
    out.push_back("card " + std::to_string(p.seat) + " " + to_string(p.card));
    ++plays_sent_;
}

std::vector<std::string> TableWriter::decision(const InfoState& info) {
    std::vector<std::string> out;
    if (!started_) start(info, out);
    if (info.hand_number != hand_) {
        // The previous hand ended without hand_over (a driver that does not report hands): say at
        // least what the scores are now.
        if (hand_ >= 0 && !hand_closed_) {
            std::string line = "handover scores=" + join_ints(info.scores.score, rules_.num_units());
            if (rules_.game == GameKind::kSpades) line += " bags=" + join_ints(info.scores.bags, rules_.num_units());
            out.push_back(line);
        }
        start_hand(info, out);
    }
    const int n = rules_.players;
    auto send_cards = [&] {
        if (cards_sent_ || info.dealt.empty()) return;
        out.push_back(with_cards("cards", info.dealt));
        cards_sent_ = true;
    };
    // A blind nil bidder sees its cards only after its bid.
    if (!info.bids[seat_].blind) send_cards();
    bool all_bid = true;
    for (int i = 0; i < n; ++i) {
        const int s = (dealer_ + 1 + i) % n;
        if (!info.bids[s].made()) {
            all_bid = false;
            break;
        }
        if ((bids_sent_ >> s) & 1) continue;
        out.push_back(bid_line(s, info.bids[s]));
        bids_sent_ |= 1u << s;
    }
    send_cards();
    if (rules_.game == GameKind::kSpades && all_bid) {
        const auto steps = exchange_steps(rules_, dealer_, info.bids);
        std::size_t done = 0;
        if (info.phase == Phase::kPlay) {
            done = steps.size();
        } else if (info.phase == Phase::kPass) {
            for (std::size_t k = exchanges_sent_; k < steps.size(); ++k)
                if (steps[k] == std::pair<int, int>{seat_, info.pass_to}) {
                    done = k;
                    break;
                }
        }
        for (std::size_t k = exchanges_sent_; k < done; ++k) {
            const auto [giver, receiver] = steps[k];
            CardSet cards;
            if (giver == seat_) {
                cards = info.passed - exchange_given_told_;
                exchange_given_told_ |= cards;
            } else if (receiver == seat_) {
                cards = info.received - exchange_received_told_;
                exchange_received_told_ |= cards;
            }
            out.push_back(with_cards("exchange " + std::to_string(giver) + " " + std::to_string(receiver), cards));
        }
        exchanges_sent_ = std::max(exchanges_sent_, done);
    }
    if (rules_.game == GameKind::kHearts && info.phase == Phase::kPlay && !passes_sent_) {
        const int offset = rules_.pass_offset(hand_);
        if (offset != 0) {
            out.push_back(with_cards("passed " + std::to_string((seat_ + offset + n) % n), info.passed));
            out.push_back(with_cards("received " + std::to_string((seat_ - offset + 2 * n) % n), info.received));
        }
        passes_sent_ = true;
    }
    for (std::size_t k = plays_sent_; k < info.plays.size(); ++k) {
        send_card(info.plays[k], out);
        if ((k + 1) % n == 0) {
            // The winner of a trick leads the next one.
            const int winner = k + 1 < info.plays.size() ? info.plays[k + 1].seat : info.play.leader;
            out.push_back("trick " + std::to_string(winner));
        }
    }
    out.push_back(ask_line(info));
    return out;
}

std::string TableWriter::ask_line(const InfoState& info) const {
    switch (info.phase) {
        case Phase::kBlindNil: return "ask blind_nil yes no";
        case Phase::kBid: {
            std::string line = "ask bid";
            for (int b = rules_.nil_allowed ? 0 : 1; b <= rules_.cards_per_hand(); ++b) line += " " + std::to_string(b);
            return line;
        }
        case Phase::kPass:
            return with_cards("ask pass count=" + std::to_string(info.pass_count) + " to=" + std::to_string(info.pass_to), info.hand);
        case Phase::kPlay: return with_cards("ask play", info.legal_cards());
        case Phase::kGameOver: break;
    }
    return "ask none";
}

std::vector<std::string> TableWriter::hand_over(const HandRecord& h, bool game_over, const std::vector<int>& winners) {
    std::vector<std::string> out;
    if (!started_ || (hand_closed_ && h.number == hand_)) return out;
    const int n = rules_.players;
    const int units = rules_.num_units();
    if (h.number != hand_) {
        // The seat was not asked anything in this hand (cannot happen in our games): open it anyway.
        hand_ = h.number;
        dealer_ = h.dealer;
        plays_sent_ = exchanges_sent_ = 0;
        passes_sent_ = false;
        std::string line = "hand " + std::to_string(hand_) + " dealer=" + std::to_string(dealer_);
        if (rules_.game == GameKind::kHearts) line += " pass=" + pass_direction(h.pass_offset);
        out.push_back(line);
        out.push_back(with_cards("cards", h.deal.hands[seat_]));
        for (int i = 0; i < n; ++i) {
            const int s = (dealer_ + 1 + i) % n;
            if (h.bids[s].made()) out.push_back(bid_line(s, h.bids[s]));
        }
    }
    if (rules_.game == GameKind::kHearts && !passes_sent_ && h.pass_offset != 0) {
        const int from = (seat_ - h.pass_offset + 2 * n) % n;
        out.push_back(with_cards("passed " + std::to_string((seat_ + h.pass_offset + n) % n), h.passed[seat_]));
        out.push_back(with_cards("received " + std::to_string(from), h.passed[from]));
    }
    for (std::size_t k = exchanges_sent_; k < h.exchanges.size(); ++k) {
        const auto& [giver, cards] = h.exchanges[k];
        const int receiver = (giver + 2) % 4;
        const bool mine = giver == seat_ || receiver == seat_;
        out.push_back(with_cards("exchange " + std::to_string(giver) + " " + std::to_string(receiver), mine ? cards : CardSet()));
    }
    for (std::size_t k = plays_sent_; k < h.plays.size(); ++k) {
        send_card(h.plays[k], out);
        if ((k + 1) % n == 0 && (k / n) < h.trick_winners.size()) out.push_back("trick " + std::to_string(h.trick_winners[k / n]));
    }
    std::string line = "handover tricks=" + join_ints(h.tricks, n);
    if (rules_.game == GameKind::kHearts) line += " points=" + join_ints(h.score.points, n) + " moon=" + std::to_string(h.score.moon_shooter);
    line += " delta=" + join_ints(h.score.delta, units) + " scores=" + join_ints(h.scores_after.score, units);
    if (rules_.game == GameKind::kSpades) line += " bags=" + join_ints(h.scores_after.bags, units);
    out.push_back(line);
    hand_closed_ = true;
    if (game_over)
        out.push_back("gameover winners=" + join_ints(winners, static_cast<int>(winners.size())) +
                      " scores=" + join_ints(h.scores_after.score, units));
    return out;
}

// ---------------------------------------------------------------- bot side

void BotView::need_rules(const std::string& what) const {
    if (info_.rules == nullptr) throw ProtocolError("'" + what + "' before the 'game' and 'rules' lines");
}

void BotView::start_play(int leader) {
    play_started_ = true;
    info_.play.leader = info_.play.to_move = static_cast<std::int8_t>(leader);
}

std::optional<Phase> BotView::feed(std::string_view line) {
    const std::vector<std::string> words = split_words(line);
    if (words.empty()) return std::nullopt;
    const std::string& kw = words[0];
    const std::string what = "'" + std::string(line.substr(0, 80)) + "'";
    const int me = info_.seat;
    const int n = info_.rules ? rules_.players : 0;

    if (kw == kHello) {
        if (words.size() < 2 || words[1] != std::to_string(kVersion))
            throw ProtocolError(what + ": this bot speaks protocol version " + std::to_string(kVersion));
        return std::nullopt;
    }
    if (kw == "game") {
        const Words w = classify(words, 1);
        const std::string* seat = w.param("seat");
        if (!seat) throw ProtocolError(what + ": seat= is missing");
        const std::string* seed = w.param("seed");
        info_ = InfoState{};
        info_.seat = static_cast<int>(to_int(*seat, what));
        seed_ = 0;
        if (seed) {
            const auto [ptr, ec] = std::from_chars(seed->data(), seed->data() + seed->size(), seed_);
            if (ec != std::errc() || ptr != seed->data() + seed->size()) throw ProtocolError(what + ": seed= is not a number");
        }
        ++games_;
        ended_ = false;
        return std::nullopt;
    }
    if (kw == "rules") {
        std::string ini;
        for (std::size_t i = 1; i < words.size(); ++i) ini += words[i] + "\n";
        try {
            rules_ = parse_rules(ini, "protocol rules", {});
        } catch (const InputError& e) {
            throw ProtocolError(e.what());
        }
        play_rules_ = PlayRules::from(rules_);
        if (info_.seat < 0 || info_.seat >= rules_.players) throw ProtocolError(what + ": the seat is not one of the players");
        info_.rules = &rules_;
        return std::nullopt;
    }
    if (kw == "end") {
        ended_ = true;
        return std::nullopt;
    }
    if (kw == "hand") {
        need_rules(kw);
        if (words.size() < 2) throw ProtocolError(what + ": the hand number is missing");
        const Words w = classify(words, 2);
        const ScoreBoard scores = info_.scores;
        const Rules* rules = info_.rules;
        info_ = InfoState{};
        info_.rules = rules;
        info_.seat = me;
        info_.scores = scores;
        info_.hand_number = static_cast<int>(to_int(words[1], what));
        if (const std::string* d = w.param("dealer")) info_.dealer = seat_word({*d}, 0, n, what);
        const int units = rules_.num_units();
        for (const char* key : {"scores", "bags"}) {
            const std::string* v = w.param(key);
            if (!v) continue;
            const std::vector<int> list = int_list(*v, what);
            if (static_cast<int>(list.size()) != units) throw ProtocolError(what + ": " + key + "= needs " + std::to_string(units) + " values");
            for (int u = 0; u < units; ++u) (std::string(key) == "scores" ? info_.scores.score : info_.scores.bags)[u] = list[u];
        }
        info_.play.players = static_cast<std::int8_t>(n);
        info_.play.leader = info_.play.to_move = static_cast<std::int8_t>((info_.dealer + 1) % n);
        play_started_ = false;
        return std::nullopt;
    }
    if (kw == "cards") {
        need_rules(kw);
        const CardSet cards = card_words(words, 1, what);
        info_.dealt = cards;
        info_.play.hands[me] = cards;
        return std::nullopt;
    }
    if (kw == "bid") {
        need_rules(kw);
        const int seat = seat_word(words, 1, n, what);
        if (words.size() < 3) throw ProtocolError(what + ": the number of tricks is missing");
        info_.bids[seat] = Bid{static_cast<int>(to_int(words[2], what)), words.size() > 3 && words[3] == "blind"};
        return std::nullopt;
    }
    if (kw == "exchange") {
        need_rules(kw);
        const int giver = seat_word(words, 1, n, what), receiver = seat_word(words, 2, n, what);
        const CardSet cards = card_words(words, 3, what);
        if (giver == me) {
            info_.play.hands[me] -= cards;
            info_.passed |= cards;
        }
        if (receiver == me) {
            info_.play.hands[me] |= cards;
            info_.received |= cards;
        }
        return std::nullopt;
    }
    if (kw == "passed") {
        need_rules(kw);
        seat_word(words, 1, n, what);
        info_.passed = card_words(words, 2, what);
        return std::nullopt;
    }
    if (kw == "received") {
        need_rules(kw);
        seat_word(words, 1, n, what);
        info_.received = card_words(words, 2, what);
        info_.play.hands[me] = (info_.play.hands[me] - info_.passed) | info_.received;
        return std::nullopt;
    }
    if (kw == "card") {
        need_rules(kw);
        const int seat = seat_word(words, 1, n, what);
        if (words.size() != 3) throw ProtocolError(what + ": expected 'card <seat> <card>'");
        const Card card = card_word(words[2], what);
        if (!play_started_) start_play(seat);
        if (seat != info_.play.to_move)
            throw ProtocolError(what + ": seat " + std::to_string(info_.play.to_move) + " was due to play");
        if (info_.play.played.contains(card)) throw ProtocolError(what + ": " + words[2] + " was already played");
        if (seat == me && !info_.play.hands[me].contains(card))
            throw ProtocolError(what + ": " + words[2] + " is not in this seat's hand");
        info_.plays.push_back({static_cast<std::int8_t>(seat), card});
        info_.play.play(play_rules_, card);
        return std::nullopt;
    }
    if (kw == "trick") {
        need_rules(kw);
        const int winner = seat_word(words, 1, n, what);
        if (info_.play.trick_size != 0 || info_.play.leader != winner)
            throw ProtocolError(what + ": by the cards played, seat " + std::to_string(info_.play.leader) + " won the trick");
        return std::nullopt;
    }
    if (kw == "handover") {
        need_rules(kw);
        const Words w = classify(words, 1);
        const int units = rules_.num_units();
        if (const std::string* v = w.param("scores")) {
            const auto list = int_list(*v, what);
            for (int u = 0; u < units && u < static_cast<int>(list.size()); ++u) info_.scores.score[u] = list[u];
        }
        if (const std::string* v = w.param("bags")) {
            const auto list = int_list(*v, what);
            for (int u = 0; u < units && u < static_cast<int>(list.size()); ++u) info_.scores.bags[u] = list[u];
        }
        return std::nullopt;
    }
    if (kw == "gameover") {
        info_.phase = Phase::kGameOver;
        return std::nullopt;
    }
    if (kw != "ask") return std::nullopt;  // unknown lines are ignored: later versions may add events

    need_rules(kw);
    if (words.size() < 2) throw ProtocolError(what + ": which decision?");
    const Words w = classify(words, 2);
    info_.pass_to = -1;
    info_.pass_count = 0;
    mismatch_.clear();
    const std::string& kind = words[1];
    if (kind == "blind_nil") {
        info_.phase = Phase::kBlindNil;
    } else if (kind == "bid") {
        info_.phase = Phase::kBid;
    } else if (kind == "pass") {
        info_.phase = Phase::kPass;
        const std::string* count = w.param("count");
        const std::string* to = w.param("to");
        if (!count || !to) throw ProtocolError(what + ": 'ask pass' needs count= and to=");
        info_.pass_count = static_cast<int>(to_int(*count, what));
        info_.pass_to = seat_word({*to}, 0, n, what);
    } else if (kind == "play") {
        info_.phase = Phase::kPlay;
        if (!play_started_) start_play(me);
        if (info_.play.to_move != me)
            throw ProtocolError(what + ": by the cards played, seat " + std::to_string(info_.play.to_move) + " is to play");
    } else {
        throw ProtocolError(what + ": unknown decision '" + kind + "'");
    }
    info_.hand = info_.play.hands[me];
    if (info_.phase == Phase::kPlay || info_.phase == Phase::kPass) {
        CardSet listed;
        for (const std::string& c : w.rest) listed |= card_word(c, what);
        const CardSet mine = info_.phase == Phase::kPlay ? info_.legal_cards() : info_.hand;
        if (listed != mine)
            mismatch_ = "the table lists " + cards_to_string(listed) + " but by this bot's account the choices are " + cards_to_string(mine);
    }
    return info_.phase;
}

// ---------------------------------------------------------------- answers

Answer check_answer(const InfoState& info, std::string_view line) {
    Answer a;
    auto malformed = [&](const std::string& why) {
        a.status = Answer::Status::kMalformed;
        a.why = why;
        return a;
    };
    auto illegal = [&](const std::string& why) {
        a.status = Answer::Status::kIllegal;
        a.why = why;
        return a;
    };
    std::vector<std::string> words = split_words(line);
    if (!words.empty() && lower(words[0]) == decision_name(info.phase)) words.erase(words.begin());
    if (words.empty()) return malformed("an empty answer");
    const Rules& rules = *info.rules;
    switch (info.phase) {
        case Phase::kBlindNil: {
            const std::string w = words.size() == 1 ? lower(words[0]) : "";
            if (w != "yes" && w != "no") return malformed("expected 'yes' or 'no'");
            a.blind = w == "yes";
            return a;
        }
        case Phase::kBid: {
            long long v = 0;
            if (words.size() != 1) return malformed("expected one number of tricks");
            if (lower(words[0]) == "nil") v = 0;
            else if (!parse_int(words[0], v)) return malformed("expected a number of tricks");
            const int lo = rules.nil_allowed ? 0 : 1, hi = rules.cards_per_hand();
            if (v < lo || v > hi) return illegal("a bid is " + std::to_string(lo) + " to " + std::to_string(hi) + " tricks");
            a.bid = static_cast<int>(v);
            return a;
        }
        case Phase::kPass: {
            for (const std::string& w : words) {
                Card c;
                try {
                    c = parse_card(w);
                } catch (const InputError&) {
                    return malformed("'" + w + "' is not a card");
                }
                if (a.cards.contains(c)) return illegal(to_string(c) + " is named twice");
                a.cards |= c;
            }
            if (!info.hand.contains_all(a.cards)) return illegal("the seat does not hold " + cards_to_string(a.cards - info.hand));
            if (a.cards.size() != info.pass_count)
                return illegal("pass exactly " + std::to_string(info.pass_count) + " cards, not " + std::to_string(a.cards.size()));
            return a;
        }
        case Phase::kPlay: {
            if (words.size() != 1) return malformed("expected one card");
            try {
                a.card = parse_card(words[0]);
            } catch (const InputError&) {
                return malformed("'" + words[0] + "' is not a card");
            }
            const std::string why = info.play.why_illegal(PlayRules::from(rules), a.card);
            if (!why.empty()) return illegal(why);
            return a;
        }
        case Phase::kGameOver: break;
    }
    return malformed("no decision is due");
}

std::string format_blind_nil(bool blind) { return blind ? "yes" : "no"; }
std::string format_bid(int tricks) { return std::to_string(tricks); }
std::string format_pass(CardSet cards) { return cards_to_string(cards); }
std::string format_play(Card card) { return to_string(card); }

}  // namespace cardgames::protocol
