#pragma once
// The `external` bot: a program of any language that plays through the text protocol
// (docs/PROTOCOL.md) on its stdin and stdout. Spec:
//   external:cmd="python3 my_bot.py",ms=2000,fallback=random
// cmd runs under /bin/sh -c in its own process group, started at the seat's first decision. Each
// decision must be answered within ms milliseconds (default 10000). A malformed, illegal or late
// answer, or a bot that died, is reported on stderr in one line (seat, decision, text received,
// what was wrong) and noted for the game record; the program is then stopped and the fallback bot
// (default random) makes this and every later decision of the game, so a tournament never stops
// for one bad bot. The program is always killed and reaped by the destructor: no zombies. A stop
// request (Options::stop: the run was interrupted) kills the program's process group at once, even
// while it thinks; the fallback then answers, quietly, for a game its caller abandons.
// The fallback may be any bot but external; the registry (sampling/bot_registry.hpp) makes it, so
// this file knows no bot by name.

#include <cstdint>
#include <memory>
#include <stop_token>
#include <string>
#include <vector>

#include "cardgames/players/protocol.hpp"
#include "cardgames/rules/player.hpp"

namespace cardgames {

class ChildProcess;

class ExternalBot : public Player {
  public:
    struct Options {
        std::string command;
        int time_limit_ms = 10000;
        std::string fallback = "random";        // the fallback's spec, for the notes
        protocol::PlayerFactory make_fallback;  // makes that bot from a seed
        std::stop_token stop;                   // the run's stop request
    };

    // `seed` is sent to the program (the seed our own bot would use in this seat) and seeds the
    // fallback bot.
    ExternalBot(Options options, std::uint64_t seed);
    ~ExternalBot() override;
    ExternalBot(const ExternalBot&) = delete;
    ExternalBot& operator=(const ExternalBot&) = delete;

    std::string name() const override { return "external:cmd=\"" + options_.command + "\""; }
    bool blind_nil(const InfoState& info) override;
    int bid(const InfoState& info) override;
    CardSet pass(const InfoState& info) override;
    Card play(const InfoState& info) override;
    void hand_over(const HandRecord& hand, bool game_over,
                   const std::vector<int>& winners) override;
    std::vector<FallbackNote> fallbacks() const override { return notes_; }

    // True once the program failed and the fallback plays the seat.
    bool failed() const { return failed_; }

  private:
    // Tells the program what is new, asks for the decision and checks the answer. Returns false
    // (after reporting and stopping the program) when the fallback must decide.
    bool ask(const InfoState& info, protocol::Answer& answer);
    // One decision: the program's answer (its `field`), or the fallback's `decide` when ask fails.
    template <class T>
    T answer_or_fallback(const InfoState& info, T protocol::Answer::*field,
                         T (Player::*decide)(const InfoState&));
    void fail(const InfoState& info, const std::string& received, const std::string& reason);
    // The run was stopped: ends the program without a note; returns false (the fallback decides).
    bool stopped();
    void stop();

    Options options_;
    std::uint64_t seed_;
    protocol::TableWriter writer_;
    std::unique_ptr<ChildProcess> process_;
    std::unique_ptr<Player> fallback_;
    bool failed_ = false;
    bool game_done_ = false;
    std::vector<FallbackNote> notes_;
};

// Builds an ExternalBot from a parsed spec's options (cmd, ms, fallback); InputError on bad ones,
// an unknown fallback among them (make_fallback's error, with the spec for context).
std::unique_ptr<Player> make_external_bot(const std::string& spec_text, const std::string& command,
                                          int time_limit_ms, const std::string& fallback,
                                          const protocol::PlayerFactory& make_fallback,
                                          std::uint64_t seed, std::stop_token stop = {});

}  // namespace cardgames
