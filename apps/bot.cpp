// cardgames bot: one of our bots speaking the text protocol (docs/PROTOCOL.md) on stdin and stdout,
// so that another program's table can seat it. The bot is built from --spec with the seed the table
// sends in its `game` line (for our own tables: the seed our in-process bot would get), so it makes
// the same decisions as in-process.
#include <iostream>
#include <memory>
#include <string>

#include "apps/common.hpp"
#include "cardgames/bots.hpp"
#include "cardgames/error.hpp"
#include "cardgames/protocol.hpp"
#include "sampling/pimc.hpp"

namespace apps {

using namespace cardgames;

int cmd_bot(int argc, char** argv) {
    return guarded("bot", [&] {
        std::string spec;
        po::options_description desc("bot options (speaks docs/PROTOCOL.md on stdin/stdout)");
        desc.add_options()("spec", po::value(&spec)->default_value("rule"), "the bot that plays: any bot spec (random, rule, pimc:worlds=32, ...)");
        po::variables_map vm;
        if (!parse_args("bot", argc, argv, desc, vm)) return 0;
        sampling::make_player(spec, 0);  // a bad spec is reported before the table starts talking
        check_default_threads_available();

        protocol::BotView view;
        std::unique_ptr<Player> player;
        int games = 0;
        std::string line;
        for (int number = 1; std::getline(std::cin, line); ++number) {
            std::optional<Phase> ask;
            try {
                ask = view.feed(line);
            } catch (const protocol::ProtocolError& e) {
                std::cerr << "cardgames bot: table line " << number << ": " << e.what() << "\n";
                return kExitBadInput;
            }
            if (view.ended()) return 0;
            if (view.games_started() != games) {
                games = view.games_started();
                player = sampling::make_player(spec, view.seed());
            }
            if (!ask) continue;
            if (!player) {
                std::cerr << "cardgames bot: table line " << number << ": a decision before the 'game' line\n";
                return kExitBadInput;
            }
            if (!view.choice_mismatch().empty())
                std::cerr << "cardgames bot: table line " << number << ": " << view.choice_mismatch() << "\n";
            const InfoState& info = view.info();
            std::string answer;
            switch (*ask) {
                case Phase::kBlindNil: answer = protocol::format_blind_nil(player->blind_nil(info)); break;
                case Phase::kBid: answer = protocol::format_bid(player->bid(info)); break;
                case Phase::kPass: answer = protocol::format_pass(player->pass(info)); break;
                case Phase::kPlay: answer = protocol::format_play(player->play(info)); break;
                case Phase::kGameOver: continue;
            }
            std::cout << answer << std::endl;  // flushed: the table waits for this line
        }
        return 0;
    });
}

}  // namespace apps
