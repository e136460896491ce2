#include "apps/python/game_state.hpp"

#include <algorithm>
#include <boost/random/mersenne_twister.hpp>
#include <boost/random/uniform_int_distribution.hpp>
#include <stdexcept>

#include "cardgames/cards/error.hpp"
#include "cardgames/cards/seeds.hpp"
#include "cardgames/rules/dealing.hpp"
#include "sampling/deal_sampler.hpp"

namespace pycards {

using namespace cardgames;

std::string action_name(int action) {
    if (action < 0 || action >= kNumActions)
        throw InputError("action " + std::to_string(action) + ": not an action (0.." +
                         std::to_string(kNumActions - 1) + ")");
    if (action < kPassBase) return "play " + to_string(card_of_number(action));
    if (action < kBidBase) return "pass " + to_string(card_of_number(action - kPassBase));
    if (action == kBidBase) return "bid nil";
    if (action < kNoBlindNil) return "bid " + std::to_string(action - kBidBase);
    return action == kBlindNil ? "blind nil" : "no blind nil";
}

GameState::GameState(const Rules& rules, std::uint64_t seed, int hands)
    : rules_(rules), seed_(seed), hands_(hands), game_(rules, seeds::tournament_game(seed, 0)) {
    if (hands_ < 0) throw InputError("hands=" + std::to_string(hands) + ": expected 1 or more");
    if (hands_ > 0) game_.stop_after_hand();
}

std::vector<const Game*> GameState::games() const {
    std::vector<const Game*> out;
    for (const Game& g : finished_) out.push_back(&g);
    out.push_back(&game_);
    return out;
}

void GameState::start_board(int board) {
    finished_.push_back(game_);
    board_ = board;
    game_ = Game(rules_, seeds::tournament_game(seed_, board));
    game_.stop_after_hand();
    game_start_ = hand_start_ = history_.size();
    apply_deal_override();
}

// A deal that sample_world set for the hand now starting replaces the seed's deal.
void GameState::apply_deal_override() {
    const auto it = deals_.find({board_, game_.hand().number});
    if (it != deals_.end()) game_.set_deal(it->second);
}

std::vector<int> legal_actions_in(const Rules& rules, Phase phase, CardSet hand, CardSet pending,
                                  CardSet playable) {
    std::vector<int> out;
    switch (phase) {
        case Phase::kBlindNil:
            return {kNoBlindNil, kBlindNil};
        case Phase::kBid:
            for (int t = rules.nil_allowed ? 0 : 1; t <= rules.cards_per_hand(); ++t)
                out.push_back(kBidBase + t);
            return out;
        case Phase::kPass:
            for (Card c : hand - pending) out.push_back(kPassBase + card_number(c));
            std::sort(out.begin(), out.end());
            return out;
        case Phase::kPlay:
            for (Card c : playable) out.push_back(card_number(c));
            std::sort(out.begin(), out.end());
            return out;
        case Phase::kGameOver:
            return out;
    }
    return out;
}

std::vector<int> GameState::legal_actions() const {
    const Phase phase = game_.phase();
    if (phase == Phase::kGameOver) return {};
    return legal_actions_in(
        rules_, phase, game_.play_state().hands[game_.to_act()], pending_,
        phase == Phase::kPlay ? game_.play_state().legal_moves(game_.play_rules()) : CardSet());
}

std::string GameState::pass_card(Card card) {
    if (game_.phase() != Phase::kPass) return game_.choose_pass(CardSet());  // the Game's reason
    if (pending_.contains(card)) return to_string(card) + " is already chosen to pass";
    if (!game_.play_state().hands[game_.to_act()].contains(card))
        return "you do not hold " + to_string(card);
    pending_ |= card;
    const int want = rules_.game == GameKind::kHearts ? rules_.pass_count : 2;
    if (pending_.size() < want) return "";
    const std::string why = game_.choose_pass(pending_);
    if (!why.empty()) throw std::logic_error("a checked pass refused: " + why);
    pending_ = CardSet();
    return "";
}

void GameState::apply(int action) {
    std::string why;
    const std::size_t hands_before = game_.finished_hands().size();
    // The Game checks each choice and changes nothing when it refuses one.
    if (action < 0 || action >= kNumActions)
        why = "not an action (0.." + std::to_string(kNumActions - 1) + ")";
    else if (terminal())
        why = "the game is over";
    else if (action < kPassBase)
        why = game_.choose_card(card_of_number(action));
    else if (action < kBidBase)
        why = pass_card(card_of_number(action - kPassBase));
    else if (action < kNoBlindNil)
        why = game_.choose_bid(action - kBidBase);
    else
        why = game_.choose_blind_nil(action == kBlindNil);
    if (!why.empty())
        throw IllegalAction((action >= 0 && action < kNumActions ? action_name(action) : "action") +
                            " (" + std::to_string(action) + "): " + why);
    history_.push_back(action);
    after_decision(hands_before);
}

void GameState::after_decision(std::size_t hands_before) {
    if (game_.finished_hands().size() == hands_before) return;
    if (game_.over()) {
        if (hands_ > 0 && board_ + 1 < hands_) start_board(board_ + 1);
        return;
    }
    hand_start_ = history_.size();
    apply_deal_override();
}

std::vector<int> GameState::returns() const {
    std::vector<int> out(rules_.players, 0);
    for (const Game* g : games())
        for (int s = 0; s < rules_.players; ++s) {
            const int unit = rules_.unit_of(s);
            if (hands_ == 0)
                out[s] = g->scores().score[unit];
            else
                for (const HandRecord& h : g->finished_hands()) out[s] += h.score.delta[unit];
        }
    return out;
}

InfoState GameState::info_state(int seat) const {
    if (seat < 0 || seat >= rules_.players)
        throw InputError("seat " + std::to_string(seat) + ": expected 0.." +
                         std::to_string(rules_.players - 1));
    return game_.info_state(seat);
}

namespace {

// `count` cards drawn uniformly from `from`.
CardSet draw(CardSet from, int count, boost::random::mt19937_64& rng) {
    std::vector<Card> cards;
    for (Card c : from) cards.push_back(c);
    CardSet out;
    for (int i = 0; i < count && !cards.empty(); ++i) {
        boost::random::uniform_int_distribution<std::size_t> pick(0, cards.size() - 1);
        const std::size_t k = pick(rng);
        out |= cards[k];
        cards.erase(cards.begin() + static_cast<std::ptrdiff_t>(k));
    }
    return out;
}

}  // namespace

GameState GameState::sample_world(int seat, std::uint64_t seed) const {
    const InfoState info = info_state(seat);
    if (terminal()) throw InputError("the game is over: there is no hidden card to sample");
    boost::random::mt19937_64 rng(seed);
    const HandRecord& hand = game_.hand();
    const int n = rules_.players;
    Deal now;  // what each seat holds now
    if (info.phase == Phase::kBlindNil && game_.to_act() == seat) {
        // The seat has not seen its cards: every deal is as likely as the seed's.
        now = deal_from_seed(rules_, mix_seed(seed, 1), hand.number);
    } else {
        Constraints constraints = constraints_from(info);
        // Hand sizes are public; in the middle of a blind-nil exchange they are not the hand's
        // size less the cards played, which is all constraints_from counts.
        for (int s = 0; s < n; ++s)
            if (s != seat) constraints.need[s] = game_.play_state().hands[s].size();
        const sampling::DealSampler sampler(constraints);
        now = sampler.sample(rng, info.hand);
    }
    // Back from the hands held now to the hands dealt: give back the cards played, then undo the
    // passes (or the blind-nil exchange steps, last first). Passes the seat saw stay as they were;
    // the others are drawn from what the receiver held after them.
    std::array<CardSet, kMaxPlayers> held = now.hands;
    for (const PlayedCard& p : hand.plays) held[p.seat] |= p.card;
    std::array<std::vector<Card>, kMaxPlayers> replacement;  // per giver, in the order given
    auto sees = [&](int giver, int receiver) { return giver == seat || receiver == seat; };
    if (rules_.game == GameKind::kHearts) {
        const bool exchanged = game_.phase() != Phase::kPass && hand.pass_offset != 0;
        std::array<CardSet, kMaxPlayers> given{};
        for (int s = 0; s < n; ++s) {
            const bool chosen = exchanged || (game_.phase() == Phase::kPass && s < game_.to_act());
            if (!chosen) continue;
            const int r = rules_.pass_recipient(s, hand.number);
            given[s] = sees(s, exchanged ? r : s)
                           ? hand.passed[s]
                           : draw(exchanged ? held[r] : held[s], rules_.pass_count, rng);
            if (!sees(s, exchanged ? r : s))
                for (Card c : given[s]) replacement[s].push_back(c);
        }
        if (exchanged) {
            for (int s = 0; s < n; ++s) held[rules_.pass_recipient(s, hand.number)] -= given[s];
            for (int s = 0; s < n; ++s) held[s] |= given[s];
        }
        if (game_.phase() == Phase::kPass && game_.to_act() != seat && !pending_.empty()) {
            for (Card c : draw(held[game_.to_act()], pending_.size(), rng))
                replacement[game_.to_act()].push_back(c);
        }
    } else {
        std::vector<std::pair<int, CardSet>> steps = hand.exchanges;
        for (auto it = steps.rbegin(); it != steps.rend(); ++it) {
            auto& [giver, cards] = *it;
            const int receiver = rules_.pass_recipient(giver, hand.number);
            if (!sees(giver, receiver)) cards = draw(held[receiver], 2, rng);
            held[receiver] -= cards;
            held[giver] |= cards;
        }
        for (const auto& [giver, cards] : steps)
            if (!sees(giver, rules_.pass_recipient(giver, hand.number)))
                for (Card c : cards) replacement[giver].push_back(c);
        if (game_.phase() == Phase::kPass && game_.to_act() != seat && !pending_.empty()) {
            for (Card c : draw(held[game_.to_act()], pending_.size(), rng))
                replacement[game_.to_act()].push_back(c);
        }
    }
    Deal dealt;
    dealt.players = n;
    dealt.hands = held;

    // The same actions, with the unseen pass cards replaced, from the hand's new deal.
    std::map<std::pair<int, int>, Deal> deals = deals_;
    deals[{board_, hand.number}] = dealt;
    std::vector<int> actions(history_.begin(),
                             history_.begin() + static_cast<std::ptrdiff_t>(hand_start_));
    GameState world = replay(rules_, seed_, hands_, deals, actions);
    std::array<std::size_t, kMaxPlayers> used{};
    for (std::size_t i = hand_start_; i < history_.size(); ++i) {
        int a = history_[i];
        const int giver = world.game_.to_act();
        if (a >= kPassBase && a < kBidBase && !replacement[giver].empty())
            a = kPassBase + card_number(replacement[giver].at(used[giver]++));
        world.apply(a);
    }
    return world;
}

GameState GameState::replay(const Rules& rules, std::uint64_t seed, int hands,
                            const std::map<std::pair<int, int>, Deal>& deals,
                            const std::vector<int>& actions) {
    GameState s(rules, seed, hands);
    s.deals_ = deals;
    for (const auto& [key, deal] : deals) {
        if (key.first < 0 || key.second < 0 || (hands > 0 && key.first >= hands))
            throw InputError("deal of board " + std::to_string(key.first) + " hand " +
                             std::to_string(key.second) + ": no such hand");
        validate_deal(deal, rules);
    }
    s.apply_deal_override();
    for (std::size_t i = 0; i < actions.size(); ++i) try {
            s.apply(actions[i]);
        } catch (const IllegalAction& e) {
            throw InputError("action " + std::to_string(i) + " of the history: " + e.what());
        }
    return s;
}

}  // namespace pycards
