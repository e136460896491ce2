#include "sampling/ismcts.hpp"

#include <algorithm>
#include <boost/random/mersenne_twister.hpp>
#include <boost/random/uniform_int_distribution.hpp>
#include <cmath>
#include <limits>

#include "cardgames/cards/seeds.hpp"
#include "cardgames/players/rule_bot.hpp"
#include "engine/search.hpp"
#include "sampling/constraints.hpp"
#include "sampling/deal_sampler.hpp"
#include "sampling/parallel.hpp"
#include "sampling/playout.hpp"

namespace sampling {

using namespace cardgames;

namespace {

// A card played from a node, and what the play-outs through it gave the seat that played it.
struct Edge {
    Card card;
    int child = -1;
    int visits = 0;
    int available = 0;  // iterations in which the card was legal when its node was left
    double sum = 0;     // the mover's rewards (seat_value's value)
    double shown = 0;   // the mover's seat_value shown and others, summed (the root's are read)
    double others = 0;
};

struct Node {
    int mover = 0;  // the seat to move: the same in every world, the card sequence being public
    std::vector<Edge> edges;
};

// One tree and what its iterations share: the rule player of the play-outs and the exact search
// of their last tricks, with what is left of its budget.
class Tree {
  public:
    Tree(const InfoState& info, const IsmctsSettings& settings, const DealSampler& sampler,
         std::uint64_t budget)
        : info_(info),
          settings_(settings),
          sampler_(sampler),
          solver_(settings.solve),
          budget_left_(budget),
          limited_(budget > 0) {
        nodes_.push_back(Node{info.seat, {}});
    }

    // One iteration, in world `number` of the decision seeded `base` (dealt as pimc deals its
    // worlds; the iteration's own choices draw on from the same generator).
    void iterate(std::uint64_t base, int number) {
        boost::random::mt19937_64 rng(seeds::world(base, number));
        const Deal deal = sampler_.sample(rng, info_.hand);
        TrickGame world = world_of(info_, deal.hands, settings_.utility, settings_.bags);
        SeatViews views(info_);
        std::vector<std::pair<int, int>> path;  // (node, edge) walked
        std::vector<Card> applied;
        descend(world, views, rng, path, applied);
        const engine::Tuple value = play_out_rest(world, views);
        record(world, value, path);
        for (auto it = applied.rbegin(); it != applied.rend(); ++it) world.undo(*it);
    }

    const Node& root() const { return nodes_.front(); }
    std::uint64_t expansions() const { return expansions_; }

  private:
    // Selection and expansion: down the tree by UCB among the cards legal in `world`, until a
    // card never tried from a node is added, the hand ends, or the exact search would take over.
    void descend(TrickGame& world, SeatViews& views, boost::random::mt19937_64& rng,
                 std::vector<std::pair<int, int>>& path, std::vector<Card>& applied) {
        int node = 0;
        while (!world.is_terminal()) {
            const PlayState& s = world.state();
            if (solving() && s.trick_size == 0 && s.hands[s.to_move].size() <= settings_.solve_at)
                return;
            const CardSet legal = world.all_legal_cards();
            CardSet untried = legal;
            for (const Edge& e : nodes_[static_cast<std::size_t>(node)].edges) untried -= e.card;
            int edge = -1;
            if (!untried.empty()) {
                edge = add_edge(node, draw(untried, rng));
            } else {
                edge = select(node, legal);
            }
            const Card card = nodes_[static_cast<std::size_t>(node)].edges[edge].card;
            const int seat = s.to_move;
            world.apply(card);
            views.record(seat, card, world.state());
            applied.push_back(card);
            path.emplace_back(node, edge);
            if (!untried.empty()) return;
            node = child(node, edge, world);
        }
    }

    // A uniformly drawn card of `cards` (not empty).
    static Card draw(CardSet cards, boost::random::mt19937_64& rng) {
        boost::random::uniform_int_distribution<int> pick(0, cards.size() - 1);
        int k = pick(rng);
        for (Card c : cards)
            if (k-- == 0) return c;
        return cards.lowest();
    }

    int add_edge(int node, Card card) {
        std::vector<Edge>& edges = nodes_[static_cast<std::size_t>(node)].edges;
        edges.push_back(Edge{.card = card, .available = 1});
        return static_cast<int>(edges.size()) - 1;
    }

    // The node a walked edge leads to, made on its first walk (`world` stands after its card).
    int child(int node, int edge, const TrickGame& world) {
        int c = nodes_[static_cast<std::size_t>(node)].edges[static_cast<std::size_t>(edge)].child;
        if (c >= 0) return c;
        c = static_cast<int>(nodes_.size());
        nodes_.push_back(Node{world.state().to_move, {}});
        nodes_[static_cast<std::size_t>(node)].edges[static_cast<std::size_t>(edge)].child = c;
        return c;
    }

    // UCB1 among the node's edges whose card is legal here, each such edge's availability counted.
    int select(int node, CardSet legal) {
        std::vector<Edge>& edges = nodes_[static_cast<std::size_t>(node)].edges;
        const double sd = rewards_ > 1 ? std::sqrt(m2_ / (rewards_ - 1)) : 0.0;
        const double scale = sd > 0 ? sd : 1.0;
        int best = -1;
        double top = -std::numeric_limits<double>::infinity();
        for (std::size_t i = 0; i < edges.size(); ++i) {
            Edge& e = edges[i];
            if (!legal.contains(e.card)) continue;
            ++e.available;
            const double ucb = e.sum / e.visits / scale +
                               kIsmctsExploration * std::sqrt(std::log(e.available) / e.visits);
            if (ucb > top) {
                top = ucb;
                best = static_cast<int>(i);
            }
        }
        return best;
    }

    bool solving() const { return settings_.solve_at > 0 && !(limited_ && budget_left_ == 0); }

    // The rest of the hand from the tree's last card: the rule player in every seat, the exact
    // search taking the last tricks within what is left of the tree's budget.
    engine::Tuple play_out_rest(TrickGame& world, SeatViews& views) {
        RuleBot rule;
        engine::Searcher<TrickGame>* solver = solving() ? &solver_ : nullptr;
        if (solver && limited_) solver->set_node_limit(budget_left_);
        std::uint64_t used = 0;
        const engine::Tuple value =
            play_out(views, world, kNoCard, every_seat(rule), settings_.solve_at, solver, &used);
        expansions_ += used;
        // A solve that used all that was left may have been cut short: the budget is spent.
        if (solver && limited_) budget_left_ -= std::min(used, budget_left_);
        return value;
    }

    // Backpropagation: each walked edge takes the reward of the seat that played its card.
    void record(const TrickGame& world, const engine::Tuple& value,
                const std::vector<std::pair<int, int>>& path) {
        std::array<SeatValue, kMaxPlayers> rewards{};
        for (int s = 0; s < info_.rules->players; ++s) {
            rewards[static_cast<std::size_t>(s)] =
                seat_value(*info_.rules, world, value, s, settings_.margin);
            // Welford's running variance of every reward seen.
            const double x = rewards[static_cast<std::size_t>(s)].value;
            ++rewards_;
            const double delta = x - mean_;
            mean_ += delta / rewards_;
            m2_ += delta * (x - mean_);
        }
        for (const auto& [node, edge] : path) {
            Node& n = nodes_[static_cast<std::size_t>(node)];
            Edge& e = n.edges[static_cast<std::size_t>(edge)];
            const SeatValue& r = rewards[static_cast<std::size_t>(n.mover)];
            ++e.visits;
            e.sum += r.value;
            e.shown += r.shown;
            e.others += r.others;
        }
    }

    const InfoState& info_;
    const IsmctsSettings& settings_;
    const DealSampler& sampler_;
    engine::Searcher<TrickGame> solver_;
    std::uint64_t budget_left_;
    bool limited_;
    std::uint64_t expansions_ = 0;
    std::vector<Node> nodes_;
    // The rewards seen, every seat's: UCB reads rewards in their standard deviations.
    long rewards_ = 0;
    double mean_ = 0;
    double m2_ = 0;
};

}  // namespace

PimcAnalysis ismcts_analysis(const InfoState& info, std::vector<CardValue> cards,
                             const IsmctsSettings& settings, std::uint64_t base,
                             DecisionArena& arena) {
    // Throws Contradiction when the state is impossible.
    const DealSampler sampler(constraints_from(info));
    // As many play-outs as pimc's worlds give (one per legal card in each), each in a world of
    // its own: dealing a world costs little next to its play-out, and playing several out in one
    // world each lost more against `pimc` (docs/results/2026-12-01-ismcts.md). Every tree tries
    // each card at its root at least once.
    const int legal = static_cast<int>(cards.size());
    const int per_tree =
        std::max(legal, (settings.worlds * legal + kIsmctsTrees - 1) / kIsmctsTrees);
    const std::uint64_t tree_budget =
        settings.budget == 0 ? 0 : std::max<std::uint64_t>(1, settings.budget / kIsmctsTrees);
    struct TreeResult {
        std::vector<Edge> root;
        std::uint64_t expansions = 0;
        int thread_slot = -1;
    };
    std::vector<TreeResult> trees(kIsmctsTrees);
    arena.parallel_for_index(kIsmctsTrees, [&](int t) {
        Tree tree(info, settings, sampler, tree_budget);
        // Tree t's iterations deal worlds t, t + trees, ...
        for (int i = 0; i < per_tree; ++i) tree.iterate(base, t + kIsmctsTrees * i);
        TreeResult& r = trees[static_cast<std::size_t>(t)];
        r.root = tree.root().edges;
        r.expansions = tree.expansions();
        r.thread_slot = current_thread_slot();
    });
    PimcAnalysis out;
    out.cards = std::move(cards);
    out.searched = true;
    out.worlds = per_tree * kIsmctsTrees;
    std::vector<int> slots;
    std::vector<double> sum(out.cards.size()), shown(out.cards.size()), others(out.cards.size());
    for (const TreeResult& r : trees) {
        out.expansions += r.expansions;
        if (std::find(slots.begin(), slots.end(), r.thread_slot) == slots.end())
            slots.push_back(r.thread_slot);
        for (const Edge& e : r.root)
            for (std::size_t i = 0; i < out.cards.size(); ++i)
                if (out.cards[i].card == e.card) {
                    out.cards[i].votes += e.visits;
                    sum[i] += e.sum;
                    shown[i] += e.shown;
                    others[i] += e.others;
                }
    }
    out.threads_used = static_cast<int>(slots.size());
    std::size_t best = 0;
    for (std::size_t i = 0; i < out.cards.size(); ++i) {
        CardValue& cv = out.cards[i];
        const double n = std::max(1, cv.votes);
        cv.mean = sum[i] / n;
        cv.expected = shown[i] / n;
        cv.others = others[i] / n;
        const CardValue& b = out.cards[best];
        if (cv.mean > b.mean + 1e-9) best = i;
    }
    out.best = out.cards[best].card;
    return out;
}

}  // namespace sampling
