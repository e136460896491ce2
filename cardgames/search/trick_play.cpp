#include "cardgames/search/trick_play.hpp"

#include "cardgames/rules/nil_play.hpp"

namespace cardgames {

TrickPlay::TrickPlay(const Rules& rules, const PlayState& state,
                     const std::array<CardSet, kMaxPlayers>& taken)
    : rules_(rules),
      play_rules_(PlayRules::from(rules)),
      players_(rules.players),
      partnership_(rules.is_partnership()) {
    using trick_play_detail::kTable;
    using trick_play_detail::kZobrist;
    s_.ps = state;
    root_tricks_won_ = state.tricks_won;
    root_tricks_ = state.tricks_played;
    moon_cards_ = CardSet::whole_suit(Suit::kHearts) | Card(Suit::kSpades, kQueen);

    const CardSet in_play = state.in_play();
    for (int p = 0; p < players_; ++p) {
        s_.penalty[p] = static_cast<std::int16_t>(rules.points(taken[p] & moon_cards_));
        if (rules.jack_of_diamonds && taken[p].contains(Card(Suit::kDiamonds, kJack)))
            s_.jack_taker = static_cast<std::uint8_t>(p);
    }
    CardSet all_moon = in_play & moon_cards_;
    for (int p = 0; p < players_; ++p) all_moon |= taken[p] & moon_cards_;
    moon_total_ = rules.points(all_moon);
    jack_in_hand_ = rules.jack_of_diamonds &&
                    (in_play.contains(Card(Suit::kDiamonds, kJack)) || s_.jack_taker != kNobody);

    for (int p = 0; p < players_; ++p)
        for (Card c : state.hands[p]) s_.hash ^= kZobrist.card[p][c.index()];
    for (int i = 0; i < state.trick_size; ++i)
        s_.hash ^= kZobrist.card[kTable][state.trick[i].index()];
}

std::uint64_t TrickPlay::relative_rank_hash() const {
    // Partnership tricks: the value depends on the cards only through who holds which rank *among
    // the cards still in play* of each suit (tricks go by rank order), so positions reached by
    // playing different small cards share one entry. Only where two sides split a constant sum:
    // with more sides, a tie for the mover is broken by move order, which follows absolute ranks,
    // and the others' values depend on that tie. Called only between tricks (tt_storable).
    using trick_play_detail::kZobrist;
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

Card TrickPlay::nil_bidder_card() const {
    const PlayState& ps = s_.ps;
    const CardSet legal = ps.legal_moves(play_rules_);
    const int me = ps.to_move;
    if (ps.trick_size == 0)
        return nil_lead(legal, ps.in_play() - ps.hands[me], [this](Card) { return players_ - 1; });
    const Card win_card = ps.trick[ps.winning];
    CardSet beaters;
    for (Card c : legal)
        if (beats(play_rules_, c, win_card)) beaters |= c;
    return nil_duck(legal, beaters, ps.trick_size == players_ - 1);
}

}  // namespace cardgames
