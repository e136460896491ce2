// The one instantiation of engine::Searcher<TrickGame>, which trick_game.hpp declares extern: the
// whole search on a hand, each node inlined here as before, compiled in this file only rather than
// in every file that searches (each of them spent 7-12 s of CPU on it in the sanitizer build).
#include "cardgames/search/trick_game.hpp"

template class engine::Searcher<cardgames::TrickGame>;
