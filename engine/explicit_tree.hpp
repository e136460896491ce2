#pragma once
// A game given as an explicit tree, for hand-built examples (the papers' figures) and tests.
// Players are numbered from 0 (the papers' "Player 1" is player 0). Bounds are the trivial
// [0, maxsum]; the hash key is the node's index, unique per node, so there are no transpositions.

#include <cstdint>
#include <initializer_list>
#include <vector>

#include "engine/game.hpp"

namespace engine {

// Nodes are added bottom-up; the last node added is the root.
// Invariant: every interior node has 1..kMaxMoves children; leaves carry their tuple.
class ExplicitTree {
  public:
    using Move = std::uint8_t;
    static constexpr int kMaxMoves = 8;

    ExplicitTree(int players, Utility maxsum, bool constant_sum = true)
        : players_(players), maxsum_(maxsum), constant_sum_(constant_sum) {
        path_.reserve(kMaxPly);
    }

    int leaf(std::initializer_list<Utility> values) {
        Node node;
        int p = 0;
        for (Utility v : values) node.value[p++] = v;
        nodes_.push_back(node);
        return root_ = static_cast<int>(nodes_.size()) - 1;
    }
    int node(int player, std::initializer_list<int> children) {
        Node node;
        node.player = player;
        node.children.assign(children);
        nodes_.push_back(node);
        return root_ = static_cast<int>(nodes_.size()) - 1;
    }
    [[nodiscard]] int current() const { return path_.empty() ? root_ : path_.back(); }
    [[nodiscard]] int size() const { return static_cast<int>(nodes_.size()); }

    int num_players() const { return players_; }
    int player_to_move() const { return at().player; }
    bool is_terminal() const { return at().children.empty(); }
    void legal_moves(MoveListOf<ExplicitTree>& moves) const {
        for (std::size_t i = 0; i < at().children.size(); ++i)
            moves.push_back(static_cast<Move>(i));
    }
    void apply(Move move) { path_.push_back(at().children[move]); }
    void undo(Move) { path_.pop_back(); }
    void payoff(Tuple& out) const { out = at().value; }
    void evaluate(Tuple& out) const { out = Tuple{}; }
    void bounds(Tuple& lo, Tuple& hi) const {
        for (int p = 0; p < players_; ++p) {
            lo[p] = 0;
            hi[p] = maxsum_;
        }
    }
    Utility maxsum() const { return maxsum_; }
    bool constant_sum() const { return constant_sum_; }
    Utility delta() const { return 1; }
    std::uint64_t hash_key() const { return static_cast<std::uint64_t>(current()); }

  private:
    struct Node {
        Tuple value{};
        std::vector<int> children;
        int player = 0;
    };
    const Node& at() const { return nodes_[static_cast<std::size_t>(current())]; }

    int players_;
    Utility maxsum_;
    bool constant_sum_;
    std::vector<Node> nodes_;
    std::vector<int> path_;
    int root_ = 0;
};

static_assert(Game<ExplicitTree>);

}  // namespace engine
