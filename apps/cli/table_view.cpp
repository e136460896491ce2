#include "apps/cli/table_view.hpp"

#include <fmt/format.h>

#include <ostream>

#include "apps/cli/common.hpp"
#include "cardgames/rules/scoring.hpp"

namespace apps {

using namespace cardgames;

namespace {

std::string signed_number(int v) {
    return v > 0 ? "+" + std::to_string(v) : std::to_string(v);
}

// "A", "A and B", "A, B and C".
std::string joined(const std::vector<std::string>& names) {
    std::string out;
    for (std::size_t i = 0; i < names.size(); ++i)
        out += (i == 0 ? "" : i + 1 == names.size() ? " and " : ", ") + names[i];
    return out;
}

}  // namespace

std::string TableView::seat(int s) const {
    const int n = game_.rules().players;
    if (s == me_) return "You";
    if (n == 4) return seat_name(s, n);
    const int k = (s - me_ + n) % n;  // seats clockwise from you: the next one sits on your left
    if (k == 1) return "Left";
    if (k == n - 1) return "Right";
    if (n == 6 && k == 3) return "Across";
    return "Seat " + std::to_string(s) + (k < n - k ? " (2nd left)" : " (2nd right)");
}

std::string TableView::unit(int u) const {
    const Rules& rules = game_.rules();
    if (rules.is_partnership()) return u == 0 ? "North-South" : "East-West";
    return seat(u);
}

std::string TableView::bid_text(const Bid& b) const {
    if (!b.made()) return "-";
    if (b.is_nil()) return b.blind ? "blind nil" : "nil";
    return std::to_string(b.tricks);
}

std::string TableView::opening(std::uint64_t seed, const std::vector<std::string>& names) const {
    const Rules& rules = game_.rules();
    const int n = rules.players;
    std::string out =
        fmt::format("Playing {}, ", rules.game == GameKind::kSpades ? "Spades" : "Hearts");
    if (rules.game == GameKind::kSpades)
        out += rules.is_partnership() ? "partnership (North-South against East-West), "
                                      : "cutthroat (each player scores alone), ";
    out += fmt::format("{} players, seed {}.\n", n, seed);
    out += "You are " + (n == 4 ? seat_name(me_, n) : "seat " + std::to_string(me_));
    if (rules.is_partnership()) out += "; your partner is " + seat(game_.info_state(me_).partner());
    out += ".\nFrom your left:";
    for (int k = 1; k < n; ++k) {
        const int s = (me_ + k) % n;
        const std::string name = seat(s);
        out += (k == 1 ? " " : ", ") + name +
               (n == 4 || name.starts_with("Seat") ? "" : " (seat " + std::to_string(s) + ")") +
               ": " + names[static_cast<std::size_t>(s)];
    }
    out += ".\n";
    if (rules.game == GameKind::kSpades)
        out += fmt::format("The game is to {} points; {} at {} or below loses.\n", rules.target,
                           rules.is_partnership() ? "a side" : "a player", rules.loss_threshold);
    else
        out += fmt::format("The game ends when someone reaches {} points; the lowest score wins.\n",
                           rules.end_score);
    return out + "Type 'help' for commands.\n";
}

void TableView::print(std::ostream& out, const GameEvent& e) {
    const Rules& rules = game_.rules();
    const int n = rules.players;
    const bool you = e.seat == me_;
    switch (e.kind) {
        case GameEvent::Kind::kHandStart:
            last_trick_.clear();
            print_hand_start(out);
            break;
        case GameEvent::Kind::kBlindNil:
            if (e.value) out << seat(e.seat) << (you ? " bid" : " bids") << " BLIND NIL.\n";
            break;
        case GameEvent::Kind::kBid:
            if (!game_.hand().bids[e.seat].blind)
                out << seat(e.seat) << (you ? " bid " : " bids ")
                    << (e.value == 0 ? "nil" : std::to_string(e.value)) << ".\n";
            break;
        case GameEvent::Kind::kPassesDone: {
            const int number = game_.hand().number;
            const InfoState info = game_.info_state(me_);
            out << "You passed " << display_.cards(info.passed) << " to "
                << seat(rules.pass_recipient(me_, number)) << " and received "
                << display_.cards(info.received) << " from " << seat(rules.pass_sender(me_, number))
                << ".\n";
            fresh_ = info.received;
            break;
        }
        case GameEvent::Kind::kExchange: {
            const int to = rules.pass_recipient(e.seat, game_.hand().number);
            if (you)
                out << "You give " << display_.cards(e.cards) << " to " << seat(to) << ".\n";
            else if (to == me_)
                out << seat(e.seat) << " gives you " << display_.cards(e.cards) << ".\n";
            else
                out << seat(e.seat) << " gives 2 cards to " << seat(to) << ".\n";
            if (to == me_) fresh_ |= e.cards;
            break;
        }
        case GameEvent::Kind::kCard:
            out << "  " << seat(e.seat) << (you ? " play " : " plays ") << display_.card(e.card)
                << "\n";
            break;
        case GameEvent::Kind::kTrick: {
            const std::size_t first = game_.hand().plays.size() - static_cast<std::size_t>(n);
            CardSet cards;
            for (std::size_t i = first; i < game_.hand().plays.size(); ++i)
                cards |= game_.hand().plays[i].card;
            const int points = rules.points(cards);
            const std::string trick =
                trick_text(first) +
                (rules.game == GameKind::kHearts && points
                     ? fmt::format("  ({} point{})", points, points == 1 ? "" : "s")
                     : "");
            last_trick_ = "Last trick, won by " + seat(e.seat) + ": " + trick;
            out << "  -> " << seat(e.seat) << (you ? " win" : " wins") << " the trick: " << trick
                << "\n";
            break;
        }
        case GameEvent::Kind::kHandEnd:
            print_hand_end(out);
            break;
        case GameEvent::Kind::kGameOver:
            print_game_over(out);
            break;
    }
}

std::string TableView::trick_text(std::size_t first) const {
    const auto& plays = game_.hand().plays;
    std::string out;
    for (std::size_t i = first;
         i < first + static_cast<std::size_t>(game_.rules().players) && i < plays.size(); ++i)
        out += (i == first ? "" : ", ") + seat(plays[i].seat) + ": " + display_.card(plays[i].card);
    return out;
}

void TableView::print_hand_start(std::ostream& out) const {
    const Rules& rules = game_.rules();
    const int n = rules.players;
    out << "\n=== Hand " << game_.hand().number + 1 << " (dealer " << seat(game_.hand().dealer)
        << ") ===\n";
    if (rules.game != GameKind::kHearts) return;
    const int off = game_.hand().pass_offset;
    if (off == 0) {
        out << "No passing this hand.\n";
        return;
    }
    const char* way = off == 1 ? "to the left" : off == -1 ? "to the right" : "across";
    out << "Passing " << rules.pass_count << " cards " << way;
    if (n == 4) out << ", to " << seat(rules.pass_recipient(me_, game_.hand().number));
    out << ".\n";
}

void TableView::print_hand_end(std::ostream& out) const {
    const Rules& rules = game_.rules();
    const int n = rules.players;
    const HandRecord& h = game_.finished_hands().back();
    out << "\nHand over.";
    if (rules.game == GameKind::kHearts) {
        out << " Points taken:";
        for (int k = 0; k < n; ++k) {
            const int s = (me_ + k) % n;
            out << (k ? ", " : " ") << seat(s) << " " << h.score.points[s];
        }
        out << ".\n";
        if (h.score.moon_shooter >= 0)
            out << seat(h.score.moon_shooter) << " shot the moon: "
                << (rules.moon_subtracts ? "26 off their own score.\n"
                                         : "everyone else takes 26.\n");
    } else {
        out << "\n";
        for (int k = 0; k < n; ++k) {
            const int s = (me_ + k) % n;
            const Bid& b = h.bids[s];
            out << "  " << seat(s) << " took " << h.tricks[s] << " (bid " << bid_text(b) << ")";
            if (b.is_nil())
                out << ": " << (b.blind ? "blind nil " : "nil ")
                    << (h.tricks[s] == 0 ? "made" : "failed");
            out << "\n";
        }
        for (int u = 0; u < rules.num_units(); ++u) {
            const HandScore& sc = h.score;
            std::vector<std::string> parts;
            if (sc.contract[u]) parts.push_back("contract " + signed_number(sc.contract[u]));
            if (sc.bags_added[u]) parts.push_back(fmt::format("overtricks +{}", sc.bags_added[u]));
            if (sc.nil[u]) parts.push_back("nil " + signed_number(sc.nil[u]));
            if (sc.bag_penalties[u])
                parts.push_back("bag penalty " +
                                signed_number(-sc.bag_penalties[u] * rules.bag_penalty));
            out << unit(u) << ": " << signed_number(sc.delta[u]);
            if (!parts.empty()) {
                out << " (";
                for (std::size_t i = 0; i < parts.size(); ++i) out << (i ? ", " : "") << parts[i];
                out << ")";
            }
            out << "\n";
        }
    }
    out << scores_line() << "\n";
}

void TableView::print_game_over(std::ostream& out) const {
    const Rules& rules = game_.rules();
    const ScoreBoard& board = game_.scores();
    out << "\n=== Game over ===\n" << scores_line() << "\n";
    std::vector<std::string> why;
    for (int u = 0; u < rules.num_units(); ++u) {
        const int score = board.score[u];
        if (rules.game == GameKind::kHearts && score >= rules.end_score)
            why.push_back(fmt::format("{} reached {} (the game ends at {})", unit(u), score,
                                      rules.end_score));
        if (rules.game == GameKind::kSpades && score >= rules.target)
            why.push_back(
                fmt::format("{} reached the target {} with {}", unit(u), rules.target, score));
        if (rules.game == GameKind::kSpades && score <= rules.loss_threshold)
            why.push_back(fmt::format("{} fell to {}, at or below the loss threshold {}", unit(u),
                                      score, rules.loss_threshold));
    }
    if (!why.empty()) out << "The game ends: " << joined(why) << ".\n";
    std::vector<std::string> names;
    bool me_won = false;
    for (int u : game_.winners()) {
        names.push_back(unit(u));
        me_won = me_won || u == rules.unit_of(me_);
    }
    if (names.empty())
        out << "The game stopped without a winner.\n";
    else
        out << (me_won ? "You win! " : "") << (names.size() > 1 ? "Winners: " : "Winner: ")
            << joined(names) << "\n";
}

std::string TableView::scores_line() const {
    const Rules& rules = game_.rules();
    const ScoreBoard& board = game_.scores();
    std::string out = "Scores:";
    for (int u = 0; u < rules.num_units(); ++u) {
        out += (u ? ", " : " ") + unit(u) + " " + std::to_string(board.score[u]);
        if (rules.game == GameKind::kSpades) out += " (bags " + std::to_string(board.bags[u]) + ")";
    }
    return out;
}

std::string TableView::status() const {
    return game_.rules().game == GameKind::kSpades ? spades_status() : hearts_status();
}

std::string TableView::spades_status() const {
    const Rules& rules = game_.rules();
    const int n = rules.players;
    const HandRecord& h = game_.hand();
    std::string bids = "Bids:  ", tricks = "Tricks:";
    for (int k = 0; k < n; ++k) {
        const int s = (me_ + k) % n;
        bids += (k ? ", " : " ") + seat(s) + " " + bid_text(h.bids[s]);
        tricks += (k ? ", " : " ") + seat(s) + " " + std::to_string(h.tricks[s]);
    }
    std::string out = bids + "\n" + tricks + "\n";
    for (int u = 0; u < rules.num_units(); ++u) {
        const auto [contract, counted] = unit_contract(rules, h.bids, h.tricks, u);
        bool all_bid = true;
        std::vector<std::string> nils;
        for (int s = 0; s < n; ++s) {
            if (rules.unit_of(s) != u) continue;
            const Bid& b = h.bids[s];
            all_bid = all_bid && b.made();
            if (b.is_nil())
                nils.push_back(fmt::format("{} on {}, {}", seat(s), bid_text(b),
                                           h.tricks[s] == 0 ? "no trick yet" : "failed"));
        }
        out += unit(u) + (rules.unit_of(me_) == u && rules.is_partnership() ? " (you)" : "") + ": ";
        if (!all_bid) {
            out += "bidding";
        } else {
            if (contract > 0) {
                out += fmt::format("bid {}, took {}: ", contract, counted);
                out += counted < contract    ? fmt::format("{} more to make it", contract - counted)
                       : counted == contract ? "made"
                                             : fmt::format("made, {} over", counted - contract);
            }
            if (!nils.empty()) out += (contract > 0 ? "; " : "") + joined(nils);
        }
        out +=
            fmt::format("; score {}, bags {}\n", game_.scores().score[u], game_.scores().bags[u]);
    }
    return out + fmt::format("Game to {}; {} at {} or below loses.\n", rules.target,
                             rules.is_partnership() ? "a side" : "a player", rules.loss_threshold);
}

std::string TableView::hearts_status() const {
    const Rules& rules = game_.rules();
    const int n = rules.players;
    const HandRecord& h = game_.hand();
    std::string out = "Points this hand:";
    for (int k = 0; k < n; ++k) {
        const int s = (me_ + k) % n;
        out += (k ? ", " : " ") + seat(s) + " " + std::to_string(rules.points(h.taken[s]));
    }
    out += game_.play_state().broken ? "; hearts broken\n" : "; hearts not broken\n";
    out += "Scores:";
    for (int k = 0; k < n; ++k) {
        const int s = (me_ + k) % n;
        out += (k ? ", " : " ") + seat(s) + " " + std::to_string(game_.scores().score[s]);
    }
    return out + fmt::format(" (the game ends at {}, lowest wins)\n", rules.end_score);
}

std::string TableView::last_trick() const {
    return last_trick_.empty() ? "No trick has been played yet this hand.\n" : last_trick_ + "\n";
}

CardSet TableView::take_fresh_cards() {
    const CardSet fresh = fresh_;
    fresh_ = CardSet();
    return fresh;
}

}  // namespace apps
