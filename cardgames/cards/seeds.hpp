#pragma once
// Where every seed of a bot's decision and of eval's items comes from, in one place. Each seed is
// mix_seed of its parent and a number that names the child; the numbers are arbitrary but fixed,
// since changing one changes every game a seed reproduces. Children of one parent must not share
// a number: the offsets below keep the ranges of an indexed child (a world, a play-out, a seat)
// apart from the others.

#include <cstdint>

#include "cardgames/cards/deal.hpp"

namespace cardgames::seeds {

// What a `pimc` decision is about; part of its seed, so that two decisions at the same point of a
// hand (a bid, then the pass) draw different worlds.
enum class DecisionKind : std::uint64_t { kBlindNil = 0, kBid = 1, kPass = 2, kCard = 3 };

// A bot's decision: the hand, the cards played so far and the kind of decision. The plays (at
// most 64) and the kind (below 8) fit under the hand's multiple of 4096.
inline std::uint64_t decision(std::uint64_t bot_seed, int hand_number, std::size_t plays,
                              DecisionKind kind) {
    return mix_seed(bot_seed, static_cast<std::uint64_t>(hand_number) * 4096 + plays * 8 +
                                  static_cast<std::uint64_t>(kind));
}

// The world `index` of a decision: the hidden hands it deals (card worlds, and the deals that bid
// and pass candidates are valued on).
inline std::uint64_t world(std::uint64_t decision_seed, int index) {
    return mix_seed(decision_seed, static_cast<std::uint64_t>(index));
}

// The play-out of world `index` of a bid or pass decision (the game it plays; its rule players
// need no randomness). Offset from the worlds so that the two never coincide.
inline std::uint64_t playout(std::uint64_t decision_seed, int index) {
    return mix_seed(decision_seed, 1000003u + static_cast<std::uint64_t>(index));
}

// infer=play: the one uniform draw of a card decision's systematic resampling of its pool of
// worlds. Offset beyond every world index (a pool holds at most 4 x 100000) and every play-out's.
inline std::uint64_t resample(std::uint64_t decision_seed) {
    return mix_seed(decision_seed, 2000003u);
}

// An external bot's fallback player.
inline std::uint64_t fallback_bot(std::uint64_t bot_seed) {
    return mix_seed(bot_seed, 0xfa11bac);
}

// `cardgames eval`: item `index` of a run.
inline std::uint64_t eval_item(std::uint64_t run_seed, long index) {
    return mix_seed(run_seed, static_cast<std::uint64_t>(index));
}

// Sampled layout `k` of an eval item: the layout and the play-outs on it.
inline std::uint64_t eval_sample(std::uint64_t item_seed, int k) {
    return mix_seed(item_seed, 1 + static_cast<std::uint64_t>(k));
}

// The bot of policy `p` deciding an eval item.
inline std::uint64_t eval_policy(std::uint64_t item_seed, std::size_t p) {
    return mix_seed(item_seed, 5000 + static_cast<std::uint64_t>(p));
}

// The reference player at `seat` in a play-out (from a sample's seed), or in the bidding before
// a policy's bid (from the item's).
inline std::uint64_t eval_reference(std::uint64_t sample_seed, int seat) {
    return mix_seed(sample_seed, static_cast<std::uint64_t>(seat));
}

// The policy's bot when eval asks it for a bid (the other seats bid as the reference).
inline std::uint64_t eval_bidder(std::uint64_t item_seed) {
    return mix_seed(item_seed, 99);
}

// `cardgames tournament`: the game of board `board` (every seat rotation of a duplicate board
// plays the same deals), and the bot of player entry `entry` in it.
inline std::uint64_t tournament_game(std::uint64_t run_seed, long board) {
    return mix_seed(run_seed, static_cast<std::uint64_t>(board));
}
inline std::uint64_t tournament_bot(std::uint64_t game_seed, int entry) {
    return mix_seed(game_seed, 1000 + static_cast<std::uint64_t>(entry));
}

// Training data for learned models (`cardgames learn`): its run seeds are 1'000'000 and above,
// apart from every evaluation seed (tournaments and evals are run on seeds below 1'000'000: the
// docs/results' 11-33 and 1001-1099 and up), so no model is measured on hands it was
// fitted to. The learn commands refuse a run seed outside this range.
inline constexpr std::uint64_t kTrainingSeedFirst = 1'000'000;
inline constexpr std::uint64_t kTrainingSeedLast = 1'999'999'999;
inline constexpr bool is_training_seed(std::uint64_t run_seed) {
    return run_seed >= kTrainingSeedFirst && run_seed <= kTrainingSeedLast;
}
// Hand `index` of a bids-data run: its deal and its bots.
inline std::uint64_t training_hand(std::uint64_t run_seed, long index) {
    return mix_seed(run_seed, static_cast<std::uint64_t>(index));
}
// The bot at `seat` in a training hand, and the draw that varies that seat's bid (offset apart).
inline std::uint64_t training_bot(std::uint64_t hand_seed, int seat) {
    return mix_seed(hand_seed, 1000 + static_cast<std::uint64_t>(seat));
}
inline std::uint64_t training_bid_variation(std::uint64_t hand_seed, int seat) {
    return mix_seed(hand_seed, 2000 + static_cast<std::uint64_t>(seat));
}

// `cardgames play`: the bot at `seat`, and the one that gives the human hints.
inline std::uint64_t play_bot(std::uint64_t game_seed, int seat) {
    return mix_seed(game_seed, static_cast<std::uint64_t>(seat));
}
inline std::uint64_t play_hint_bot(std::uint64_t game_seed, int seat) {
    return mix_seed(game_seed, 100 + static_cast<std::uint64_t>(seat));
}

// A bot at `seat` in a hand of `cardgames learn data` (the play-out policy's data; the bid data's
// bots are training_bot): its own offset, so that the committed models' data stay reproducible.
inline std::uint64_t playout_training_bot(std::uint64_t hand_seed, int seat) {
    return mix_seed(hand_seed, 2000 + static_cast<std::uint64_t>(seat));
}

// `cardgames learn selfplay` (apps/learn): the bot at `seat` of a hand is training_bot; the pimc
// bot that values the decisions of a seat that is not itself pimc (--values) is this one.
inline std::uint64_t selfplay_valuer(std::uint64_t hand_seed, int seat) {
    return mix_seed(hand_seed, 3000 + static_cast<std::uint64_t>(seat));
}

}  // namespace cardgames::seeds
