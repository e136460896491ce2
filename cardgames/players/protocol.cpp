#include "cardgames/players/protocol.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>

#include "cardgames/cards/error.hpp"
#include "cardgames/cards/text.hpp"
#include "cardgames/rules/game.hpp"
#include "cardgames/rules/scoring.hpp"

namespace cardgames::protocol {

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

namespace {

// The words of a line, as strings the caller may keep and change.
std::vector<std::string> words_of(std::string_view line) {
    const std::vector<std::string_view> words = split_words(line);
    return {words.begin(), words.end()};
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
        case 1:
            return "left";
        case -1:
            return "right";
        case 2:
            return "across";
        default:
            return "hold";
    }
}

std::string bid_line(int seat, const Bid& b) {
    return "bid " + std::to_string(seat) + " " + std::to_string(b.tricks) +
           (b.blind ? " blind" : "");
}

std::string with_cards(std::string line, CardSet cards) {
    if (!cards.empty()) line += " " + cards_to_string(cards);
    return line;
}

Words classify(const std::vector<std::string>& words, std::size_t from) {
    Words w;
    for (std::size_t i = from; i < words.size(); ++i) {
        const auto eq = words[i].find('=');
        if (eq != std::string::npos && eq > 0)
            w.params.push_back({words[i].substr(0, eq), words[i].substr(eq + 1)});
        else
            w.rest.push_back(words[i]);
    }
    return w;
}

// Text from the table as it may be shown in a message: plain ASCII (the bot's errors go to a
// terminal or a log of any encoding), long texts cut.
std::string shown(std::string_view text) {
    static constexpr std::size_t kMostBytes = 80;
    return safe_text(text, kMostBytes, TextCharset::kAscii);
}

long long number_in(const std::string& text, long long lo, long long hi, const std::string& name) {
    long long v = 0;
    if (!parse_int(text, v))
        throw ProtocolError(name + " '" + shown(text) + "' is not a whole number");
    if (v < lo || v > hi)
        throw ProtocolError(name + " " + shown(text) + " is out of range " + std::to_string(lo) +
                            ".." + std::to_string(hi));
    return v;
}

// A comma-separated list of `count` numbers in lo..hi (count < 0: any number of them).
std::vector<int> int_list(const std::string& text, int count, long long lo, long long hi,
                          const std::string& name) {
    std::vector<int> out;
    for (std::size_t start = 0; !text.empty() && start <= text.size();) {
        auto comma = text.find(',', start);
        if (comma == std::string::npos) comma = text.size();
        out.push_back(static_cast<int>(number_in(text.substr(start, comma - start), lo, hi, name)));
        start = comma + 1;
    }
    if (count >= 0 && static_cast<int>(out.size()) != count)
        throw ProtocolError(name + "= needs " + std::to_string(count) + " values, not " +
                            std::to_string(out.size()));
    return out;
}

std::vector<int> score_list(const std::string& text, int units, const std::string& name) {
    return int_list(text, units, -kMaxScore, kMaxScore, name);
}

Card card_word(const std::string& text) {
    try {
        return parse_card(text);
    } catch (const InputError&) {
        throw ProtocolError("'" + shown(text) + "' is not a card");
    }
}

// The cards named by words[from..]: each once, each in the deck of these rules.
CardSet card_words(const std::vector<std::string>& words, std::size_t from, const Rules& rules) {
    const CardSet deck = rules.deck();
    CardSet out;
    for (std::size_t i = from; i < words.size(); ++i) {
        const Card c = card_word(words[i]);
        if (out.contains(c)) throw ProtocolError(to_string(c) + " is named twice");
        if (!deck.contains(c))
            throw ProtocolError(to_string(c) + " is not in the deck of these rules");
        out |= c;
    }
    return out;
}

int seat_number(const std::string& text, int players) {
    return static_cast<int>(number_in(text, 0, players - 1, "seat"));
}

int seat_word(const std::vector<std::string>& words, std::size_t i, int players) {
    if (i >= words.size()) throw ProtocolError("a seat is missing");
    return seat_number(words[i], players);
}

// The cards of a 'passed' or 'received' line ("<verb> <seat> <cards>"): the seat must be
// `partner`, this hand's (`relation`: "passes to", "receives from"), and the cards pass_count.
CardSet pass_words(const std::vector<std::string>& words, const Rules& rules, int partner,
                   const std::string& relation, const std::string& verb) {
    if (seat_word(words, 1, rules.players) != partner)
        throw ProtocolError("this hand this seat " + relation + " seat " + std::to_string(partner));
    const CardSet cards = card_words(words, 2, rules);
    if (cards.size() != rules.pass_count)
        throw ProtocolError(std::to_string(cards.size()) + " cards " + verb +
                            ": these rules pass " + std::to_string(rules.pass_count));
    return cards;
}

std::string join_words(const std::vector<std::string>& words) {
    std::string out;
    for (const std::string& w : words) out += (out.empty() ? "" : " ") + w;
    return out;
}

const std::string& required(const Words& w, const std::string& key) {
    const std::string* v = w.param(key);
    if (!v) throw ProtocolError(key + "= is missing");
    return *v;
}

}  // namespace

std::string decision_name(Phase phase) {
    switch (phase) {
        case Phase::kBlindNil:
            return "blind_nil";
        case Phase::kBid:
            return "bid";
        case Phase::kPass:
            return "pass";
        case Phase::kPlay:
            return "play";
        case Phase::kGameOver:
            return "none";
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
    if (rules_.game == GameKind::kHearts)
        line += " pass=" + pass_direction(rules_.pass_offset(hand_));
    line += " scores=" + join_ints(info.scores.score, units);
    if (rules_.game == GameKind::kSpades) line += " bags=" + join_ints(info.scores.bags, units);
    if (info.last_hand) line += " last=1";
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
            std::string line =
                "handover scores=" + join_ints(info.scores.score, rules_.num_units());
            if (rules_.game == GameKind::kSpades)
                line += " bags=" + join_ints(info.scores.bags, rules_.num_units());
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
        const auto steps = blind_nil_exchanges(rules_, dealer_, info.bids);
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
            out.push_back(with_cards(
                "exchange " + std::to_string(giver) + " " + std::to_string(receiver), cards));
        }
        exchanges_sent_ = std::max(exchanges_sent_, done);
    }
    if (rules_.game == GameKind::kHearts && info.phase == Phase::kPlay && !passes_sent_) {
        const int offset = rules_.pass_offset(hand_);
        if (offset != 0) {
            out.push_back(with_cards(
                "passed " + std::to_string(rules_.pass_recipient(seat_, hand_)), info.passed));
            out.push_back(with_cards("received " + std::to_string(rules_.pass_sender(seat_, hand_)),
                                     info.received));
        }
        passes_sent_ = true;
    }
    for (std::size_t k = plays_sent_; k < info.plays.size(); ++k) {
        send_card(info.plays[k], out);
        if ((k + 1) % n == 0) {
            // The winner of a trick leads the next one.
            const int winner =
                k + 1 < info.plays.size() ? info.plays[k + 1].seat : info.play.leader;
            out.push_back("trick " + std::to_string(winner));
        }
    }
    out.push_back(ask_line(info));
    return out;
}

std::string TableWriter::ask_line(const InfoState& info) const {
    switch (info.phase) {
        case Phase::kBlindNil:
            return "ask blind_nil yes no";
        case Phase::kBid: {
            std::string line = "ask bid";
            for (int b = rules_.nil_allowed ? 0 : 1; b <= rules_.cards_per_hand(); ++b)
                line += " " + std::to_string(b);
            return line;
        }
        case Phase::kPass:
            return with_cards("ask pass count=" + std::to_string(info.pass_count) +
                                  " to=" + std::to_string(info.pass_to),
                              info.hand);
        case Phase::kPlay:
            return with_cards("ask play", info.legal_cards());
        case Phase::kGameOver:
            break;
    }
    return "ask none";
}

std::vector<std::string> TableWriter::hand_over(const HandRecord& h, bool game_over,
                                                const std::vector<int>& winners) {
    std::vector<std::string> out;
    if (!started_ || (hand_closed_ && h.number == hand_)) return out;
    const int n = rules_.players;
    const int units = rules_.num_units();
    if (h.number != hand_) {
        // The seat was not asked anything in this hand (cannot happen in our games): open it
        // anyway.
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
        out.push_back(with_cards("passed " + std::to_string((seat_ + h.pass_offset + n) % n),
                                 h.passed[seat_]));
        out.push_back(with_cards("received " + std::to_string(from), h.passed[from]));
    }
    for (std::size_t k = exchanges_sent_; k < h.exchanges.size(); ++k) {
        const auto& [giver, cards] = h.exchanges[k];
        const int receiver = (giver + 2) % 4;
        const bool mine = giver == seat_ || receiver == seat_;
        out.push_back(
            with_cards("exchange " + std::to_string(giver) + " " + std::to_string(receiver),
                       mine ? cards : CardSet()));
    }
    for (std::size_t k = plays_sent_; k < h.plays.size(); ++k) {
        send_card(h.plays[k], out);
        if ((k + 1) % n == 0 && (k / n) < h.trick_winners.size())
            out.push_back("trick " + std::to_string(h.trick_winners[k / n]));
    }
    std::string line = "handover tricks=" + join_ints(h.tricks, n);
    if (rules_.game == GameKind::kHearts)
        line += " points=" + join_ints(h.score.points, n) +
                " moon=" + std::to_string(h.score.moon_shooter);
    line += " delta=" + join_ints(h.score.delta, units) +
            " scores=" + join_ints(h.scores_after.score, units);
    if (rules_.game == GameKind::kSpades) line += " bags=" + join_ints(h.scores_after.bags, units);
    out.push_back(line);
    hand_closed_ = true;
    if (game_over)
        out.push_back("gameover winners=" + join_ints(winners, static_cast<int>(winners.size())) +
                      " scores=" + join_ints(h.scores_after.score, units));
    return out;
}

// ---------------------------------------------------------------- bot side

std::optional<Phase> BotView::feed(std::string_view line) {
    const std::vector<std::string> words = words_of(line);
    if (words.empty()) return std::nullopt;
    try {
        if (read_session_line(words)) return std::nullopt;
        return apply_event(words);
    } catch (const ProtocolError& e) {
        throw ProtocolError("'" + shown(line) + "': " + e.what());
    }
}

bool BotView::read_session_line(const std::vector<std::string>& words) {
    const std::string& kw = words[0];
    if (kw == kHello) {
        if (stage_ != Stage::kHello) throw ProtocolError("a second protocol line");
        if (words.size() < 2 || words[1] != std::to_string(kVersion))
            throw ProtocolError("this bot speaks protocol version " + std::to_string(kVersion));
        stage_ = Stage::kNoGame;
        return true;
    }
    if (kw == "end") {
        ended_ = true;
        return true;
    }
    if (stage_ == Stage::kHello) {
        // Even a line this version does not know: the first line names the protocol.
        throw ProtocolError("the first line must be '" + std::string(kHello) + " " +
                            std::to_string(kVersion) + "'");
    }
    return false;
}

std::optional<Phase> BotView::apply_event(const std::vector<std::string>& words) {
    using Handler = void (BotView::*)(const std::vector<std::string>&);
    static constexpr std::pair<std::string_view, Handler> kEvents[] = {
        {"game", &BotView::on_game},         {"rules", &BotView::on_rules},
        {"hand", &BotView::on_hand},         {"cards", &BotView::on_cards},
        {"bid", &BotView::on_bid},           {"exchange", &BotView::on_exchange},
        {"passed", &BotView::on_passed},     {"received", &BotView::on_received},
        {"card", &BotView::on_card},         {"trick", &BotView::on_trick},
        {"handover", &BotView::on_handover}, {"gameover", &BotView::on_gameover},
    };
    if (words[0] == "ask") return on_ask(words);
    for (const auto& [keyword, handler] : kEvents)
        if (words[0] == keyword) (this->*handler)(words);
    // Other lines are ignored: later versions may add events.
    return std::nullopt;
}

void BotView::need_stage(Stage stage, const std::string& what) const {
    if (stage_ == stage) return;
    switch (stage_) {
        case Stage::kNoGame:
            throw ProtocolError("'" + what + "' before the 'game' line");
        case Stage::kGameLine:
            throw ProtocolError("'" + what + "' before the 'rules' line");
        case Stage::kBetweenHands:
            throw ProtocolError("'" + what +
                                "' outside a hand (no 'hand' line since the last 'handover')");
        case Stage::kHand:
            throw ProtocolError("'" + what + "' while a hand is in progress (no 'handover' yet)");
        case Stage::kGameOver:
            throw ProtocolError("'" + what +
                                "' after 'gameover' (only 'game' or 'end' may follow)");
        case Stage::kHello:
            break;
    }
    throw ProtocolError("'" + what + "' before the protocol line");
}

void BotView::on_game(const std::vector<std::string>& words) {
    if (stage_ != Stage::kNoGame && stage_ != Stage::kGameOver)
        throw ProtocolError("a new game before 'gameover' of the one in progress");
    if (words.size() < 2 || (words[1] != "hearts" && words[1] != "spades"))
        throw ProtocolError("expected 'game <hearts|spades> players=<n> seat=<s> seed=<u64>'");
    const Words w = classify(words, 2);
    game_kind_ = words[1] == "spades" ? GameKind::kSpades : GameKind::kHearts;
    game_players_ = static_cast<int>(number_in(required(w, "players"), 3, kMaxPlayers, "players"));
    info_ = InfoState{};
    info_.seat = seat_number(required(w, "seat"), game_players_);
    seed_ = 0;
    if (const std::string* seed = w.param("seed")) {
        const auto [ptr, ec] = std::from_chars(seed->data(), seed->data() + seed->size(), seed_);
        if (ec != std::errc() || ptr != seed->data() + seed->size())
            throw ProtocolError("seed=" + shown(*seed) + " is not a number 0..2^64-1");
    }
    ++games_;
    stage_ = Stage::kGameLine;
    last_hand_ = -1;
    scores_settled_ = false;
}

void BotView::on_rules(const std::vector<std::string>& words) {
    need_stage(Stage::kGameLine, "rules");
    std::string ini;
    for (std::size_t i = 1; i < words.size(); ++i) ini += words[i] + "\n";
    try {
        rules_ = parse_rules(ini, "rules", {});
    } catch (const InputError& e) {
        throw ProtocolError(e.what());
    }
    if (rules_.game != game_kind_) throw ProtocolError("the 'game' line named the other game");
    if (rules_.players != game_players_)
        throw ProtocolError("players=" + std::to_string(rules_.players) +
                            " but the 'game' line said " + std::to_string(game_players_));
    // Scores are summed and compared with these: keep every sum within int.
    const std::pair<const char*, int> scored[] = {{"target", rules_.target},
                                                  {"end_score", rules_.end_score},
                                                  {"loss_threshold", rules_.loss_threshold},
                                                  {"bag_penalty", rules_.bag_penalty},
                                                  {"bags_per_penalty", rules_.bags_per_penalty},
                                                  {"blind_nil_deficit", rules_.blind_nil_deficit}};
    for (const auto& [key, value] : scored)
        if (value < -kMaxScore || value > kMaxScore)
            throw ProtocolError(std::string(key) + "=" + std::to_string(value) +
                                " is out of range " + std::to_string(-kMaxScore) + ".." +
                                std::to_string(kMaxScore));
    play_rules_ = PlayRules::from(rules_);
    info_.rules = &rules_;
    stage_ = Stage::kBetweenHands;
}

void BotView::on_hand(const std::vector<std::string>& words) {
    need_stage(Stage::kBetweenHands, "hand");
    if (words.size() < 2) throw ProtocolError("the hand number is missing");
    const int number = static_cast<int>(number_in(words[1], 0, kMaxHandNumber, "hand number"));
    if (number <= last_hand_)
        throw ProtocolError("hand " + std::to_string(number) + " after hand " +
                            std::to_string(last_hand_) + ": hands are numbered upwards");
    const Words w = classify(words, 2);
    const int n = rules_.players, units = rules_.num_units();
    const int dealer = seat_number(required(w, "dealer"), n);
    if (const std::string* pass = w.param("pass");
        pass && rules_.game == GameKind::kHearts &&
        *pass != pass_direction(rules_.pass_offset(number)))
        throw ProtocolError("pass=" + shown(*pass) + " but by these rules hand " +
                            std::to_string(number) + " passes " +
                            pass_direction(rules_.pass_offset(number)));
    ScoreBoard scores = info_.scores;
    if (const std::string* v = w.param("scores")) {
        const std::vector<int> list = score_list(*v, units, "scores");
        std::copy(list.begin(), list.end(), scores.score.begin());
    }
    if (const std::string* v = w.param("bags"); v && rules_.game == GameKind::kSpades) {
        // Bags reach bags_per_penalty only to be taken off with the penalty.
        const std::vector<int> list = int_list(*v, units, 0, rules_.bags_per_penalty - 1, "bags");
        std::copy(list.begin(), list.end(), scores.bags.begin());
    }
    if (scores_settled_ && (scores.score != info_.scores.score || scores.bags != info_.scores.bags))
        throw ProtocolError("the scores are not those after the last 'handover'");
    const Rules* rules = info_.rules;
    const int me = info_.seat;
    info_ = InfoState{};
    info_.rules = rules;
    info_.seat = me;
    info_.scores = scores;
    info_.hand_number = last_hand_ = number;
    if (const std::string* v = w.param("last")) info_.last_hand = number_in(*v, 0, 1, "last") == 1;
    info_.dealer = dealer;
    info_.play.players = static_cast<std::int8_t>(n);
    info_.play.leader = info_.play.to_move = static_cast<std::int8_t>((dealer + 1) % n);
    dealt_ = passed_ = received_ = play_started_ = trick_due_ = false;
    bids_told_ = 0;
    exchange_steps_.clear();
    exchanges_done_ = 0;
    taken_ = {};
    stage_ = Stage::kHand;
}

void BotView::on_cards(const std::vector<std::string>& words) {
    need_stage(Stage::kHand, "cards");
    if (dealt_) throw ProtocolError("the hand's cards were already dealt");
    const CardSet cards = card_words(words, 1, rules_);
    if (cards.size() != rules_.cards_per_hand())
        throw ProtocolError(std::to_string(cards.size()) + " cards dealt: a hand has " +
                            std::to_string(rules_.cards_per_hand()));
    dealt_ = true;
    info_.dealt = info_.hand = info_.play.hands[info_.seat] = cards;
}

int BotView::next_bidder() const {
    return (info_.dealer + 1 + bids_told_) % rules_.players;
}

bool BotView::bidding_done() const {
    return rules_.game != GameKind::kSpades || bids_told_ == rules_.players;
}

void BotView::on_bid(const std::vector<std::string>& words) {
    need_stage(Stage::kHand, "bid");
    if (rules_.game != GameKind::kSpades) throw ProtocolError("a bid in Hearts");
    if (bidding_done()) throw ProtocolError("every seat has bid");
    const int seat = seat_word(words, 1, rules_.players);
    if (seat != next_bidder())
        throw ProtocolError("seat " + std::to_string(next_bidder()) + " bids next");
    if (words.size() < 3 || words.size() > 4 || (words.size() == 4 && words[3] != "blind"))
        throw ProtocolError("expected 'bid <seat> <tricks> [blind]'");
    const bool blind = words.size() == 4;
    const int tricks = static_cast<int>(number_in(words[2], 0, rules_.cards_per_hand(), "tricks"));
    if (tricks == 0 && !rules_.nil_allowed)
        throw ProtocolError("nil bids are not allowed in these rules");
    if (blind && tricks != 0) throw ProtocolError("a blind bid is blind nil: 0 tricks");
    if (blind && !blind_nil_allowed(rules_, info_.scores, seat))
        throw ProtocolError("blind nil is not allowed for seat " + std::to_string(seat) +
                            " by these rules and scores");
    if (seat == info_.seat && !blind && !dealt_)
        throw ProtocolError("this seat bid before its cards were dealt");
    info_.bids[seat] = Bid{tricks, blind};
    ++bids_told_;
    if (bidding_done()) exchange_steps_ = blind_nil_exchanges(rules_, info_.dealer, info_.bids);
}

void BotView::on_exchange(const std::vector<std::string>& words) {
    need_stage(Stage::kHand, "exchange");
    if (rules_.game != GameKind::kSpades || !bidding_done())
        throw ProtocolError("an exchange before every seat has bid");
    if (exchanges_done()) throw ProtocolError("no blind nil exchange is due");
    const int n = rules_.players, me = info_.seat;
    const int giver = seat_word(words, 1, n), receiver = seat_word(words, 2, n);
    const auto [want_giver, want_receiver] = exchange_steps_[exchanges_done_];
    if (giver != want_giver || receiver != want_receiver)
        throw ProtocolError("seat " + std::to_string(want_giver) + " gives to seat " +
                            std::to_string(want_receiver) + " next");
    const CardSet cards = card_words(words, 3, rules_);
    CardSet& hand = info_.play.hands[me];
    if (giver == me || receiver == me) {
        if (!dealt_) throw ProtocolError("an exchange of this seat before its cards were dealt");
        if (cards.size() != 2) throw ProtocolError("an exchange is of 2 cards");
        if (giver == me && !hand.contains_all(cards))
            throw ProtocolError("this seat does not hold " + cards_to_string(cards - hand));
        if (receiver == me && !(hand & cards).empty())
            throw ProtocolError("this seat already holds " + cards_to_string(hand & cards));
    } else if (!cards.empty()) {
        throw ProtocolError("the cards of an exchange between other seats are not told");
    }
    if (giver == me) {
        hand -= cards;
        info_.passed |= cards;
    }
    if (receiver == me) {
        hand |= cards;
        info_.received |= cards;
    }
    info_.hand = hand;
    ++exchanges_done_;
}

void BotView::on_passed(const std::vector<std::string>& words) {
    need_stage(Stage::kHand, "passed");
    const int me = info_.seat;
    if (pass_offset() == 0) throw ProtocolError("no passing in this hand");
    if (!dealt_) throw ProtocolError("a pass before the cards were dealt");
    if (passed_) throw ProtocolError("this seat already passed");
    const CardSet cards = pass_words(words, rules_, rules_.pass_recipient(me, info_.hand_number),
                                     "passes to", "passed");
    if (!info_.play.hands[me].contains_all(cards))
        throw ProtocolError("this seat does not hold " +
                            cards_to_string(cards - info_.play.hands[me]));
    info_.passed = cards;
    passed_ = true;
}

void BotView::on_received(const std::vector<std::string>& words) {
    need_stage(Stage::kHand, "received");
    const int me = info_.seat;
    if (!passed_) throw ProtocolError("'received' before 'passed'");
    if (received_) throw ProtocolError("this seat already received its pass");
    const CardSet cards = pass_words(words, rules_, rules_.pass_sender(me, info_.hand_number),
                                     "receives from", "received");
    if (!(cards & info_.dealt).empty())
        throw ProtocolError("this seat was dealt " + cards_to_string(cards & info_.dealt));
    info_.received = cards;
    info_.hand = info_.play.hands[me] = (info_.play.hands[me] - info_.passed) | cards;
    received_ = true;
    check_deal_fits();
}

void BotView::need_play(const std::string& what) const {
    if (!dealt_) throw ProtocolError(what + " before this seat's cards were dealt");
    if (!bidding_done()) throw ProtocolError(what + " before every seat has bid");
    if (!exchanges_done()) throw ProtocolError(what + " before the blind nil exchanges are done");
    if (pass_offset() != 0 && !received_)
        throw ProtocolError(what + " before the passes were told");
    if (trick_due_) throw ProtocolError(what + " before the last trick's 'trick' line");
    if (info_.play.tricks_played == rules_.cards_per_hand())
        throw ProtocolError(what + " after the hand's last trick");
}

void BotView::start_play(int leader) {
    play_started_ = true;
    info_.play.leader = info_.play.to_move = static_cast<std::int8_t>(leader);
}

int BotView::opening_leader() const {
    // The holder of the first-lead card when the rules have one (only this seat's own holding is
    // known: -1 when another seat holds it), else the dealer's left.
    if (play_rules_.first_lead == kNoCard) return (info_.dealer + 1) % rules_.players;
    return info_.play.hands[info_.seat].contains(play_rules_.first_lead) ? info_.seat : -1;
}

Constraints BotView::constraints() {
    info_.hand = info_.play.hands[info_.seat];
    return constraints_from(info_);
}

void BotView::check_deal_fits() {
    const Constraints c = constraints();
    const std::string why = c.why_no_deal();
    if (!why.empty())
        throw ProtocolError("no deal of the cards this seat has not seen fits the hand so far: " +
                            why);
}

void BotView::on_card(const std::vector<std::string>& words) {
    need_stage(Stage::kHand, "card");
    const PlayedCard p = parse_card_line(words);
    need_play("a card");
    check_card_unplayed(p.card);
    if (!play_started_) open_play(p);
    check_card_fits(p);
    apply_card(p);
}

PlayedCard BotView::parse_card_line(const std::vector<std::string>& words) const {
    if (words.size() != 3) throw ProtocolError("expected 'card <seat> <card>'");
    const int seat = seat_word(words, 1, rules_.players);
    return {static_cast<std::int8_t>(seat), card_word(words[2])};
}

void BotView::check_card_unplayed(Card card) const {
    if (!rules_.deck().contains(card))
        throw ProtocolError(to_string(card) + " is not in the deck of these rules");
    if (info_.play.played.contains(card))
        throw ProtocolError(to_string(card) + " was already played");
}

void BotView::open_play(const PlayedCard& first) {
    const Card first_lead = play_rules_.first_lead;
    if (first_lead != kNoCard && first.card != first_lead)
        throw ProtocolError("the hand's first card must be " + to_string(first_lead));
    const int leader = opening_leader();
    if (leader >= 0 && first.seat != leader)
        throw ProtocolError("seat " + std::to_string(leader) + " leads the hand");
    start_play(first.seat);
}

void BotView::check_card_fits(const PlayedCard& p) {
    const int seat = p.seat, me = info_.seat;
    const Card card = p.card;
    if (seat != info_.play.to_move)
        throw ProtocolError("seat " + std::to_string(info_.play.to_move) + " is due to play");
    if (seat == me) {
        const std::string why = info_.play.why_illegal(play_rules_, card);
        if (!why.empty()) throw ProtocolError("this seat's own card: " + why);
        return;
    }
    if (info_.play.hands[me].contains(card))
        throw ProtocolError(to_string(card) + " is in this seat's hand");
    const Constraints c = constraints();
    if (c.excluded[seat].contains(card))
        throw ProtocolError("seat " + std::to_string(seat) + " cannot hold " + to_string(card) +
                            ", by the cards it played before");
    for (int s = 0; s < rules_.players; ++s)
        if (s != seat && c.known[s].contains(card))
            throw ProtocolError(to_string(card) + " is seat " + std::to_string(s) +
                                "'s: this seat gave it there");
}

void BotView::apply_card(const PlayedCard& p) {
    const int n = rules_.players, me = info_.seat;
    info_.plays.push_back(p);
    const int winner = info_.play.play(play_rules_, p.card);
    info_.hand = info_.play.hands[me];
    if (winner >= 0) {
        info_.trick_winners[static_cast<std::size_t>(info_.play.tricks_played - 1)] =
            static_cast<std::int8_t>(winner);
        for (std::size_t i = info_.plays.size() - static_cast<std::size_t>(n);
             i < info_.plays.size(); ++i)
            taken_[winner] |= info_.plays[i].card;
        trick_due_ = true;
    }
    if (p.seat != me) check_deal_fits();
}

void BotView::on_trick(const std::vector<std::string>& words) {
    need_stage(Stage::kHand, "trick");
    const int winner = seat_word(words, 1, rules_.players);
    if (!trick_due_) throw ProtocolError("no trick is complete");
    if (winner != info_.play.leader)
        throw ProtocolError("by the cards played, seat " + std::to_string(info_.play.leader) +
                            " won the trick");
    trick_due_ = false;
}

void BotView::on_handover(const std::vector<std::string>& words) {
    need_stage(Stage::kHand, "handover");
    const Words w = classify(words, 1);
    const ScoreBoard after = w.param("tricks") ? checked_hand_result(w) : told_scores(w);
    for (int u = 0; u < rules_.num_units(); ++u)
        if (after.score[u] < -kMaxScore || after.score[u] > kMaxScore)
            throw ProtocolError("a score beyond " + std::to_string(kMaxScore) +
                                " in absolute value");
    info_.scores = after;
    scores_settled_ = true;
    stage_ = Stage::kBetweenHands;
}

ScoreBoard BotView::told_scores(const Words& w) const {
    // A table that does not report its hands says only what the scores are now.
    const int units = rules_.num_units();
    ScoreBoard after = info_.scores;
    const std::vector<int> scores = score_list(required(w, "scores"), units, "scores");
    std::copy(scores.begin(), scores.end(), after.score.begin());
    if (rules_.game != GameKind::kHearts) {
        const std::vector<int> bags =
            int_list(required(w, "bags"), units, 0, rules_.bags_per_penalty - 1, "bags");
        std::copy(bags.begin(), bags.end(), after.bags.begin());
    }
    return after;
}

ScoreBoard BotView::checked_hand_result(const Words& w) const {
    const int n = rules_.players, units = rules_.num_units();
    const bool hearts = rules_.game == GameKind::kHearts;
    ScoreBoard after = info_.scores;
    if (info_.play.tricks_played != rules_.cards_per_hand() || trick_due_)
        throw ProtocolError("the hand is not over: " + std::to_string(info_.play.tricks_played) +
                            " of " + std::to_string(rules_.cards_per_hand()) + " tricks told");
    std::array<int, kMaxPlayers> tricks{};
    for (int s = 0; s < n; ++s) tricks[s] = info_.play.tricks_won[s];
    if (int_list(required(w, "tricks"), n, 0, rules_.cards_per_hand(), "tricks") !=
        std::vector<int>(tricks.begin(), tricks.begin() + n))
        throw ProtocolError("by the cards played, the tricks are " + join_ints(tricks, n));
    const HandScore score = hearts ? score_hearts_hand(rules_, taken_, after)
                                   : score_spades_hand(rules_, info_.bids, tricks, after);
    if (hearts) {
        if (int_list(required(w, "points"), n, -kMaxScore, kMaxScore, "points") !=
            std::vector<int>(score.points.begin(), score.points.begin() + n))
            throw ProtocolError("by the cards played, the points are " +
                                join_ints(score.points, n));
        if (number_in(required(w, "moon"), -1, n - 1, "moon") != score.moon_shooter)
            throw ProtocolError("by the cards played, moon=" + std::to_string(score.moon_shooter));
    }
    if (score_list(required(w, "delta"), units, "delta") !=
        std::vector<int>(score.delta.begin(), score.delta.begin() + units))
        throw ProtocolError("by this bot's account, delta=" + join_ints(score.delta, units));
    if (score_list(required(w, "scores"), units, "scores") !=
        std::vector<int>(after.score.begin(), after.score.begin() + units))
        throw ProtocolError("by this bot's account, scores=" + join_ints(after.score, units));
    if (!hearts && int_list(required(w, "bags"), units, 0, kMaxScore, "bags") !=
                       std::vector<int>(after.bags.begin(), after.bags.begin() + units))
        throw ProtocolError("by this bot's account, bags=" + join_ints(after.bags, units));
    return after;
}

void BotView::on_gameover(const std::vector<std::string>& words) {
    need_stage(Stage::kBetweenHands, "gameover");
    if (last_hand_ < 0) throw ProtocolError("'gameover' before any hand");
    const Words w = classify(words, 1);
    const int units = rules_.num_units();
    std::vector<int> winners = int_list(required(w, "winners"), -1, 0, units - 1, "winners");
    std::sort(winners.begin(), winners.end());
    if (std::adjacent_find(winners.begin(), winners.end()) != winners.end())
        throw ProtocolError("a unit is named twice in winners=");
    // Empty: the table stopped the game; else the winners by the scores.
    const std::vector<int> by_scores = game_winners(rules_, info_.scores);
    if (!winners.empty() && winners != by_scores)
        throw ProtocolError("by the scores, the winners are '" +
                            join_ints(by_scores, static_cast<int>(by_scores.size())) + "'");
    if (const std::string* v = w.param("scores");
        v && score_list(*v, units, "scores") !=
                 std::vector<int>(info_.scores.score.begin(), info_.scores.score.begin() + units))
        throw ProtocolError("the scores are not those after the last 'handover'");
    info_.phase = Phase::kGameOver;
    stage_ = Stage::kGameOver;
}

Phase BotView::on_ask(const std::vector<std::string>& words) {
    need_stage(Stage::kHand, "ask");
    if (words.size() < 2) throw ProtocolError("which decision?");
    const Words w = classify(words, 2);
    info_.pass_to = -1;
    info_.pass_count = 0;
    info_.phase = asked_phase(words[1], w);
    info_.hand = info_.play.hands[info_.seat];
    if (info_.phase == Phase::kPlay || info_.phase == Phase::kPass) check_listed_cards(w);
    // Decisions that sample the unseen cards get a state some deal fits.
    if (info_.phase == Phase::kPlay ||
        (info_.phase == Phase::kPass && rules_.game != GameKind::kSpades) ||
        info_.phase == Phase::kBid)
        check_deal_fits();
    return info_.phase;
}

Phase BotView::asked_phase(const std::string& kind, const Words& w) {
    if (kind == "blind_nil" || kind == "bid") return asked_bid(kind, w);
    if (kind == "pass") return asked_pass(w);
    if (kind == "play") return asked_play();
    throw ProtocolError("unknown decision '" + shown(kind) + "'");
}

Phase BotView::asked_bid(const std::string& kind, const Words& w) const {
    const int me = info_.seat;
    if (rules_.game != GameKind::kSpades) throw ProtocolError("no bidding in Hearts");
    if (bidding_done() || next_bidder() != me)
        throw ProtocolError("this seat is not the one to bid");
    if (kind == "blind_nil") {
        if (!blind_nil_allowed(rules_, info_.scores, me))
            throw ProtocolError("by these rules and scores this seat may not bid blind nil");
        if (dealt_)
            throw ProtocolError(
                "blind nil is decided before seeing the cards, and they were dealt");
        if (w.rest != std::vector<std::string>{"yes", "no"})
            throw ProtocolError("the choices of blind_nil are 'yes no'");
        return Phase::kBlindNil;
    }
    if (!dealt_) throw ProtocolError("a bid asked before this seat's cards were dealt");
    std::vector<std::string> choices;
    for (int t = rules_.nil_allowed ? 0 : 1; t <= rules_.cards_per_hand(); ++t)
        choices.push_back(std::to_string(t));
    if (w.rest != choices)
        throw ProtocolError("by this bot's account the choices are " + join_words(choices));
    return Phase::kBid;
}

Phase BotView::asked_pass(const Words& w) {
    const int n = rules_.players, me = info_.seat;
    if (!dealt_) throw ProtocolError("a pass asked before this seat's cards were dealt");
    const int count =
        static_cast<int>(number_in(required(w, "count"), 0, kMaxPlayers * 13, "count"));
    const int to = seat_number(required(w, "to"), n);
    int want_count = rules_.pass_count, want_to = (me + pass_offset() + n) % n;
    if (rules_.game == GameKind::kSpades) {
        if (!bidding_done() || exchanges_done() || exchange_steps_[exchanges_done_].first != me)
            throw ProtocolError("no exchange of this seat is due");
        want_count = 2;
        want_to = exchange_steps_[exchanges_done_].second;
    } else if (pass_offset() == 0 || passed_) {
        throw ProtocolError("no pass of this seat is due");
    }
    if (count != want_count || to != want_to)
        throw ProtocolError("by this bot's account the pass is count=" +
                            std::to_string(want_count) + " to=" + std::to_string(want_to));
    info_.pass_count = count;
    info_.pass_to = to;
    return Phase::kPass;
}

Phase BotView::asked_play() {
    const int me = info_.seat;
    need_play("a play asked");
    if (!play_started_) {
        if (opening_leader() != me) throw ProtocolError("this seat does not lead the hand");
        start_play(me);
    }
    if (info_.play.to_move != me)
        throw ProtocolError("by the cards played, seat " + std::to_string(info_.play.to_move) +
                            " is to play");
    return Phase::kPlay;
}

void BotView::check_listed_cards(const Words& w) const {
    const CardSet listed = card_words(w.rest, 0, rules_);
    const CardSet mine = info_.phase == Phase::kPlay ? info_.legal_cards() : info_.hand;
    if (listed != mine)
        throw ProtocolError("the table lists " + cards_to_string(listed) +
                            " but by this bot's account the choices are " +
                            (mine.empty() ? std::string("none") : cards_to_string(mine)));
    if (info_.pass_count > mine.size())
        throw ProtocolError("a pass of more cards than this seat holds");
}

void run_bot_session(std::istream& in, std::ostream& out, const PlayerFactory& make_player) {
    BotView view;
    std::unique_ptr<Player> player;
    int games = 0;
    std::string line;
    for (long long number = 1;; ++number) {
        // Read bounded: a huge line costs no memory before it is refused.
        const LineRead read = read_line_bounded(in, line, kMaxLineBytes);
        if (read == LineRead::kEnd) break;
        try {
            if (read == LineRead::kTooLong)
                throw ProtocolError("'" + shown(line) + "': a line longer than 64 KiB");
            const std::optional<Phase> ask = view.feed(line);
            if (view.ended()) return;
            if (view.games_started() != games) {
                games = view.games_started();
                player = make_player(view.seed());
            }
            if (!ask || !player) continue;
            const InfoState& info = view.info();
            std::string answer;
            switch (*ask) {
                case Phase::kBlindNil:
                    answer = format_blind_nil(player->blind_nil(info));
                    break;
                case Phase::kBid:
                    answer = format_bid(player->bid(info));
                    break;
                case Phase::kPass:
                    answer = format_pass(player->pass(info));
                    break;
                case Phase::kPlay:
                    answer = format_play(player->play(info));
                    break;
                case Phase::kGameOver:
                    continue;
            }
            out << answer << std::endl;  // flushed: the table waits for this line
        } catch (const InputError& e) {
            throw ProtocolError("table line " + std::to_string(number) + ": " + e.what());
        }
    }
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
    std::vector<std::string> words = words_of(line);
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
            if (lower(words[0]) == "nil")
                v = 0;
            else if (!parse_int(words[0], v))
                return malformed("expected a number of tricks");
            const int lo = rules.nil_allowed ? 0 : 1, hi = rules.cards_per_hand();
            if (v < lo || v > hi)
                return illegal("a bid is " + std::to_string(lo) + " to " + std::to_string(hi) +
                               " tricks");
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
            if (!info.hand.contains_all(a.cards))
                return illegal("the seat does not hold " + cards_to_string(a.cards - info.hand));
            if (a.cards.size() != info.pass_count)
                return illegal("pass exactly " + std::to_string(info.pass_count) + " cards, not " +
                               std::to_string(a.cards.size()));
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
        case Phase::kGameOver:
            break;
    }
    return malformed("no decision is due");
}

std::string format_blind_nil(bool blind) {
    return blind ? "yes" : "no";
}
std::string format_bid(int tricks) {
    return std::to_string(tricks);
}
std::string format_pass(CardSet cards) {
    return cards_to_string(cards);
}
std::string format_play(Card card) {
    return to_string(card);
}

}  // namespace cardgames::protocol
