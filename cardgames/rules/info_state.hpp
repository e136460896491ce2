#pragma once
// What one seat knows at a decision: its own cards, everything public (bids, every card played and
// by whom, trick winners, scores), and what it passed and received. Built by Game::info_state from
// the seat's point of view only: the other hands never appear in it.

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "cardgames/cards/card_set.hpp"
#include "cardgames/rules/play_state.hpp"
#include "cardgames/rules/rules.hpp"

namespace cardgames {

// A Spades bid: tricks 0 is nil; blind marks blind nil; tricks < 0 means "not bid yet".
struct Bid {
    int tricks = -1;
    bool blind = false;
    bool made() const { return tricks >= 0; }
    bool is_nil() const { return tricks == 0; }
    // Bid nil (or blind nil) and, with `tricks_won` so far, has taken no trick yet.
    bool nil_stands(int tricks_won) const { return is_nil() && tricks_won == 0; }
    bool operator==(const Bid&) const = default;
};

enum class Phase : std::uint8_t {
    kBlindNil,  // Spades: asked before seeing the cards whether to bid blind nil
    kBid,       // Spades: bid 0..cards_per_hand (0 is nil)
    kPass,      // Hearts passing, or the blind-nil card exchange between partners
    kPlay,
    kGameOver,
};

struct PlayedCard {
    std::int8_t seat;
    Card card;
    bool operator==(const PlayedCard&) const = default;
};

// The last play history a player was shown. A player that keeps state for points of a history
// (the rule player's facts at each trick, the network player's accumulators) follows each new
// history with it to learn how much of that state still holds.
class SeenPlays {
  public:
    // Takes `plays` as the last history and returns how many of its first plays the one before
    // had too. A logic_error if `plays` has more cards than a deck.
    int follow(std::span<const PlayedCard> plays);
    // Forgets the history: the next follow shares nothing.
    void forget() { known_ = 0; }

  private:
    std::array<PlayedCard, 52> plays_{};  // a deck's cards at most
    int known_ = 0;                       // how many of plays_ are the last history's
};

// Running score of a scoring unit (a side in partnership Spades, else a player).
struct ScoreBoard {
    std::array<int, kMaxPlayers> score{};
    std::array<int, kMaxPlayers> bags{};
};

struct InfoState {
    const Rules* rules = nullptr;
    int seat = 0;
    int dealer = 0;
    int hand_number = 0;
    Phase phase = Phase::kPlay;

    CardSet hand;      // the cards held now (empty while deciding on blind nil)
    CardSet dealt;     // as dealt, before passing or exchange (empty before a blind-nil decision)
    CardSet passed;    // cards this seat gave away (Hearts pass, blind-nil exchange)
    CardSet received;  // cards it received
    int pass_to = -1;  // in kPass: the seat the cards go to
    int pass_count = 0;

    std::array<Bid, kMaxPlayers> bids{};
    std::vector<PlayedCard> plays;  // every card played this hand, in order
    // The seat that won each trick so far (the first play.tricks_played entries): filled by
    // Game::info_state, the play-outs' views (sampling/playout.hpp) and the bot protocol's view.
    std::array<std::int8_t, kMaxTricks> trick_winners{};
    PlayState play;     // public trick state; only hands[seat] is filled in
    ScoreBoard scores;  // before this hand
    // The game ends after this hand whatever its scores (a tournament by hands): nothing a hand
    // leaves behind, such as Spades bags, counts later.
    bool last_hand = false;

    int players() const { return rules->players; }
    // The cards this seat may play now (phase kPlay).
    CardSet legal_cards() const { return play.legal_moves(PlayRules::from(*rules)); }
    int partner() const { return rules->is_partnership() ? (seat + 2) % 4 : -1; }
};

}  // namespace cardgames
