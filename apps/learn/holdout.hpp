#pragma once
// The one hold-out rule of the fits (`cardgames learn fit`, `cutoff-fit`, `bids-fit`;
// docs/guide/learning.md): a hand is held out when its index in the run that made its data file
// (the `index` of its line: the hand's number from the run's seed, the same for any number of
// threads or ranks) is a multiple of N, `--holdout N` (default 5, a fifth of the hands). Every
// record of a held-out hand (a card decision, a trick boundary, a seat's bid) is held out with it,
// so that what a fit is measured on shares no hand with what it was fitted on.

namespace apps {

inline constexpr long kDefaultHoldout = 5;
// The smallest N: every second hand held out.
inline constexpr long kMinHoldout = 2;

inline bool held_out(long hand_index, long holdout) {
    return hand_index % holdout == 0;
}

}  // namespace apps
