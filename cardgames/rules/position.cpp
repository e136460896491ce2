#include "cardgames/rules/position.hpp"

#include <cctype>
#include <cstdlib>

#include "cardgames/cards/error.hpp"
#include "cardgames/cards/text.hpp"
#include "cardgames/rules/scoring.hpp"

namespace cardgames {

int parse_seat(const std::string& text, int players) {
    if (players == 4 && text.size() == 1) {
        const char c = static_cast<char>(std::toupper(static_cast<unsigned char>(text[0])));
        const char* names = "NESW";
        for (int i = 0; i < 4; ++i)
            if (c == names[i]) return i;
    }
    if (text.size() == 1 && text[0] >= '0' && text[0] < '0' + players) return text[0] - '0';
    throw InputError("seat '" + text + "': expected 0.." + std::to_string(players - 1) +
                     (players == 4 ? " or N, E, S, W" : ""));
}

PlayState position_from_deal(const Rules& rules, const Deal& deal, int leader,
                             const std::vector<Card>& trick, std::optional<bool> broken) {
    const int n = rules.players;
    if (deal.players != n)
        throw InputError("the deal has " + std::to_string(deal.players) +
                         " hands but the rules are for " + std::to_string(n) + " players");
    if (leader < 0 || leader >= n)
        throw InputError("leader " + std::to_string(leader) + " is not a seat of a " +
                         std::to_string(n) + "-player game");
    if (static_cast<int>(trick.size()) >= n)
        throw InputError("the current trick holds " + std::to_string(trick.size()) +
                         " cards; a trick in progress holds at most " + std::to_string(n - 1));
    CardSet all = deal.all_cards();
    const CardSet foreign = all - rules.deck();
    if (!foreign.empty())
        throw InputError("the deal holds " + cards_to_string(foreign) +
                         ", not in this game's deck");
    for (Card c : trick) {
        if (!rules.deck().contains(c))
            throw InputError("trick card " + to_string(c) + " is not in this game's deck");
        if (all.contains(c)) throw InputError("trick card " + to_string(c) + " is also in a hand");
        all |= c;
    }
    // Hand length k: the seats that have not played to the trick hold k cards. With no trick in
    // progress, the most common length, so that the odd hand out is the one named.
    int k = deal.hands[(leader + n - 1) % n].size();
    if (trick.empty()) {
        int best_count = 0;
        for (int i = 0; i < n; ++i) {
            int count = 0;
            for (int j = 0; j < n; ++j) count += deal.hands[j].size() == deal.hands[i].size();
            if (count > best_count) {
                best_count = count;
                k = deal.hands[i].size();
            }
        }
    }
    if (k == 0) throw InputError("the hands are empty: nothing to solve");
    for (int i = 0; i < n; ++i) {
        const int seat = (leader + i) % n;
        const int want = i < static_cast<int>(trick.size()) ? k - 1 : k;
        if (deal.hands[seat].size() != want)
            throw InputError(
                "hand of seat " + std::to_string(seat) + " ('" + hand_to_string(deal.hands[seat]) +
                "') holds " + std::to_string(deal.hands[seat].size()) + " cards; with seat " +
                std::to_string(leader) + " on lead it should hold " + std::to_string(want));
    }
    if (k > rules.cards_per_hand())
        throw InputError("hands of " + std::to_string(k) +
                         " cards: a hand of this game holds at most " +
                         std::to_string(rules.cards_per_hand()));
    const bool full = k == rules.cards_per_hand() && trick.empty();
    const Card first = rules.first_lead_card();
    if (full && first != kNoCard && all.contains(first) && !deal.hands[leader].contains(first))
        throw InputError("seat " + std::to_string(leader) + " cannot lead the first trick: " +
                         to_string(first) + " must lead and another seat holds it");
    PlayState s = PlayState::start(deal, leader);
    s.tricks_played = static_cast<std::int8_t>(rules.cards_per_hand() - k);
    s.broken = broken.value_or(!full);
    const PlayRules pr = PlayRules::from(rules);
    for (Card c : trick) {
        // Put the card back in its player's hand and play it, so the trick state is exact.
        s.hands[s.to_move] |= c;
        if (const std::string why = s.why_illegal(pr, c); !why.empty())
            throw InputError("trick card " + to_string(c) + " by seat " +
                             std::to_string(s.to_move) + " is illegal: " + why);
        s.play(pr, c);
    }
    return s;
}

std::array<Bid, kMaxPlayers> parse_bid_list(const std::string& text, const Rules& rules,
                                            const std::string& label) {
    std::array<Bid, kMaxPlayers> bids{};
    const int players = rules.players;
    const int most = rules.cards_per_hand();
    const std::string at = label + " '" + text + "': ";
    int i = 0;
    for (const std::string_view item : split_list(text)) {
        std::string w(item);
        const auto b = w.find_first_not_of(" \t\r");
        w = b == std::string::npos ? "" : w.substr(b, w.find_last_not_of(" \t\r") - b + 1);
        if (i >= players) throw InputError(at + "more than " + std::to_string(players) + " bids");
        const std::string known = "0-" + std::to_string(most) + (rules.nil_allowed ? ", nil" : "") +
                                  (blind_nil_in_rules(rules) ? ", bnil" : "");
        if (w == "nil" && rules.nil_allowed)
            bids[i] = {0, false};
        else if (w == "bnil" && blind_nil_in_rules(rules))
            bids[i] = {0, true};
        else if (w == "nil" || w == "bnil")
            throw InputError(at + "'" + w + "': these rules have no " +
                             (w == "nil" ? "nil" : "blind nil") + " bid (bids: " + known + ")");
        else {
            char* end = nullptr;
            const long v = std::strtol(w.c_str(), &end, 10);
            if (w.empty() || *end || v < 0 || v > most)
                throw InputError(at + "'" + w + "' is not a bid (" + known + ")");
            bids[i] = {static_cast<int>(v), false};
        }
        ++i;
    }
    if (i != players)
        throw InputError(at + "give one bid per seat (" + std::to_string(players) + ")");
    return bids;
}

std::string seat_name(int seat, int players) {
    static constexpr const char* kNames[] = {"North", "East", "South", "West"};
    if (players == 4) return kNames[seat];
    return "Seat " + std::to_string(seat);
}

}  // namespace cardgames
