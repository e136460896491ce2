// cardgames bench --pimc: how long the Monte-Carlo player takes per decision, at every point of a
// hand, and its peak memory. A measurement program, never a test.
#include "apps/cli/bench_pimc.hpp"

#include <fmt/format.h>
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <iostream>
#include <map>

#include "cardgames/rules/game.hpp"
#include "sampling/bot_registry.hpp"

namespace apps {

using namespace cardgames;

int bench_pimc(const Rules& rules, const std::string& spec, int hands, std::uint64_t seed) {
    // decision kind -> wall times in ms
    std::map<std::string, std::vector<double>> times;
    std::vector<std::unique_ptr<Player>> players;
    for (int s = 0; s < rules.players; ++s)
        players.push_back(sampling::make_player(spec, mix_seed(seed, s)));
    const auto start = std::chrono::steady_clock::now();
    for (int h = 0; h < hands; ++h) {
        Game game(rules, mix_seed(seed, 7000 + h));
        game.stop_after_hand();
        while (!game.over()) {
            const int s = game.to_act();
            const InfoState info = game.info_state(s);
            const auto t0 = std::chrono::steady_clock::now();
            if (players[s]->sees_all_hands()) players[s]->see_all_hands(game.play_state());
            std::string kind;
            switch (game.phase()) {
                case Phase::kBlindNil:
                    kind = "blind nil";
                    game.choose_blind_nil(players[s]->blind_nil(info));
                    break;
                case Phase::kBid:
                    kind = "bid";
                    game.choose_bid(players[s]->bid(info));
                    break;
                case Phase::kPass:
                    kind = "pass";
                    game.choose_pass(players[s]->pass(info));
                    break;
                case Phase::kPlay:
                    kind = fmt::format("card, {:2d} tricks left", info.hand.size());
                    game.choose_card(players[s]->play(info));
                    break;
                case Phase::kGameOver:
                    break;
            }
            times[kind].push_back(
                std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0)
                    .count());
        }
    }
    const double secs =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::cout << fmt::format("{} {} players, {} hands, bots {}\n", game_name(rules.game),
                             rules.players, hands, spec);
    std::cout << fmt::format("{:<26}{:>10}{:>12}{:>12}\n", "decision", "count", "median ms",
                             "worst ms");
    std::size_t total = 0;
    std::vector<double> all;
    for (auto& [kind, v] : times) {
        std::sort(v.begin(), v.end());
        total += v.size();
        all.insert(all.end(), v.begin(), v.end());
        std::cout << fmt::format("{:<26}{:>10}{:>12.1f}{:>12.1f}\n", kind, v.size(),
                                 v[v.size() / 2], v.back());
    }
    std::sort(all.begin(), all.end());
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    std::cout << fmt::format("{:<26}{:>10}{:>12.1f}{:>12.1f}\n", "all decisions", total,
                             all[all.size() / 2], all.back());
    std::cout << fmt::format("decisions/s {:.2f}, peak resident memory {} MiB\n", total / secs,
                             usage.ru_maxrss / 1024);
    return 0;
}

}  // namespace apps
