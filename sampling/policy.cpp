#include "sampling/policy.hpp"

#include <algorithm>

namespace sampling {

using namespace cardgames;
using heuristics::TableView;

const std::array<std::string_view, kPolicyFeatures>& policy_feature_names() {
    // r is the card's rank scaled to 0 (two) .. 1 (ace); "lead" means the seat leads the trick.
    static constexpr std::array<std::string_view, kPolicyFeatures> kNames = {
        "rule",                 // the rule player would play this card
        "lead_rank",            // lead x r
        "lead_master",          // lead x no unseen card of the suit is higher
        "lead_lower_unseen",    // lead x unseen cards of the suit below it / 13
        "lead_higher_unseen",   // lead x unseen cards of the suit above it / 13
        "lead_suit_voids",      // lead x other seats known void in the suit / (players - 1)
        "lead_suit_length",     // lead x cards of the suit in hand / 13
        "follow_rank",          // follows the led suit x r
        "beats_trick",          // beats the card winning the trick so far
        "beats_last",           // beats it as the last to play (sure to win)
        "likely_wins",          // wins as far as the seat can tell (rule player's test)
        "beats_partner",        // beats the trick while the partner is winning it
        "duck_rank",            // follows the led suit without beating x r
        "discard_rank",         // neither follows nor trumps x r
        "discard_suit_length",  // discards x cards of its suit in hand / 13
        "trump",                // Spades: a spade played to another suit's trick
        "trump_lead",           // Spades: leads a spade
        "points_if_beats",      // Hearts: beats (or leads) x points in the trick with it / 13
        "points_if_likely",     // Hearts: likely wins x points in the trick with it / 13
        "points_given",         // Hearts: does not beat x its own points / 13
        "queen_danger",         // Hearts: A or K of spades while the Q of spades is unseen
        "hearts_lead",          // Hearts: leads a heart
        "nil_self_beats",       // Spades: the seat bid nil and beats the trick (or leads a winner)
        "nil_partner_cover",    // Spades: the partner bid nil and the card likely wins
        "nil_opponent_duck",    // Spades: a nil bidder of the other side wins the trick, card ducks
        "need_likely",          // Spades: tricks the side needs per trick left x likely wins
        "bags_likely",          // Spades: the side's contract is made x likely wins (a bag)
        "late_rank",            // tricks played / tricks per hand x r
        "shortest_suit",        // the card's suit is the shortest suit in hand
    };
    return kNames;
}

namespace {

double scaled_rank(Card c) {
    return (c.rank() - kTwo) / 12.0;
}

}  // namespace

DecisionFeatures::DecisionFeatures(const InfoState& info) : view_(info) {
    const Rules& rules = view_.rules;
    if (view_.legal.empty()) return;
    rule_card_ = view_.legal.size() == 1           ? view_.legal.lowest()
                 : rules.game == GameKind::kSpades ? heuristics::spades_play(view_)
                                                   : heuristics::hearts_play(view_);
    if (!view_.legal.contains(rule_card_)) rule_card_ = view_.legal.lowest();
    partner_ = info.partner();
    const PlayState& play = info.play;
    for (int i = 0; i < play.trick_size; ++i) trick_points_ += rules.card_points(play.trick[i]);
    progress_ = static_cast<double>(play.tricks_played) / rules.cards_per_hand();
    shortest_ = 99;
    for (int s = 0; s < kNumSuits; ++s) {
        const int len = view_.hand.count(static_cast<Suit>(s));
        if (len > 0) shortest_ = std::min(shortest_, len);
    }
    if (rules.game != GameKind::kSpades) return;
    const int me = info.seat;
    self_nil_ = info.bids[me].is_nil();
    partner_nil_ = partner_ >= 0 && info.bids[partner_].is_nil();
    int bid = 0, taken = 0;
    for (int s = 0; s < rules.players; ++s) {
        if (rules.unit_of(s) != rules.unit_of(me) || !info.bids[s].made()) continue;
        bid += info.bids[s].tricks;
        if (!info.bids[s].is_nil()) taken += play.tricks_won[s];
    }
    need_ = static_cast<double>(std::max(0, bid - taken)) / std::max(1, view_.tricks_left);
    contract_made_ = bid > 0 && taken >= bid;
    opponent_nil_winning_ = view_.winner >= 0 && rules.unit_of(view_.winner) != rules.unit_of(me) &&
                            info.bids[view_.winner].is_nil();
}

void DecisionFeatures::of(Card c, PolicyFeatures& f) const {
    const Rules& rules = view_.rules;
    const bool spades = rules.game == GameKind::kSpades;
    const bool hearts = !spades;
    const bool lead = view_.leading();
    const double r = scaled_rank(c);
    const int suit_length = view_.hand.count(c.suit());
    const bool follows = !lead && c.suit() == view_.led;
    const bool is_trump = view_.play_rules.has_trump && c.suit() == view_.play_rules.trump;
    const bool beats = !lead && view_.beats(c, view_.winning);
    const bool likely = view_.likely_wins(c);
    int voids = 0;
    for (int s = 0; s < view_.n; ++s)
        if (s != view_.seat && view_.void_in[s][static_cast<int>(c.suit())]) ++voids;
    const double points = (trick_points_ + rules.card_points(c)) / 13.0;
    auto b = [](bool x) { return x ? 1.0 : 0.0; };
    f = {
        b(c == rule_card_),
        b(lead) * r,
        b(lead && view_.is_master(c)),
        b(lead) * view_.lower_unseen(c) / 13.0,
        b(lead) * view_.higher_unseen(c) / 13.0,
        b(lead) * voids / std::max(1, view_.n - 1),
        b(lead) * suit_length / 13.0,
        b(follows) * r,
        b(beats),
        b(beats && view_.last_to_play()),
        b(likely),
        b(beats && partner_ >= 0 && view_.winner == partner_),
        b(follows && !beats) * r,
        b(!lead && !follows && !is_trump) * r,
        b(!lead && !follows && !is_trump) * suit_length / 13.0,
        b(spades && is_trump && !lead && !follows),
        b(spades && is_trump && lead),
        b(hearts && (beats || lead)) * points,
        b(hearts && likely) * points,
        b(hearts && !lead && !beats) * rules.card_points(c) / 13.0,
        b(hearts && c.suit() == Suit::kSpades && c.rank() > kQueen &&
          view_.unseen.contains(Card(Suit::kSpades, kQueen))),
        b(hearts && lead && c.suit() == Suit::kHearts),
        b(self_nil_ && (lead ? likely : beats)),
        b(partner_nil_ && likely),
        b(opponent_nil_winning_ && !beats),
        need_ * b(likely),
        b(contract_made_ && likely),
        progress_ * r,
        b(suit_length == shortest_),
    };
}

PolicyModel::PolicyModel(const ModelFile& file)
    : LinearModel(file, "playout-policy", policy_feature_names()) {}

Card PolicyModel::choose(const InfoState& info) const {
    const DecisionFeatures decision(info);
    const CardSet legal = decision.legal();
    if (legal.size() == 1) return legal.lowest();
    Card best = kNoCard;
    double best_score = 0;
    PolicyFeatures f;
    for (Card c : legal) {
        decision.of(c, f);
        const double s = score(f);
        if (best == kNoCard || s > best_score) {
            best = c;
            best_score = s;
        }
    }
    return best;
}

std::string PolicyBot::check(const Rules& rules) const {
    if (model_) {
        model_->check_form(rules);
        return model_->fingerprint();
    }
    return model_for<PolicyModel>(*store_, path_, rules)->fingerprint();
}

Card PolicyBot::play(const InfoState& info) {
    // A play-out's policy (model_) plays every card of a hand: no file to look at.
    if (model_) return model_->choose(info);
    return model_for<PolicyModel>(*store_, path_, *info.rules)->choose(info);
}

}  // namespace sampling
