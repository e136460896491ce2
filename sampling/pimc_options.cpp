#include "sampling/pimc_options.hpp"

#include <algorithm>
#include <limits>

#include "cardgames/cards/error.hpp"
#include "sampling/bid_model.hpp"
#include "sampling/cutoff_model.hpp"
#include "sampling/policy.hpp"

namespace sampling {

using namespace cardgames;

namespace {

using Option = BotOption;
using Kind = BotOption::Kind;
using Value = OptionValue;
using P = PimcOptions;

constexpr std::string_view kSampling = "sampling";
constexpr std::string_view kValuation = "card valuation";
constexpr std::string_view kBidding = "bids and passes";
constexpr std::string_view kSearch = "search";

// The ranges (docs/guide/bad-input.md): far beyond any useful setting, and small enough for every
// count and product the bot forms from them.
constexpr int kMaxWorlds = 100'000;
constexpr int kMaxPassRanked = 1000;  // C(17, 3) = 680 passes at most

template <class E>
E pick(const Value& v, std::initializer_list<std::pair<std::string_view, E>> words) {
    for (const auto& [word, e] : words)
        if (v.text == word) return e;
    return words.begin()->second;  // unreachable: the value was checked against the choices
}

// `auto` leaves a setting unset, for the form to decide; any other value is parsed.
template <class T, class Parse>
std::optional<T> unless_auto(const Value& v, Parse parse) {
    return v.text == "auto" ? std::nullopt : std::optional<T>(parse(v.text));
}

OptionTable<PimcOptions> make_pimc_table() {
    OptionTable<PimcOptions> t;
    auto add = [&](Option o, void (*set)(P&, const Value&)) { t.entries.push_back({o, set}); };

    add({.name = "worlds",
         .group = kSampling,
         .kind = Kind::kWhole,
         .lo = 1,
         .hi = kMaxWorlds,
         .fallback = "64",
         .help = "sampled deals per card decision"},
        [](P& o, const Value& v) { o.sampling.worlds = v.whole; });
    add({.name = "worlds_max",
         .group = kSampling,
         .kind = Kind::kWhole,
         .lo = 0,
         .hi = kMaxWorlds,
         .fallback = "0",
         .help = "while the best card does not lead the next by 2 standard errors, as many worlds "
                 "again, up to this many in all (0: one round of `worlds`)",
         .more = "(of their paired difference over the worlds valued; each round's worlds have "
                 "a round's share of `budget`, so a decision may spend `worlds_max / worlds` "
                 "budgets; not with infer=play or net; it did not help in partnership Spades: "
                 "[measured](../results/2026-11-30-spades-worlds-head-to-head.md))"},
        [](P& o, const Value& v) { o.sampling.worlds_max = v.whole; });
    add({.name = "nil_worlds",
         .group = kSampling,
         .kind = Kind::kWhole,
         .lo = 0,
         .hi = kMaxWorlds,
         .fallback = "0",
         .help = "Spades: sampled deals per card decision while the seat's own nil or its "
                 "partner's still stands (0: `worlds`)",
         .more = "(a nil is caught in few of the worlds, so its fate is the noisiest part of a "
                 "card's value; these worlds share `budget` as `worlds` do; not with "
                 "worlds_max; it did not help in partnership Spades: "
                 "[measured](../results/2026-11-30-spades-nil-worlds-and-playouts.md))"},
        [](P& o, const Value& v) { o.sampling.nil_worlds = v.whole; });
    add({.name = "rotate",
         .group = kSampling,
         .kind = Kind::kChoice,
         .choices = {"off", "on"},
         .fallback = "off",
         .help = "card decisions: deal the worlds as a sampled deal and its turns among the other "
                 "seats that nothing tells apart, so that each unseen card lies in each of them "
                 "equally often (off: every world dealt on its own)",
         .more = "(seats alike hold as many cards and have shown the same voids; three of them "
                 "give each dealt deal two more worlds, each as likely as a deal of its own; "
                 "not with infer=play or net; it did not help: "
                 "[measured](../results/2026-12-02-rotated-worlds.md))"},
        [](P& o, const Value& v) { o.sampling.rotate = v.text == "on"; });
    add({.name = "infer",
         .group = kSampling,
         .kind = Kind::kChoice,
         .choices = {"off", "on", "play", "net", "bids"},
         .fallback = "off",
         .help = "soft inference: weight each world by how likely it makes the bids and passes "
                 "seen (on), and also the other seats' card plays (play), or those under a "
                 "policy network (net); or the bids under the bid model (bids)",
         .more =
             "(`on` weights each world by how likely it makes the bids seen (Spades) and the "
             "cards received in a pass (Hearts); `play` weighs it also by how likely it makes "
             "every card the other seats have played, under the play-out policy, and values "
             "worlds drawn by weight from a pool four times larger ([below](#how-pimc-decides),"
             " [measured](../results/2026-11-25-inference-from-play.md)); `net` does what "
             "`play` does with the policy network `infer_net` as the model of the plays "
             "([learning.md](learning.md#a-policy-network-for-inference)); `bids` weighs each "
             "world by how likely the bid model (`bid_model`) makes every other seat's bid, "
             "a nil by its chance of being made and a bid of k by the chance of k tricks "
             "(Spades; in Hearts as `on`; it lost head to head in partnership Spades, as "
             "`on` and `play` did: [measured](../results/2026-11-30-spades-worlds-head-to-head.md)"
             "); `off` deals worlds uniformly among the consistent ones)"},
        [](P& o, const Value& v) {
            o.sampling.infer = pick<P::Infer>(v, {{"off", P::Infer::kOff},
                                                  {"on", P::Infer::kOn},
                                                  {"play", P::Infer::kPlay},
                                                  {"net", P::Infer::kNet},
                                                  {"bids", P::Infer::kBids}});
        });
    add({.name = "infer_net",
         .group = kSampling,
         .kind = Kind::kText,
         .help = "with infer=net: the policy network's file",
         .shown = "the form's",
         .more = "(default `data/models/<form>-playout-net.net` under the data directory, the "
                 "network `playout=net` plays by)"},
        [](P& o, const Value& v) { o.sampling.infer_net_path = v.text; });
    add({.name = "agg",
         .group = kSampling,
         .kind = Kind::kChoice,
         .choices = {"mean", "vote"},
         .fallback = "mean",
         .help = "play the card of best mean value, or (vote) the card optimal in most worlds"},
        [](P& o, const Value& v) { o.sampling.vote = v.text == "vote"; });
    add({.name = "tie",
         .group = kSampling,
         .kind = Kind::kChoice,
         .choices = {"first", "rule"},
         .fallback = "first",
         .help = "cards of equal value: the first in card order, or the rule player's card where "
                 "it is one of them",
         .more = "(card order: spades, hearts, diamonds, clubs, each from the ace down; with "
                 "`agg=vote`, equal votes and mean; "
                 "[measured](../results/2026-11-27-tie-rule.md))"},
        [](P& o, const Value& v) { o.sampling.tie_rule = v.text == "rule"; });
    add({.name = "threads",
         .group = kSampling,
         .kind = Kind::kWhole,
         .lo = 0,
         .hi = kMaxBotThreads,
         .fallback = "0",
         .help = "threads the worlds and the bid and pass deals are farmed over (0: the cores of "
                 "the run it plays in); the decision is the same for any count",
         .more = "(`0`: all the cores in `play` and `bot`, the `--threads` of a tournament or "
                 "eval inside one, shared with its other games through work stealing; `N`: N "
                 "threads of its own)"},
        [](P& o, const Value& v) { o.sampling.threads = v.whole; });
    add({.name = "ms",
         .group = kSampling,
         .kind = Kind::kWhole,
         .lo = 0,
         .hi = kMaxBotMs,
         .fallback = "0",
         .help = "wall-clock limit per decision in milliseconds (0: none); it trades "
                 "reproducibility for a time bound"},
        [](P& o, const Value& v) { o.sampling.ms = v.whole; });

    add({.name = "eval",
         .group = kValuation,
         .kind = Kind::kChoice,
         .choices = {"rollout", "search", "ismcts"},
         .fallback = "rollout",
         .help = "before the exact endgame a world values a card by playing the hand out "
                 "(rollout) or by a search to a depth (search); or (ismcts) one information-set "
                 "tree search of as many play-outs, each in a world of its own",
         .more = "(`rollout`: the play-out's seats play as `playout` and `self` say, the engine "
                 "solving the last tricks; `search`: within `nodes`, sharing what is left beyond "
                 "the horizon as `cutoff` says; it plays worse: "
                 "[results](../results/2026-11-22-eval-search.md); `ismcts`: `worlds` times the "
                 "legal cards play-outs by the rule player, down one tree of the cards played "
                 "shared by every world, so no seat's later cards there depend on cards it cannot "
                 "see ([results](../results/2026-12-01-ismcts.md)))"},
        [](P& o, const Value& v) {
            o.valuation.eval = pick<P::Eval>(v, {{"rollout", P::Eval::kPlayout},
                                                 {"search", P::Eval::kSearch},
                                                 {"ismcts", P::Eval::kIsmcts}});
        });
    add({.name = "playout",
         .group = kValuation,
         .kind = Kind::kChoice,
         .choices = {"auto", "rule", "model", "net", "fit"},
         .fallback = "auto",
         .help = "who plays every seat of the card play-outs: the rule player, the learned "
                 "play-out policy, the policy network (net), or (fit) in each world each other "
                 "seat the rule player if its cards so far are the rule player's there, else "
                 "the network; auto: fit in 4-player Hearts, else rule",
         .more = "([learning.md](learning.md); `fit`: the deciding seat plays the network; "
                 "`auto` is `fit` in 4-player Hearts, the one form with a network, where it "
                 "beat `rule` at equal time and was level with it against rule players "
                 "([results](../results/2026-11-29-playout-fit.md)); the bid and pass deals are "
                 "played as `rollout_playout` says)"},
        [](P& o, const Value& v) {
            o.valuation.playout = unless_auto<P::Playout>(v, [&v](const std::string&) {
                return pick<P::Playout>(v, {{"rule", P::Playout::kRule},
                                            {"model", P::Playout::kModel},
                                            {"net", P::Playout::kNet},
                                            {"fit", P::Playout::kFit}});
            });
        });
    add({.name = "fit_weight",
         .group = kValuation,
         .kind = Kind::kNumber,
         .lo = 0,
         .hi = 1,
         .fallback = "1",
         .help = "with playout=fit: the weight of a world in which another seat's cards do not "
                 "fit the rule player while they do in some other world (1: every world alike)",
         .more = "(a seat whose cards fit the rule player in some world is taken for a rule "
                 "player, and the worlds that would have it play otherwise count less, once for "
                 "each such seat; it played worse against rule players at 0.25 and 0: "
                 "[results](../results/2026-11-29-fit-weight.md))"},
        [](P& o, const Value& v) { o.valuation.fit_weight = v.number; });
    add({.name = "self",
         .group = kValuation,
         .kind = Kind::kChoice,
         .choices = {"same", "rule", "model", "net", "switch"},
         .fallback = "same",
         .help = "how the deciding seat plays its own later cards in the play-outs: as the other "
                 "seats, the rule player, the policy, the policy network (playout_net), or both "
                 "the rule player's way and the policy's (switch)",
         .more = "(`rule` with `playout=model`: the other seats play the policy, the seat itself "
                 "the rule player; `net` with `playout=rule`: the other seats play "
                 "the rule player, the seat itself the network; `switch`: every card is played "
                 "out twice in each world, and takes the better of its two means over the "
                 "worlds: policy switching, [below](#how-pimc-decides); it did not win at equal "
                 "time: [results](../results/2026-11-26-policy-switching.md))"},
        [](P& o, const Value& v) {
            o.valuation.self = pick<P::Self>(v, {{"same", P::Self::kSame},
                                                 {"rule", P::Self::kRule},
                                                 {"model", P::Self::kModel},
                                                 {"net", P::Self::kNet},
                                                 {"switch", P::Self::kSwitch}});
        });
    add({.name = "playout_model",
         .group = kValuation,
         .kind = Kind::kText,
         .help = "with playout=model, self=model or switch, or rollout_playout=model: the "
                 "play-out policy's model file",
         .shown = "the form's",
         .more = "(default `data/models/<form>-playout.txt` under the data directory; only "
                 "`hearts4` ships one, another form's is made by `cardgames learn`)"},
        [](P& o, const Value& v) { o.valuation.playout_model_path = v.text; });
    add({.name = "playout_net",
         .group = kValuation,
         .kind = Kind::kText,
         .help = "with playout=net or fit (or auto in 4-player Hearts), self=net or "
                 "rollout_playout=net: the policy network's file",
         .shown = "the form's",
         .more = "(default `data/models/<form>-playout-net.net` under the data directory; "
                 "[learning.md](learning.md#a-policy-network-in-the-play-outs))"},
        [](P& o, const Value& v) { o.valuation.playout_net_path = v.text; });
    add({.name = "moon",
         .group = kValuation,
         .kind = Kind::kChoice,
         .choices = {"auto", "on", "off"},
         .fallback = "auto",
         .help = "Hearts: whether the seat may shoot the moon, in its passes and card play (auto: "
                 "on in 4-player Hearts)",
         .more = "(a hand holding the ace of hearts also values two passes played out with the "
                 "seat shooting, and while it still could, each card is also played out with the "
                 "seat shooting and takes that value where it clearly leads: "
                 "[below](#how-pimc-decides); `auto` is `on` in 4-player Hearts, where it won "
                 "([results](../results/2026-11-27-moon.md)), and `off` in the other forms, where "
                 "it is not measured)"},
        [](P& o, const Value& v) {
            o.valuation.moon = unless_auto<bool>(v, [](const std::string& t) { return t == "on"; });
        });
    add({.name = "utility",
         .group = kValuation,
         .kind = Kind::kChoice,
         .choices = {"auto", "score", "tricks", "margin"},
         .fallback = "auto",
         .help = "Spades: a world's value is the hand score (bids, nil, bags and the bag "
                 "penalty), the tricks taken, or (partnership) the side's score less the other "
                 "side's (margin); auto: margin in partnership games, else score; Hearts always "
                 "uses points",
         .more = "(with `margin` every seat of a world's search plays for its side's margin, "
                 "so the hand is a two-sided game, searched by alpha-beta whatever `algo` says, "
                 "and a card's value is the margin whatever `objective` says; stronger than "
                 "`score` and several times cheaper: "
                 "[measured](../results/2026-11-28-margin-alphabeta.md))"},
        [](P& o, const Value& v) {
            o.valuation.spades_utility = unless_auto<Utility>(v, parse_utility);
        });
    add({.name = "bags",
         .group = kValuation,
         .kind = Kind::kChoice,
         .choices = {"auto", "hand", "amortized"},
         .fallback = "auto",
         .help = "Spades: bags valued as the hand scores them (a point each, the penalty when it "
                 "falls), or paid for as they are taken (each costs its share of the penalty); "
                 "auto: amortized in partnership games but in the game's last hand, else hand",
         .more = "(`amortized` values a hand by its score change less bag_penalty / "
                 "bags_per_penalty for each bag taken, with a penalty that falls given back: over "
                 "a game the same total, but each bag is a loss when taken; it applies to the "
                 "card play's searches and play-outs, the bid play-outs and the bid model's "
                 "expected scores. The last hand is a tournament's by hands, where bags are "
                 "points and nothing more. `auto` won whole games by 16.5 points a hand: "
                 "[measured](../results/2026-11-30-amortized-bags.md))"},
        [](P& o, const Value& v) {
            o.valuation.bags = unless_auto<BagValue>(v, [](const std::string& t) {
                return t == "amortized" ? BagValue::kAmortized : BagValue::kHand;
            });
        });
    add({.name = "objective",
         .group = kValuation,
         .kind = Kind::kChoice,
         .choices = {"auto", "own", "margin"},
         .fallback = "auto",
         .help = "how the seat compares its cards in a world: by its side's score (own), or that "
                 "minus the other sides' mean (margin); auto: margin in partnership games",
         .more = "(Spades with `utility=score`, and Hearts, by penalty points; with `margin` "
                 "setting another side's contract or nil counts, and in Hearts the points a moon "
                 "gives the others; [measured](../results/2026-11-26-objective-margin.md))"},
        [](P& o, const Value& v) {
            o.valuation.objective = pick<P::Objective>(v, {{"auto", P::Objective::kAuto},
                                                           {"own", P::Objective::kOwn},
                                                           {"margin", P::Objective::kMargin}});
        });
    add({.name = "cutoff",
         .group = kValuation,
         .kind = Kind::kChoice,
         .choices = {"even", "model", "net"},
         .fallback = "even",
         .help =
             "eval=search: what is left beyond the horizon is shared evenly, or as the "
             "learned cut-off model (model) or value network (net) predicts each seat will take",
         .more = "(Hearts: points; Spades, with `utility=score`: tricks; `even` shares among the "
                 "seats not on a clean nil; `model`: "
                 "[learning.md](learning.md#the-predictive-cut-off-evaluation), in whole points "
                 "or tricks inside the search's bounds)"},
        [](P& o, const Value& v) {
            o.valuation.cutoff_model = v.text == "model";
            o.valuation.cutoff_net = v.text == "net";
        });
    add({.name = "cutoff_model",
         .group = kValuation,
         .kind = Kind::kText,
         .help = "with cutoff=model: the cut-off model's file",
         .shown = "the form's",
         .more = "(default `data/models/<form>-cutoff.txt` under the data directory; every form "
                 "ships one)"},
        [](P& o, const Value& v) { o.valuation.cutoff_path = v.text; });
    add({.name = "cutoff_net",
         .group = kValuation,
         .kind = Kind::kText,
         .help = "with cutoff=net: the cut-off network's file",
         .shown = "the form's",
         .more = "(default `data/models/<form>-cutoff-net.net` under the data directory; "
                 "4-player Hearts and partnership Spades ship one; "
                 "[learning.md](learning.md#a-value-network-at-the-horizon))"},
        [](P& o, const Value& v) { o.valuation.cutoff_net_path = v.text; });

    add({.name = "bid",
         .group = kBidding,
         .kind = Kind::kChoice,
         .choices = {"auto", "search", "rule", "model", "net", "value"},
         .fallback = "auto",
         .help = "Spades: bid by deals played out for the rule player's bid and its neighbours "
                 "(search), as the rule player, by the learned bid model, by the bid network "
                 "(net), or by the bid value network among the bids its data explored (value); "
                 "auto: model in partnership games, else search",
         .more = "(nil only where the rule player bids it; `model`: "
                 "[learning.md](learning.md#learned-spades-bids); "
                 "[measured](../results/2026-11-25-learned-spades-bids.md); `net`: the legal bid "
                 "of highest output, blind nil as `auto` decides it, "
                 "[learning.md](learning.md#bids-and-passes-by-network); `value`: the bid of "
                 "highest expected margin among the rule player's bid, one more, one fewer and "
                 "nil on a weak hand, blind nil as `auto` decides it, "
                 "[learning.md](learning.md#a-bid-value-network))"},
        [](P& o, const Value& v) {
            o.bidding.bid = pick<P::Bid>(v, {{"auto", P::Bid::kAuto},
                                             {"search", P::Bid::kSearch},
                                             {"rule", P::Bid::kRule},
                                             {"model", P::Bid::kModel},
                                             {"net", P::Bid::kNet},
                                             {"value", P::Bid::kValue}});
        });
    add({.name = "bid_model",
         .group = kBidding,
         .kind = Kind::kText,
         .help = "with bid=model or infer=bids: the bid model's file",
         .shown = "by the rules",
         .more = "(default `data/models/spades-bids.txt` (partnership) or "
                 "`spades-bids-cutthroat<N>.txt`, found where the presets are)"},
        [](P& o, const Value& v) { o.bidding.bid_model_path = v.text; });
    add({.name = "bid_net",
         .group = kBidding,
         .kind = Kind::kText,
         .help = "with bid=net: the bid network's file",
         .shown = "the form's",
         .more = "(default `data/models/<form>-bid-net.net` under the data directory)"},
        [](P& o, const Value& v) { o.bidding.bid_net_path = v.text; });
    add({.name = "bid_value_net",
         .group = kBidding,
         .kind = Kind::kText,
         .help = "with bid=value: the bid value network's file",
         .shown = "the form's",
         .more = "(default `data/models/<form>-bid_value-net.net` under the data directory)"},
        [](P& o, const Value& v) { o.bidding.bid_value_net_path = v.text; });
    add({.name = "pass",
         .group = kBidding,
         .kind = Kind::kChoice,
         .choices = {"search", "rule", "net"},
         .fallback = "search",
         .help = "Hearts: value candidate passes by deals played out (search), pass as the rule "
                 "player, or pass the cards the pass network ranks highest (net)"},
        [](P& o, const Value& v) {
            o.bidding.rule_pass = v.text == "rule";
            o.bidding.net_pass = v.text == "net";
        });
    add({.name = "pass_net",
         .group = kBidding,
         .kind = Kind::kText,
         .help = "with pass=net: the pass network's file",
         .shown = "the form's",
         .more = "(default `data/models/<form>-pass-net.net` under the data directory; "
                 "4-player Hearts ships one)"},
        [](P& o, const Value& v) { o.bidding.pass_net_path = v.text; });
    add({.name = "rollouts",
         .group = kBidding,
         .kind = Kind::kWhole,
         .lo = 1,
         .hi = kMaxWorlds,
         .help = "sampled deals per candidate bid or pass",
         .shown = "48; 192 for the passes of 4- and 5-player Hearts",
         .more = "(in 4- and 5-player Hearts 192 passes better than 48 at the same median "
                 "decision time: [results](../results/2026-11-26-pass-deals.md))"},
        [](P& o, const Value& v) { o.bidding.rollouts = v.whole; });
    add({.name = "pass_rollouts",
         .group = kBidding,
         .kind = Kind::kWhole,
         .lo = 1,
         .hi = kMaxWorlds,
         .help = "Hearts: the most sampled deals a candidate pass is valued on, the closest "
                 "candidates racing on beyond rollouts",
         .shown = "`rollouts`",
         .more = "(every candidate gets `rollouts` deals; then the rule player's pass and the "
                 "better half of the others get as many again, and so on (a race; the last "
                 "challenger goes on beside the rule player's pass) until they have "
                 "`pass_rollouts` deals each; at the default every candidate gets `rollouts` "
                 "deals and no more; `pass_rollouts=768` races: "
                 "[measured](../results/2026-11-26-pass-race.md))"},
        [](P& o, const Value& v) { o.bidding.pass_rollouts = v.whole; });
    add({.name = "pass_ranked",
         .group = kBidding,
         .kind = Kind::kWhole,
         .lo = 0,
         .hi = kMaxPassRanked,
         .fallback = "0",
         .help = "Hearts: also value this many of the passes the rule player rates best, beside "
                 "its own and those drawn from the most dangerous cards",
         .more = "(by how dangerous the cards kept would be, such as voiding a short suit; "
                 "[measured](../results/2026-11-27-pass-ranked-and-margin.md))"},
        [](P& o, const Value& v) { o.bidding.pass_ranked = v.whole; });
    add({.name = "pass_margin",
         .group = kBidding,
         .kind = Kind::kNumber,
         .lo = 0,
         .hi = 10,
         .fallback = "2",
         .help = "Hearts: another pass replaces the rule player's only when it leads it by this "
                 "many standard errors (bids keep 2; 0 takes the best mean)",
         .more = "(of their paired difference; "
                 "[measured](../results/2026-11-27-pass-ranked-and-margin.md))"},
        [](P& o, const Value& v) { o.bidding.pass_margin = v.number; });
    add({.name = "rollout_playout",
         .group = kBidding,
         .kind = Kind::kChoice,
         .choices = {"rule", "model", "net"},
         .fallback = "rule",
         .help = "who plays the cards of the deals that value bids and passes: the rule player, "
                 "the learned play-out policy (playout_model), or the policy network "
                 "(playout_net)",
         .more = "(the bids and passes in them are the rule player's either way)"},
        [](P& o, const Value& v) {
            o.bidding.playout = pick<P::Playout>(v, {{"rule", P::Playout::kRule},
                                                     {"model", P::Playout::kModel},
                                                     {"net", P::Playout::kNet}});
        });
    add({.name = "rollout_exact",
         .group = kBidding,
         .kind = Kind::kWhole,
         .lo = 0,
         .hi = kMaxTricks,
         .fallback = "0",
         .help = "those deals hand over to the exact search at this many tricks left, as the card "
                 "play-outs do (exact); 0: they play to the last card"},
        [](P& o, const Value& v) { o.bidding.exact = v.whole; });

    add({.name = "exact",
         .group = kSearch,
         .kind = Kind::kWhole,
         .lo = 0,
         .hi = kMaxTricks,
         .help = "search to the end of the hand from this many tricks left, with leaf-value "
                 "tables; the card play-outs hand over to the exact search there too",
         .shown = "by players: 6 tricks for 3, 5 for 4, 4 for 5, 3 for 6",
         .more = "(play-outs at most 5 by default, 4 in 4-player cutthroat Spades and in "
                 "partnership hands where a seat bid nil, where five-trick solves in every "
                 "play-out are dear)"},
        [](P& o, const Value& v) { o.search.exact_tricks = v.whole; });
    add({.name = "nil_playouts",
         .group = kSearch,
         .kind = Kind::kChoice,
         .choices = {"solve", "play"},
         .fallback = "solve",
         .help = "Spades: while a seat's nil stands, the card play-outs hand over to the exact "
                 "search as in other hands (solve), or play to the last card (play); the "
                 "search at the root stays exact in the last `exact` tricks",
         .more = "(a solve knows every hand: in it the nil bidder and its partner never misjudge, "
                 "so a play-out that hands over to one finds a nil safer than it is; in "
                 "partnership Spades it moved nil failures from early tricks to the last ones: "
                 "[measured](../results/2026-11-30-spades-nil-worlds-and-playouts.md))"},
        [](P& o, const Value& v) { o.search.nil_playouts_to_end = v.text == "play"; });
    add({.name = "nil_bidder",
         .group = kSearch,
         .kind = Kind::kChoice,
         .choices = {"search", "rule"},
         .fallback = "search",
         .help = "Spades: in a seat's exact searches another seat's standing nil is played by "
                 "the search, seeing every hand (search), or as the rule player plays its nil, "
                 "from its own hand and the cards played (rule)",
         .more = "(with `search` the nil bidder never misjudges a duck, so its partner covers "
                 "and the defenders attack as if the nil were safer than it is; `rule` did not "
                 "change the score in partnership Spades: "
                 "[measured](../results/2026-11-30-spades-nil-bidder-rule.md))"},
        [](P& o, const Value& v) { o.search.nil_bidder_rule = v.text == "rule"; });
    add({.name = "nodes",
         .group = kSearch,
         .kind = Kind::kWhole,
         .lo = 1,
         .hi = std::numeric_limits<int>::max(),
         .fallback = "30000",
         .help = "eval=search: node expansions per world and decision (iterative deepening by "
                 "trick within it)"},
        [](P& o, const Value& v) { o.search.nodes = static_cast<std::uint64_t>(v.whole); });
    add({.name = "budget",
         .group = kSearch,
         .kind = Kind::kWhole,
         .lo = 0,
         .hi = std::numeric_limits<int>::max(),
         .fallback = "500000",
         .help = "node expansions the searches of one card decision may spend, shared evenly by "
                 "its worlds (0: no limit); a world whose exact searches use 3/4 of its share "
                 "is valued by play-outs solved two tricks later, within the rest"},
        [](P& o, const Value& v) { o.search.budget = static_cast<std::uint64_t>(v.whole); });
    add({.name = "pilot",
         .group = kSearch,
         .kind = Kind::kWhole,
         .lo = 0,
         .hi = 1000000,
         .fallback = "0",
         .help = "worlds of a card decision valued first; when more than half of them run over "
                 "their share of `budget`, the decision's other worlds skip the exact searches "
                 "that would run over too and are valued by the solves two tricks later, "
                 "within their whole share (0: off)"},
        [](P& o, const Value& v) { o.search.pilot = static_cast<int>(v.whole); });
    add({.name = "depth",
         .group = kSearch,
         .kind = Kind::kWhole,
         .lo = 0,
         .hi = kMaxTricks,
         .fallback = "0",
         .help = "eval=search: a fixed depth in tricks instead of iterative deepening (0)"},
        [](P& o, const Value& v) { o.search.depth = v.whole; });
    add({.name = "algo",
         .group = kSearch,
         .kind = Kind::kChoice,
         .choices = {"speculative", "maxn", "shallow", "bnb", "lastbranch"},
         .fallback = "speculative",
         .help = "the max^n search's pruning; all give the same values"},
        [](P& o, const Value& v) { o.search.algorithm = *engine::parse_algorithm(v.text); });
    add({.name = "tables",
         .group = kSearch,
         .kind = Kind::kChoice,
         .choices = {"on", "off"},
         .fallback = "on",
         .help = "leaf-value tables in the exact searches"},
        [](P& o, const Value& v) { o.search.tables = v.text == "on"; });
    return t;
}

// What the oracle, with its one true world, has no use for: the sampled worlds' count,
// weighting, aggregation and time limit, and (as before the table) the models of cutoff and bids.
constexpr std::string_view kNotForOracle[] = {
    "worlds",    "worlds_max", "nil_worlds", "rotate",       "agg",        "tie",       "infer",
    "infer_net", "ms",         "cutoff",     "cutoff_model", "cutoff_net", "bid_model", "pilot"};

// eval=ismcts plays its play-outs by the rule player down one tree, its worlds unweighted and
// its card the best mean at the root: what would change any of that is refused, not ignored.
void check_ismcts(const BotSpec& spec, const PimcOptions& o) {
    const auto refuse = [&](const std::string& what) {
        throw InputError("bot spec '" + spec.text + "': eval=ismcts does not go with " + what);
    };
    if (spec.name == "oracle") refuse("the oracle (its one world needs no tree over worlds)");
    if (o.sampling.infer != PimcOptions::Infer::kOff) refuse("infer=");
    if (o.sampling.worlds_max > 0) refuse("worlds_max=");
    if (o.sampling.rotate) refuse("rotate=on");
    if (o.sampling.vote) refuse("agg=vote (it plays the card of best mean)");
    if (o.sampling.tie_rule) refuse("tie=rule (it breaks ties by card order)");
    if (o.sampling.ms > 0) refuse("ms=");
    if (o.search.pilot > 0) refuse("pilot= (its play-outs share one tree, not worlds)");
    if (o.valuation.playout && o.valuation.playout != PimcOptions::Playout::kRule)
        refuse("playout= other than rule (its play-outs are the rule player's)");
    if (o.valuation.self != PimcOptions::Self::kSame) refuse("self=");
    // Unset is moon=auto.
    if (o.valuation.moon.value_or(false)) refuse("moon=on");
    if (o.search.nil_bidder_rule) refuse("nil_bidder=rule");
}

// The options that depend on others (PimcBot reads the model files named).
void check_together(const BotSpec& spec, const PimcOptions& o) {
    const auto given = [&](const char* key) { return spec.options.count(key) > 0; };
    if (!o.valuation.playout_model_path.empty() && !o.uses_policy())
        throw InputError("bot spec '" + spec.text +
                         "': playout_model= goes with playout=model, self=model or switch, or "
                         "rollout_playout=model");
    if (!o.valuation.playout_net_path.empty() && !o.may_use_net())
        throw InputError("bot spec '" + spec.text +
                         "': playout_net= goes with playout=auto, net or fit, self=net or "
                         "rollout_playout=net");
    if (o.valuation.fit_weight < 1 && o.valuation.playout &&
        o.valuation.playout != PimcOptions::Playout::kFit)
        throw InputError("bot spec '" + spec.text + "': fit_weight= goes with playout=fit or auto");
    if (o.valuation.cutoff_model && o.valuation.eval == PimcOptions::Eval::kPlayout)
        throw InputError("bot spec '" + spec.text + "': cutoff=model goes with eval=search");
    if (o.valuation.cutoff_model && o.valuation.spades_utility == Utility::kTricks)
        throw InputError("bot spec '" + spec.text +
                         "': cutoff=model goes with utility=score or margin (it predicts what "
                         "each seat takes, which the tricks utility's bounds do not allow for)");
    if (!o.valuation.cutoff_path.empty() && !o.valuation.cutoff_model)
        throw InputError("bot spec '" + spec.text + "': cutoff_model= goes with cutoff=model");
    if (o.valuation.cutoff_net && o.valuation.eval == PimcOptions::Eval::kPlayout)
        throw InputError("bot spec '" + spec.text + "': cutoff=net goes with eval=search");
    if (o.valuation.cutoff_net && o.valuation.spades_utility == Utility::kTricks)
        throw InputError("bot spec '" + spec.text +
                         "': cutoff=net goes with utility=score or margin (it predicts what "
                         "each seat takes, which the tricks utility's bounds do not allow for)");
    if (!o.valuation.cutoff_net_path.empty() && !o.valuation.cutoff_net)
        throw InputError("bot spec '" + spec.text + "': cutoff_net= goes with cutoff=net");
    if (o.sampling.worlds_max > 0 && o.sampling.infers_from_plays())
        throw InputError("bot spec '" + spec.text +
                         "': worlds_max= does not go with infer=play or net (their worlds are "
                         "drawn from one pool)");
    if (o.sampling.rotate && o.sampling.infers_from_plays())
        throw InputError("bot spec '" + spec.text +
                         "': rotate=on does not go with infer=play or net (their worlds are "
                         "drawn from one pool)");
    if (o.sampling.worlds_max > 0 && o.sampling.worlds_max < o.sampling.worlds)
        throw InputError("bot spec '" + spec.text +
                         "': worlds_max=" + std::to_string(o.sampling.worlds_max) +
                         " is below worlds=" + std::to_string(o.sampling.worlds));
    if (o.sampling.nil_worlds > 0 && o.sampling.worlds_max > 0)
        throw InputError("bot spec '" + spec.text +
                         "': nil_worlds= does not go with worlds_max= (each sets a decision's "
                         "worlds its own way)");
    if (o.valuation.eval == PimcOptions::Eval::kIsmcts) check_ismcts(spec, o);
    if (!o.sampling.infer_net_path.empty() && o.sampling.infer != PimcOptions::Infer::kNet)
        throw InputError("bot spec '" + spec.text + "': infer_net= goes with infer=net");
    if (given("bid_model") && o.bidding.bid != PimcOptions::Bid::kModel &&
        o.sampling.infer != PimcOptions::Infer::kBids)
        throw InputError("bot spec '" + spec.text +
                         "': bid_model= goes with bid=model or infer=bids");
    if (given("bid_net") && o.bidding.bid != PimcOptions::Bid::kNet)
        throw InputError("bot spec '" + spec.text + "': bid_net= goes with bid=net");
    if (given("bid_value_net") && o.bidding.bid != PimcOptions::Bid::kValue)
        throw InputError("bot spec '" + spec.text + "': bid_value_net= goes with bid=value");
    if (given("pass_net") && !o.bidding.net_pass)
        throw InputError("bot spec '" + spec.text + "': pass_net= goes with pass=net");
}

}  // namespace

const OptionTable<PimcOptions>& pimc_option_table() {
    static const OptionTable<PimcOptions> kTable = make_pimc_table();
    return kTable;
}

const OptionTable<PimcOptions>& oracle_option_table() {
    static const OptionTable<PimcOptions> kTable = [] {
        OptionTable<PimcOptions> t;
        for (const auto& e : pimc_option_table().entries)
            if (std::find(std::begin(kNotForOracle), std::end(kNotForOracle), e.option.name) ==
                std::end(kNotForOracle))
                t.entries.push_back(e);
        return t;
    }();
    return kTable;
}

PimcOptions PimcOptions::from_spec(const BotSpec& spec) {
    const PimcOptions o =
        (spec.name == "oracle" ? oracle_option_table() : pimc_option_table()).parse(spec);
    check_together(spec, o);
    return o;
}

}  // namespace sampling
