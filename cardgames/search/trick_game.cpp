#include "cardgames/search/trick_game.hpp"

#include <algorithm>
#include <bit>
#include <limits>

#include "cardgames/cards/error.hpp"
#include "cardgames/rules/scoring.hpp"
#include "engine/hash.hpp"

namespace cardgames {

namespace {

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

constexpr Zobrist kZobrist = make_zobrist();

constexpr int kTable = kMaxPlayers;  // Zobrist row of the cards on the table

}  // namespace

Utility parse_utility(const std::string& name) {
    if (name == "tricks") return Utility::kTricks;
    if (name == "score") return Utility::kScore;
    if (name == "points") return Utility::kPoints;
    throw InputError("utility '" + name + "': expected tricks, score (Spades) or points (Hearts)");
}

std::string utility_name(Utility u) {
    switch (u) {
        case Utility::kTricks:
            return "tricks";
        case Utility::kScore:
            return "score";
        case Utility::kPoints:
            return "points";
    }
    return "?";
}

Utility default_utility(GameKind game) {
    return game == GameKind::kSpades ? Utility::kTricks : Utility::kPoints;
}

TrickGame::TrickGame(const Rules& rules, const PlayState& state, Utility utility,
                     const std::array<CardSet, kMaxPlayers>& taken, const ScoreContext& context)
    : rules_(rules),
      play_rules_(PlayRules::from(rules)),
      utility_(utility),
      players_(rules.players),
      partnership_(rules.is_partnership()),
      context_(context) {
    if ((utility == Utility::kPoints) != (rules.game == GameKind::kHearts))
        throw InputError(
            "utility '" + utility_name(utility) + "' does not fit " + game_name(rules.game) +
            (rules.game == GameKind::kHearts ? " (use points)" : " (use tricks or score)"));
    s_.ps = state;
    root_tricks_won_ = state.tricks_won;
    root_tricks_ = state.tricks_played;
    moon_cards_ = CardSet::whole_suit(Suit::kHearts) | Card(Suit::kSpades, kQueen);

    CardSet in_play;
    for (int p = 0; p < players_; ++p) in_play |= state.hands[p];
    for (int i = 0; i < state.trick_size; ++i) in_play |= state.trick[i];
    for (int p = 0; p < players_; ++p) {
        for (Card c : taken[p] & moon_cards_)
            s_.penalty[p] = static_cast<std::int16_t>(s_.penalty[p] + rules.card_points(c));
        if (rules.jack_of_diamonds && taken[p].contains(Card(Suit::kDiamonds, kJack)))
            s_.jack_taker = static_cast<std::uint8_t>(p);
    }
    CardSet all_moon = in_play & moon_cards_;
    for (int p = 0; p < players_; ++p) all_moon |= taken[p] & moon_cards_;
    for (Card c : all_moon) moon_total_ += rules.card_points(c);
    jack_in_hand_ = rules.jack_of_diamonds &&
                    (in_play.contains(Card(Suit::kDiamonds, kJack)) || s_.jack_taker != 0xff);

    // Zobrist hash of the position.
    for (int p = 0; p < players_; ++p)
        for (Card c : state.hands[p]) s_.hash ^= kZobrist.card[p][c.index()];
    for (int i = 0; i < state.trick_size; ++i)
        s_.hash ^= kZobrist.card[kTable][state.trick[i].index()];

    // Utility range and maxsum.
    if (utility_ == Utility::kTricks) {
        const int left = remaining_tricks();
        max_u_ = left;
        maxsum_ = partnership_ ? 2 * left : left;
        constant_sum_ = true;
    } else if (utility_ == Utility::kPoints) {
        const int jack = jack_in_hand_ ? -kJackOfDiamondsPoints : 0;
        shift_ = kMoonPoints;
        max_u_ = kMoonPoints + (rules.moon_subtracts ? kMoonPoints : 0) + jack;
        const engine::Utility plain = kMoonPoints * players_ - moon_total_ + jack;
        if (moon_possible()) {
            const engine::Utility moon =
                rules.moon_subtracts ? kMoonPoints * players_ + kMoonPoints + jack
                                     : kMoonPoints * players_ - kMoonPoints * (players_ - 1) + jack;
            maxsum_ = std::max(plain, moon);
            constant_sum_ = false;
        } else {
            maxsum_ = plain;
            constant_sum_ = true;
        }
    } else {
        // Score: shift by the worst outcome, and find the range and the largest sum.
        engine::Utility lo = std::numeric_limits<engine::Utility>::max(),
                        hi = std::numeric_limits<engine::Utility>::min();
        for_each_outcome([&](const engine::Tuple& t) {
            for (int p = 0; p < players_; ++p) {
                lo = std::min(lo, t[p]);
                hi = std::max(hi, t[p]);
            }
            return false;
        });
        shift_ = -lo;
        max_u_ = hi - lo;
        engine::Utility best_sum = 0;
        for_each_outcome([&](const engine::Tuple& t) {
            engine::Utility sum = 0;
            for (int p = 0; p < players_; ++p) sum += t[p];
            best_sum = std::max(best_sum, sum);
            return false;
        });
        maxsum_ = best_sum;
        constant_sum_ = false;
    }
}

int TrickGame::remaining_tricks() const {
    int cards = s_.ps.trick_size;
    for (int p = 0; p < players_; ++p) cards += s_.ps.hands[p].size();
    return (cards + players_ - 1) / players_;
}

bool TrickGame::moon_possible() const {
    if (moon_total_ != kMoonPoints) return false;
    int with_points = 0;
    for (int p = 0; p < players_; ++p) with_points += s_.penalty[p] > 0;
    return with_points <= 1;
}

Card TrickGame::representative(Card c) const {
    CardSet in_play;
    for (int p = 0; p < players_; ++p) in_play |= s_.ps.hands[p];
    for (int i = 0; i < s_.ps.trick_size; ++i) in_play |= s_.ps.trick[i];
    const CardSet mine = s_.ps.hands[s_.ps.to_move];
    while (true) {
        // The next higher card of the suit still in play.
        const std::uint16_t above =
            static_cast<std::uint16_t>(in_play.lane(c.suit()) & ~((2u << c.rank()) - 1));
        if (!above) return c;
        const Card next(c.suit(), std::countr_zero(above));
        if (!mine.contains(next) ||
            play_rules_.points[next.index()] != play_rules_.points[c.index()])
            return c;
        c = next;
    }
}

void TrickGame::legal_moves(engine::MoveList<Card, kMaxMoves>& out) const {
    const PlayState& ps = s_.ps;
    const CardSet legal = ps.legal_moves(play_rules_);
    const int me = ps.to_move;
    // Collect one card per run of equivalent cards, with an ordering score.
    std::array<int, kMaxMoves> score{};
    const bool leading = ps.trick_size == 0;
    const int winner = leading ? -1 : ps.current_winner(play_rules_);
    const Card win_card = leading ? kNoCard : ps.trick[(winner - ps.leader + players_) % players_];
    const bool partner_winning = !leading && partnership_ && winner == (me + 2) % 4;
    for (Card c : legal) {
        if (representative(c) != c) continue;
        int sc = 0;
        bool beats = false;
        if (!leading) {
            const bool c_trump = play_rules_.has_trump && c.suit() == play_rules_.trump;
            const bool w_trump = play_rules_.has_trump && win_card.suit() == play_rules_.trump;
            beats = c_trump != w_trump
                        ? c_trump
                        : (c.suit() == win_card.suit() && c.rank() > win_card.rank());
        }
        if (utility_ == Utility::kPoints) {
            const int pts = play_rules_.points[c.index()];
            if (leading)
                sc = 100 - c.rank() * 4 - pts * 3;  // lead low, keep points back
            else if (c.suit() != ps.led_suit())
                sc = 200 + pts * 8 + c.rank();  // discard points, then high
            else if (!beats)
                sc = 150 + c.rank();  // duck as high as possible
            else
                sc = 100 - c.rank();  // forced to win: cheaply
        } else {
            if (leading)
                sc = c.rank() == kAce ? 200 : (c.rank() >= kKing ? 150 : 100 - c.rank());
            else if (partner_winning)
                sc = 100 - c.rank() - (beats ? 50 : 0);  // don't overtake partner
            else if (beats)
                sc = 200 - c.rank();  // win cheaply
            else
                sc = 100 - c.rank();  // else throw the lowest
        }
        const int i = out.size();
        out.push_back(c);
        score[static_cast<std::size_t>(i)] = sc;
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

void TrickGame::apply(Card c) {
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
    for (int i = 0; i < size_before; ++i) {
        s_.hash ^= kZobrist.card[kTable][trick_before[i].index()];
        if (moon_cards_.contains(trick_before[i]))
            s_.penalty[winner] = static_cast<std::int16_t>(
                s_.penalty[winner] + play_rules_.points[trick_before[i].index()]);
        if (rules_.jack_of_diamonds && trick_before[i] == Card(Suit::kDiamonds, kJack))
            s_.jack_taker = static_cast<std::uint8_t>(winner);
    }
    if (moon_cards_.contains(c))
        s_.penalty[winner] =
            static_cast<std::int16_t>(s_.penalty[winner] + play_rules_.points[c.index()]);
    if (rules_.jack_of_diamonds && c == Card(Suit::kDiamonds, kJack))
        s_.jack_taker = static_cast<std::uint8_t>(winner);
}

void TrickGame::undo(Card) {
    s_ = stack_[static_cast<std::size_t>(--ply_)];
}

void TrickGame::outcome_tuple(const std::array<int, kMaxPlayers>& tricks,
                              engine::Tuple& out) const {
    out = {};
    if (utility_ == Utility::kTricks) {
        std::array<int, kMaxPlayers> gained{};
        for (int p = 0; p < players_; ++p) gained[p] = tricks[p] - root_tricks_won_[p];
        for (int p = 0; p < players_; ++p)
            out[p] = partnership_ ? gained[p] + gained[(p + 2) % 4] : gained[p];
        return;
    }
    // Score: the real hand scoring, with the unit's running bags for the 10-bag penalty.
    ScoreBoard board;
    board.bags = context_.bags;
    const HandScore hs = score_spades_hand(rules_, context_.bids, tricks, board);
    for (int p = 0; p < players_; ++p) out[p] = hs.delta[rules_.unit_of(p)] + shift_;
}

void TrickGame::points_tuple(const std::array<int, kMaxPlayers>& penalty, int jack_taker,
                             engine::Tuple& out) const {
    out = {};
    int shooter = -1;
    if (moon_total_ == kMoonPoints)
        for (int p = 0; p < players_; ++p)
            if (penalty[p] == kMoonPoints) shooter = p;
    for (int p = 0; p < players_; ++p) {
        int score = penalty[p];
        if (shooter >= 0)
            score = p == shooter ? (rules_.moon_subtracts ? -kMoonPoints : 0)
                                 : (rules_.moon_subtracts ? 0 : kMoonPoints);
        if (rules_.jack_of_diamonds && jack_taker == p) score += kJackOfDiamondsPoints;
        out[p] = shift_ - score;
    }
}

void TrickGame::payoff(engine::Tuple& out) const {
    if (utility_ == Utility::kPoints) {
        std::array<int, kMaxPlayers> pen{};
        for (int p = 0; p < players_; ++p) pen[p] = s_.penalty[p];
        points_tuple(pen, s_.jack_taker, out);
        return;
    }
    std::array<int, kMaxPlayers> tricks{};
    for (int p = 0; p < players_; ++p) tricks[p] = s_.ps.tricks_won[p];
    outcome_tuple(tricks, out);
}

void TrickGame::evaluate(engine::Tuple& out) const {
    // Points or tricks taken so far, with what is left shared out evenly: every share lies inside
    // the bounds and the shares sum to what is left, so the tuple sums to at most maxsum.
    if (utility_ == Utility::kPoints) {
        int left = moon_total_;
        for (int p = 0; p < players_; ++p) left -= s_.penalty[p];
        out = {};
        for (int p = 0; p < players_; ++p) {
            const int share = left / players_ + (p < left % players_ ? 1 : 0);
            const int jack =
                (rules_.jack_of_diamonds && s_.jack_taker == p) ? kJackOfDiamondsPoints : 0;
            out[p] = shift_ - (s_.penalty[p] + jack + share);
        }
        return;
    }
    const int left = remaining_tricks();
    std::array<int, kMaxPlayers> tricks{};
    if (utility_ == Utility::kScore) {
        // Score: a nil bidder still clean is predicted to stay clean (an even share would call
        // every nil lost at the horizon, leaving the search no reason to protect or attack it);
        // the others share what is left. Any split of the tricks left is a reachable outcome, so
        // the tuple stays inside the (trivial) bounds and within maxsum.
        int sharing = 0;
        std::array<bool, kMaxPlayers> clean_nil{};
        for (int p = 0; p < players_; ++p) {
            clean_nil[p] = context_.bids[p].is_nil() && s_.ps.tricks_won[p] == 0;
            sharing += clean_nil[p] ? 0 : 1;
        }
        const int sharers = sharing > 0 ? sharing : players_;
        for (int p = 0, k = 0; p < players_; ++p) {
            tricks[p] = s_.ps.tricks_won[p];
            if (clean_nil[p] && sharing > 0) continue;
            tricks[p] += left / sharers + (k < left % sharers ? 1 : 0);
            ++k;
        }
        outcome_tuple(tricks, out);
        return;
    }
    for (int p = 0; p < players_; ++p)
        tricks[p] = s_.ps.tricks_won[p] + left / players_ + (p < left % players_ ? 1 : 0);
    outcome_tuple(tricks, out);
}

void TrickGame::bounds(engine::Tuple& lo, engine::Tuple& hi) const {
    lo = {};
    hi = {};
    if (utility_ == Utility::kTricks) {
        const int left = remaining_tricks();
        // Under a depth limit only the k tricks before the horizon are played out; evaluate() gives
        // the `after` tricks beyond it out in fixed shares (the share of player p depends on p and
        // `after` only), so the share is a known part of both bounds. Terminals come before the
        // horizon only when k == left, and then no share is added.
        const int k = horizon_ == engine::kNoDepthLimit
                          ? left
                          : std::clamp(horizon_ - depth_counter(), 0, left);
        const int after = left - k;
        engine::Tuple now{};
        for (int p = 0; p < players_; ++p)
            now[p] = s_.ps.tricks_won[p] - root_tricks_won_[p] + after / players_ +
                     (p < after % players_ ? 1 : 0);
        std::array<int, 2> sure{};  // per side: tricks its top trumps are certain to win
        if (partnership_ && play_rules_.has_trump && k == left) sure_trump_tricks(sure);
        for (int p = 0; p < players_; ++p) {
            const int got = partnership_ ? now[p] + now[(p + 2) % 4] : now[p];
            lo[p] = got + sure[static_cast<std::size_t>(p % 2)];
            hi[p] = got + k - sure[static_cast<std::size_t>(1 - p % 2)];
        }
        return;
    }
    if (utility_ == Utility::kScore || moon_possible()) {
        for (int p = 0; p < players_; ++p) hi[p] = max_u_;
        return;
    }
    int left = moon_total_;
    for (int p = 0; p < players_; ++p) left -= s_.penalty[p];
    const bool jack_free = rules_.jack_of_diamonds && jack_in_hand_ && s_.jack_taker == 0xff;
    for (int p = 0; p < players_; ++p) {
        const int jack =
            (rules_.jack_of_diamonds && s_.jack_taker == p) ? kJackOfDiamondsPoints : 0;
        lo[p] = shift_ - (s_.penalty[p] + jack + left);
        hi[p] = shift_ - (s_.penalty[p] + jack) + (jack_free ? -kJackOfDiamondsPoints : 0);
    }
}

void TrickGame::sure_trump_tricks(std::array<int, 2>& sure) const {
    // A trump above every trump the other side still has (in hand or on the table) wins the trick
    // it is played in, unless a partner's higher one falls on the same trick; one player's such
    // trumps fall on different tricks. So each side is sure of its better player's count. Every
    // card is played before the hand ends, so this holds for every line of play to the end.
    const PlayState& ps = s_.ps;
    const Suit trump = play_rules_.trump;
    std::array<std::uint16_t, 2> side_lane{};
    for (int p = 0; p < players_; ++p)
        side_lane[static_cast<std::size_t>(p % 2)] |= ps.hands[p].lane(trump);
    for (int i = 0; i < ps.trick_size; ++i) {
        const Card c = ps.trick[i];
        if (c.suit() == trump)
            side_lane[static_cast<std::size_t>((ps.leader + i) % players_ % 2)] |=
                static_cast<std::uint16_t>(1u << c.rank());
    }
    for (int side = 0; side < 2; ++side) {
        const std::uint16_t other = side_lane[static_cast<std::size_t>(1 - side)];
        const int top =
            other ? 15 - std::countl_zero(other) : 0;  // the other side's highest trump rank
        const std::uint16_t above = static_cast<std::uint16_t>(~((2u << top) - 1));
        int best = 0;
        for (int p = side; p < players_; p += 2)
            best = std::max(
                best, std::popcount(static_cast<std::uint16_t>(ps.hands[p].lane(trump) & above)));
        sure[static_cast<std::size_t>(side)] = best;
    }
}

std::uint64_t TrickGame::relative_rank_hash() const {
    // Partnership tricks: the value depends on the cards only through who holds which rank *among
    // the cards still in play* of each suit (tricks go by rank order), so positions reached by
    // playing different small cards share one entry. Only where two sides split a constant sum:
    // with more sides, a tie for the mover is broken by move order, which follows absolute ranks,
    // and the others' values depend on that tie. Called only between tricks (tt_storable).
    const PlayState& ps = s_.ps;
    std::uint64_t h = 0;
    for (int suit = 0; suit < kNumSuits; ++suit) {
        std::array<std::uint16_t, kMaxPlayers> lanes{};
        std::uint16_t all = 0;
        for (int p = 0; p < players_; ++p)
            all |= lanes[p] = ps.hands[p].lane(static_cast<Suit>(suit));
        for (int k = 0; all; ++k, all &= static_cast<std::uint16_t>(all - 1)) {
            const int r = std::countr_zero(all);
            int p = 0;
            while (!((lanes[p] >> r) & 1)) ++p;
            h ^= kZobrist.card[p][suit * 16 + k];
        }
    }
    return h;
}

std::uint64_t TrickGame::hash_key() const {
    const PlayState& ps = s_.ps;
    const bool relative = utility_ == Utility::kTricks && partnership_ && ps.trick_size == 0;
    std::uint64_t h = (relative ? relative_rank_hash() : s_.hash) ^ kZobrist.to_move[ps.to_move];
    if (ps.broken) h ^= kZobrist.broken;
    if (ps.tricks_played == 0) h ^= kZobrist.first_trick;
    // What the future utility depends on beyond the cards, where it is not additive.
    if (utility_ == Utility::kScore)
        for (int p = 0; p < players_; ++p) h ^= kZobrist.count[p][ps.tricks_won[p] & 31];
    if (utility_ == Utility::kPoints && moon_possible())
        for (int p = 0; p < players_; ++p) h ^= kZobrist.count[p][s_.penalty[p] & 31];
    if (utility_ == Utility::kPoints && rules_.jack_of_diamonds && s_.jack_taker != 0xff)
        h ^= kZobrist.count[s_.jack_taker][31] * 3;
    return h;
}

void TrickGame::tt_offset(engine::Tuple& out) const {
    out = {};
    if (utility_ == Utility::kTricks) {
        for (int p = 0; p < players_; ++p) {
            const int own = s_.ps.tricks_won[p] - root_tricks_won_[p];
            out[p] = own;
        }
        if (partnership_) {
            const engine::Tuple own = out;
            for (int p = 0; p < players_; ++p) out[p] = own[p] + own[(p + 2) % 4];
        }
    } else if (utility_ == Utility::kPoints && !moon_possible()) {
        for (int p = 0; p < players_; ++p) out[p] = -s_.penalty[p];
    }
}

std::vector<int> TrickGame::report(const engine::Tuple& value) const {
    std::vector<int> out;
    if (utility_ == Utility::kPoints) {
        for (int p = 0; p < players_; ++p) out.push_back(shift_ - value[p]);
    } else if (partnership_) {
        out = {value[0] - shift_, value[1] - shift_};
    } else {
        for (int p = 0; p < players_; ++p) out.push_back(value[p] - shift_);
    }
    return out;
}

std::uint64_t TrickGame::outcome_key() const {
    // The outcome set depends on what each player has taken and on what is still in play.
    std::uint64_t k = static_cast<std::uint64_t>(remaining_tricks());
    for (int p = 0; p < players_; ++p) {
        const int v = utility_ == Utility::kPoints ? s_.penalty[p] : s_.ps.tricks_won[p];
        k = k * 64 + static_cast<std::uint64_t>(v & 63);
    }
    if (utility_ == Utility::kPoints) {
        k = k * 8 + (s_.jack_taker == 0xff ? 7u : s_.jack_taker);
        // Which of the Q♠ and the J♦ are still in play changes the outcome set too.
        CardSet in_play;
        for (int p = 0; p < players_; ++p) in_play |= s_.ps.hands[p];
        for (int i = 0; i < s_.ps.trick_size; ++i) in_play |= s_.ps.trick[i];
        k = k * 4 + (in_play.contains(Card(Suit::kSpades, kQueen)) ? 1 : 0) +
            (in_play.contains(Card(Suit::kDiamonds, kJack)) ? 2 : 0);
        k = k * 16 + static_cast<std::uint64_t>(in_play.count(Suit::kHearts));
    }
    return k;
}

}  // namespace cardgames
