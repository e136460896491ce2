#include "cardgames/encoding/actions.hpp"

#include <algorithm>

#include "cardgames/cards/error.hpp"

namespace cardgames::encoding {

std::string action_name(int action) {
    if (action < 0 || action >= kNumActions)
        throw InputError("action " + std::to_string(action) + ": not an action (0.." +
                         std::to_string(kNumActions - 1) + ")");
    if (action < kPassBase) return "play " + to_string(card_of_number(action));
    if (action < kBidBase) return "pass " + to_string(card_of_number(action - kPassBase));
    if (action == kBidBase) return "bid nil";
    if (action < kNoBlindNil) return "bid " + std::to_string(action - kBidBase);
    return action == kBlindNil ? "blind nil" : "no blind nil";
}

std::vector<int> legal_actions_in(const Rules& rules, Phase phase, CardSet hand, CardSet pending,
                                  CardSet playable) {
    std::vector<int> out;
    switch (phase) {
        case Phase::kBlindNil:
            return {kNoBlindNil, kBlindNil};
        case Phase::kBid:
            for (int t = rules.nil_allowed ? 0 : 1; t <= rules.cards_per_hand(); ++t)
                out.push_back(kBidBase + t);
            return out;
        case Phase::kPass:
            for (Card c : hand - pending) out.push_back(kPassBase + card_number(c));
            std::sort(out.begin(), out.end());
            return out;
        case Phase::kPlay:
            for (Card c : playable) out.push_back(card_number(c));
            std::sort(out.begin(), out.end());
            return out;
        case Phase::kGameOver:
            return out;
    }
    return out;
}

}  // namespace cardgames::encoding
