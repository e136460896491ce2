#include "cardgames/rules/info_state.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <type_traits>

namespace cardgames {

int SeenPlays::follow(std::span<const PlayedCard> plays) {
    if (plays.size() > plays_.size())
        throw std::logic_error("seen plays: more plays than a deck has cards");
    const int m = static_cast<int>(plays.size());
    // Within a play-out each history extends the last one: one memcmp finds that (an empty
    // history's data() may be null, which memcmp must not be given even for no bytes).
    static_assert(std::has_unique_object_representations_v<PlayedCard>);
    int shared = 0;
    if (m >= known_ &&
        (known_ == 0 || std::memcmp(plays_.data(), plays.data(),
                                    static_cast<std::size_t>(known_) * sizeof(PlayedCard)) == 0)) {
        shared = known_;
    } else {
        const int both = std::min(known_, m);
        while (shared < both &&
               plays_[static_cast<std::size_t>(shared)] == plays[static_cast<std::size_t>(shared)])
            ++shared;
    }
    std::copy(plays.begin() + shared, plays.end(), plays_.begin() + shared);
    known_ = m;
    return shared;
}

}  // namespace cardgames
