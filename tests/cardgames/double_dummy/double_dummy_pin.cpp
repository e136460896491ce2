// Writes data/regression/double-dummy.txt: whole partnership deals (spades trumps, spades led any
// time: bridge play) with the value of every legal opening lead pinned once by DDS, the bridge
// double-dummy solver, as DDS keeps its hands/list files. The regression test
// (double_dummy_regression_test.cpp) replays them against our solver with no oracle needed.
// Built only where CMake found libdds:  double_dummy_pin COUNT SEED >
// data/regression/double-dummy.txt
#include <dds/dll.h>

#include <cstdlib>
#include <iostream>
#include <map>
#include <string>

#include "cardgames/cards/deal.hpp"
#include "cardgames/rules/dealing.hpp"
#include "cardgames/rules/rules.hpp"

using namespace cardgames;

int main(int argc, char** argv) {
    if (argc != 3) {
        std::cerr << "usage: double_dummy_pin COUNT SEED\n";
        return 2;
    }
    const int count = std::atoi(argv[1]);
    const std::uint64_t seed = std::strtoull(argv[2], nullptr, 10);
    const Rules rules = load_rules(preset_path("spades-partnership"), {"spades_lead_anytime=true"});
    SetMaxThreads(1);
    std::cout
        << "# Whole partnership deals, spades trumps and led at any time (bridge play), each with "
           "the\n"
           "# tricks North-South take after every legal opening lead, as DDS solved them once:\n"
           "#   double_dummy_pin "
        << count << " " << seed
        << "  (tests/cardgames/double_dummy_pin.cpp)\n"
           "# deal | leader | card=tricks for North-South, every legal lead in notation order\n";
    for (int i = 0; i < count; ++i) {
        const Deal deal = deal_from_seed(rules, mix_seed(seed, static_cast<std::uint64_t>(i)), 0);
        const int leader = i % 4;
        struct deal dl {};
        dl.trump = 0;  // spades
        dl.first = leader;
        for (int h = 0; h < 4; ++h)
            for (int s = 0; s < 4; ++s)
                dl.remainCards[h][s] = deal.hands[h].lane(kSuitsNotationOrder[s]);
        futureTricks fut{};
        if (const int rc = SolveBoard(dl, -1, 3, 1, &fut, 0); rc != RETURN_NO_FAULT) {
            char line[80] = {};
            ErrorMessage(rc, line);
            std::cerr << "DDS failed on deal " << i << ": " << line << "\n";
            return 1;
        }
        // DDS lists each card once with the lower cards equal to it; its score is the leader's
        // side's.
        std::map<int, int> tricks;  // by card index
        for (int k = 0; k < fut.cards; ++k) {
            const Suit suit = kSuitsNotationOrder[fut.suit[k]];
            const int ns = leader % 2 == 0 ? fut.score[k] : 13 - fut.score[k];
            tricks[Card(suit, fut.rank[k]).index()] = ns;
            for (int r = kTwo; r <= kAce; ++r)
                if (fut.equals[k] & (1 << r)) tricks[Card(suit, r).index()] = ns;
        }
        std::cout << deal_to_string(deal) << " | "
                  << "NESW"[leader] << " |";
        for (Suit s : kSuitsNotationOrder)
            for (Rank r = kAce; r >= kTwo; --r)
                if (auto it = tricks.find(Card(s, r).index()); it != tricks.end())
                    std::cout << " " << to_string(Card(s, r)) << "=" << it->second;
        std::cout << "\n";
    }
    return 0;
}
