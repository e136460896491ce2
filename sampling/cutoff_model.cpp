#include "sampling/cutoff_model.hpp"

#include <algorithm>
#include <bit>

#include "cardgames/cards/error.hpp"

namespace sampling {

using namespace cardgames;

const std::array<std::string_view, kCutoffFeatures>& cutoff_feature_names() {
    static const std::array<std::string_view, kCutoffFeatures> names = {"bias",
                                                                        "points_left",
                                                                        "tricks_left",
                                                                        "leads",
                                                                        "hearts",
                                                                        "high_hearts",
                                                                        "queen",
                                                                        "queen_guards",
                                                                        "spade_tops",
                                                                        "bare_spade_tops",
                                                                        "top_cards",
                                                                        "low_cards",
                                                                        "voids",
                                                                        "short_suits",
                                                                        "mean_rank",
                                                                        "top_x_points",
                                                                        "high_x_points",
                                                                        "hearts_x_points",
                                                                        "moon_self_x_points",
                                                                        "moon_other_x_points"};
    return names;
}

int cutoff_points_left(const TrickPlay& g) {
    int left = g.moon_total();
    for (int p = 0; p < g.players(); ++p) left -= g.penalty(p);
    return left;
}

void cutoff_features(const TrickPlay& g, int seat, CutoffFeatures& out) {
    const PlayState& ps = g.state();
    const int n = g.players();
    const CardSet mine = ps.hands[seat];
    CardSet others;
    for (int p = 0; p < n; ++p)
        if (p != seat) others |= ps.hands[p];
    const int tricks = std::max(1, g.remaining_tricks());
    const double points = cutoff_points_left(g);
    const double per_trick = points / tricks;
    const Card queen(Suit::kSpades, kQueen);
    const bool queen_mine = mine.contains(queen), queen_theirs = others.contains(queen);

    int top = 0, low = 0, voids = 0, shorts = 0, high = 0, rank_sum = 0;
    for (int s = 0; s < kNumSuits; ++s) {
        const auto suit = static_cast<Suit>(s);
        const std::uint16_t m = mine.lane(suit), o = others.lane(suit);
        const int len = std::popcount(m);
        if (len == 0) {
            voids += o != 0;
            continue;
        }
        shorts += len <= 2;
        // Cards above every card of the suit the others hold win when led; cards below every one
        // of theirs never win the suit.
        const int their_top = o ? 15 - std::countl_zero(o) : 0;
        const int their_low = o ? std::countr_zero(o) : 16;
        top += std::popcount(static_cast<std::uint16_t>(m & ~((2u << their_top) - 1)));
        low += std::popcount(static_cast<std::uint16_t>(m & ((1u << their_low) - 1)));
        high += std::popcount(static_cast<std::uint16_t>(m & ~((1u << kJack) - 1)));
    }
    for (Card c : mine) rank_sum += c.rank();
    const int hearts = mine.count(Suit::kHearts);
    const int high_hearts =
        std::popcount(static_cast<std::uint16_t>(mine.lane(Suit::kHearts) & ~((1u << kTen) - 1)));
    const int spades = mine.count(Suit::kSpades);
    const int spade_tops = (mine.contains(Card(Suit::kSpades, kAce)) ? 1 : 0) +
                           (mine.contains(Card(Suit::kSpades, kKing)) ? 1 : 0);
    // The moon: only while it is possible do the points taken enter (the hash key has them then).
    bool moon_self = false, moon_other = false;
    if (g.moon_possible())
        for (int p = 0; p < n; ++p)
            if (g.penalty(p) > 0) (p == seat ? moon_self : moon_other) = true;

    out = {1.0,
           points,
           static_cast<double>(g.remaining_tricks()),
           ps.to_move == seat ? 1.0 : 0.0,
           static_cast<double>(hearts),
           static_cast<double>(high_hearts),
           queen_mine ? 1.0 : 0.0,
           queen_mine ? static_cast<double>(spades - 1) : 0.0,
           queen_theirs ? static_cast<double>(spade_tops) : 0.0,
           queen_theirs && spade_tops > 0 && spades <= 2 ? 1.0 : 0.0,
           static_cast<double>(top),
           static_cast<double>(low),
           static_cast<double>(voids),
           static_cast<double>(shorts),
           mine.empty() ? 0.0 : static_cast<double>(rank_sum) / mine.size(),
           top * per_trick,
           high * per_trick,
           hearts * per_trick,
           moon_self ? points : 0.0,
           moon_other ? points : 0.0};
}

CutoffModel::CutoffModel(const ModelFile& file)
    : LinearModel(file, "cutoff-eval", cutoff_feature_names()) {}

void CutoffModel::predict(const TrickPlay& g, std::array<double, kMaxPlayers>& rest) const {
    CutoffFeatures f;
    for (int p = 0; p < g.players(); ++p) {
        cutoff_features(g, p, f);
        rest[p] = predict_seat(f);
    }
}

std::shared_ptr<const CutoffModel> load_cutoff_model(const std::filesystem::path& path) {
    static ModelCache<CutoffModel> cache;
    return cache.get(path.string(),
                     [&] { return std::make_shared<const CutoffModel>(read_model_file(path)); });
}

std::filesystem::path default_cutoff_model(const Rules& rules) {
    return data_dir() / "models" / (form_name(rules) + "-cutoff.txt");
}

std::shared_ptr<const CutoffModel> cutoff_model_for(const std::string& path, const Rules& rules) {
    if (rules.game != GameKind::kHearts)
        throw InputError(
            "cutoff=model: Hearts only (the model predicts penalty points); Spades keeps the "
            "even share");
    const std::shared_ptr<const CutoffModel> model =
        load_cutoff_model(path.empty() ? default_cutoff_model(rules) : std::filesystem::path(path));
    model->check_form(rules);
    return model;
}

}  // namespace sampling
