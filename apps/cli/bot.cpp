// cardgames bot: one of our bots speaking the text protocol (docs/PROTOCOL.md) on stdin and stdout,
// so that another program's table can seat it. The bot is built from --spec with the seed the table
// sends in its `game` line (for our own tables: the seed our in-process bot would get), so it makes
// the same decisions as in-process. The session itself, with every table line checked, is
// protocol::run_bot_session.
#include <iostream>
#include <memory>
#include <string>

#include "apps/cli/common.hpp"
#include "cardgames/cards/error.hpp"
#include "cardgames/players/protocol.hpp"
#include "sampling/bot_registry.hpp"
#include "sampling/deal_sampler.hpp"

namespace apps {

using namespace cardgames;

namespace {

// The bot, except that a state its sampler finds impossible is the table's fault: bad input. The
// session checks every line so that none should reach it; this keeps that promise if one does.
class TableChecked : public Player {
  public:
    explicit TableChecked(std::unique_ptr<Player> inner) : inner_(std::move(inner)) {}
    std::string name() const override { return inner_->name(); }
    bool blind_nil(const InfoState& info) override {
        return checked<bool>([&] { return inner_->blind_nil(info); });
    }
    int bid(const InfoState& info) override {
        return checked<int>([&] { return inner_->bid(info); });
    }
    CardSet pass(const InfoState& info) override {
        return checked<CardSet>([&] { return inner_->pass(info); });
    }
    Card play(const InfoState& info) override {
        return checked<Card>([&] { return inner_->play(info); });
    }

  private:
    template <class T, class F>
    static T checked(F&& decide) {
        try {
            return decide();
        } catch (const sampling::Contradiction& e) {
            throw InputError(std::string("no deal of the unseen cards fits the table's lines: ") +
                             e.what());
        }
    }

    std::unique_ptr<Player> inner_;
};

}  // namespace

int cmd_bot(int argc, char** argv) {
    return guarded("bot", [&] {
        std::string spec;
        po::options_description desc("bot options (speaks docs/PROTOCOL.md on stdin/stdout)");
        desc.add_options()("spec", po::value(&spec)->default_value("rule"),
                           ("the bot that plays: any bot spec (" + sampling::known_bot_names() +
                            "; e.g. pimc:worlds=32)")
                               .c_str());
        po::variables_map vm;
        if (!parse_args("bot", argc, argv, desc, vm)) return 0;
        // A bad spec is reported before the table starts talking.
        if (sampling::make_player(spec, 0)->sees_all_hands())
            throw InputError("--spec " + spec +
                             ": it sees every hand, and a table shows a bot only its own");
        check_default_threads_available();
        // One store for the session: each game's new player reads a model file again only when
        // it changed on disk.
        const auto store = std::make_shared<models::ModelStore>();
        protocol::run_bot_session(std::cin, std::cout, [&](std::uint64_t seed) {
            return std::make_unique<TableChecked>(sampling::make_player(spec, seed, {}, store));
        });
        return 0;
    });
}

}  // namespace apps
