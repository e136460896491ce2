// cardgames deals: prints seeded deals, one per line in the project's deal notation, for deal sets
// (data/deals/<preset>.txt). Deal i is deal_from_seed(rules, mix_seed(seed, i), 0), so any line of
// a set can be regenerated from the seed alone.
#include <iostream>

#include "apps/cli/common.hpp"
#include "cardgames/cards/deal.hpp"
#include "cardgames/cards/error.hpp"
#include "cardgames/rules/dealing.hpp"

namespace apps {

using namespace cardgames;

int cmd_deals(int argc, char** argv) {
    return guarded("deals", [&] {
        RulesOptions ro;
        long count = 0;
        std::uint64_t seed = 1;
        po::options_description desc("deals options");
        ro.add_to(desc);
        desc.add_options()("count", number(&count, 1L, kMaxItems)->default_value(2000),
                           "how many deals")("seed", seed_value(&seed)->default_value(1),
                                             "seed of the set");
        po::variables_map vm;
        if (!parse_args("deals", argc, argv, desc, vm)) return 0;
        const Rules rules = ro.resolve();
        std::string preset = ro.preset.empty() ? default_preset(rules.game) : ro.preset;
        std::cout << "# cardgames deals --preset " << preset;
        for (const std::string& o : ro.overrides) std::cout << " --rule " << o;
        std::cout << " --count " << count << " --seed " << seed << "\n";
        for (long i = 0; i < count; ++i)
            std::cout << deal_to_string(deal_from_seed(
                             rules, mix_seed(seed, static_cast<std::uint64_t>(i)), 0))
                      << "\n";
        return 0;
    });
}

}  // namespace apps
