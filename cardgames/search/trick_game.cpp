#include "cardgames/search/trick_game.hpp"

#include "cardgames/cards/error.hpp"

namespace cardgames {

namespace {

TrickGame::Choices make_choice(const Rules& rules, const PlayState& state, Utility utility,
                               const std::array<CardSet, kMaxPlayers>& taken,
                               const ScoreContext& context) {
    if ((utility == Utility::kPoints) != (rules.game == GameKind::kHearts))
        throw InputError(
            "utility '" + utility_name(utility) + "' does not fit " + game_name(rules.game) +
            (rules.game == GameKind::kHearts ? " (use points)" : " (use tricks, score or margin)"));
    if (utility == Utility::kMargin && !rules.is_partnership())
        throw InputError("utility 'margin' is for partnership Spades (one side against the other)");
    using Choices = TrickGame::Choices;
    switch (utility) {
        case Utility::kTricks:
            return Choices(std::in_place_index<0>, rules, state, taken, context);
        case Utility::kScore:
            return Choices(std::in_place_index<1>, rules, state, taken, context);
        case Utility::kMargin:
            return Choices(std::in_place_index<3>, rules, state, taken, context);
        case Utility::kPoints:
            break;
    }
    return Choices(std::in_place_index<2>, rules, state, taken, context);
}

}  // namespace

TrickGame::TrickGame(const Rules& rules, const PlayState& state, Utility utility,
                     const std::array<CardSet, kMaxPlayers>& taken, const ScoreContext& context)
    : game_(make_choice(rules, state, utility, taken, context)) {}

}  // namespace cardgames
