#pragma once
// The `random` bot: uniform over the legal choices (bids 0..hand size, any pass, any legal card);
// never bids blind nil. A baseline and a fallback, reproducible from its seed.

#include <boost/random/mersenne_twister.hpp>

#include "cardgames/rules/player.hpp"

namespace cardgames {

class RandomBot : public Player {
  public:
    explicit RandomBot(std::uint64_t seed) : rng_(seed) {}
    std::string name() const override { return "random"; }
    bool blind_nil(const InfoState&) override { return false; }
    int bid(const InfoState& info) override;
    CardSet pass(const InfoState& info) override;
    Card play(const InfoState& info) override;

  private:
    Card pick(CardSet cards);
    boost::random::mt19937_64 rng_;
};

}  // namespace cardgames
