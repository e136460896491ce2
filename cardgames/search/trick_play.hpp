#pragma once
// The trick-play core that every search objective shares: the cards of a hand from any point
// (mid-trick included), make/unmake, the legal moves with equivalent cards merged, the penalty
// cards each seat has taken, and the Zobrist hash of the cards. It knows nothing of what a
// position is worth; an objective (trick_objectives.hpp) says that.
//
// Moves are cards; of equivalent cards (same hand, same suit, adjacent among the cards still in
// play, same points) only the highest is generated. Make/unmake copies a small state onto a stack
// held by the object: no allocation while searching.

#include <array>
#include <bit>
#include <cstdint>

#include "cardgames/rules/play_state.hpp"
#include "cardgames/rules/rules.hpp"
#include "engine/hash.hpp"
#include "engine/types.hpp"

namespace cardgames {

namespace trick_play_detail {

// Zobrist keys: [holder 0..5 = hands, 6 = on the table][card index].
struct Zobrist {
    std::array<std::array<std::uint64_t, 64>, kMaxPlayers + 1> card{};
    std::array<std::uint64_t, kMaxPlayers> to_move{};
    std::uint64_t broken = 0, first_trick = 0;
    std::array<std::array<std::uint64_t, 32>, kMaxPlayers> count{};  // tricks or points taken
};

constexpr Zobrist make_zobrist() {
    Zobrist z;
    std::uint64_t s = 0x1234567;
    for (auto& row : z.card)
        for (auto& k : row) k = s = engine::splitmix64(s);
    for (auto& k : z.to_move) k = s = engine::splitmix64(s);
    z.broken = s = engine::splitmix64(s);
    z.first_trick = s = engine::splitmix64(s);
    for (auto& row : z.count)
        for (auto& k : row) k = s = engine::splitmix64(s);
    return z;
}

inline constexpr Zobrist kZobrist = make_zobrist();
inline constexpr int kTable = kMaxPlayers;  // Zobrist row of the cards on the table

}  // namespace trick_play_detail

// What legal_moves tells an objective about a card it orders.
struct MoveFacts {
    bool leading = false;          // the card opens a trick
    bool beats = false;            // it would win the trick as it stands
    bool partner_winning = false;  // partnership: the partner is winning the trick
    Suit led = Suit::kSpades;      // the suit led (when not leading)
};

class TrickPlay {
  public:
    static constexpr int kMaxMoves = 17;
    static constexpr std::uint8_t kNobody = 0xff;

    // `taken` are the penalty cards each seat took before this position (Hearts).
    TrickPlay(const Rules& rules, const PlayState& state,
              const std::array<CardSet, kMaxPlayers>& taken);

    const Rules& rules() const { return rules_; }
    const PlayRules& play_rules() const { return play_rules_; }
    int players() const { return players_; }
    bool partnership() const { return partnership_; }
    const PlayState& state() const { return s_.ps; }
    bool is_terminal() const { return s_.ps.trick_size == 0 && s_.ps.hands[s_.ps.to_move].empty(); }
    int depth_counter() const { return s_.ps.tricks_played - root_tricks_; }
    // Tricks not yet completed (the current one included).
    int remaining_tricks() const {
        int cards = s_.ps.trick_size;
        for (int p = 0; p < players_; ++p) cards += s_.ps.hands[p].size();
        return (cards + players_ - 1) / players_;
    }
    // Tricks player p had won at the root.
    int root_tricks_won(int p) const { return root_tricks_won_[p]; }

    // Hearts: points of hearts and Q♠ taken this hand, the J♦'s taker (kNobody), the points of
    // hearts and Q♠ in this hand (26 for a full deal), whether the J♦ belongs to it, and whether
    // one player could still take every point (the moon).
    int penalty(int p) const { return s_.penalty[p]; }
    int jack_taker() const { return s_.jack_taker; }
    int moon_total() const { return moon_total_; }
    bool jack_in_hand() const { return jack_in_hand_; }
    bool moon_possible() const {
        if (moon_total_ != kMoonPoints) return false;
        int with_points = 0;
        for (int p = 0; p < players_; ++p) with_points += s_.penalty[p] > 0;
        return with_points <= 1;
    }

    // The representative that legal_moves generates for `c` (the top of its equivalent run).
    Card representative(Card c) const;
    // The card the player to move plays as a nil bidder that sees only its own hand and the cards
    // played (rules/nil_play.hpp). The search does not track who has shown out of a suit, so its
    // leads count every other seat as able to follow.
    Card nil_bidder_card() const;
    // One card per run of equivalent cards, best first by `order(card, facts)` (higher first,
    // ties in card order).
    template <class Order>
    void legal_moves(engine::MoveList<Card, kMaxMoves>& out, Order&& order) const;
    // With kPenalties the penalty cards and the J♦ of a completed trick are credited to its winner
    // (only the Hearts objective reads them).
    template <bool kPenalties>
    void apply(Card c);
    void undo() { s_ = stack_[static_cast<std::size_t>(--ply_)]; }

    // The key of the cards, the player to move, broken and first trick; `relative` keys the cards
    // by their rank among the cards still in play (between tricks only).
    std::uint64_t position_key(bool relative) const {
        using trick_play_detail::kZobrist;
        const PlayState& ps = s_.ps;
        std::uint64_t h =
            (relative ? relative_rank_hash() : s_.hash) ^ kZobrist.to_move[ps.to_move];
        if (ps.broken) h ^= kZobrist.broken;
        if (ps.tricks_played == 0) h ^= kZobrist.first_trick;
        return h;
    }
    // The absolute key of the cards with the tricks each player has taken (what a Spades score
    // depends on beyond the cards).
    std::uint64_t cards_and_tricks_key() const {
        std::uint64_t h = position_key(false);
        for (int p = 0; p < players_; ++p) h ^= count_key(p, s_.ps.tricks_won[p] & 31);
        return h;
    }
    // A key for "player p has taken `count` (tricks or points)", for what the future utility
    // depends on beyond the cards.
    static std::uint64_t count_key(int p, int count) {
        return trick_play_detail::kZobrist
            .count[static_cast<std::size_t>(p)][static_cast<std::size_t>(count)];
    }

  private:
    // The next higher card of c's suit still in play (kNoCard: none).
    static Card next_in_play(Card c, CardSet in_play);
    // Whether `c` of `mine` tops its run of equivalent cards: the next higher card still in play
    // is not also `mine`, or carries other points.
    bool top_of_run(Card c, CardSet in_play, CardSet mine) const;

    struct State {
        PlayState ps;
        std::array<std::int16_t, kMaxPlayers> penalty{};
        std::uint8_t jack_taker = kNobody;
        std::uint64_t hash = 0;
    };

    std::uint64_t relative_rank_hash() const;

    Rules rules_;
    PlayRules play_rules_;
    int players_;
    bool partnership_;
    State s_;
    int ply_ = 0;
    std::array<State, engine::kMaxPly> stack_{};
    std::array<std::int8_t, kMaxPlayers> root_tricks_won_{};
    int root_tricks_ = 0;
    int moon_total_ = 0;
    bool jack_in_hand_ = false;
    CardSet moon_cards_;
};

inline Card TrickPlay::next_in_play(Card c, CardSet in_play) {
    const std::uint16_t above =
        static_cast<std::uint16_t>(in_play.lane(c.suit()) & ~((2u << c.rank()) - 1));
    return above ? Card(c.suit(), std::countr_zero(above)) : kNoCard;
}

inline bool TrickPlay::top_of_run(Card c, CardSet in_play, CardSet mine) const {
    const Card next = next_in_play(c, in_play);
    return next == kNoCard || !mine.contains(next) ||
           play_rules_.points[next.index()] != play_rules_.points[c.index()];
}

inline Card TrickPlay::representative(Card c) const {
    const CardSet in_play = s_.ps.in_play();
    const CardSet mine = s_.ps.hands[s_.ps.to_move];
    while (!top_of_run(c, in_play, mine)) c = next_in_play(c, in_play);
    return c;
}

template <class Order>
void TrickPlay::legal_moves(engine::MoveList<Card, kMaxMoves>& out, Order&& order) const {
    const PlayState& ps = s_.ps;
    const CardSet legal = ps.legal_moves(play_rules_);
    const int me = ps.to_move;
    std::array<int, kMaxMoves> score{};
    MoveFacts facts;
    facts.leading = ps.trick_size == 0;
    const Card win_card = facts.leading ? kNoCard : ps.trick[ps.winning];
    facts.partner_winning = !facts.leading && partnership_ && ps.current_winner() == (me + 2) % 4;
    if (!facts.leading) facts.led = ps.led_suit();
    const CardSet in_play = ps.in_play();
    const CardSet mine = ps.hands[me];
    for (Card c : legal) {
        if (!top_of_run(c, in_play, mine)) continue;
        facts.beats = !facts.leading && beats(play_rules_, c, win_card);
        const int i = out.size();
        out.push_back(c);
        score[static_cast<std::size_t>(i)] = order(c, facts);
    }
    // Insertion sort, best first, stable for equal scores (ties keep card order).
    for (int i = 1; i < out.size(); ++i) {
        const Card c = out[i];
        const int sc = score[static_cast<std::size_t>(i)];
        int j = i - 1;
        while (j >= 0 && score[static_cast<std::size_t>(j)] < sc) {
            out[j + 1] = out[j];
            score[static_cast<std::size_t>(j + 1)] = score[static_cast<std::size_t>(j)];
            --j;
        }
        out[j + 1] = c;
        score[static_cast<std::size_t>(j + 1)] = sc;
    }
}

template <bool kPenalties>
void TrickPlay::apply(Card c) {
    using trick_play_detail::kTable;
    using trick_play_detail::kZobrist;
    stack_[static_cast<std::size_t>(ply_++)] = s_;
    PlayState& ps = s_.ps;
    const int me = ps.to_move;
    const std::array<Card, kMaxPlayers> trick_before = ps.trick;
    const int size_before = ps.trick_size;
    s_.hash ^= kZobrist.card[me][c.index()];
    const int winner = ps.play(play_rules_, c);
    if (winner < 0) {
        s_.hash ^= kZobrist.card[kTable][c.index()];
        return;
    }
    const Card jack(Suit::kDiamonds, kJack);
    for (int i = 0; i < size_before; ++i) {
        s_.hash ^= kZobrist.card[kTable][trick_before[i].index()];
        if constexpr (kPenalties) {
            if (moon_cards_.contains(trick_before[i]))
                s_.penalty[winner] = static_cast<std::int16_t>(
                    s_.penalty[winner] + play_rules_.points[trick_before[i].index()]);
            if (rules_.jack_of_diamonds && trick_before[i] == jack)
                s_.jack_taker = static_cast<std::uint8_t>(winner);
        }
    }
    if constexpr (kPenalties) {
        if (moon_cards_.contains(c))
            s_.penalty[winner] =
                static_cast<std::int16_t>(s_.penalty[winner] + play_rules_.points[c.index()]);
        if (rules_.jack_of_diamonds && c == jack) s_.jack_taker = static_cast<std::uint8_t>(winner);
    }
}

}  // namespace cardgames
