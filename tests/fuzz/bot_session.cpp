// Bot side of the bot protocol: a session of table lines, handled as `cardgames bot` handles them
// (apps/bot.cpp): each line fed to the seat's view of the game; at each `ask`, the bot (a rule bot,
// the command's default) decides on the rebuilt state. A line the bot refuses ends the session.
#include <memory>

#include "cardgames/bots.hpp"
#include "cardgames/error.hpp"
#include "cardgames/protocol.hpp"
#include "tests/fuzz/fuzz_target.hpp"

using namespace cardgames;

namespace {

void session(const std::string& text) {
    protocol::BotView view;
    std::unique_ptr<Player> player;
    int games = 0;
    for (const std::string& line : fuzz::lines(text)) {
        std::optional<Phase> ask;
        try {
            ask = view.feed(line);
        } catch (const protocol::ProtocolError&) {
            return;  // the bot names the line and exits 2
        }
        if (view.ended()) return;
        if (view.games_started() != games) {
            games = view.games_started();
            player = make_player("rule", view.seed());
        }
        if (!ask) continue;
        if (!player) return;  // a decision before the 'game' line: exit 2
        const InfoState& info = view.info();
        switch (*ask) {
            case Phase::kBlindNil: player->blind_nil(info); break;
            case Phase::kBid: player->bid(info); break;
            case Phase::kPass: player->pass(info); break;
            case Phase::kPlay: player->play(info); break;
            case Phase::kGameOver: break;
        }
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    try {
        session(fuzz::text(data, size));
    } catch (const InputError&) {
    }
    return 0;
}
