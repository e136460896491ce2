// Table side of the bot protocol: a bot's answer line to a decision. The first byte picks one of
// the decisions of a few games played by rule bots (every kind: blind nil, bid, pass, play); the
// rest is the line. An answer accepted as ok must be a legal choice.
#include <memory>

#include "cardgames/players/protocol.hpp"
#include "cardgames/players/rule_bot.hpp"
#include "cardgames/rules/game_runner.hpp"
#include "tests/fuzz/fuzz_target.hpp"

using namespace cardgames;

namespace {

// Every decision of one game per preset (the Games stay alive: an InfoState points at their rules).
const std::vector<InfoState>& decisions() {
    static std::vector<std::unique_ptr<Game>> games;
    static const std::vector<InfoState> all = [] {
        std::vector<InfoState> out;
        const std::pair<const char*, std::vector<std::string>> presets[] = {
            {"hearts4", {}},
            {"hearts3", {}},
            {"spades-partnership", {"blind_nil_deficit=0"}},
            {"spades-cutthroat3", {}}};
        for (const auto& [name, overrides] : presets) {
            const Rules rules = load_rules(preset_path(name), overrides);
            games.push_back(std::make_unique<Game>(rules, 7));
            Game& game = *games.back();
            game.stop_after_hand();
            std::vector<std::unique_ptr<Player>> players;
            for (int s = 0; s < rules.players; ++s)
                players.push_back(std::make_unique<RuleBot>(100 + static_cast<unsigned>(s)));
            while (!game.over()) {
                out.push_back(game.info_state(game.to_act()));
                step_game(game, players);
            }
        }
        return out;
    }();
    return all;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0) return 0;
    const InfoState& info = decisions()[data[0] % decisions().size()];
    const protocol::Answer a = protocol::check_answer(info, fuzz::text(data + 1, size - 1));
    if (a.status != protocol::Answer::Status::kOk) return 0;
    if (info.phase == Phase::kPlay)
        fuzz::require(info.legal_cards().contains(a.card), "an illegal card accepted");
    if (info.phase == Phase::kPass)
        fuzz::require(info.hand.contains_all(a.cards) && a.cards.size() == info.pass_count,
                      "a wrong pass accepted");
    if (info.phase == Phase::kBid)
        fuzz::require(a.bid >= 0 && a.bid <= info.rules->cards_per_hand(),
                      "a bid out of range accepted");
    return 0;
}
