#pragma once
// Deals the unseen cards to the other seats uniformly at random among ALL assignments consistent
// with the constraints (hand sizes, cards a seat cannot hold, cards it must hold).
//
// Method: cards that the same set of seats may hold are interchangeable, so the unseen cards fall
// into a few classes (at most 2^(n-1), in practice a handful). The number of consistent deals is
// a sum over how many cards of each class each seat gets, of products of multinomials; a memoised
// count over (class, remaining hand sizes) lets us draw each class's split with exactly the right
// probability, then deal the class's cards by a uniform shuffle. No rejection loop: a deal is
// produced in bounded time whenever one exists, and none existing is reported as a contradiction.

#include <boost/random/mersenne_twister.hpp>
#include <cstdint>
#include <stdexcept>
#include <unordered_map>
#include <vector>

#include "cardgames/cards/deal.hpp"
#include "sampling/constraints.hpp"

namespace sampling {

// No deal satisfies the constraints (the information state contradicts itself).
class Contradiction : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

class DealSampler {
  public:
    // Throws Contradiction when no consistent deal exists.
    explicit DealSampler(const Constraints& constraints);

    // The number of consistent deals (as a double: it may exceed 2^64).
    double count() const { return total_; }
    // The constraints it deals by.
    const Constraints& constraints() const { return c_; }

    // One consistent deal, uniformly; `my_hand` is put in the sampler's own seat.
    cardgames::Deal sample(boost::random::mt19937_64& rng, CardSet my_hand) const;

  private:
    struct Class {
        CardSet cards;
        std::uint8_t seats;  // bit s: seat s may hold these cards
    };
    using Needs = std::array<std::int8_t, kMaxPlayers>;

    double ways(std::size_t cls, const Needs& need) const;
    // Calls f(split, weight) for every way to split class `cls` among its seats within `need`.
    template <class F>
    void for_each_split(std::size_t cls, const Needs& need, F&& f) const;
    static std::uint64_t key(std::size_t cls, const Needs& need);

    Constraints c_;
    std::vector<Class> classes_;
    Needs base_need_{};
    mutable std::unordered_map<std::uint64_t, double> memo_;
    double total_ = 0;
};

// The other seats that no fact tells apart (the same number of cards, the same cards excluded, the
// same cards known) form groups, and turning a deal's hands one seat on within every group gives
// another deal the sampler is as likely to draw: the consistent deals are the same set after the
// turn. Worlds dealt as a sampled deal and its turns (pimc:rotate=on) put every unseen card in
// each seat of its group equally often, where independent deals would only come near that.
class HandRotation {
  public:
    explicit HandRotation(const Constraints& constraints);

    // How many turns bring every hand back to its seat (1: no two seats alike).
    int period() const { return period_; }
    // `deal` with every group's hands turned `turns` seats on.
    cardgames::Deal turned(const cardgames::Deal& deal, int turns) const;

  private:
    std::vector<std::vector<int>> groups_;  // seats in table order, two or more each
    int period_ = 1;
};

// The deal as `seat` knows it before any bid: it keeps its own hand, and the cards of the other
// seats are dealt among them again uniformly, each keeping its number of cards. (What bids reveal
// is ignored.) The same shuffle as DealSampler deals each class with.
cardgames::Deal redeal_others(const cardgames::Deal& deal, int seat,
                              boost::random::mt19937_64& rng);

}  // namespace sampling
