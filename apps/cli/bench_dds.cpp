// cardgames bench --dds-compare N: solves N partnership Spades deals (spades trumps, spades may be
// led at any time, i.e. bridge double-dummy play with spades as trumps, North on lead) with our
// double-dummy solver (--algorithms alphabeta: the generic two-sided search with its table), and
// with DDS (the bridge double-dummy solver, libdds) for the same leader and trump, one thread each;
// checks that the trick counts agree exactly and prints both medians. --dds-repeat R solves each
// deal R times with each solver in turn (DDS from a fresh table each time) and keeps the fastest
// times. Built only when CMake found libdds (CARDGAMES_HAVE_DDS); otherwise the mode says so.
//
// libdds is opened here, when the mode runs, not linked: on loading, it allocates a
// transposition table for every core and frees them at exit, which cost every run of
// `cardgames` about 0.17 s (`cardgames --version` took 0.20 s, now 0.02).
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <iostream>
#include <nlohmann/json.hpp>
#include <random>

#include "apps/cli/bench_search.hpp"
#include "cardgames/cards/deal.hpp"
#include "cardgames/cards/error.hpp"
#include "cardgames/rules/position.hpp"
#include "cardgames/search/trick_game.hpp"
#include "engine/search.hpp"

#ifdef CARDGAMES_HAVE_DDS
#include <dds/dll.h>
#include <dlfcn.h>

#include <cstdlib>

#include "cardgames/double_dummy/double_dummy.hpp"
#include "cardgames/rules/dealing.hpp"
#endif

namespace apps {

#ifndef CARDGAMES_HAVE_DDS

int bench_dds_compare(const BenchSearchOptions&) {
    throw cardgames::InputError(
        "--dds-compare: this build has no DDS (install libdds-dev and re-run CMake)");
}

#else

using namespace cardgames;

namespace {

// Deal i of the comparison: a seeded full deal; for shorter hands, a seeded choice of k cards from
// each hand (an end position with every suit possibly uneven).
Deal comparison_deal(const Rules& rules, std::uint64_t seed, int i, int tricks) {
    Deal deal = deal_from_seed(rules, mix_seed(seed, static_cast<std::uint64_t>(i)), 0);
    if (tricks >= rules.cards_per_hand()) return deal;
    std::mt19937_64 rng(mix_seed(seed ^ 0xdd5ULL, static_cast<std::uint64_t>(i)));
    for (int p = 0; p < rules.players; ++p) {
        std::vector<Card> cards(deal.hands[p].begin(), deal.hands[p].end());
        // Fisher-Yates with our own index draws, so the choice is the same with every library.
        for (int j = static_cast<int>(cards.size()) - 1; j > 0; --j)
            std::swap(cards[j], cards[rng() % (j + 1)]);
        CardSet kept;
        for (int j = 0; j < tricks; ++j) kept |= cards[j];
        deal.hands[p] = kept;
    }
    return deal;
}

// libdds cannot be unloaded (dlclose leaves it), and at exit its clean-up runs after its own
// static objects are destroyed, and crashes. So a process that opened it ends just before that:
// this runs first among the exit handlers (it is registered last), after main has flushed and
// checked the output, and ends with main's status. It skips the handlers registered earlier
// (static destructors and LeakSanitizer's check).
void end_before_dds_cleanup(int status, void*) {
    std::_Exit(status);
}

// The DDS functions the comparison calls, from the library CMake found (CARDGAMES_DDS_LIBRARY),
// opened on the first comparison.
struct DdsLibrary {
    decltype(&::SetMaxThreads) set_max_threads = nullptr;
    decltype(&::SolveBoard) solve_board = nullptr;
    decltype(&::ErrorMessage) error_message = nullptr;
};

template <typename F>
F dds_function(void* library, const char* name) {
    void* f = dlsym(library, name);
    if (f == nullptr)
        throw InputError(
            fmt::format("--dds-compare: {} has no function {}", CARDGAMES_DDS_LIBRARY, name));
    return reinterpret_cast<F>(f);
}

const DdsLibrary& dds_library() {
    static const DdsLibrary library = [] {
        void* handle = dlopen(CARDGAMES_DDS_LIBRARY, RTLD_NOW | RTLD_LOCAL);
        if (handle == nullptr)
            throw InputError(fmt::format("--dds-compare: cannot open DDS: {}", dlerror()));
        on_exit(end_before_dds_cleanup, nullptr);
        return DdsLibrary{dds_function<decltype(&::SetMaxThreads)>(handle, "SetMaxThreads"),
                          dds_function<decltype(&::SolveBoard)>(handle, "SolveBoard"),
                          dds_function<decltype(&::ErrorMessage)>(handle, "ErrorMessage")};
    }();
    return library;
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2.0;
}

}  // namespace

int bench_dds_compare(const BenchSearchOptions& options) {
    const Rules rules = load_rules(preset_path("spades-partnership"), {"spades_lead_anytime=true"});
    const bool json = options.format == "json";
    constexpr int kLeader = 0;  // North leads; DDS: first = 0 (North), trump = 0 (spades)
    const DdsLibrary& lib = dds_library();
    lib.set_max_threads(1);
    // Ours: the double-dummy solver, or with --algorithms alphabeta the generic two-sided search.
    const bool generic = options.algorithms == "alphabeta";
    if (!generic && !options.algorithms.empty() && options.algorithms != "dd")
        throw InputError(
            "--dds-compare: --algorithms must be dd (the default) or alphabeta, not '" +
            options.algorithms + "'");
    const PlayRules play_rules = PlayRules::from(rules);
    DoubleDummy solver;

    std::vector<double> ours_ms, dds_ms;
    std::vector<double> ours_exp;
    int disagreements = 0;
    if (!json)
        std::cout
            << fmt::format(
                   "{} deals of {} tricks, spades trumps, North leads; tricks for North-South{}\n",
                   options.dds_compare, options.dds_tricks,
                   options.dds_repeat > 1
                       ? fmt::format("; fastest of {} runs each", options.dds_repeat)
                       : "")
            << fmt::format("{:>5}  {:>6}{:>14}{:>11}  {:>6}{:>11}\n", "deal", "ours", "expansions",
                           "ms", "dds", "ms");
    // DDS keeps its table when it is given the same deal again: between repeats this one-trick deal
    // makes it start afresh, as it did the first time.
    struct deal flush {};
    flush.first = kLeader;
    for (int h = 0; h < 4; ++h) flush.remainCards[h][h] = 1u << 2;
    for (int i = 0; i < options.dds_compare; ++i) {
        const Deal deal = comparison_deal(rules, options.dds_seed, i, options.dds_tricks);
        const PlayState state = position_from_deal(rules, deal, kLeader, {}, true);

        int ours = 0;
        std::uint64_t expansions = 0, tricks_searched = 0;
        const auto solve_ours = [&] {
            const auto start = std::chrono::steady_clock::now();
            if (generic) {
                engine::SearchOptions o;
                o.algorithm = engine::Algorithm::kAlphaBeta;
                o.tt_entries = std::size_t{1} << 21;
                TrickGame game(rules, state, Utility::kTricks);
                engine::Searcher<TrickGame> searcher(o);
                const auto r = searcher.search(game);
                ours = r.score / 2;  // both partners carry the side's tricks
                expansions = r.stats.expansions;
            } else {
                solver.clear();  // each deal from an empty table, as DDS starts each new deal
                solver.reset_stats();
                ours = solver.solve(play_rules, state);
                expansions = solver.stats().expansions;
                tricks_searched = solver.stats().tricks;
            }
            return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() -
                                                             start)
                .count();
        };

        struct deal dl {};
        dl.trump = 0;
        dl.first = kLeader;
        for (int h = 0; h < 4; ++h)
            for (int s = 0; s < 4; ++s)
                dl.remainCards[h][s] = deal.hands[h].lane(kSuitsNotationOrder[s]);
        futureTricks fut{};
        const auto solve_dds = [&] {
            const auto start = std::chrono::steady_clock::now();
            const int rc = lib.solve_board(dl, -1, 1, 1, &fut, 0);
            const double ms =
                std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
                    .count();
            if (rc != RETURN_NO_FAULT) {
                char line[80] = {};
                lib.error_message(rc, line);
                throw InputError(fmt::format("DDS SolveBoard failed on deal {}: {}", i, line));
            }
            return ms;
        };
        double our_ms = solve_ours(), their_ms = solve_dds();
        for (int r = 1; r < options.dds_repeat; ++r) {
            our_ms = std::min(our_ms, solve_ours());
            futureTricks ignored{};
            (void)lib.solve_board(flush, -1, 1, 1, &ignored, 0);
            their_ms = std::min(their_ms, solve_dds());
        }
        const int theirs = fut.score[0];
        const bool agree = ours == theirs;
        disagreements += !agree;
        ours_ms.push_back(our_ms);
        dds_ms.push_back(their_ms);
        ours_exp.push_back(static_cast<double>(expansions));
        if (json) {
            nlohmann::json j;
            j["deal"] = deal_to_string(deal);
            j["ours"] = ours;
            j["dds"] = theirs;
            j["expansions"] = expansions;
            j["ours_ms"] = our_ms;
            j["dds_ms"] = their_ms;
            j["dds_nodes"] = fut.nodes;  // DDS counts the tricks its search completed
            if (!generic) j["tricks_searched"] = tricks_searched;
            std::cout << j.dump() << "\n";
        } else {
            std::cout << fmt::format("{:>5}  {:>6}{:>14}{:>11.1f}  {:>6}{:>11.1f}{}\n", i, ours,
                                     expansions, our_ms, theirs, their_ms,
                                     agree ? "" : "  DIFFERENT: " + deal_to_string(deal));
        }
        std::cout.flush();
    }
    if (json) {
        nlohmann::json j;
        j["deals"] = options.dds_compare;
        j["repeat"] = options.dds_repeat;
        j["disagreements"] = disagreements;
        j["median_ours_ms"] = median(ours_ms);
        j["median_dds_ms"] = median(dds_ms);
        j["median_expansions"] = median(ours_exp);
        std::cout << j.dump() << "\n";
    } else {
        std::cout << fmt::format(
            "agree on {}/{} deals; median ms: ours {:.2f}, dds {:.2f}; median expansions (ours) "
            "{:.0f}\n",
            options.dds_compare - disagreements, options.dds_compare, median(ours_ms),
            median(dds_ms), median(ours_exp));
    }
    return disagreements ? 1 : 0;
}

#endif

}  // namespace apps
