#include "apps/cli/terminal.hpp"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <mutex>
#include <sstream>
#include <string_view>
#include <thread>
#include <vector>

#include "apps/cli/common.hpp"
#include "apps/cli/table_view.hpp"
#include "cardgames/cards/error.hpp"
#include "cardgames/cards/text.hpp"
#include "sampling/pimc.hpp"

namespace apps {

using namespace cardgames;

namespace {

std::string lower(std::string s) {
    for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

std::string trim(const std::string& s) {
    const auto a = s.find_first_not_of(" \t\r\n");
    if (a == std::string::npos) return {};
    return s.substr(a, s.find_last_not_of(" \t\r\n") - a + 1);
}

constexpr const char* kHelp =
    "Commands:\n"
    "  a card        QS, q\u2660, 10h, TH    play it (or name it in a pass: 'QS AH KH')\n"
    "  a bid         0..13 or nil       (Spades; 0 is nil, and asks to confirm)\n"
    "  hint          what the bot would do in your place\n"
    "  hand          show your hand and the table again\n"
    "  last          show the last trick\n"
    "  auto          let the bot play for you for the rest of the game\n"
    "  quit          abandon the game (asks first)\n";

// While alive, a thread that shows "<who> is thinking..." once 0.3 s have passed; the line is wiped
// when it ends.
class ThinkingNotice {
  public:
    ThinkingNotice(std::ostream& out, const std::string& who)
        : out_(out), thread_([this, who] {
              std::unique_lock lock(mutex_);
              if (done_.wait_for(lock, std::chrono::milliseconds(300),
                                 [this] { return finished_; }))
                  return;
              out_ << who << " is thinking..." << std::flush;
              shown_ = true;
          }) {}
    ~ThinkingNotice() {
        {
            std::lock_guard lock(mutex_);
            finished_ = true;
        }
        done_.notify_one();
        thread_.join();
        if (shown_) out_ << "\r\033[K" << std::flush;
    }
    ThinkingNotice(const ThinkingNotice&) = delete;
    ThinkingNotice& operator=(const ThinkingNotice&) = delete;

  private:
    std::ostream& out_;
    std::mutex mutex_;
    std::condition_variable done_;
    bool finished_ = false;
    bool shown_ = false;
    std::thread thread_;  // last: starts once the rest is set up
};

// The commands every prompt takes.
constexpr const char* kCommands[] = {"help", "hint", "hand", "last", "auto", "quit", "exit"};

// Edit distance with adjacent transpositions (optimal string alignment), for typos of commands.
std::size_t typo_distance(const std::string& a, const std::string& b) {
    std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
    for (std::size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
    for (std::size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i)
        for (std::size_t j = 1; j <= b.size(); ++j) {
            d[i][j] = std::min(
                {d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] != b[j - 1])});
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
                d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
        }
    return d[a.size()][b.size()];
}

// The command `word` is one typo away from, or "" when there is none.
std::string command_meant(const std::string& word) {
    if (word.size() < 3) return {};
    for (const char* c : kCommands)
        if (typo_distance(word, c) == 1) return c;
    return {};
}

}  // namespace

bool utf8_terminal() {
    for (const char* var : {"LC_ALL", "LC_CTYPE", "LANG"}) {
        const char* v = std::getenv(var);
        if (v && *v) {
            const std::string s = lower(v);
            return s.find("utf-8") != std::string::npos || s.find("utf8") != std::string::npos;
        }
    }
    return false;
}

std::string Display::card(Card c) const {
    std::string s = symbols_ ? to_string_symbol(c) : to_string(c);
    const bool red = c.suit() == Suit::kHearts || c.suit() == Suit::kDiamonds;
    if (colour_ && red) s = "\033[31m" + s + "\033[0m";
    return s;
}

std::string Display::cards(CardSet cs) const {
    std::string out;
    for (Suit s : kSuitsNotationOrder)
        for (Rank r = kAce; r >= kTwo; --r)
            if (cs.contains(Card(s, r))) {
                if (!out.empty()) out += ' ';
                out += card(Card(s, r));
            }
    return out.empty() ? "-" : out;
}

std::string Display::text(const std::string& message) const {
    static constexpr const char* kSymbols[] = {"\u2660", "\u2665", "\u2666", "\u2663"};
    static constexpr const char* kLetters = "SHDC";
    auto is_word = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; };
    std::string out;
    for (std::size_t i = 0; i < message.size();) {
        const bool alone = (i == 0 || !is_word(message[i - 1])) &&
                           (i + 2 >= message.size() || !is_word(message[i + 2]));
        if (i + 1 < message.size() && alone &&
            std::string_view("AKQJT98765432").find(message[i]) != std::string_view::npos &&
            std::string_view(kLetters).find(message[i + 1]) != std::string_view::npos) {
            out += card(parse_card(message.substr(i, 2)));
            i += 2;
            continue;
        }
        bool replaced = false;
        for (int k = 0; k < 4 && !symbols_; ++k)
            if (message.compare(i, std::strlen(kSymbols[k]), kSymbols[k]) == 0) {
                out += kLetters[k];
                i += std::strlen(kSymbols[k]);
                replaced = true;
            }
        if (!replaced) out += message[i++];
    }
    return out;
}

std::string Display::hand(CardSet cs, CardSet marked) const {
    std::string out;
    for (Suit s : kSuitsNotationOrder) {
        std::string suit = symbols_ ? suit_symbol(s) : std::string(1, suit_letter(s));
        const bool red = s == Suit::kHearts || s == Suit::kDiamonds;
        if (colour_ && red) suit = "\033[31m" + suit + "\033[0m";
        if (!out.empty()) out += "   ";
        out += suit;
        if (!cs.has_suit(s)) out += " -";
        for (Rank r = kAce; r >= kTwo; --r)
            if (cs.contains(Card(s, r))) {
                out += ' ';
                out += rank_letter(r);
                if (marked.contains(Card(s, r))) out += '*';
            }
    }
    return out;
}

void TerminalPlayer::show_table(const InfoState& info) {
    const int n = info.players();
    out_ << "\n" << table_.status();
    if (info.phase == Phase::kPlay && info.play.trick_size > 0) {
        out_ << "Trick so far:";
        for (int i = 0; i < info.play.trick_size; ++i)
            out_ << (i ? ", " : " ") << table_.seat((info.play.leader + i) % n) << ": "
                 << display_.card(info.play.trick[i]);
        out_ << "\n";
    }
    const CardSet fresh = table_.take_fresh_cards() & info.hand;
    if (!info.hand.empty())
        out_ << "Your hand: " << display_.hand(info.hand, fresh)
             << (fresh.empty() ? "" : "   (* received)") << "\n";
}

std::string TerminalPlayer::hint(const InfoState& info) {
    switch (info.phase) {
        case Phase::kBlindNil:
            return hint_bot_->blind_nil(info) ? "bid blind nil" : "don't bid blind nil";
        case Phase::kBid: {
            const int b = hint_bot_->bid(info);
            return b == 0 ? "bid nil" : "bid " + std::to_string(b);
        }
        case Phase::kPass:
            return "pass " + display_.cards(hint_bot_->pass(info));
        case Phase::kPlay: {
            auto* pimc = dynamic_cast<sampling::PimcBot*>(hint_bot_.get());
            if (!pimc) return "play " + display_.card(hint_bot_->play(info));
            const sampling::PimcAnalysis a = pimc->analyze(info);
            std::string out = "play " + display_.card(a.best);
            if (!a.searched) return out + " (your only legal card)";
            const bool hearts = info.rules->game == GameKind::kHearts;
            out += "\n  expected " +
                   std::string(hearts ? "penalty points this hand" : "hand score") +
                   " per card over " + std::to_string(a.worlds) + " sampled deals:";
            for (const auto& cv : a.cards) {
                char buf[32];
                std::snprintf(buf, sizeof buf, "%.1f", cv.expected);
                out += "\n    " + display_.card(cv.card) + "  " + buf +
                       (cv.card == a.best ? "  <- best" : "");
            }
            return out;
        }
        case Phase::kGameOver:
            break;
    }
    return {};
}

namespace {

// A line typed at a prompt is read up to this length; a longer one is refused unread.
constexpr std::size_t kMaxTypedBytes = 64 * 1024;
// What the player typed, as it is shown back: escapes and invalid bytes made visible, and cut.
constexpr std::size_t kEchoBytes = 60;

std::string typed(const std::string& line) {
    return cardgames::safe_text(line, kEchoBytes);
}

// One line from the player; QuitGame at the end of the input.
cardgames::LineRead read_typed(std::istream& in, std::string& line) {
    const cardgames::LineRead r = cardgames::read_line_bounded(in, line, kMaxTypedBytes);
    if (r == cardgames::LineRead::kEnd) throw QuitGame{true};
    return r;
}

}  // namespace

bool TerminalPlayer::read(const InfoState& info, const std::string& prompt, std::string& line) {
    out_ << prompt << "> " << std::flush;
    if (read_typed(in_, line) == cardgames::LineRead::kTooLong) {
        out_ << "That line is longer than 64 KiB; it was not read. Type 'help' for what you can "
                "type here.\n";
        return false;
    }
    line = trim(line);
    const std::string cmd = lower(line);
    if (cmd == "help" || cmd == "?") {
        out_ << kHelp;
    } else if (cmd == "hint") {
        out_ << "Hint (" << hint_bot_->name() << " bot): " << hint(info) << "\n";
    } else if (cmd == "hand") {
        show_table(info);
    } else if (cmd == "last") {
        out_ << table_.last_trick();
    } else if (cmd == "auto") {
        out_ << "The " << hint_bot_->name() << " bot plays for you from now on.\n";
        auto_ = true;
    } else if (cmd == "quit" || cmd == "exit") {
        out_ << "Abandon this game? (y/n) > " << std::flush;
        std::string answer;
        read_typed(in_, answer);
        if (lower(trim(answer)).starts_with("y")) throw QuitGame{false};
    } else if (line.empty()) {
        out_ << "Nothing typed. Type 'help' for what you can type here.\n";
    } else if (const std::string meant = command_meant(cmd); !meant.empty()) {
        out_ << "'" << typed(line) << "' is not a command: did you mean '" << meant << "'?\n";
    } else {
        return true;
    }
    return false;
}

bool TerminalPlayer::confirm(const InfoState& info, const std::string& question) {
    std::string line;
    while (!auto_) {
        if (!read(info, question + " (y/n)", line)) continue;
        const std::string a = lower(line);
        if (a == "y" || a == "yes") return true;
        if (a == "n" || a == "no") return false;
        out_ << "Answer y or n.\n";
    }
    return false;  // `auto`: the bot decides
}

bool TerminalPlayer::blind_nil(const InfoState& info) {
    if (auto_) return hint_bot_->blind_nil(info);
    out_ << "Your side trails by enough to bid blind nil (+/-200), before seeing your cards.\n";
    const bool blind =
        confirm(info, "Bid blind nil?") &&
        confirm(info, "Blind nil: you promise to take no trick at all, unseen cards and all?");
    return auto_ ? hint_bot_->blind_nil(info) : blind;
}

int TerminalPlayer::bid(const InfoState& info) {
    if (auto_) return hint_bot_->bid(info);
    show_table(info);
    const int most = info.rules->cards_per_hand();
    const bool nil = info.rules->nil_allowed;
    std::string line;
    while (!auto_) {
        if (!read(info,
                  "Your bid (" + std::string(nil ? "0-" : "1-") + std::to_string(most) +
                      (nil ? "; 0 or nil is nil" : "") + ")",
                  line))
            continue;
        const std::string a = lower(line);
        char* end = nullptr;
        const long b = a == "nil" ? 0 : std::strtol(a.c_str(), &end, 10);
        const bool number = a == "nil" || (end && *end == '\0' && !a.empty());
        if (number && b >= (nil ? 0 : 1) && b <= most) {
            if (b > 0 || confirm(info, "Bid nil: you promise to take no trick at all?"))
                return static_cast<int>(b);
            continue;
        }
        out_ << "'" << typed(line) << "' is not a bid: say a number from " << (nil ? 0 : 1)
             << " to " << most << (nil ? " or nil" : "") << ".\n";
    }
    return hint_bot_->bid(info);
}

CardSet TerminalPlayer::pass(const InfoState& info) {
    if (auto_) return hint_bot_->pass(info);
    show_table(info);
    std::string line;
    while (!auto_) {
        if (!read(info,
                  "Pass " + std::to_string(info.pass_count) + " cards to " +
                      table_.seat(info.pass_to),
                  line))
            continue;
        std::istringstream words(line);
        std::string w;
        CardSet chosen;
        std::string problem;
        while (words >> w) {
            try {
                const Card c = parse_card(w);
                if (!info.hand.contains(c))
                    problem = display_.card(c) + " is not in your hand";
                else if (chosen.contains(c))
                    problem = display_.card(c) + " is named twice";
                chosen |= c;
            } catch (const InputError& e) {
                problem = e.what();
            }
        }
        if (problem.empty() && chosen.size() != info.pass_count)
            problem = "Name exactly " + std::to_string(info.pass_count) + " cards";
        if (problem.empty()) return chosen;
        out_ << problem << ".\n";
    }
    return hint_bot_->pass(info);
}

template <class R>
R ShowThinking::timed(R (cardgames::Player::*decide)(const InfoState&), const InfoState& info) {
    ThinkingNotice notice(out_, who_);
    return ((*bot_).*decide)(info);
}

bool ShowThinking::blind_nil(const InfoState& info) {
    return timed(&Player::blind_nil, info);
}
int ShowThinking::bid(const InfoState& info) {
    return timed(&Player::bid, info);
}
CardSet ShowThinking::pass(const InfoState& info) {
    return timed(&Player::pass, info);
}
Card ShowThinking::play(const InfoState& info) {
    return timed(&Player::play, info);
}

Card TerminalPlayer::play(const InfoState& info) {
    if (auto_) return hint_bot_->play(info);
    show_table(info);
    const PlayRules rules = PlayRules::from(*info.rules);
    const CardSet legal = info.legal_cards();
    std::string prompt = "Your card";
    if (info.play.trick_size == 0)
        prompt = info.plays.empty() && legal.size() == 1
                     ? "You lead (" + display_.card(legal.lowest()) + " must open the hand)"
                     : "You lead";
    std::string line;
    while (!auto_) {
        if (!read(info, prompt, line)) continue;
        Card c;
        try {
            c = parse_card(line);
        } catch (const InputError& e) {
            out_ << e.what() << ". Type 'help' for commands.\n";
            continue;
        }
        const std::string why = info.play.why_illegal(rules, c);
        if (why.empty()) return c;
        out_ << "You can't play " << display_.card(c) << ": " << display_.text(why) << ".\n";
    }
    return hint_bot_->play(info);
}

}  // namespace apps
