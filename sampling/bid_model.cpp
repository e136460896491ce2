#include "sampling/bid_model.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <map>
#include <ostream>
#include <sstream>

#include "cardgames/cards/error.hpp"
#include "cardgames/cards/text.hpp"
#include "cardgames/cards/text_file.hpp"
#include "cardgames/models/model_file.hpp"
#include "cardgames/players/heuristics.hpp"
#include "cardgames/rules/dealing.hpp"
#include "cardgames/rules/scoring.hpp"
#include "sampling/model_file.hpp"
#include "sampling/parallel.hpp"

namespace sampling {

using namespace cardgames;

BidSituation BidSituation::from(const InfoState& info) {
    BidSituation s;
    s.rules = info.rules;
    s.seat = info.seat;
    s.dealer = info.dealer;
    s.hand = info.hand;
    s.bids = info.bids;
    s.scores = info.scores;
    return s;
}

InfoState BidSituation::info() const {
    InfoState v;
    v.rules = rules;
    v.seat = seat;
    v.dealer = dealer;
    v.phase = Phase::kBid;
    v.hand = v.dealt = hand;
    v.bids = bids;
    v.scores = scores;
    return v;
}

int sure_tricks(CardSet hand) {
    int n = 0;
    for (Rank r = kAce; r >= kTwo && hand.contains(Card(Suit::kSpades, r)); --r) ++n;
    return n;
}

const std::vector<std::string>& bid_feature_names() {
    static const std::vector<std::string> names = {
        "rule_estimate", "rule_bid",           "rule_nil",        "rule_nil_safe",
        "spades",        "spade_ace",          "spade_king",      "spade_queen",
        "spade_jack",    "sure_tricks",        "spades_ten_up",   "highest_spade",
        "side_aces",     "side_kings_guarded", "side_kings_bare", "side_queens_guarded",
        "side_jacks",    "side_voids",         "side_singletons", "side_doubletons",
        "longest_side",  "low_cards",          "high_cards",      "position",
        "partner_bid",   "partner_nil",        "partner_unbid",   "opponents_bids",
        "opponents_nil"};
    return names;
}

std::vector<double> bid_features(const BidSituation& s) {
    const Rules& rules = *s.rules;
    const InfoState view = s.info();
    const CardSet hand = s.hand;
    std::vector<double> f;
    f.reserve(bid_feature_names().size());
    const int rule = heuristics::spades_bid(view);
    f.push_back(heuristics::spades_trick_estimate(hand, rules.players));
    f.push_back(rule);
    f.push_back(rule == 0 ? 1 : 0);
    f.push_back(heuristics::spades_nil_safe(hand, !rules.is_partnership()) ? 1 : 0);
    const CardSet spades = hand.of_suit(Suit::kSpades);
    f.push_back(spades.size());
    for (Rank r : {kAce, kKing, kQueen, kJack})
        f.push_back(spades.contains(Card(Suit::kSpades, r)) ? 1 : 0);
    f.push_back(sure_tricks(hand));
    int ten_up = 0;
    for (Card c : spades)
        if (c.rank() >= kTen) ++ten_up;
    f.push_back(ten_up);
    f.push_back(spades.empty() ? 0 : spades.highest().rank());
    double aces = 0, kings_guarded = 0, kings_bare = 0, queens_guarded = 0, jacks = 0, voids = 0,
           singletons = 0, doubletons = 0, longest = 0;
    for (Suit suit : {Suit::kHearts, Suit::kDiamonds, Suit::kClubs}) {
        const int len = hand.count(suit);
        auto has = [&](Rank r) { return hand.contains(Card(suit, r)); };
        aces += has(kAce);
        kings_guarded += has(kKing) && len >= 2;
        kings_bare += has(kKing) && len == 1;
        queens_guarded += has(kQueen) && len >= 3;
        jacks += has(kJack);
        voids += len == 0;
        singletons += len == 1;
        doubletons += len == 2;
        longest = std::max<double>(longest, len);
    }
    for (double v : {aces, kings_guarded, kings_bare, queens_guarded, jacks, voids, singletons,
                     doubletons, longest})
        f.push_back(v);
    int low = 0, high = 0;
    for (Card c : hand) {
        low += c.rank() <= 7;
        high += c.rank() >= kJack;
    }
    f.push_back(low);
    f.push_back(high);
    int position = 0, opponents = 0, opponents_nil = 0;
    for (int seat = 0; seat < rules.players; ++seat) {
        if (seat == s.seat || !s.bids[seat].made()) continue;
        ++position;
        if (rules.unit_of(seat) == rules.unit_of(s.seat)) continue;
        opponents += s.bids[seat].tricks;
        opponents_nil += s.bids[seat].is_nil();
    }
    const int partner = view.partner();
    const Bid pb = partner >= 0 ? s.bids[partner] : Bid{};
    f.push_back(position);
    f.push_back(pb.made() ? pb.tricks : 0);
    f.push_back(pb.is_nil() ? 1 : 0);
    f.push_back(partner >= 0 && !pb.made() ? 1 : 0);
    f.push_back(opponents);
    f.push_back(opponents_nil);
    return f;
}

namespace {

double sigmoid(double z) {
    return 1 / (1 + std::exp(-z));
}

double dot(const std::vector<double>& w, const std::vector<double>& x) {
    double z = 0;
    for (std::size_t i = 0; i < w.size(); ++i) z += w[i] * x[i];
    return z;
}

}  // namespace

std::vector<double> SpadesBidModel::tricks(const BidSituation& s) const {
    return tricks(bid_features(s), sure_tricks(s.hand));
}

std::vector<double> SpadesBidModel::tricks(const std::vector<double>& x, int floor) const {
    const double z = dot(trick_weights, x);
    // at_least[k] = P(tricks >= k), non-increasing in k.
    std::vector<double> at_least(static_cast<std::size_t>(cards) + 2, 0.0);
    at_least[0] = 1;
    for (int k = 1; k <= cards; ++k)
        at_least[k] =
            k <= floor ? 1.0 : std::min(at_least[k - 1], sigmoid(z + trick_intercepts[k - 1]));
    std::vector<double> p(static_cast<std::size_t>(cards) + 1);
    for (int k = 0; k <= cards; ++k) p[k] = at_least[k] - at_least[k + 1];
    return p;
}

double SpadesBidModel::nil_made(const BidSituation& s) const {
    return nil_made(bid_features(s));
}

double SpadesBidModel::nil_made(const std::vector<double>& x) const {
    return sigmoid(nil_intercept + dot(nil_weights, x));
}

bool SpadesBidModel::fits(const Rules& rules) const {
    return rules.game == GameKind::kSpades && rules.players == players &&
           rules.cards_per_hand() == cards && rules.is_partnership() == partnership;
}

// ---- the file ----

namespace {

void write_numbers(std::ostream& out, const char* key, const std::vector<double>& v) {
    out << key << " " << v.size();
    char buf[64];
    for (double x : v) {
        const auto r = std::to_chars(buf, buf + sizeof buf, x);
        out << " " << std::string_view(buf, static_cast<std::size_t>(r.ptr - buf));
    }
    out << "\n";
}

std::string number_text(double x) {
    char buf[64];
    const auto r = std::to_chars(buf, buf + sizeof buf, x);
    return std::string(buf, r.ptr);
}

}  // namespace

std::string SpadesBidModel::fingerprint() const {
    const std::vector<double> sizes = {static_cast<double>(players), static_cast<double>(cards),
                                       partnership ? 1.0 : 0.0, nil_intercept, blind_nil_made};
    std::string out = "spades-bids: " + numbers_text(sizes);
    for (const auto* v : {&trick_intercepts, &trick_weights, &nil_weights, &partner_residual})
        out += "| " + numbers_text(*v);
    return out;
}

namespace {

// What every bid model file says about itself (its first comment lines, not kept as provenance
// when read).
constexpr const char* kAbout[] = {
    "cardgames Spades bid model (sampling/bid_model.hpp), read by pimc:bid=model.",
    "tricks: P(tricks >= k) = sigmoid(trick_weights . features + trick_intercepts[k-1]), k = "
    "1..cards,",
    "  made non-increasing in k; the hand's top spades in sequence from the ace are a floor.",
    "nil: P(a nil bid is made) = sigmoid(nil_intercept + nil_weights . features).",
    "partner_residual: P(tricks - bid = r), r = -cards..cards, over non-nil bids.",
    "blind_nil_made: P(a blind nil is made), the nil model's mean over dealt hands.",
    "Features are computed by bid_features() in the order listed; a program whose list differs "
    "refuses the file.",
};

bool is_about(std::string_view comment) {
    return std::find(std::begin(kAbout), std::end(kAbout), comment) != std::end(kAbout);
}

constexpr int kBidFeatureVersion = 1;

std::string bid_feature_set() {
    return "spades-bids " + std::to_string(kBidFeatureVersion) + " " +
           std::to_string(bid_feature_names().size());
}

std::string rules_text(const SpadesBidModel& m) {
    return "players " + std::to_string(m.players) + " cards " + std::to_string(m.cards) +
           " partnership " + (m.partnership ? "true" : "false");
}

// The tensors of a version 2 file, in order: name, values.
std::vector<std::pair<std::string, std::vector<double>>> tensors_of(const SpadesBidModel& m) {
    return {{"trick_intercepts", m.trick_intercepts}, {"trick_weights", m.trick_weights},
            {"nil_intercept", {m.nil_intercept}},     {"nil_weights", m.nil_weights},
            {"partner_residual", m.partner_residual}, {"blind_nil_made", {m.blind_nil_made}}};
}

}  // namespace

std::string bid_model_form(const SpadesBidModel& m) {
    return m.partnership ? "spades-partnership" : "spades-cutthroat" + std::to_string(m.players);
}

models::ModelFile bid_model_file(const SpadesBidModel& m) {
    models::ModelFile v2;
    v2.comments.assign(std::begin(kAbout), std::end(kAbout));
    v2.comments.insert(v2.comments.end(), m.provenance.begin(), m.provenance.end());
    std::string names;
    for (const std::string& n : bid_feature_names()) names += (names.empty() ? "" : " ") + n;
    v2.fields = {{"kind", "bids"},
                 {"features", bid_feature_set()},
                 {"names", names},
                 {"rules", rules_text(m)}};
    v2.fields.insert(v2.fields.end(), m.meta.begin(), m.meta.end());
    for (auto& [name, values] : tensors_of(m)) {
        models::Tensor t;
        t.name = name;
        t.dtype = models::DType::kF64;
        t.shape = {static_cast<int>(values.size())};
        t.f64 = std::move(values);
        v2.tensors.push_back(std::move(t));
    }
    return v2;
}

void write_bid_model(const SpadesBidModel& m, std::ostream& out) {
    out << models::format_model_file(bid_model_file(m));
}

void write_text_bid_model(const SpadesBidModel& m, std::ostream& out) {
    for (const char* line : kAbout) out << "# " << line << "\n";
    for (const std::string& line : m.provenance) out << "# " << line << "\n";
    out << "format 1\n";
    out << "rules players " << m.players << " cards " << m.cards << " partnership "
        << (m.partnership ? "true" : "false") << "\n";
    out << "features " << bid_feature_names().size();
    for (const std::string& n : bid_feature_names()) out << " " << n;
    out << "\n";
    write_numbers(out, "trick_intercepts", m.trick_intercepts);
    write_numbers(out, "trick_weights", m.trick_weights);
    out << "nil_intercept " << number_text(m.nil_intercept) << "\n";
    write_numbers(out, "nil_weights", m.nil_weights);
    write_numbers(out, "partner_residual", m.partner_residual);
    out << "blind_nil_made " << number_text(m.blind_nil_made) << "\n";
    out << "end\n";
}

namespace {

double parse_number(std::string_view w) {
    double v = 0;
    const auto [ptr, ec] = std::from_chars(w.data(), w.data() + w.size(), v);
    if (ec != std::errc() || ptr != w.data() + w.size() || !std::isfinite(v))
        throw InputError("'" + safe_text(w) + "' is not a finite number");
    return v;
}

int parse_count(std::string_view w, int lo, int hi) {
    int v = 0;
    const auto [ptr, ec] = std::from_chars(w.data(), w.data() + w.size(), v);
    if (ec != std::errc() || ptr != w.data() + w.size() || v < lo || v > hi)
        throw InputError("'" + safe_text(w) + "' is not a count from " + std::to_string(lo) +
                         " to " + std::to_string(hi));
    return v;
}

// "key n v1 .. vn" with n == expected.
std::vector<double> parse_vector(const std::vector<std::string_view>& words, std::size_t expected) {
    if (words.size() < 2) throw InputError("'" + std::string(words[0]) + "' needs a count");
    const int n = parse_count(words[1], 0, 1000);
    if (static_cast<std::size_t>(n) != expected)
        throw InputError("'" + std::string(words[0]) + "' has " + std::to_string(n) +
                         " values where " + std::to_string(expected) + " are expected");
    if (words.size() != expected + 2)
        throw InputError("'" + std::string(words[0]) + "' says " + std::to_string(n) +
                         " values and gives " + std::to_string(words.size() - 2));
    std::vector<double> v;
    for (std::size_t i = 2; i < words.size(); ++i) v.push_back(parse_number(words[i]));
    return v;
}

}  // namespace

namespace {

SpadesBidModel parse_text_bid_model(const std::string& text, const std::string& where) {
    SpadesBidModel m;
    std::map<std::string, int> seen;  // key -> line
    std::istringstream in(text);
    std::string line;
    int number = 0;
    bool ended = false, have_rules = false;
    const std::size_t nf = bid_feature_names().size();
    while (std::getline(in, line)) {
        ++number;
        try {
            const auto words = split_words(line);
            if (!words.empty() && words[0].front() == '#') {
                // Kept, so that a converted file still says how the model was made.
                const std::string_view c =
                    std::string_view(line).substr(line.size() > 1 && line[1] == ' ' ? 2 : 1);
                if (!is_about(c)) m.provenance.emplace_back(c);
                continue;
            }
            if (words.empty()) continue;
            if (ended) throw InputError("text after 'end'");
            const std::string key(words[0]);
            if (seen.count(key))
                throw InputError("'" + safe_text(key) + "' again (first on line " +
                                 std::to_string(seen[key]) + ")");
            seen[key] = number;
            auto need_rules = [&] {
                if (!have_rules) throw InputError("'" + key + "' before the 'rules' line");
            };
            if (key == "format") {
                if (words.size() != 2 || words[1] != "1")
                    throw InputError("format must be 'format 1'");
            } else if (key == "rules") {
                if (words.size() != 7 || words[1] != "players" || words[3] != "cards" ||
                    words[5] != "partnership" || (words[6] != "true" && words[6] != "false"))
                    throw InputError("expected 'rules players N cards N partnership true|false'");
                m.players = parse_count(words[2], 2, kMaxPlayers);
                m.cards = parse_count(words[4], 1, kMaxTricks);
                m.partnership = words[6] == "true";
                have_rules = true;
            } else if (key == "features") {
                const auto& names = bid_feature_names();
                if (words.size() != nf + 2 ||
                    parse_count(words[1], 0, 1000) != static_cast<int>(nf))
                    throw InputError("the model has other features than this program (" +
                                     std::to_string(nf) + ")");
                for (std::size_t i = 0; i < nf; ++i)
                    if (words[i + 2] != names[i])
                        throw InputError("feature " + std::to_string(i + 1) + " is '" +
                                         safe_text(words[i + 2]) + "', this program's is '" +
                                         names[i] + "'");
            } else if (key == "trick_intercepts") {
                need_rules();
                m.trick_intercepts = parse_vector(words, static_cast<std::size_t>(m.cards));
            } else if (key == "trick_weights") {
                m.trick_weights = parse_vector(words, nf);
            } else if (key == "nil_intercept") {
                if (words.size() != 2) throw InputError("nil_intercept takes one number");
                m.nil_intercept = parse_number(words[1]);
            } else if (key == "nil_weights") {
                m.nil_weights = parse_vector(words, nf);
            } else if (key == "partner_residual") {
                need_rules();
                m.partner_residual = parse_vector(words, 2 * static_cast<std::size_t>(m.cards) + 1);
                for (double p : m.partner_residual)
                    if (p < 0) throw InputError("partner_residual has a negative probability");
            } else if (key == "blind_nil_made") {
                if (words.size() != 2) throw InputError("blind_nil_made takes one number");
                m.blind_nil_made = parse_number(words[1]);
                if (m.blind_nil_made < 0 || m.blind_nil_made > 1)
                    throw InputError("blind_nil_made is not a probability");
            } else if (key == "end") {
                if (words.size() != 1) throw InputError("'end' takes nothing after it");
                ended = true;
            } else {
                throw InputError("unknown key '" + safe_text(key) + "'");
            }
        } catch (const InputError& e) {
            rethrow_with_context(where + " line " + std::to_string(number), e);
        }
    }
    for (const char* key :
         {"format", "rules", "features", "trick_intercepts", "trick_weights", "nil_intercept",
          "nil_weights", "partner_residual", "blind_nil_made", "end"})
        if (!seen.count(key))
            throw InputError(where + " line " + std::to_string(number) + ": no '" + key +
                             "' line (the file is cut short or not a bid model)");
    return m;
}

// A version 2 file as a bid model: `kind bids`, this program's feature set and names, rules, and
// its six f64 tensors of the sizes the rules give.
SpadesBidModel bid_model_of(const models::ModelFile& v2) {
    const std::string& where = v2.where;
    SpadesBidModel m;
    if (v2.get("kind") != "bids")
        cardgames::models::field_error(where, "kind",
                                       "a '" + v2.get("kind") + "' model, not a bid model");
    if (v2.get("features") != bid_feature_set())
        cardgames::models::field_error(where, "features",
                                       "'" + v2.get("features") + "', this program's are '" +
                                           bid_feature_set() +
                                           "' (fit the model again on new data)");
    const auto names = split_words(v2.get("names"));
    const auto& expected = bid_feature_names();
    for (std::size_t i = 0; i < std::max(names.size(), expected.size()); ++i)
        if (i >= names.size() || i >= expected.size() || names[i] != expected[i])
            cardgames::models::field_error(
                where, "names",
                "feature " + std::to_string(i + 1) + " is '" +
                    (i < names.size() ? safe_text(names[i]) : std::string("(none)")) +
                    "', this program's is '" +
                    (i < expected.size() ? expected[i] : std::string("(none)")) + "'");
    const auto rules = split_words(v2.get("rules"));
    try {
        if (rules.size() != 6 || rules[0] != "players" || rules[2] != "cards" ||
            rules[4] != "partnership" || (rules[5] != "true" && rules[5] != "false"))
            throw InputError("expected 'players N cards N partnership true|false'");
        m.players = parse_count(rules[1], 2, kMaxPlayers);
        m.cards = parse_count(rules[3], 1, kMaxTricks);
        m.partnership = rules[5] == "true";
    } catch (const InputError& e) {
        rethrow_with_context(where + ": field 'rules'", e);
    }
    for (const auto& [k, v] : v2.fields)
        if (k != "kind" && k != "features" && k != "names" && k != "rules")
            m.meta.emplace_back(k, v);
    for (const std::string& c : v2.comments)
        if (!is_about(c)) m.provenance.push_back(c);
    auto values = [&](const std::string& name, std::size_t n) {
        const models::Tensor& t = v2.tensor(name);
        if (t.dtype != models::DType::kF64 || t.shape != std::vector<int>{static_cast<int>(n)})
            throw InputError(where + ": tensor '" + name + "': " + models::dtype_name(t.dtype) +
                             " of " + std::to_string(t.size()) + ", expected f64 of " +
                             std::to_string(n));
        return t.f64;
    };
    const std::size_t nf = expected.size(), cards = static_cast<std::size_t>(m.cards);
    m.trick_intercepts = values("trick_intercepts", cards);
    m.trick_weights = values("trick_weights", nf);
    m.nil_intercept = values("nil_intercept", 1)[0];
    m.nil_weights = values("nil_weights", nf);
    m.partner_residual = values("partner_residual", 2 * cards + 1);
    for (double p : m.partner_residual)
        if (p < 0) throw InputError(where + ": tensor 'partner_residual': a negative probability");
    m.blind_nil_made = values("blind_nil_made", 1)[0];
    if (m.blind_nil_made < 0 || m.blind_nil_made > 1)
        throw InputError(where + ": tensor 'blind_nil_made': not a probability");
    if (v2.tensors.size() != tensors_of(m).size())
        throw InputError(where + ": " + std::to_string(v2.tensors.size()) +
                         " tensors, a bid model has " + std::to_string(tensors_of(m).size()));
    return m;
}

}  // namespace

bool is_bid_model_file(const std::string& bytes) {
    if (cardgames::models::is_current_model_file(bytes))
        return bytes.find("\nkind bids\n") != std::string::npos;
    std::istringstream in(bytes);
    for (std::string line; std::getline(in, line);) {
        const auto words = split_words(line);
        if (words.empty() || words[0].front() == '#') continue;
        return words.size() == 2 && words[0] == "format";
    }
    return false;
}

SpadesBidModel parse_bid_model(const std::string& text, const std::string& where) {
    if (cardgames::models::is_current_model_file(text))
        return bid_model_of(models::parse_model_file(text, where));
    return parse_text_bid_model(text, where);
}

SpadesBidModel read_bid_model(const std::filesystem::path& path) {
    const std::string where = "bid model '" + safe_text(path.string()) + "'";
    return parse_bid_model(read_text_file(path, "bid model"), where);
}

std::shared_ptr<const SpadesBidModel> load_bid_model(cardgames::models::ModelStore& store,
                                                     const std::filesystem::path& path) {
    return store.get<SpadesBidModel>(path, "bid model", [&](const std::string& bytes) {
        return std::make_shared<const SpadesBidModel>(
            parse_bid_model(bytes, "bid model '" + safe_text(path.string()) + "'"));
    });
}

std::filesystem::path default_bid_model_path(const Rules& rules) {
    const std::string name = rules.is_partnership()
                                 ? "spades-bids.txt"
                                 : "spades-bids-cutthroat" + std::to_string(rules.players) + ".txt";
    return data_dir() / "models" / name;
}

std::shared_ptr<const SpadesBidModel> bid_model_for(cardgames::models::ModelStore& store,
                                                    const std::string& path, const Rules& rules) {
    const std::filesystem::path file =
        path.empty() ? default_bid_model_path(rules) : std::filesystem::path(path);
    std::shared_ptr<const SpadesBidModel> model = load_bid_model(store, file);
    if (!model->fits(rules))
        throw InputError(
            "bid model '" + file.string() + "' was made for " + std::to_string(model->players) +
            " players with " + std::to_string(model->cards) + " cards" +
            (model->partnership ? " in partnerships" : " each alone") + ", not for these rules");
    return model;
}

// ---- the bid ----

namespace {

struct Dist {
    std::vector<double> p;  // P(tricks = k)
    double mean() const {
        double m = 0;
        for (std::size_t k = 0; k < p.size(); ++k) m += static_cast<double>(k) * p[k];
        return m;
    }
};

// The partner's tricks around a bid of `bid`.
Dist around_bid(const SpadesBidModel& m, int bid) {
    Dist d;
    d.p.assign(static_cast<std::size_t>(m.cards) + 1, 0.0);
    double total = 0;
    for (int t = 0; t <= m.cards; ++t) {
        d.p[t] = m.partner_residual[static_cast<std::size_t>(t - bid + m.cards)];
        total += d.p[t];
    }
    if (total <= 0) {
        d.p.assign(d.p.size(), 0.0);
        d.p[static_cast<std::size_t>(bid)] = 1;
    } else {
        for (double& x : d.p) x /= total;
    }
    return d;
}

// The partner's bid and tricks as this seat can foresee them; bid -1 when there is no partner.
struct PartnerView {
    int partner = -1;
    Bid bid;
    Dist tricks;  // counted towards the side's contract (a nil partner's: none)
};

PartnerView foresee_partner(const SpadesBidModel& m, const BidSituation& s, double my_mean) {
    PartnerView v;
    const Rules& rules = *s.rules;
    if (!rules.is_partnership()) return v;
    v.partner = (s.seat + 2) % rules.players;
    v.bid = s.bids[v.partner];
    if (v.bid.is_nil()) {
        v.tricks.p.assign(static_cast<std::size_t>(m.cards) + 1, 0.0);
        v.tricks.p[0] = 1;
        return v;
    }
    if (!v.bid.made()) {
        // The partner bids after us: what is left after our tricks and the bids made, shared
        // among the seats still to bid.
        double left = m.cards - my_mean;
        int unbid = 0;
        for (int seat = 0; seat < rules.players; ++seat) {
            if (seat == s.seat) continue;
            if (s.bids[seat].made())
                left -= s.bids[seat].tricks;
            else
                ++unbid;
        }
        const int guess = static_cast<int>(std::lround(std::max(0.0, left) / std::max(1, unbid)));
        v.bid = Bid{std::clamp(guess, 1, m.cards), false};
    }
    v.tricks = around_bid(m, v.bid.tricks);
    return v;
}

// Expected change of the seat's unit score with `mine` as its bid and `tricks` its distribution
// of tricks (for a nil bid: P(0) made, else one trick taken), bags valued by `bag_value`.
double expected_score(const SpadesBidModel& m, const BidSituation& s, Bid mine, const Dist& tricks,
                      const PartnerView& partner, BagValue bag_value) {
    const Rules& rules = *s.rules;
    const int unit = rules.unit_of(s.seat);
    std::array<Bid, kMaxPlayers> bids{};
    for (int seat = 0; seat < rules.players; ++seat) bids[seat] = Bid{1, false};
    bids[s.seat] = mine;
    if (partner.partner >= 0) bids[partner.partner] = partner.bid;
    double sum = 0, weight = 0;
    for (int k = 0; k <= m.cards; ++k) {
        if (tricks.p[k] < 1e-9) continue;
        const int partner_max = partner.partner >= 0 ? m.cards - k : 0;
        for (int j = 0; j <= partner_max; ++j) {
            const double pj = partner.partner >= 0 ? partner.tricks.p[j] : 1.0;
            if (pj < 1e-9) continue;
            std::array<int, kMaxPlayers> taken{};
            taken[s.seat] = k;
            if (partner.partner >= 0) taken[partner.partner] = j;
            ScoreBoard board = s.scores;
            const double w = tricks.p[k] * pj;
            sum += w * valued_delta(rules, score_spades_hand(rules, bids, taken, board), unit,
                                    bag_value);
            weight += w;
        }
    }
    return weight > 0 ? sum / weight : 0;
}

}  // namespace

std::vector<BidValue> value_bids(const SpadesBidModel& m, const BidSituation& s,
                                 BagValue bag_value) {
    const Rules& rules = *s.rules;
    Dist mine{m.tricks(s)};
    const PartnerView partner = foresee_partner(m, s, mine.mean());
    std::vector<BidValue> out;
    for (int b = 1; b <= m.cards; ++b)
        out.push_back({b, expected_score(m, s, Bid{b, false}, mine, partner, bag_value)});
    if (rules.nil_allowed) {
        const double made = m.nil_made(s);
        Dist nil;
        nil.p.assign(static_cast<std::size_t>(m.cards) + 1, 0.0);
        nil.p[0] = made;
        nil.p[1] = 1 - made;
        out.push_back({0, expected_score(m, s, Bid{0, false}, nil, partner, bag_value)});
    }
    std::stable_sort(out.begin(), out.end(),
                     [](const BidValue& a, const BidValue& b) { return a.expected > b.expected; });
    return out;
}

int model_bid(const SpadesBidModel& m, const BidSituation& s, BagValue bag_value) {
    const std::vector<BidValue> values = value_bids(m, s, bag_value);
    const int rule = heuristics::spades_bid(s.info());
    for (const BidValue& v : values)
        if (v.bid == rule && v.expected >= values.front().expected - 1e-9) return rule;
    return values.front().bid;
}

bool model_blind_nil(const SpadesBidModel& m, const InfoState& info, std::uint64_t seed,
                     int samples, const Deadline& deadline, BagValue bag_value) {
    BidSituation s = BidSituation::from(info);
    double normal = 0;
    int r = 0;
    for (; r < samples && (r == 0 || !deadline.passed()); ++r) {
        const Deal deal = deal_from_seed(*info.rules, mix_seed(seed, static_cast<std::uint64_t>(r)),
                                         info.hand_number);
        s.hand = deal.hands[info.seat];
        normal += value_bids(m, s, bag_value).front().expected;
    }
    normal /= std::max(1, r);
    Dist blind;
    blind.p.assign(static_cast<std::size_t>(m.cards) + 1, 0.0);
    blind.p[0] = m.blind_nil_made;
    blind.p[1] = 1 - m.blind_nil_made;
    const PartnerView partner = foresee_partner(m, s, 0.0);
    return expected_score(m, s, Bid{0, true}, blind, partner, bag_value) > normal;
}

}  // namespace sampling
