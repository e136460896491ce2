#pragma once
// The network play-out policy: a policy network (task "policy", cardgames/models/network.hpp)
// that reads the card features of the seat to play (card_features.hpp) and gives a logit for each
// of the 52 cards; the player plays the legal card of highest logit. `pimc:playout=net` plays its
// worlds out with it in every seat; the bot `net` plays it on its own, bidding and passing as the
// rule player. The network is trained by `python3 -m cardgames.train policy`
// (docs/guide/learning.md) and read through the caller's ModelStore, shared read-only by every
// player and thread.
//
// Inside a play-out a decision costs the accumulator updates of the cards played since the seat's
// last turn, not a refresh: NetPlayer keeps one accumulator per seat and brings it up to date from
// the play history. The integer accumulator makes that exactly a refresh, so the card played does
// not depend on what the player was asked before.

#include <array>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "cardgames/models/card_features.hpp"
#include "cardgames/models/model_store.hpp"
#include "cardgames/models/network.hpp"
#include "cardgames/players/rule_bot.hpp"
#include "cardgames/rules/player.hpp"
#include "cardgames/rules/rules.hpp"
#include "sampling/bid_model.hpp"

namespace sampling {

// The default play-out network of the form of `rules`: <data dir>/models/<form>-playout-net.net.
std::filesystem::path default_playout_net(const cardgames::Rules& rules);

// The play-out network at `path`, or the form's default when `path` is empty, checked to be a
// policy network made for the form of `rules` (an InputError naming the file and field otherwise).
std::shared_ptr<const cardgames::models::Network> playout_net_for(
    cardgames::models::ModelStore& store, const std::string& path, const cardgames::Rules& rules);

// The default network of a choice `task` ("bid", "pass") for the form of `rules`, named as the
// play-out network is: <data dir>/models/<form>-<task>-net.net.
std::filesystem::path default_choice_net(const cardgames::Rules& rules, const std::string& task);

// The bid network at `path`, or the form's default when `path` is empty, checked to be a network
// of task "bid" made for the form of `rules` with one output per bid (NUM_BIDS, the bid number
// being the output's index; nil 0), or an InputError naming the file and field.
std::shared_ptr<const cardgames::models::Network> bid_net_for(cardgames::models::ModelStore& store,
                                                              const std::string& path,
                                                              const cardgames::Rules& rules);
// The same for the bid value network: task "bid_value", one output per bid, each the expected
// margin of bidding it (the side's hand score less the other side's, in partnership; the seat's
// less the mean of the others', in cutthroat), as `python3 -m cardgames.train bid_value` learns it
// from bids that `learn selfplay --explore-bids` varied.
std::shared_ptr<const cardgames::models::Network> bid_value_net_for(
    cardgames::models::ModelStore& store, const std::string& path, const cardgames::Rules& rules);
// The same for the pass network: task "pass", 52 outputs, one per card.
std::shared_ptr<const cardgames::models::Network> pass_net_for(cardgames::models::ModelStore& store,
                                                               const std::string& path,
                                                               const cardgames::Rules& rules);

// Spades: the legal bid of highest output of a bid network, read from the bidder's card features
// (its hand, as the trainer's bid records have them); ties go to the lower bid.
int net_bid(const cardgames::models::Network& net, const cardgames::InfoState& info);
// Spades: the bid value network's value of each bid the data explores for the seat
// (explored_bids: its outcome was seen), ascending, nil first. Other bids are left out: the
// network never learned what they take.
std::vector<BidValue> value_net_bids(const cardgames::models::Network& net,
                                     const cardgames::InfoState& info);
// The bid of highest value; ties go to the lower bid.
int best_valued_bid(const std::vector<BidValue>& values);
// Hearts: the pass of a pass network. The data records a pass as one decision per card, each with
// the seat's card features at the pass, which are its hand and do not change as cards are chosen;
// so choosing a card, then the best of the rest, and so on, passes the `pass_count` legal cards
// of highest output (ties to the lower card number).
cardgames::CardSet net_pass(const cardgames::models::Network& net,
                            const cardgames::InfoState& info);

// What a policy network plays by: its task, form and weights (not where it was read from).
std::string network_fingerprint(const cardgames::models::Network& net);

// The legal card of highest logit (`logits` by card number); ties go to the lowest card number.
cardgames::Card best_legal_card(std::span<const float> logits, cardgames::CardSet legal);

// Plays a policy network's card. Keeps an accumulator and a CardFeatureTracker per seat, and the
// play history they were brought up to; a decision whose history continues the one a seat's
// accumulator saw (the same cards played up to there, and the seat's hand what it was less the
// cards it played since) updates it by the cards played since, and any other (a new play-out,
// another world, another hand) refreshes it from the features. Allocates when made, never per
// decision. Not thread-safe: one per thread, sharing the network.
class NetPlayer : public cardgames::RuleBidder {
  public:
    // A network of task "policy" (an InputError naming the file otherwise).
    explicit NetPlayer(std::shared_ptr<const cardgames::models::Network> net);

    std::string name() const override { return "net"; }
    cardgames::Card play(const cardgames::InfoState& info) override;

    const std::shared_ptr<const cardgames::models::Network>& network() const { return net_; }
    // The accumulator of `seat` as its last decision with a choice left it.
    std::span<const std::int16_t> accumulator(int seat) const;
    // Decisions whose accumulator was refreshed from scratch, and all decisions with a choice (a
    // forced card is played without the network).
    long refreshes() const { return refreshes_; }
    long decisions() const { return decisions_; }

  private:
    struct SeatAccumulator {
        cardgames::models::Evaluator eval;
        std::optional<cardgames::models::CardFeatureTracker> tracker;
        int synced = -1;          // the first plays of seen_ it reflects; -1: none (refresh)
        cardgames::CardSet hand;  // the seat's hand then
    };

    // Forgets the accumulators that reflect plays the new history does not share.
    void follow_history(const cardgames::InfoState& info);
    // Whether `a` reflects a past point of this decision's history and hand.
    bool continues(const SeatAccumulator& a, const cardgames::InfoState& info) const;
    // Brings `a` to this decision: updated by the cards played since, or refreshed.
    void bring_up_to_date(SeatAccumulator& a, const cardgames::InfoState& info);

    std::shared_ptr<const cardgames::models::Network> net_;
    std::vector<SeatAccumulator> seats_;
    cardgames::SeenPlays seen_;  // the last decision's plays
    long refreshes_ = 0, decisions_ = 0;
};

// `net`: plays the play-out network's card in real games; blind nil as the rule player, and bids
// and passes too unless given a bid network (`bid_path`, Spades) or a pass network (`pass_path`,
// Hearts), whose choices it then makes as pimc's bid=net and pass=net do. The network file `path`
// (empty: the form's default) is asked of `store` at every decision, so that a file rewritten
// between two decisions is played.
class NetBot : public cardgames::RuleBidder {
  public:
    NetBot(std::string path, std::shared_ptr<cardgames::models::ModelStore> store,
           std::string bid_path = {}, std::string pass_path = {})
        : path_(std::move(path)),
          bid_path_(std::move(bid_path)),
          pass_path_(std::move(pass_path)),
          store_(std::move(store)) {}
    std::string name() const override { return "net"; }
    int bid(const cardgames::InfoState& info) override;
    cardgames::CardSet pass(const cardgames::InfoState& info) override;
    cardgames::Card play(const cardgames::InfoState& info) override;
    std::string check(const cardgames::Rules& rules) const override;

  private:
    std::string path_, bid_path_, pass_path_;
    std::shared_ptr<cardgames::models::ModelStore> store_;
    std::optional<NetPlayer> player_;  // of the network last played
};

}  // namespace sampling
