#include "sampling/oracle.hpp"

#include <spdlog/spdlog.h>

#include "cardgames/cards/error.hpp"

namespace sampling {

using namespace cardgames;

OracleBot::OracleBot(const PimcOptions& options, std::uint64_t seed,
                     std::shared_ptr<models::ModelStore> store)
    : pimc_(options, seed, std::move(store)) {}

// The world is shown before every decision and used for one: taking it here means a decision
// that was not shown one is refused rather than played in a stale world.
bool OracleBot::blind_nil(const InfoState& info) {
    world_.reset();
    return pimc_.blind_nil(info);
}

int OracleBot::bid(const InfoState& info) {
    world_.reset();
    return pimc_.bid(info);
}

CardSet OracleBot::pass(const InfoState& info) {
    world_.reset();
    return pimc_.pass(info);
}

PimcAnalysis OracleBot::analyze(const InfoState& info) {
    std::optional<PlayState> world;
    world.swap(world_);
    if (!world || world->hands[info.seat] != info.hand || world->to_move != info.seat ||
        world->played != info.play.played)
        throw InputError(
            "bot 'oracle' sees every hand, so it plays only in games this program runs itself "
            "(tournament, play); it was asked for a card without being shown the hands");
    Deal deal;
    deal.players = info.players();
    deal.hands = world->hands;
    return analyze_world(pimc_.options(), info, deal, pimc_.store());
}

Card OracleBot::play(const InfoState& info) {
    const PimcAnalysis a = analyze(info);
    if (a.searched && spdlog::should_log(spdlog::level::debug)) {
        std::string values;
        for (const CardValue& cv : a.cards)
            values += " " + to_string(cv.card) + "=" + fmt::format("{:.2f}", cv.expected);
        spdlog::debug("oracle seat {} hand {} card {}: plays {} in the true world;{}", info.seat,
                      info.hand_number, info.plays.size() + 1, to_string(a.best), values);
    }
    return a.best;
}

}  // namespace sampling
