#include "cardgames/rules/game_runner.hpp"

#include <stdexcept>

namespace cardgames {

void step_game(Game& game, std::vector<std::unique_ptr<Player>>& players) {
    const int seat = game.to_act();
    Player& p = *players.at(seat);
    const InfoState info = game.info_state(seat);
    if (p.sees_all_hands()) p.see_all_hands(game.play_state());
    const std::size_t hands_before = game.finished_hands().size();
    std::string why, choice;
    switch (game.phase()) {
        case Phase::kBlindNil: {
            const bool b = p.blind_nil(info);
            choice = b ? "blind nil" : "no blind nil";
            why = game.choose_blind_nil(b);
            break;
        }
        case Phase::kBid: {
            const int b = p.bid(info);
            choice = "bid " + std::to_string(b);
            why = game.choose_bid(b);
            break;
        }
        case Phase::kPass: {
            const CardSet cards = p.pass(info);
            choice = "pass " + cards_to_string(cards);
            why = game.choose_pass(cards);
            break;
        }
        case Phase::kPlay: {
            const Card c = p.play(info);
            choice = "card " + (c.valid() ? to_string(c) : std::string("(none)"));
            why = game.choose_card(c);
            break;
        }
        case Phase::kGameOver:
            return;
    }
    if (!why.empty())
        throw std::logic_error("seat " + std::to_string(seat) + " (" + p.name() + ") chose " +
                               choice + ": " + why);
    if (game.finished_hands().size() != hands_before)
        for (auto& player : players)
            player->hand_over(game.finished_hands().back(), game.over(), game.winners());
}

void run_game(Game& game, std::vector<std::unique_ptr<Player>>& players) {
    while (!game.over()) step_game(game, players);
}

std::vector<FallbackNote> collect_fallbacks(const std::vector<std::unique_ptr<Player>>& players) {
    std::vector<FallbackNote> out;
    for (const auto& p : players) {
        const std::vector<FallbackNote> notes = p->fallbacks();
        out.insert(out.end(), notes.begin(), notes.end());
    }
    return out;
}

std::vector<int> cheating_seats(const std::vector<std::unique_ptr<Player>>& players) {
    std::vector<int> out;
    for (std::size_t s = 0; s < players.size(); ++s)
        if (players[s]->sees_all_hands()) out.push_back(static_cast<int>(s));
    return out;
}

}  // namespace cardgames
