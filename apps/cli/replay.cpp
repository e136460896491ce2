// cardgames replay FILE: re-runs every game record in a JSON Lines file through the rules.
#include <iostream>
#include <sstream>

#include "apps/cli/common.hpp"
#include "cardgames/cards/error.hpp"
#include "cardgames/cards/json_input.hpp"
#include "cardgames/cards/text_file.hpp"
#include "cardgames/rules/record.hpp"

namespace apps {

using cardgames::InputError;

int cmd_replay(int argc, char** argv) {
    return guarded("replay", [&] {
        std::string file;
        po::options_description desc("replay options");
        desc.add_options()("file", po::value(&file)->required(),
                           "a JSON Lines file of game records");
        po::positional_options_description pos;
        pos.add("file", 1);
        po::variables_map vm;
        if (!parse_args("replay", argc, argv, desc, vm, &pos)) return 0;
        std::istringstream in(cardgames::read_text_file(file, ""));
        std::string line;
        int line_no = 0, games = 0, bad = 0;
        while (std::getline(in, line)) {
            ++line_no;
            if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
            const std::string where = file + " line " + std::to_string(line_no);
            cardgames::ReplayResult r;
            int units = 0;
            try {
                const nlohmann::json record = cardgames::parse_json_line(line);
                if (!cardgames::is_game_record(record)) continue;  // other lines: summaries
                const cardgames::RecordedGame game = cardgames::read_game_record(record);
                r = cardgames::replay_record(game);
                units = game.rules.num_units();
            } catch (const InputError& e) {
                cardgames::rethrow_with_context(where, e);
            }
            ++games;
            if (!r.ok) {
                ++bad;
                std::cout << where << ": " << r.error << "\n";
                continue;
            }
            std::cout << where << ": ok, " << r.hands << " hands, final scores";
            for (int u = 0; u < units; ++u) std::cout << " " << r.scores.score[u];
            std::cout << ", winners";
            for (int w : r.winners) std::cout << " " << w;
            std::cout << "\n";
        }
        // A file with no game in it is not what the user meant to replay (a results header alone, a
        // wrong file): saying "0 games replayed" would pass for success.
        if (games == 0)
            throw InputError(
                "'" + file +
                "': no game record in it (a game record is a line with \"type\": \"game\")");
        std::cout << games << " games replayed, " << bad << " with errors\n";
        return bad ? 1 : 0;
    });
}

}  // namespace apps
