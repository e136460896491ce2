#pragma once
// A seat's decision maker. Every decision is given only that seat's InfoState, except to a player
// that declares it cheats (sees_all_hands: the `oracle`, a measuring bound): the game runner shows
// it every seat's cards before each of its decisions, and records and tables mark its seat. Bots
// are built by name from a spec string ("random", "rule", "pimc:worlds=64") through
// sampling::make_player (sampling/bot_registry.hpp).

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "cardgames/rules/info_state.hpp"
#include "cardgames/rules/play_state.hpp"

namespace cardgames {

struct HandRecord;  // game.hpp

// A decision a bot failed to make (a malformed, illegal or late answer, or a bot that died) and
// that a fallback bot made instead; records list them under "fallbacks".
struct FallbackNote {
    int hand = 0;
    int seat = 0;
    std::string decision;  // "blind_nil", "bid", "pass", "play"
    std::string received;  // the text the bot sent, "" when none
    std::string reason;    // what was wrong
    std::string fallback;  // the bot that took over the seat
};

class Player {
  public:
    virtual ~Player() = default;
    virtual std::string name() const = 0;

    // Spades, phase kBlindNil: bid blind nil before seeing the cards?
    virtual bool blind_nil(const InfoState& info) = 0;
    // Spades, phase kBid: tricks 0..cards_per_hand; 0 is nil (only when rules allow nil).
    virtual int bid(const InfoState& info) = 0;
    // Phase kPass: exactly info.pass_count cards from info.hand, given to info.pass_to.
    virtual CardSet pass(const InfoState& info) = 0;
    // Phase kPlay: one of info.legal_cards().
    virtual Card play(const InfoState& info) = 0;

    // Told to every seat after each hand, with that hand's record (all its cards are public by
    // then) and, when the game is over, the winning units. Bots that keep no history ignore it.
    virtual void hand_over(const HandRecord& /*hand*/, bool /*game_over*/,
                           const std::vector<int>& /*winners*/) {}
    // Refuses (InputError) a table of these rules that the player cannot play at, such as one
    // whose form its model was not made for. Runs call it before they create their results
    // file, so that a refused run leaves nothing behind; a decision would fail the same way.
    // Returns what it will play by there beyond its spec (its models' weights, "" when none):
    // the ranks of an MPI run compare it, so that one cannot read another model file at the same
    // path.
    virtual std::string check(const Rules& /*rules*/) const { return ""; }

    // Told by a run before the player's first decision: the seed of the game it plays and the
    // run's board (an evaluation: the item's seed and index), for players that seed their own
    // randomness from them (Python policies). Bots that need neither ignore it.
    virtual void seated(std::uint64_t /*game_seed*/, long /*board*/) {}
    // Decisions this bot could not make itself (external bots); in-process bots have none.
    virtual std::vector<FallbackNote> fallbacks() const { return {}; }

    // A cheating player: it sees every hand. Only the game runner (step_game) shows them, right
    // before each decision of the seat, with the game's true trick state and every seat's cards
    // (`world.hands`); players that do not cheat are never shown them.
    virtual bool sees_all_hands() const { return false; }
    virtual void see_all_hands(const PlayState& /*world*/) {}
};

}  // namespace cardgames
