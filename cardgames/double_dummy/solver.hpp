#pragma once
// The double-dummy solver itself, private to cardgames/double_dummy/ (and to its tests, which
// switch on the table checker); callers use double_dummy.hpp.
//
// A double-dummy solver for partnership play with a trump suit: partnership Spades under the tricks
// utility (with spades_lead_anytime=true this is bridge play with spades as trumps). It answers
// exactly what the generic two-sided search over TrickGame answers (the tests check both against
// plain max^n), but is built for the case that has to be fast, in the manner of bridge solvers:
//
//   - a null-window test "does North-South take at least k of the remaining tricks?", with k
//     stepping by one from an estimate to the value and the table carrying work from one test
//     to the next;
//   - partition search: a table at trick starts holding lower and upper bounds per shape (every
//     hand's length in every suit, the leader) and per pattern of who holds the top cards of each
//     suit, down to the lowest rank the proof rested on;
//   - sure-trick bounds: the leader's cashable top cards (with length winners, a top pair split
//     between the partners, an entry to partner), each side's top trumps, a trick the opponents
//     surely win, and with no trumps left the suits a side needing every trick heads and what
//     second hand's side cashes after winning the trick;
//   - equivalent cards generated once, small cards answered by a sibling's search, and move
//     ordering by card-play heuristics.
//
// Positions may start mid-trick and with any number of cards per hand (all hands equal up to the
// trick in progress). Works on four 16-bit suit lanes per seat; no allocation while searching.

#include <array>
#include <bit>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "cardgames/double_dummy/double_dummy.hpp"
#include "cardgames/rules/play_state.hpp"

namespace cardgames::double_dummy {

// DoubleDummy's statistics and the solver's own.
struct SolverStats : DoubleDummyStats {
    std::uint64_t tt_probes = 0;       // table look-ups at trick starts
    std::uint64_t tt_hits = 0;         // ... that decided the test
    std::uint64_t tt_scanned = 0;      // entries compared in those look-ups
    std::uint64_t bound_cuts = 0;      // tests decided by the sure-trick bounds
    std::uint64_t small_skips = 0;     // moves answered by a smaller card's search
    int tests = 0;                     // null-window tests
    std::uint64_t check_failures = 0;  // set_checking: table answers a fresh search contradicted
};

class Solver {
  public:
    // `table_log2`: as DoubleDummy's.
    explicit Solver(int table_log2);

    // Whether `rules` are the ones this solver plays: four players in two partnerships with a
    // trump suit and no first-trick restrictions beyond an optional forced opening lead.
    static bool supports(const PlayRules& rules);

    // Tricks seats 0 and 2 take from `state` on, the trick in progress included.
    int solve(const PlayRules& rules, const PlayState& state);
    // Whether seats 0 and 2 take at least `target` tricks from `state` on.
    bool makes(const PlayRules& rules, const PlayState& state, int target);

    // Forgets every stored bound (O(1)). Entries stay valid across positions played under the same
    // rules, so a caller may keep them; setting other rules clears them.
    void clear();
    const SolverStats& stats() const { return stats_; }
    // Testing aid for partition search: every answer taken from the table is checked against a
    // fresh search of the position that shares no bounds between positions (slow).
    void set_checking(bool on) { checking_ = on; }
    void reset_stats() { stats_ = {}; }

  private:
    // Per suit, rank bits, in one word: copies and unions are single 64-bit operations, and no
    // narrow write is followed by a wide read of the same memory (a store-forwarding stall).
    struct Ranks {
        std::uint64_t word = 0;
        std::uint16_t operator[](int suit) const {
            return static_cast<std::uint16_t>(word >> (16 * suit));
        }
        void add(int suit, unsigned lane) {
            word |= static_cast<std::uint64_t>(lane & 0xffffu) << (16 * suit);
        }
        Ranks& operator|=(const Ranks& other) {
            word |= other.word;
            return *this;
        }
    };
    using Hands = std::array<std::array<std::uint16_t, 4>, 4>;  // [seat][suit] rank bits
    // A trick start as the table sees it: the leader, the broken flag and every hand's length in
    // every suit, plus per suit the seats holding its highest cards.
    struct Shape {
        std::uint64_t lengths;  // 4 bits per (seat, suit)
        std::uint8_t extra;     // leader | broken << 2
        // The owner of every card in play, 2 bits each, per suit in a 32-bit lane from the top
        // down (the suit's highest card in the lane's top bits): suits 0 and 1 in the first word,
        // 2 and 3 in the second. Left uninitialised until shape() fills it.
        std::array<std::uint64_t, 2> owners;
    };
    // Bounds proven for every position of one shape whose top cards in each suit (down to the
    // lowest rank the proof depended on) have the same owners: the other cards only ever fell
    // to tricks they did not decide by rank, so their ranks do not matter (partition search).
    struct Entry {
        std::int8_t lower = 0, upper = 0;  // tricks for seats 0 and 2 from the trick start on
        std::int8_t best_suit = -1;        // the lead that decided last time ...
        std::int8_t best_from_top = 0;     // ... as its rank among the suit's cards in play
        std::uint8_t cards = 0;            // the pattern's cards, all suits
    };
    // Who holds the top cards an entry rests on: the bits of Shape::owners it covers (the 2k top
    // bits of a suit's lane for its k highest cards), and their value there.
    struct Pattern {
        std::array<std::uint64_t, 2> mask, value;
        bool operator==(const Pattern&) const = default;
        bool matches(const Shape& sh) const {
            return ((sh.owners[0] & mask[0]) ^ value[0]) == 0 &&
                   ((sh.owners[1] & mask[1]) ^ value[1]) == 0;
        }
        int cards(int suit) const {  // the k of the suit
            const auto lane = static_cast<std::uint32_t>(mask[suit >> 1] >> (32 * (suit & 1)));
            return lane ? (32 - std::countr_zero(lane)) / 2 : 0;
        }
    };
    // A shape's entries sit together, newest block first, so a look-up reads memory in order.
    static constexpr int kBlock = 16;
    struct Block {
        std::array<Pattern, kBlock> top{};
        std::array<Entry, kBlock> entry{};
        std::int32_t next = -1;  // the shape's older block
        std::int32_t count = 0;
    };
    // One per shape seen: the head of its list of entries.
    struct Head {
        std::uint64_t lengths = 0;
        std::uint32_t generation = 0;
        std::int32_t first = -1;  // newest block
        std::uint8_t extra = 0;
    };
    struct Move {
        std::int8_t suit, rank;
        std::int8_t low;  // the lowest of the equivalent cards it stands for
        std::int16_t score;
    };
    struct Moves {
        std::array<Move, 16> m;
        int n = 0;
    };

    void load(const PlayRules& rules, const PlayState& state);
    int estimate() const;  // a guess at the value, where the tests start
    bool test(int need);   // one null-window test from the loaded position
    // The search, top-down (after bridge-solver's SearchWithCache, SearchAtTrickStart and
    // EvaluatePlayableCards). Each answers whether seats 0 and 2 still take `need` tricks from the
    // loaded position, and sets `relevant` to the ranks the answer rests on.
    bool search(int need, Ranks& relevant);
    // Answers that need no card played: the target reached or out of reach, or after the lead a
    // trick the second hand's side surely wins. None: search on.
    std::optional<bool> settled_before_play(int need, Ranks& relevant) const;
    // At a trick start: the last trick played out, or the answer of the table or of the sure-trick
    // bounds. None: `sh` is the shape to store the answer under, and `hint` may name a lead.
    std::optional<bool> known_at_trick_start(int need, Shape& sh, const Entry*& hint,
                                             Ranks& relevant);
    // The cards tried in order until one decides the test (`hint`: a lead from the table to try
    // first); the card that decided, if one did.
    struct CardsOutcome {
        bool makes;
        bool decided;
        Move card;
    };
    CardsOutcome evaluate_cards(int need, const Entry* hint, Ranks& relevant);
    // Plays the card, searches the position after it and takes the card back.
    bool try_card(int seat, int suit, int rank, int need, Ranks& relevant);
    // A card that decided a test: the move ordering's killer and history remember it.
    void remember_cutoff(int seat, int suit, int rank, int left);
    // When no card decided: what the answer rests on, from every card's subtree, widened so that
    // the equivalent cards a card stood for stay equivalent.
    static Ranks widen_to_runs(const Moves& moves, Ranks all);
    // Plays the card; returns what North-South still need (less one if they won a trick it ended).
    int play_card(int seat, int suit, int rank, int need, std::uint16_t& won_by_rank);
    // Whether the sure-trick bounds settle the test at a trick start.
    std::optional<bool> lead_bounds(int need, int left, Ranks& relevant) const;
    void generate(int seat, const Entry* hint, Moves& out) const;
    // What move ordering needs to know about a suit the leader may lead.
    struct LeadSuit {
        std::uint16_t present;                     // the suit's cards in play
        int top, second, third;                    // its highest ranks (-1: none) ...
        int top_owner, second_owner, third_owner;  // ... and who holds them
        int len_p;                                 // partner's length
        bool l_ruffs, r_ruffs, p_ruffs;            // who can ruff it
        bool singleton_top;                        // an opponent's top card is a singleton
        bool top_wins,
            partner_wins;  // the top card wins the trick; a lower card does (through partner)
        int weight;        // the part of the score every lead of the suit shares
        bool wins(int rank) const { return rank == top ? top_wins : partner_wins; }
    };
    LeadSuit lead_suit(int seat, int suit, std::uint16_t present) const;
    // `run`: the card stands for a run of equivalent cards, down to `low`.
    int lead_score(int seat, const LeadSuit& view, int rank, bool run) const;
    // What move ordering needs to know about a trick in progress, the same for every card the
    // player to move may play to it (worked out once per position).
    struct FollowView {
        int led, lead;              // the suit led and the card led
        bool follows;               // the player to move holds the suit led
        std::uint16_t led_present;  // the led suit's cards in play
        // Second hand: partner (fourth) and third hand in the led suit (-1: void), and who wins
        // when neither my card nor partner's beats the rest.
        int max3, min3, maxp, minp;
        bool win_high;             // a card of mine above the lead and third hand's wins the trick
        bool win_partner;          // partner's card wins (when it beats the lead and third hand's)
        bool win_lead_ruff;        // partner ruffs the lead (when it beats everything else)
        bool win_ruff;             // partner ruffs otherwise
        bool leader_over_partner;  // the trick's leader holds a card above partner's best
        bool partner_wins;         // second hand void: partner would win the trick
        int third_trump;           // second hand void: third hand's top trump
        bool third_ruffs;          // third hand can ruff
        // Third hand following suit: cards above third_bar score third_value - rank (the rest
        // play low); or, when third_cheapest >= 0, the card standing for it does (it forces out
        // fourth hand's top card).
        int third_bar, third_value, third_cheapest;
        // Later: the one opponent still to play after me (fourth hand), if any.
        bool later;                  // an opponent plays after me
        int later_led, later_trump;  // its top card in the led suit and in trumps (-1: none)
        bool partner_winning,
            partner_card_holds;  // partner is winning; ... and no one later beats it
    };
    FollowView follow_view(int seat) const;
    void third_hand_view(int seat, FollowView& v) const;
    int follow_score(int seat, const FollowView& v, int suit, int rank, int low) const;
    int second_hand_score(const FollowView& v, int rank, bool run) const;
    int third_hand_score(const FollowView& v, int rank, int low) const;
    int second_hand_void_score(int seat, const FollowView& v, int suit, int rank) const;
    // Whether the opponent still to play can beat (suit, rank) if it wins the trick now.
    bool beaten_later(const FollowView& v, int suit, int rank) const {
        if (!v.later) return false;
        if (v.later_led >= 0) return suit == v.led && v.later_led > rank;
        return v.later_trump >= 0 && (suit != trump_ || v.later_trump > rank);
    }
    // Tricks `seat`, on lead, surely takes; `relevant` gets what reaching `goal` of them rests on.
    int quick_tricks(int seat, int goal, Ranks& relevant) const;
    bool second_hand_wins(Ranks& relevant) const;
    // After the lead: whether second hand's side wins the trick and then takes `goal` tricks in
    // all.
    bool second_hand_cashes(int goal, Ranks& relevant) const;
    bool no_trumps_left() const { return !in_play(trump_); }
    bool first_trick_lost(Ranks& relevant) const;
    bool last_trick(Ranks& relevant) const;
    int sure_trumps(int side, int goal, Ranks& relevant) const;  // reaching `goal` tricks
    bool partner_ruffs(int seat, Ranks& relevant) const;  // `seat` leads a suit partner ruffs
    // Whether `side`, without the top trump, surely takes a trick with its guarded second-best.
    bool guarded_trump_trick(int side, Ranks& relevant) const;
    // With no trumps left: whether `side`, needing every trick left, heads too few suits.
    bool headed_short(int side, int left, Ranks& relevant) const;
    Shape shape() const;
    void set_shape_keys();  // play_.owners and play_.lengths from the hands
    Head* find_head(const Shape& sh, bool create);
    // The table's answer at this trick start (and what it rests on), if it has one; else `hint`
    // may name a lead from a matching entry.
    std::optional<bool> probe(const Shape& sh, int need, Ranks& relevant, const Entry*& hint);
    void store(const Shape& sh, const Ranks& relevant, bool result, int need, int left,
               const Move* best);
    // The suit's cards in the hands `h`.
    static std::uint16_t in_hands(const Hands& h, int suit) {
        return static_cast<std::uint16_t>(h[0][suit] | h[1][suit] | h[2][suit] | h[3][suit]);
    }
    // The seat holding (suit, rank), or -1 when no hand does.
    int holder(int suit, int rank) const {
        for (int p = 0; p < 4; ++p)
            if (hand_[p][suit] >> rank & 1u) return p;
        return -1;
    }
    // The suit's cards in the hands and on the table.
    std::uint16_t in_play(int suit) const {
        return static_cast<std::uint16_t>(in_hands(hand_, suit) | play_.table[suit]);
    }
    // Whether (suit, rank) beats the card winning the trick in progress.
    bool beats_winner(int suit, int rank) const {
        return (suit == play_.win_suit && rank > play_.win_rank) ||
               (suit == trump_ && play_.win_suit != trump_);
    }
    // Whether seat p can ruff a lead of `suit`: void in it, trumps in hand.
    bool can_ruff(int p, int suit) const {
        return suit != trump_ && !hand_[p][suit] && hand_[p][trump_];
    }
    // Whether `seat` and its partner hold the top card of `suit`.
    bool heads(int seat, int suit) const {
        return (hand_[seat][suit] | hand_[seat ^ 2][suit]) >
               (hand_[seat ^ 1][suit] | hand_[seat ^ 3][suit]);
    }
    bool trump_leadable(int seat) const { return trump_leadable(hand_, seat, play_.broken); }
    bool trump_leadable(const Hands& h, int seat, bool broken) const {
        if (!restricted_ || broken) return true;
        for (int s = 0; s < 4; ++s)
            if (s != trump_ && h[seat][s]) return false;
        return true;
    }
    // `lengths`: every hand's length in every suit of `h`, 4 bits each (as play_.lengths).
    // `skip`: suits not to count; `cashed`: the suits counted, and how many rounds of trumps.
    struct Cashed {
        unsigned suits = 0;
        int trump_rounds = 0;
    };
    int cash_tricks(const Hands& h, std::uint64_t lengths, int seat, bool broken, int goal,
                    Ranks& relevant, unsigned skip = 0, Cashed* cashed = nullptr) const;
    bool check(int need, bool answer);

    // Rules.
    PlayRules rules_;
    int trump_ = 0;
    bool restricted_ = false;  // trumps may not be led until broken (unless nothing else is held)
    int first_lead_suit_ = -1, first_lead_rank_ = 0;  // forced opening lead of the hand, if any
    std::uint64_t rules_id_ = ~0ULL;

    // Position: the hands, and everything else a move changes, which the search saves and
    // restores whole around each move.
    Hands hand_{};
    // Small fields are bytes: the search copies the whole struct twice per card.
    struct Play {
        bool broken = false;
        bool first_trick = false;  // the hand's first trick is in progress (forced lead applies)
        std::int8_t leader = 0, size = 0;
        std::int8_t tricks_left = 0;  // tricks not yet complete, the one in progress included
        std::int8_t win_seat = 0, win_suit = 0, win_rank = 0;
        std::array<std::int8_t, 4> trick_suit{}, trick_rank{};
        Ranks table{};  // per suit, the cards on the table in the trick in progress
        // Kept as cards leave the hands, for the table's shapes: per suit the owner of every card
        // in the hands (2 bits each, lowest card lowest), and every hand's length in every suit.
        std::array<std::uint32_t, 4> owners{};
        std::uint64_t lengths = 0;
    };
    Play play_;
    // A lengths word (Play::lengths, Shape::lengths): 4 bits per seat and suit.
    static constexpr int length_shift(int seat, int suit) { return 16 * suit + 4 * seat; }
    static int length_of(std::uint64_t lengths, int seat, int suit) {
        return static_cast<int>(lengths >> length_shift(seat, suit) & 0xf);
    }
    std::array<std::int16_t, 14> killer_{};  // per tricks left: the lead that last decided
    // [seat][suit]: leads, and discards, that decided a test, each weighted by the square of the
    // tricks left.
    std::array<std::array<std::uint32_t, 4>, 4> lead_history_{}, discard_history_{};

    std::vector<Head> heads_;
    std::vector<Block> blocks_;  // handed out in order; when all are used, the table starts over
    std::size_t used_ = 0;
    std::uint64_t mask_ = 0;
    std::uint32_t generation_ = 1;
    SolverStats stats_;
    bool exact_patterns_ = false;  // store every card in play in each pattern (the checker)
    bool checking_ = false;
    std::unique_ptr<Solver> checker_;
};

}  // namespace cardgames::double_dummy
