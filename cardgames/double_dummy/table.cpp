// The double-dummy solver's table: shapes, patterns of top cards, bounds (partition search).
#include <algorithm>
#include <optional>

#include "cardgames/double_dummy/lanes.hpp"
#include "cardgames/double_dummy/solver.hpp"
#include "engine/hash.hpp"

namespace cardgames::double_dummy {

using namespace lanes;

namespace {

// compress(x, m): the bits of x at the positions set in m, packed down (a 16-bit pext), by bytes
// from a table.
struct CompressTable {
    std::array<std::uint8_t, 1 << 16> byte{};  // [mask << 8 | x]
    CompressTable() {
        for (unsigned m = 0; m < 256; ++m)
            for (unsigned x = 0; x < 256; ++x) {
                unsigned out = 0, k = 0;
                for (unsigned b = 0; b < 8; ++b)
                    if (m >> b & 1u) out |= (x >> b & 1u) << k++;
                byte[m << 8 | x] = static_cast<std::uint8_t>(out);
            }
    }
};
const CompressTable kCompress;

std::uint32_t compress(std::uint16_t x, std::uint16_t m) {
    const unsigned lo = kCompress.byte[(m & 0xffu) << 8 | (x & 0xffu)];
    const unsigned hi = kCompress.byte[(m & 0xff00u) | (x >> 8)];
    return lo | hi << bits(m & 0xffu);
}

// Bit i of x to bit 2i.
constexpr std::uint32_t spread(std::uint32_t x) {
    x = (x | (x << 8)) & 0x00ff00ffu;
    x = (x | (x << 4)) & 0x0f0f0f0fu;
    x = (x | (x << 2)) & 0x33333333u;
    return (x | (x << 1)) & 0x55555555u;
}

}  // namespace

void Solver::set_shape_keys() {
    play_.lengths = 0;
    for (int s = 0; s < 4; ++s) {
        const std::uint16_t b0 = hand_[1][s] | hand_[3][s], b1 = hand_[2][s] | hand_[3][s];
        const std::uint16_t all = hand_[0][s] | b0 | hand_[2][s];
        // Owner of each card in the hands, 2 bits per card, the lowest card in the lowest bits.
        play_.owners[s] = spread(compress(b0, all)) | spread(compress(b1, all)) << 1;
        for (int p = 0; p < 4; ++p)
            play_.lengths |= static_cast<std::uint64_t>(bits(hand_[p][s])) << length_shift(p, s);
    }
}

Solver::Shape Solver::shape() const {
    Shape sh;
    sh.lengths = play_.lengths;
    sh.owners = {};
    for (int s = 0; s < 4; ++s) {
        // Cards in play from the lengths: the four seats' nibbles of the suit's 16 bits summed.
        const auto count = static_cast<int>((play_.lengths >> (16 * s)) * 0x1111u >> 12 & 0xfu);
        if (count)
            sh.owners[s >> 1] |= static_cast<std::uint64_t>(play_.owners[s] << (32 - 2 * count))
                                 << (32 * (s & 1));
    }
    sh.extra = static_cast<std::uint8_t>(play_.leader | (restricted_ && play_.broken ? 4 : 0));
    return sh;
}

Solver::Head* Solver::find_head(const Shape& sh, bool create) {
    const std::uint64_t i = engine::hash_combine(sh.lengths, sh.extra);
    for (std::uint64_t j = 0; j < 8; ++j) {
        Head& h = heads_[(i + j) & mask_];
        if (h.generation != generation_) {
            if (!create) return nullptr;
            h = Head{sh.lengths, generation_, -1, sh.extra};
            return &h;
        }
        if (h.lengths == sh.lengths && h.extra == sh.extra) return &h;
    }
    if (!create) return nullptr;
    Head& h = heads_[i & mask_];  // crowded: this shape takes the first slot's place
    h = Head{sh.lengths, generation_, -1, sh.extra};
    return &h;
}

void Solver::store(const Shape& sh, const Ranks& relevant, bool result, int need, int left,
                   const Move* best) {
    // The entry's pattern: per suit, every card in play down to the lowest relevant rank.
    Pattern top{};
    int cards = 0;
    Ranks full = relevant;
    if (exact_patterns_)
        for (int s = 0; s < 4; ++s) full.add(s, in_play(s));
    for (int s = 0; s < 4; ++s) {
        if (!full[s]) continue;
        const int low = std::countr_zero(full[s]);
        const int k = bits(static_cast<std::uint16_t>(in_play(s) & ~((1u << low) - 1)));
        cards += k;
        top.mask[s >> 1] |= static_cast<std::uint64_t>(~std::uint32_t{0} << (32 - 2 * k))
                            << (32 * (s & 1));
    }
    top.value[0] = sh.owners[0] & top.mask[0];
    top.value[1] = sh.owners[1] & top.mask[1];
    Head* head = find_head(sh, true);
    const auto find_same = [&]() -> Entry* {
        for (std::int32_t b = head->first; b >= 0; b = blocks_[static_cast<std::size_t>(b)].next) {
            Block& block = blocks_[static_cast<std::size_t>(b)];
            for (int j = 0; j < block.count; ++j)
                if (block.top[j] == top) return &block.entry[j];
        }
        return nullptr;
    };
    Entry* slot = find_same();
    if (!slot) {
        if (head->first < 0 || blocks_[static_cast<std::size_t>(head->first)].count == kBlock) {
            if (used_ == blocks_.size()) {
                clear();
                head = find_head(sh, true);
            }
            const auto index = static_cast<std::int32_t>(used_++);
            Block& fresh = blocks_[static_cast<std::size_t>(index)];
            fresh.count = 0;
            fresh.next = head->first;
            head->first = index;
        }
        Block& block = blocks_[static_cast<std::size_t>(head->first)];
        // A look-up scans a block from its end, and takes the first entry that decides: the
        // entries resting on fewest cards go last, so the answer taken rests on as few cards as
        // possible and the entries built on it match more positions.
        int j = block.count++;
        while (j > 0 && block.entry[j - 1].cards < cards) {
            block.top[j] = block.top[j - 1];
            block.entry[j] = block.entry[j - 1];
            --j;
        }
        block.top[j] = top;
        slot = &block.entry[j];
        *slot = Entry{};
        slot->cards = static_cast<std::uint8_t>(cards);
        slot->upper = static_cast<std::int8_t>(left);
    }
    if (result)
        slot->lower = static_cast<std::int8_t>(std::max<int>(slot->lower, need));
    else
        slot->upper = static_cast<std::int8_t>(std::min<int>(slot->upper, need - 1));
    if (best) {
        slot->best_suit = best->suit;
        slot->best_from_top = static_cast<std::int8_t>(
            bits(static_cast<std::uint16_t>(in_play(best->suit) & above(best->rank))));
    }
}

std::optional<bool> Solver::probe(const Shape& sh, int need, Ranks& relevant, const Entry*& hint) {
    Head* head = find_head(sh, false);
    if (!head) return std::nullopt;
    for (std::int32_t b = head->first; b >= 0; b = blocks_[static_cast<std::size_t>(b)].next) {
        Block& block = blocks_[static_cast<std::size_t>(b)];
        for (int j = block.count - 1; j >= 0;
             --j) {  // the newest block first, fewest cards first in each
            ++stats_.tt_scanned;
            if (!block.top[j].matches(sh)) continue;
            const Entry& e = block.entry[j];
            if (e.lower < need && e.upper >= need) {
                if (!hint && e.best_suit >= 0) hint = &e;
                continue;
            }
            ++stats_.tt_hits;
            const bool result = e.lower >= need;
            if (checking_ && !check(need, result)) ++stats_.check_failures;
            // The bound holds wherever the entry's top cards lie as here.
            Ranks rests;
            for (int s = 0; s < 4; ++s) rests.add(s, top_cards(in_play(s), block.top[j].cards(s)));
            relevant = rests;
            return result;
        }
    }
    return std::nullopt;
}

}  // namespace cardgames::double_dummy
