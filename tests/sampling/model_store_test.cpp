// The linear models through the caller's ModelStore: a run's bots share one read of each file,
// and a model file rewritten between two decisions is what the next decision plays by (the
// play-out policy, the cut-off model and the bid model; `policy` and `pimc`).
#include "cardgames/models/model_store.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>
#include <vector>

#include "cardgames/cards/error.hpp"
#include "cardgames/players/rule_bot.hpp"
#include "sampling/bid_model.hpp"
#include "sampling/bot_registry.hpp"
#include "sampling/cutoff_model.hpp"
#include "sampling/model_file.hpp"
#include "sampling/policy.hpp"
#include "tests/cardgames/test_helpers.hpp"

namespace sampling {
namespace {

using namespace cardgames;
using models::ModelStore;

class StoredModelsTest : public cardgames::testing::TempFolderTest {
  protected:
    // A hearts4 play-out policy that weighs only the feature "the rule player plays this card":
    // +1 plays the rule player's card, -1 never does (where there is another).
    static ModelFile rule_weighted(double weight) {
        ModelFile m;
        m.kind = "playout-policy";
        m.meta = {{"form", "hearts4"}};
        for (std::string_view n : policy_feature_names()) {
            m.names.emplace_back(n);
            m.weights.push_back(n == "rule" ? weight : 0.0);
        }
        return m;
    }
    // The bytes of shipped model file `name`, its weight `key` (a linear model's, or the bid
    // model's nil_intercept) set to `value`, if a key is given.
    static std::string shipped_with(const std::string& name, const std::string& key = "",
                                    const std::string& value = "") {
        const std::filesystem::path path = data_dir() / "models" / name;
        std::ifstream in(path, std::ios::binary);
        std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        if (key.empty()) return text;
        if (is_bid_model_file(text)) {
            SpadesBidModel m = read_bid_model(path);
            EXPECT_EQ(key, "nil_intercept");
            m.nil_intercept = std::stod(value);
            std::ostringstream out;
            write_bid_model(m, out);
            return out.str();
        }
        if (text.starts_with("cardgames-model")) {
            ModelFile m = read_model_file(path);
            const auto at = std::find(m.names.begin(), m.names.end(), key);
            EXPECT_NE(at, m.names.end()) << key;
            if (at != m.names.end()) m.weights[at - m.names.begin()] = std::stod(value);
            return format_model_file(m);
        }
        ADD_FAILURE() << name << ": not a model file";
        return text;
    }
    void write(const std::filesystem::path& path, const std::string& text) {
        std::ofstream(path, std::ios::binary | std::ios::trunc) << text;
    }
};

TEST_F(StoredModelsTest, ThreadsThatAskTogetherShareOneReadAndAFailureFailsAgain) {
    const std::filesystem::path path = dir_ / "policy.txt";
    write_model_file(path, rule_weighted(1));
    ModelStore store(std::chrono::milliseconds(0));  // trusts the file's status at once
    std::vector<std::shared_ptr<const PolicyModel>> got(8);
    {
        std::vector<std::jthread> askers;
        for (auto& g : got) askers.emplace_back([&] { g = load_model<PolicyModel>(store, path); });
    }
    EXPECT_EQ(store.reads(), 1);
    for (const auto& g : got) EXPECT_EQ(g, got[0]);

    const std::filesystem::path bad = dir_ / "bad.txt";
    write(bad, "cardgames-model 1\nkind playout-policy\n");
    for (int i = 0; i < 2; ++i)
        EXPECT_NE(cardgames::testing::error_of([&] {
                      load_model<PolicyModel>(store, bad);
                  }).find("the file ends before its 'end' line"),
                  std::string::npos);
    EXPECT_EQ(store.reads(), 3);
}

TEST_F(StoredModelsTest, PolicyPlaysAModelFileRewrittenBetweenTwoDecisions) {
    const Rules rules = load_rules(preset_path("hearts4"), {});
    const InfoState info = cardgames::testing::mid_play(
        rules, cardgames::testing::cards("2H 9H KH 3C"), {cardgames::testing::pc(0, "5H")});
    const Card rule_card = RuleBot().play(info);
    const std::filesystem::path path = dir_ / "policy.txt";
    write_model_file(path, rule_weighted(1));
    const std::unique_ptr<Player> bot =
        make_player("policy:model=" + path.string(), 1, {}, std::make_shared<ModelStore>());
    EXPECT_EQ(bot->play(info), rule_card);
    write_model_file(path, rule_weighted(-1));  // at once: likely in the same clock tick
    EXPECT_NE(bot->play(info), rule_card);
    EXPECT_EQ(bot->check(rules), PolicyModel(rule_weighted(-1)).fingerprint());
}

// pimc asks its store at every decision for each model its options use; check() lists them.
TEST_F(StoredModelsTest, PimcReadsEachModelFileRewrittenBetweenTwoDecisions) {
    struct Case {
        std::string preset, file, options, key;
    };
    const std::vector<Case> cases = {
        {"hearts4", "hearts4-playout.txt", "playout=model,playout_model=", "rule"},
        {"hearts4", "hearts4-cutoff.txt",
         "eval=search,cutoff=model,utility=score,cutoff_model=", "bias"},
        {"spades-partnership", "spades-bids.txt", "bid=model,bid_model=", "nil_intercept"},
    };
    const auto store = std::make_shared<ModelStore>();
    for (const Case& c : cases) {
        const Rules rules = load_rules(preset_path(c.preset), {});
        const std::filesystem::path path = dir_ / c.file;
        write(path, shipped_with(c.file));
        const std::unique_ptr<Player> bot =
            make_player("pimc:" + c.options + path.string(), 1, {}, store);
        const std::string before = bot->check(rules);
        EXPECT_EQ(make_player("pimc:" + c.options + path.string(), 2, {}, store)->check(rules),
                  before);
        write(path, shipped_with(c.file, c.key, "7.5"));
        const std::string after = bot->check(rules);
        EXPECT_NE(after, before) << c.file;
        EXPECT_NE(after.find("7.5"), std::string::npos) << c.file;
    }
}

}  // namespace
}  // namespace sampling
