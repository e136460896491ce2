#pragma once
// The learned Spades bid model (`pimc:bid=model`): from a seat's hand and the bids before it, a
// distribution of the tricks the seat will take when it plays as `pimc` plays, and the chance
// that a nil bid by the seat is made; the bid is the one with the best expected hand score under
// those distributions (nil, blind nil, bags and the partner's bid included). The model is data:
// a file under data/models/ written by `cardgames learn bids-fit` from self-play data
// (`cardgames learn bids-data`) in the versioned model file (cardgames/models/model_file.hpp,
// `kind bids`), read back through a checked reader (a bad file is an InputError naming the field,
// or the line of a file of the old text format, which is still read).
//
// The tricks model is a cumulative logistic model with shared slopes: P(tricks >= k | x) =
// sigmoid(w . x + c_k) for k = 1..cards, made monotone in k, with the tricks the hand's top spades
// take for certain as a floor. The nil model is a logistic model of P(no trick | x) over hands
// that bid nil. A partner's tricks around his bid follow the residual histogram of the data.

#include <array>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "cardgames/models/model_file.hpp"
#include "cardgames/models/model_store.hpp"
#include "cardgames/rules/info_state.hpp"
#include "cardgames/rules/rules.hpp"
#include "cardgames/rules/scoring.hpp"

namespace sampling {

class Deadline;

// A seat about to bid: all the bid model reads.
struct BidSituation {
    const cardgames::Rules* rules = nullptr;
    int seat = 0;
    int dealer = 0;
    cardgames::CardSet hand;
    std::array<cardgames::Bid, cardgames::kMaxPlayers> bids{};  // made so far (tricks -1: not yet)
    cardgames::ScoreBoard scores;

    static BidSituation from(const cardgames::InfoState& info);
    // The view the rule player bids from (its bid and estimate are features).
    cardgames::InfoState info() const;
};

// The features, in the order of bid_feature_names() (the model file lists them, and a file whose
// list differs is refused).
const std::vector<std::string>& bid_feature_names();
std::vector<double> bid_features(const BidSituation& s);

// Tricks the hand takes whatever happens: its spades in unbroken sequence from the ace.
int sure_tricks(cardgames::CardSet hand);

struct SpadesBidModel {
    int players = 4;
    int cards = 13;  // per hand
    bool partnership = true;
    std::vector<std::string> provenance;  // comment lines: what made the model
    // A version 2 file's fields other than what the model is made of: form, command, seeds.
    std::vector<std::pair<std::string, std::string>> meta;
    std::vector<double> trick_intercepts;  // c_1..c_cards
    std::vector<double> trick_weights;     // one per feature
    double nil_intercept = 0;
    std::vector<double> nil_weights;
    // P(tricks - bid = r) for r = -cards..cards, over non-nil bids in the data: the partner's
    // tricks around a bid the model cannot see the hand behind.
    std::vector<double> partner_residual;
    double blind_nil_made = 0;  // P(a blind nil is made): the nil model's mean over dealt hands

    // P(tricks = k), k = 0..cards, for a seat that does not bid nil.
    std::vector<double> tricks(const BidSituation& s) const;
    // P(a nil bid by the seat is made).
    double nil_made(const BidSituation& s) const;
    // The same from the features and the hand's sure tricks.
    std::vector<double> tricks(const std::vector<double>& features, int sure) const;
    double nil_made(const std::vector<double>& features) const;
    // Whether the model was made for these rules (players, cards, partnership).
    bool fits(const cardgames::Rules& rules) const;
    // What the model bids by: its numbers (not its comments, nor where it was read from).
    std::string fingerprint() const;
};

// The model file, version 2 (docs/design/network-format.md, "Bid models"): the doubles exactly.
cardgames::models::ModelFile bid_model_file(const SpadesBidModel& model);
void write_bid_model(const SpadesBidModel& model, std::ostream& out);
// The old text format (format 1), documented at the top of every file: the tests make old files.
void write_text_bid_model(const SpadesBidModel& model, std::ostream& out);
// Whether `bytes` are a bid model's file, of either format.
bool is_bid_model_file(const std::string& bytes);
// The form a model's rules are (spades-partnership, spades-cutthroat<N>).
std::string bid_model_form(const SpadesBidModel& model);
// Reads and checks a model file of either format; an InputError "bid model '<path>': field ..."
// or "... line N: ..." when malformed.
SpadesBidModel read_bid_model(const std::filesystem::path& path);
SpadesBidModel parse_bid_model(const std::string& text, const std::string& where);
// The model file at `path`, from `store` (read again when the file changed on disk).
std::shared_ptr<const SpadesBidModel> load_bid_model(cardgames::models::ModelStore& store,
                                                     const std::filesystem::path& path);

// data/models/spades-bids.txt for partnership Spades, spades-bids-cutthroat<n>.txt otherwise,
// under the folder the presets are found in (cardgames::data_dir()).
std::filesystem::path default_bid_model_path(const cardgames::Rules& rules);
// The bid model at `path` (empty: the default for `rules`), from `store`; an InputError when it was
// made for other rules.
std::shared_ptr<const SpadesBidModel> bid_model_for(cardgames::models::ModelStore& store,
                                                    const std::string& path,
                                                    const cardgames::Rules& rules);

// The expected hand score of each candidate bid (1..cards and nil), best first.
struct BidValue {
    int bid = 0;  // 0: nil
    double expected = 0;
};
// Bags are valued by `bag_value` (scoring.hpp), here and below.
std::vector<BidValue> value_bids(const SpadesBidModel& model, const BidSituation& s,
                                 cardgames::BagValue bag_value = cardgames::BagValue::kHand);
// The bid with the best expected score (ties to the rule player's bid).
int model_bid(const SpadesBidModel& model, const BidSituation& s,
              cardgames::BagValue bag_value = cardgames::BagValue::kHand);
// Blind nil against bidding normally on the hand to be dealt: the normal bid's value is the mean
// best value over `samples` hands dealt from `seed` (the seat has not seen its cards), or over
// those dealt before the `deadline` (at least one).
bool model_blind_nil(const SpadesBidModel& model, const cardgames::InfoState& info,
                     std::uint64_t seed, int samples, const Deadline& deadline,
                     cardgames::BagValue bag_value = cardgames::BagValue::kHand);

}  // namespace sampling
