// The action numbering (cardgames/encoding/actions.hpp) for Python.
#include <string>

#include "apps/python/bindings.hpp"
#include "cardgames/cards/card.hpp"
#include "cardgames/cards/error.hpp"
#include "cardgames/encoding/actions.hpp"

namespace py = pybind11;
using namespace cardgames;
namespace enc = cardgames::encoding;

namespace pycards {

void bind_actions(py::module_& m) {
    m.attr("NUM_CARDS") = enc::kNumCards;
    m.attr("PASS_BASE") = enc::kPassBase;
    m.attr("BID_BASE") = enc::kBidBase;
    m.attr("NUM_BIDS") = enc::kNumBids;
    m.attr("NO_BLIND_NIL") = enc::kNoBlindNil;
    m.attr("BLIND_NIL") = enc::kBlindNil;
    m.attr("NUM_ACTIONS") = enc::kNumActions;
    m.def(
        "card_action", [](const std::string& card) { return enc::card_number(parse_card(card)); },
        "The action number of a card ('QS' -> 49): suit * 13 + rank - 2, clubs to spades.");
    m.def(
        "action_card",
        [](int a) {
            if (a < 0 || a >= enc::kNumCards)
                throw InputError("card number " + std::to_string(a) + ": expected 0..51");
            return to_string(enc::card_of_number(a));
        },
        "The card of a card number 0..51 (49 -> 'QS').");
    m.def("action_to_string", &enc::action_name, "What an action does: 'play QS', 'bid 4'.");
}

}  // namespace pycards
