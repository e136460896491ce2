// Every text form of cards a user types: one card ("QS", "10h", "Q♠"), a card list ("AS KS 2H", as
// solve --trick, the terminal and records read it), a deal (PBN "N:..." or "3:..."; its hands
// "AKQ.JT9.-.2"). Accepted deals must print back to text that parses to the same deal.
#include "cardgames/cards/card.hpp"
#include "cardgames/cards/deal.hpp"
#include "cardgames/cards/error.hpp"
#include "tests/fuzz/fuzz_target.hpp"

using namespace cardgames;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string t = fuzz::text(data, size);
    try {
        const Card c = parse_card(t);
        fuzz::require(parse_card(to_string(c)) == c && parse_card(to_string_symbol(c)) == c,
                      "card round trip");
    } catch (const InputError&) {
    }
    std::istringstream words(t);
    for (std::string w; words >> w;) {
        try {
            parse_card(w);
        } catch (const InputError&) {
        }
    }
    try {
        const Deal deal = parse_deal(t);
        fuzz::require(parse_deal(deal_to_string(deal)) == deal, "deal round trip");
    } catch (const InputError&) {
    }
    return 0;
}
