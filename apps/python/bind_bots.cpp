// The class Bot and make_bot: any bot of the command line (sampling::make_player) acting for the
// player to move of a State, or for a Python player of a run from its observation.
#include <pybind11/stl.h>

#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <tuple>

#include "apps/python/bindings.hpp"
#include "apps/python/convert.hpp"
#include "cardgames/cards/error.hpp"
#include "cardgames/players/bot_options.hpp"
#include "sampling/bot_registry.hpp"
#include "sampling/pimc.hpp"

namespace py = pybind11;
using namespace cardgames;
using namespace cardgames::encoding;

namespace pycards {

namespace {

// A bot from the project's table (sampling::make_player) that acts for the player to move of any
// State. A Player may keep history between hands (Player::hand_over, as the game runner tells it):
// before each decision the bot is told the hands of the State's game it has not been told yet,
// and a bot asked about another game (or an earlier point of one) starts afresh from its spec.
class PyBot {
  public:
    PyBot(std::string spec, std::uint64_t seed)
        : spec_(std::move(spec)),
          seed_(seed),
          player_(sampling::make_player(spec_, seed_, {}, store_)) {}

    std::string name() const { return player_->name(); }
    const std::string& spec() const { return spec_; }

    int act(const GameState& s) {
        const auto lock = hold();
        if (s.terminal()) throw InputError("the game is over: no player is to act");
        sync(s);
        Rules rules = s.rules();
        InfoState info = s.info_state(s.current_player());
        info.rules = &rules;
        return decide(info, s.pending_pass(), {s.game().seed(), info.hand_number, info.seat});
    }

    // A Python player's observation in a run (its "view"): the bot decides from what the seat
    // knows, with no history of earlier hands.
    int act_on(const py::dict& observation) {
        const auto lock = hold();
        if (!observation.contains("view"))
            throw InputError("act: expected a State or an observation of a run (with \"view\")");
        const SeatView& v = observation["view"].cast<const SeatView&>();
        return decide(v.info, v.pending, {v.info.dealt.bits(), v.info.hand_number, v.info.seat});
    }

    py::dict analyze(const GameState& s) {
        const auto lock = hold();
        if (!dynamic_cast<sampling::PimcBot*>(player_.get()))
            throw InputError("analyze: only a pimc bot analyzes, not '" + spec_ + "'");
        if (s.terminal() || s.game().phase() != Phase::kPlay)
            throw InputError("analyze: no card is due now");
        sync(s);
        // After sync, which makes a new player for another game.
        auto* pimc = dynamic_cast<sampling::PimcBot*>(player_.get());
        Rules rules = s.rules();
        InfoState info = s.info_state(s.current_player());
        info.rules = &rules;
        sampling::PimcAnalysis a;
        {
            py::gil_scoped_release release;
            a = pimc->analyze(info);
        }
        py::list cards;
        for (const sampling::CardValue& cv : a.cards)
            cards.append(py::dict(py::arg("action") = card_number(cv.card),
                                  py::arg("card") = to_string(cv.card), py::arg("mean") = cv.mean,
                                  py::arg("expected") = cv.expected, py::arg("votes") = cv.votes));
        return py::dict(py::arg("best") = card_number(a.best),
                        py::arg("best_card") = to_string(a.best), py::arg("cards") = cards,
                        py::arg("worlds") = a.worlds, py::arg("searched") = a.searched,
                        py::arg("expansions") = a.expansions);
    }

  private:
    // One call at a time, from any thread: a second waits for the first, without the GIL (which
    // the first takes again to return).
    std::unique_lock<std::mutex> hold() {
        std::unique_lock<std::mutex> lock(mutex_, std::defer_lock);
        py::gil_scoped_release release;
        lock.lock();
        return lock;
    }

    using PassKey = std::tuple<std::uint64_t, int, int>;  // game (seed or deal), hand, seat

    int decide(const InfoState& info, CardSet pending, const PassKey& key) {
        py::gil_scoped_release release;
        switch (info.phase) {
            case Phase::kBlindNil:
                return player_->blind_nil(info) ? kBlindNil : kNoBlindNil;
            case Phase::kBid:
                return kBidBase + player_->bid(info);
            case Phase::kPass: {
                // Passes go one card at a time, the bot's pass chosen once (as the game runner
                // asks for it) and handed out card by card.
                if (pending.empty() || pass_key_ != key || !pass_.contains_all(pending)) {
                    pass_ = player_->pass(info);
                    pass_key_ = key;
                }
                const CardSet rest = (pass_ & info.hand) - pending;
                const CardSet any = info.hand - pending;
                return kPassBase + card_number(rest.empty() ? any.lowest() : rest.lowest());
            }
            case Phase::kPlay:
                return card_number(player_->play(info));
            case Phase::kGameOver:
                break;
        }
        throw std::logic_error("no decision");
    }

    void sync(const GameState& s) {
        const Game& g = s.game();
        const std::size_t done = g.finished_hands().size();
        if (told_seed_ != g.seed() || done < told_) {
            if (told_seed_ || told_ > 0) player_ = sampling::make_player(spec_, seed_, {}, store_);
            told_ = 0;
            told_seed_ = g.seed();
        }
        for (; told_ < done; ++told_) {
            const bool last = told_ + 1 == done && g.over();
            player_->hand_over(g.finished_hands()[told_], last,
                               last ? g.winners() : std::vector<int>{});
        }
    }

    std::mutex mutex_;
    std::string spec_;
    std::uint64_t seed_;
    // The bot's model files, kept across the players it starts afresh (a file that changed on
    // disk is read again).
    std::shared_ptr<cardgames::models::ModelStore> store_ =
        std::make_shared<cardgames::models::ModelStore>();
    std::unique_ptr<Player> player_;
    std::optional<std::uint64_t> told_seed_;
    std::size_t told_ = 0;
    std::optional<PassKey> pass_key_;
    CardSet pass_;  // the pass chosen for pass_key_
};

}  // namespace

void bind_bots(py::module_& m) {
    py::class_<PyBot>(m, "Bot")
        .def_property_readonly("name", checked("Bot", &PyBot::name))
        .def_property_readonly("spec", checked("Bot", &PyBot::spec))
        .def("act", checked("Bot", &PyBot::act), py::arg("state"),
             "The action the bot takes for the player to move.")
        .def("act", checked("Bot", &PyBot::act_on), py::arg("observation"),
             "The action the bot takes for a Python player of a run, from its observation.")
        .def("analyze", checked("Bot", &PyBot::analyze), py::arg("state"),
             "pimc: every legal card's mean and expected value over the worlds, as hint shows.")
        // At every pickle protocol (0 and 1 would otherwise abort the interpreter).
        .def("__reduce__", [](const py::object&) -> py::object {
            throw py::type_error(
                "a Bot cannot be pickled: make it again with make_bot(spec, seed)");
        });
    m.def(
        "make_bot",
        [](const std::string& spec, const py::object& seed) {
            return std::make_unique<PyBot>(spec, seed_arg(seed, "seed"));
        },
        py::arg("spec"), py::arg("seed") = 0,
        ("A bot by its spec (" + sampling::known_bot_names() +
         "), seeded; make_bot('pimc:worlds=32'). pimc's options, [default]:\n\n" +
         cardgames::options_listing(sampling::bot_options("pimc")))
            .c_str());
}

}  // namespace pycards
