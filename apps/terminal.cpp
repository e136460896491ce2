#include "apps/terminal.hpp"

#include <cctype>
#include <cstdlib>
#include <iostream>
#include <sstream>

#include "apps/common.hpp"
#include "cardgames/error.hpp"
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
    "  a bid         0..13 or nil       (Spades)\n"
    "  hint          what the bot would do in your place\n"
    "  hand          show your hand and the table again\n"
    "  auto          let the bot play for you for the rest of the game\n"
    "  quit          abandon the game (asks first)\n";

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

std::string Display::hand(CardSet cs) const {
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
            }
    }
    return out;
}

void TerminalPlayer::show_table(const InfoState& info) {
    const int n = info.players();
    if (info.phase == Phase::kPlay && info.play.trick_size > 0) {
        out_ << "Trick so far:";
        for (int i = 0; i < info.play.trick_size; ++i)
            out_ << " " << seat_name((info.play.leader + i) % n, n) << " " << display_.card(info.play.trick[i]);
        out_ << "\n";
    }
    if (!info.hand.empty()) out_ << "Your hand: " << display_.hand(info.hand) << "\n";
}

std::string TerminalPlayer::hint(const InfoState& info) {
    switch (info.phase) {
        case Phase::kBlindNil: return hint_bot_->blind_nil(info) ? "bid blind nil" : "don't bid blind nil";
        case Phase::kBid: {
            const int b = hint_bot_->bid(info);
            return b == 0 ? "bid nil" : "bid " + std::to_string(b);
        }
        case Phase::kPass: return "pass " + display_.cards(hint_bot_->pass(info));
        case Phase::kPlay: {
            auto* pimc = dynamic_cast<sampling::PimcBot*>(hint_bot_.get());
            if (!pimc) return "play " + display_.card(hint_bot_->play(info));
            const sampling::PimcAnalysis a = pimc->analyze(info);
            std::string out = "play " + display_.card(a.best);
            if (!a.searched) return out + " (your only legal card)";
            const bool hearts = info.rules->game == GameKind::kHearts;
            out += "\n  expected " + std::string(hearts ? "penalty points this hand" : "hand score") + " per card over " +
                   std::to_string(a.worlds) + " sampled deals:";
            for (const auto& cv : a.cards) {
                char buf[32];
                std::snprintf(buf, sizeof buf, "%.1f", cv.expected);
                out += "\n    " + display_.card(cv.card) + "  " + buf + (cv.card == a.best ? "  <- best" : "");
            }
            return out;
        }
        case Phase::kGameOver: break;
    }
    return {};
}

bool TerminalPlayer::read(const InfoState& info, const std::string& prompt, std::string& line) {
    out_ << prompt << "> " << std::flush;
    if (!std::getline(in_, line)) throw QuitGame{true};
    line = trim(line);
    const std::string cmd = lower(line);
    if (cmd == "help" || cmd == "?") {
        out_ << kHelp;
    } else if (cmd == "hint") {
        out_ << "Hint (" << hint_bot_->name() << " bot): " << hint(info) << "\n";
    } else if (cmd == "hand") {
        show_table(info);
    } else if (cmd == "auto") {
        out_ << "The " << hint_bot_->name() << " bot plays for you from now on.\n";
        auto_ = true;
    } else if (cmd == "quit" || cmd == "exit") {
        out_ << "Abandon this game? (y/n) > " << std::flush;
        std::string answer;
        if (!std::getline(in_, answer)) throw QuitGame{true};
        if (lower(trim(answer)).starts_with("y")) throw QuitGame{false};
    } else if (!line.empty()) {
        return true;
    }
    return false;
}

bool TerminalPlayer::blind_nil(const InfoState& info) {
    if (auto_) return hint_bot_->blind_nil(info);
    out_ << "Your side trails by enough to bid blind nil, before seeing your cards.\n";
    std::string line;
    while (!auto_) {
        if (!read(info, "Bid blind nil? (y/n)", line)) continue;
        const std::string a = lower(line);
        if (a == "y" || a == "yes") return true;
        if (a == "n" || a == "no") return false;
        out_ << "Answer y or n.\n";
    }
    return hint_bot_->blind_nil(info);
}

int TerminalPlayer::bid(const InfoState& info) {
    if (auto_) return hint_bot_->bid(info);
    show_table(info);
    const int most = info.rules->cards_per_hand();
    std::string line;
    while (!auto_) {
        if (!read(info, "Your bid (0-" + std::to_string(most) + (info.rules->nil_allowed ? ", nil" : "") + ")", line)) continue;
        const std::string a = lower(line);
        if (a == "nil" && info.rules->nil_allowed) return 0;
        char* end = nullptr;
        const long b = std::strtol(a.c_str(), &end, 10);
        if (end && *end == '\0' && !a.empty() && b >= (info.rules->nil_allowed ? 0 : 1) && b <= most) return static_cast<int>(b);
        out_ << "'" << line << "' is not a bid: say a number from " << (info.rules->nil_allowed ? 0 : 1) << " to " << most
             << (info.rules->nil_allowed ? " or nil" : "") << ".\n";
    }
    return hint_bot_->bid(info);
}

CardSet TerminalPlayer::pass(const InfoState& info) {
    if (auto_) return hint_bot_->pass(info);
    show_table(info);
    const int n = info.players();
    std::string line;
    while (!auto_) {
        if (!read(info, "Pass " + std::to_string(info.pass_count) + " cards to " + seat_name(info.pass_to, n), line)) continue;
        std::istringstream words(line);
        std::string w;
        CardSet chosen;
        std::string problem;
        while (words >> w) {
            try {
                const Card c = parse_card(w);
                if (!info.hand.contains(c)) problem = to_string(c) + " is not in your hand";
                else if (chosen.contains(c)) problem = to_string(c) + " is named twice";
                chosen |= c;
            } catch (const InputError& e) {
                problem = e.what();
            }
        }
        if (problem.empty() && chosen.size() != info.pass_count)
            problem = "name exactly " + std::to_string(info.pass_count) + " cards";
        if (problem.empty()) return chosen;
        out_ << problem << ".\n";
    }
    return hint_bot_->pass(info);
}

Card TerminalPlayer::play(const InfoState& info) {
    if (auto_) return hint_bot_->play(info);
    show_table(info);
    const PlayRules rules = PlayRules::from(*info.rules);
    std::string line;
    while (!auto_) {
        if (!read(info, "Your card", line)) continue;
        Card c;
        try {
            c = parse_card(line);
        } catch (const InputError& e) {
            out_ << e.what() << ". Type 'help' for commands.\n";
            continue;
        }
        const std::string why = info.play.why_illegal(rules, c);
        if (why.empty()) return c;
        out_ << "You can't play " << display_.card(c) << ": " << why << ".\n";
    }
    return hint_bot_->play(info);
}

}  // namespace apps
