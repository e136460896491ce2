#pragma once
// The rule set in force for a game: which game, how many players, and every named option of
// ../shared/RULES.md. Built from a preset (an INI file under data/rules/) plus `--rule key=value`
// overrides. Derived facts (deck, cards per hand, points per card) are computed here once, so the
// rest of the code never re-derives them from scattered flags.

#include <array>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "cardgames/cards/card_set.hpp"
#include "engine/types.hpp"

namespace cardgames {

using engine::kMaxPlayers;  // one limit for the search and the rules

// The numbers of the scoring rules, by name. Hearts: penalty points per card, and the 26 of a
// whole hand (every heart and the Q of spades) that the moon gives away or takes off.
inline constexpr int kHeartPoints = 1;
inline constexpr int kQueenOfSpadesPoints = 13;
inline constexpr int kJackOfDiamondsPoints = -10;  // with the jack_of_diamonds rule
inline constexpr int kMoonPoints = 26;
// Spades: a made contract scores this much per trick bid, a set one loses it.
inline constexpr int kPointsPerTrickBid = 10;
inline constexpr int kMaxTricks = 17;  // tricks in a hand at most: 3 players, 17 cards each
inline constexpr int kMaxScoreRule =
    100000;  // |target|, end_score, loss_threshold, bag_penalty, blind_nil_deficit

enum class GameKind : std::uint8_t { kSpades, kHearts };

struct Rules {
    GameKind game = GameKind::kHearts;
    int players = 4;

    // Spades.
    bool partnership = true;            // 4 players, 0&2 vs 1&3; else cutthroat
    bool spades_lead_anytime = false;   // off: spades may not be led until broken
    bool first_lead_two_clubs = false;  // off: dealer's left leads any card
    bool nil_allowed = true;
    bool blind_nil = true;        // partnership only: the exchange needs a partner
    int blind_nil_deficit = 100;  // a side trailing by this much may bid blind nil
    bool nil_tricks_count_for_partner = false;
    int target = 500;           // Spades game target (Hearts: end_score)
    int loss_threshold = -200;  // a side at or below this loses
    int bags_per_penalty = 10;
    int bag_penalty = 100;

    // Hearts.
    bool passing = true;  // rule option no_passing turns this off
    int pass_count = 3;
    bool first_trick_points_allowed = false;
    bool hearts_breaking = true;
    bool queen_breaks_hearts = false;
    bool moon_subtracts = false;    // shooter -26 instead of the others +26
    bool jack_of_diamonds = false;  // J♦ worth -10
    int end_score = 100;            // Hearts: the game ends when someone reaches this

    // Derived: the cards in play and how many each player holds.
    CardSet deck() const;
    int cards_per_hand() const { return deck().size() / players; }
    // Partnership Spades: 2 sides; everything else scores per player.
    int num_units() const { return is_partnership() ? 2 : players; }
    int unit_of(int seat) const { return is_partnership() ? seat % 2 : seat; }
    bool is_partnership() const { return game == GameKind::kSpades && partnership && players == 4; }
    // Hearts penalty points of one card (hearts 1, Q♠ 13, J♦ -10 with the option).
    int card_points(Card c) const;
    // Hearts penalty points of a set of cards: the sum of their card_points.
    int points(CardSet cards) const;
    // Hearts: the card that must lead the first trick (2♣, or the lowest club in play);
    // Spades: 2♣ with first_lead_two_clubs, else kNoCard.
    Card first_lead_card() const;
    // Hearts pass direction for hand number h (0-based): +1 left, -1 right, 2 across, 0 hold.
    int pass_offset(int hand_number) const;
    // The seat that `seat`'s passed cards go to in hand h: Hearts, the pass direction; partnership
    // Spades, the partner (the blind-nil exchange). The seat itself when its cards go nowhere.
    int pass_recipient(int seat, int hand_number) const;
    // The seat whose passed cards `seat` receives in hand h (the inverse of pass_recipient).
    int pass_sender(int seat, int hand_number) const;

    // Checks the combination is playable; throws InputError naming the offending option.
    void validate() const;
    bool operator==(const Rules&) const = default;
};

// Each rule key with its value as text, in a fixed order: how records store the rules.
std::vector<std::pair<std::string, std::string>> rules_to_pairs(const Rules& rules);

// Reads a preset INI file (Boost.Program_options) and applies `key=value` overrides on top.
// Errors (unknown key, bad value, missing file) throw InputError naming the text and where it was.
Rules load_rules(const std::filesystem::path& preset, const std::vector<std::string>& overrides);
// The same, from a preset's text (for records and tests); `where` names its origin in errors.
Rules parse_rules(const std::string& ini_text, const std::string& where,
                  const std::vector<std::string>& overrides);

// The rules a command asks for (--game, --preset, --rule): the preset, or the game's default
// preset when none (hearts when no game either), with the overrides applied. A game beside a
// preset (or a game= override) of the other game is refused rather than silently ignored.
Rules resolve_rules(const std::optional<std::string>& game, const std::string& preset,
                    const std::vector<std::string>& overrides);

// The folder that holds the data (presets in rules/, deal sets, models): $CARDGAMES_DATA, else an
// installed copy's share/cardgames/data (found from where the executable or the Python extension
// lies, so an install prefix can move), else data/ in the source tree this was built from.
std::filesystem::path data_dir();
// A preset by name ("hearts4") or by path ("my/rules.ini").
std::filesystem::path preset_path(const std::string& name_or_path);
// The name of a rule form, as model files name what they were made for: hearts4,
// spades-partnership, spades-cutthroat3.
std::string form_name(const Rules& rules);
// The game of such a form name.
GameKind game_of_form(const std::string& form);
// Default preset name for a game: "hearts4", "spades-partnership".
std::string default_preset(GameKind game);

std::string game_name(GameKind g);

}  // namespace cardgames
