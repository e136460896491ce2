#include "cardgames/rules/game.hpp"

#include "cardgames/rules/dealing.hpp"

namespace cardgames {

Game::Game(const Rules& rules, std::uint64_t seed)
    : rules_(rules), play_rules_(PlayRules::from(rules)), seed_(seed) {
    rules_.validate();
    start_hand(0, rules_.players - 1);
}

Game::Game(const Rules& rules, std::uint64_t seed, int hand_number, int dealer,
           const ScoreBoard& scores)
    : rules_(rules), play_rules_(PlayRules::from(rules)), seed_(seed), scores_(scores) {
    rules_.validate();
    start_hand(hand_number, dealer);
}

void Game::emit(const GameEvent& e) {
    if (observer_) observer_(*this, e);
}

void Game::start_hand(int number, int dealer) {
    hand_ = HandRecord{};
    hand_.number = number;
    hand_.dealer = dealer;
    hand_.deal = deal_from_seed(rules_, seed_, number);
    hand_.pass_offset = rules_.pass_offset(number);
    decided_ = false;
    bids_done_ = 0;
    exchange_steps_.clear();
    received_ = {};
    dealt_ = hand_.deal.hands;
    play_ = PlayState::start(hand_.deal, first_bidder());
    if (rules_.game == GameKind::kHearts) {
        if (hand_.pass_offset != 0) {
            phase_ = Phase::kPass;
            to_act_ = 0;
        } else {
            start_play();
        }
    } else {
        to_act_ = first_bidder();
        phase_ = blind_nil_allowed(rules_, scores_, to_act_) ? Phase::kBlindNil : Phase::kBid;
    }
    emit(GameEvent(GameEvent::Kind::kHandStart));
}

void Game::set_deal(const Deal& deal) {
    if (decided_) throw std::logic_error("set_deal after the hand's first decision");
    validate_deal(deal, rules_);
    hand_.deal = deal;
    dealt_ = deal.hands;
    play_.hands = deal.hands;
    if (phase_ == Phase::kPlay)
        start_play();  // the leader depends on who holds the first-lead card
}

void Game::set_scores(const ScoreBoard& scores) {
    if (decided_) throw std::logic_error("set_scores after the hand's first decision");
    scores_ = scores;
    if (phase_ == Phase::kBlindNil || phase_ == Phase::kBid)
        phase_ = blind_nil_allowed(rules_, scores_, to_act_) ? Phase::kBlindNil : Phase::kBid;
}

InfoState Game::info_state(int seat) const {
    InfoState info;
    info.rules = &rules_;
    info.seat = seat;
    info.dealer = hand_.dealer;
    info.hand_number = hand_.number;
    info.phase = phase_;
    info.bids = hand_.bids;
    info.plays = hand_.plays;
    for (std::size_t t = 0; t < hand_.trick_winners.size(); ++t)
        info.trick_winners[t] = static_cast<std::int8_t>(hand_.trick_winners[t]);
    info.scores = scores_;
    info.last_hand = stop_after_hand_;
    info.play = play_;
    for (int s = 0; s < rules_.players; ++s)
        if (s != seat) info.play.hands[s] = CardSet();
    const bool hidden = phase_ == Phase::kBlindNil && to_act_ == seat;
    if (hidden) info.play.hands[seat] = CardSet();
    info.hand = info.play.hands[seat];
    info.dealt = hidden ? CardSet() : dealt_[seat];
    if (rules_.game == GameKind::kHearts) {
        info.passed = hand_.passed[seat];
        info.received = received_[seat];
    }
    for (const auto& [giver, cards] : hand_.exchanges) {
        if (giver == seat)
            info.passed |= cards;
        else if (rules_.pass_recipient(giver, hand_.number) == seat)
            info.received |= cards;
    }
    if (phase_ == Phase::kPass && to_act_ == seat) {
        if (rules_.game == GameKind::kHearts) {
            info.pass_count = rules_.pass_count;
            info.pass_to = rules_.pass_recipient(seat, hand_.number);
        } else {
            info.pass_count = 2;
            info.pass_to = exchange_steps_.front().second;
        }
    }
    return info;
}

void Game::next_bidder() {
    ++bids_done_;
    if (bids_done_ == rules_.players) {
        start_exchange_or_play();
        return;
    }
    to_act_ = (to_act_ + 1) % rules_.players;
    phase_ = blind_nil_allowed(rules_, scores_, to_act_) ? Phase::kBlindNil : Phase::kBid;
}

std::string Game::choose_blind_nil(bool blind) {
    if (phase_ != Phase::kBlindNil) return "no blind nil decision is due now";
    decided_ = true;
    emit(GameEvent(GameEvent::Kind::kBlindNil, to_act_, kNoCard, blind ? 1 : 0));
    if (!blind) {
        phase_ = Phase::kBid;
        return {};
    }
    hand_.bids[to_act_] = Bid{0, true};
    emit(GameEvent(GameEvent::Kind::kBid, to_act_, kNoCard, 0));
    next_bidder();
    return {};
}

std::string Game::choose_bid(int tricks) {
    if (phase_ != Phase::kBid) return "no bid is due now";
    const int most = rules_.cards_per_hand();
    if (tricks < 0 || tricks > most) return "a bid is 0 to " + std::to_string(most) + " tricks";
    if (tricks == 0 && !rules_.nil_allowed)
        return "nil bids are not allowed in these rules: bid 1 or more";
    decided_ = true;
    hand_.bids[to_act_] = Bid{tricks, false};
    emit(GameEvent(GameEvent::Kind::kBid, to_act_, kNoCard, tricks));
    next_bidder();
    return {};
}

std::vector<std::pair<int, int>> blind_nil_exchanges(const Rules& rules, int dealer,
                                                     const std::array<Bid, kMaxPlayers>& bids) {
    std::vector<std::pair<int, int>> steps;
    if (rules.game != GameKind::kSpades) return steps;
    for (int i = 0; i < rules.players; ++i) {
        const int seat = (dealer + 1 + i) % rules.players;
        if (!bids[seat].blind) continue;
        const int partner = (seat + 2) % 4;
        steps.push_back({partner, seat});
        steps.push_back({seat, partner});
    }
    return steps;
}

void Game::start_exchange_or_play() {
    exchange_steps_ = blind_nil_exchanges(rules_, hand_.dealer, hand_.bids);
    if (exchange_steps_.empty()) {
        start_play();
        return;
    }
    phase_ = Phase::kPass;
    to_act_ = exchange_steps_.front().first;
}

std::string Game::choose_pass(CardSet cards) {
    if (phase_ != Phase::kPass) return "no pass is due now";
    const CardSet hand = play_.hands[to_act_];
    const int want = rules_.game == GameKind::kHearts ? rules_.pass_count : 2;
    if (!hand.contains_all(cards)) return "you do not hold " + cards_to_string(cards - hand);
    if (cards.size() != want)
        return "pass exactly " + std::to_string(want) + " cards, not " +
               std::to_string(cards.size());
    decided_ = true;
    if (rules_.game == GameKind::kSpades) {
        const auto [giver, receiver] = exchange_steps_.front();
        exchange_steps_.erase(exchange_steps_.begin());
        play_.hands[giver] -= cards;
        play_.hands[receiver] |= cards;
        hand_.exchanges.push_back({giver, cards});
        emit(GameEvent(GameEvent::Kind::kExchange, giver, kNoCard, 0, cards));
        if (exchange_steps_.empty())
            start_play();
        else
            to_act_ = exchange_steps_.front().first;
        return {};
    }
    hand_.passed[to_act_] = cards;
    if (++to_act_ < rules_.players) return {};
    // Every seat has chosen: the passes change hands together.
    const int n = rules_.players;
    for (int s = 0; s < n; ++s) play_.hands[s] -= hand_.passed[s];
    for (int s = 0; s < n; ++s) {
        const int to = rules_.pass_recipient(s, hand_.number);
        play_.hands[to] |= hand_.passed[s];
        received_[to] = hand_.passed[s];
    }
    emit(GameEvent(GameEvent::Kind::kPassesDone));
    start_play();
    return {};
}

void Game::start_play() {
    phase_ = Phase::kPlay;
    int leader = first_bidder();
    const Card first = play_rules_.first_lead;
    if (first != kNoCard)
        for (int s = 0; s < rules_.players; ++s)
            if (play_.hands[s].contains(first)) leader = s;
    play_.leader = play_.to_move = static_cast<std::int8_t>(leader);
    to_act_ = leader;
}

std::string Game::choose_card(Card card) {
    if (phase_ != Phase::kPlay) return "no card is due now";
    if (std::string why = play_.why_illegal(play_rules_, card); !why.empty()) return why;
    decided_ = true;
    const int seat = to_act_;
    const int size_before = play_.trick_size;
    const std::array<Card, kMaxPlayers> trick_before = play_.trick;
    const int winner = play_.play(play_rules_, card);
    hand_.plays.push_back({static_cast<std::int8_t>(seat), card});
    emit(GameEvent(GameEvent::Kind::kCard, seat, card));
    if (winner >= 0) {
        hand_.trick_winners.push_back(winner);
        ++hand_.tricks[winner];
        for (int i = 0; i < size_before; ++i) hand_.taken[winner] |= trick_before[i];
        hand_.taken[winner] |= card;
        emit(GameEvent(GameEvent::Kind::kTrick, winner));
        if (play_.hand_over()) {
            finish_hand();
            return {};
        }
    }
    to_act_ = play_.to_move;
    return {};
}

void Game::finish_hand() {
    if (rules_.game == GameKind::kSpades)
        hand_.score = score_spades_hand(rules_, hand_.bids, hand_.tricks, scores_);
    else
        hand_.score = score_hearts_hand(rules_, hand_.taken, scores_);
    hand_.scores_after = scores_;
    hand_.finished = true;
    history_.push_back(hand_);
    emit(GameEvent(GameEvent::Kind::kHandEnd));
    winners_ = game_winners(rules_, scores_);
    if (!winners_.empty() || stop_after_hand_) {
        phase_ = Phase::kGameOver;
        emit(GameEvent(GameEvent::Kind::kGameOver));
        return;
    }
    start_hand(hand_.number + 1, (hand_.dealer + 1) % rules_.players);
}

}  // namespace cardgames
