#pragma once
// The human seat of `cardgames play`: shows the hand and the table, reads a card, bid or pass as
// text, explains why an illegal choice is illegal and asks again. `help`, `hint`, `hand`, `last`,
// `auto` (the hint bot plays for you from now on) and `quit` work at every prompt.

#include <iosfwd>
#include <memory>
#include <string>
#include <vector>

#include "cardgames/rules/player.hpp"

namespace apps {

// How cards are printed: suit symbols or letters, with colour (red hearts and diamonds) or not.
class Display {
  public:
    Display(bool colour, bool symbols) : colour_(colour), symbols_(symbols) {}
    std::string card(cardgames::Card c) const;
    std::string cards(cardgames::CardSet cs) const;  // spades first, high to low
    // Grouped by suit: "♠ A K 4   ♥ Q 9 ...", the cards in `marked` followed by '*'.
    std::string hand(cardgames::CardSet cs, cardgames::CardSet marked = {}) const;
    // A message from the rules in the notation on screen: cards written "QS" become symbols
    // when symbols are shown, and symbols become letters when they are not.
    std::string text(const std::string& message) const;

  private:
    bool colour_;
    bool symbols_;
};

// True when the locale says the terminal takes UTF-8 (LC_ALL, LC_CTYPE or LANG).
bool utf8_terminal();

// Thrown out of a decision when the user quits (or input ends): the game is abandoned.
struct QuitGame {
    bool end_of_input = false;
};

class TableView;

class TerminalPlayer : public cardgames::Player {
  public:
    // `table` shows the state of the game above each prompt.
    TerminalPlayer(std::istream& in, std::ostream& out, const Display& display, TableView& table,
                   std::unique_ptr<cardgames::Player> hint_bot)
        : in_(in), out_(out), display_(display), table_(table), hint_bot_(std::move(hint_bot)) {}
    std::string name() const override { return "human"; }
    bool blind_nil(const cardgames::InfoState& info) override;
    int bid(const cardgames::InfoState& info) override;
    cardgames::CardSet pass(const cardgames::InfoState& info) override;
    cardgames::Card play(const cardgames::InfoState& info) override;

  private:
    // Reads one line; handles the commands every prompt shares. Returns false when the line was
    // such a command (the caller asks again).
    bool read(const cardgames::InfoState& info, const std::string& prompt, std::string& line);
    void show_table(const cardgames::InfoState& info);
    std::string hint(const cardgames::InfoState& info);
    bool confirm(const cardgames::InfoState& info, const std::string& question);

    std::istream& in_;
    std::ostream& out_;
    Display display_;
    TableView& table_;
    std::unique_ptr<cardgames::Player> hint_bot_;
    bool auto_ = false;
};

// On a terminal: wraps a bot so that "<seat> is thinking..." appears when a decision takes longer
// than 0.3 s, and is wiped when the answer comes, so a person never wonders whether the program
// hung. Everything else is the bot's own.
class ShowThinking : public cardgames::Player {
  public:
    ShowThinking(std::unique_ptr<cardgames::Player> bot, std::string who, std::ostream& out)
        : bot_(std::move(bot)), who_(std::move(who)), out_(out) {}
    std::string name() const override { return bot_->name(); }
    bool blind_nil(const cardgames::InfoState& info) override;
    int bid(const cardgames::InfoState& info) override;
    cardgames::CardSet pass(const cardgames::InfoState& info) override;
    cardgames::Card play(const cardgames::InfoState& info) override;
    void hand_over(const cardgames::HandRecord& hand, bool game_over,
                   const std::vector<int>& winners) override {
        bot_->hand_over(hand, game_over, winners);
    }
    std::vector<cardgames::FallbackNote> fallbacks() const override { return bot_->fallbacks(); }
    bool sees_all_hands() const override { return bot_->sees_all_hands(); }
    void see_all_hands(const cardgames::PlayState& world) override { bot_->see_all_hands(world); }

  private:
    // Asks the bot through `decide`, with the notice shown while it thinks.
    template <class R>
    R timed(R (cardgames::Player::*decide)(const cardgames::InfoState&),
            const cardgames::InfoState& info);

    std::unique_ptr<cardgames::Player> bot_;
    std::string who_;
    std::ostream& out_;
};

}  // namespace apps
