// The model file and the ModelStore: a file written is read back the same; every kind of bad file
// is refused with an InputError naming the file and the field; the store reads a file once and
// again only when it changed on disk.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>

#include "cardgames/models/model_store.hpp"
#include "cardgames/models/network.hpp"
#include "test_helpers.hpp"

namespace cardgames::models {
namespace {

using testing::error_of;

ModelFile net_file() {
    return random_network_file("hearts4", "value", 4, 3);
}

std::string bytes_of(const ModelFile& m) {
    return format_model_file(m);
}

// The error of reading `bytes` as a network.
std::string refusal(const std::string& bytes) {
    return error_of([&] { Network(parse_model_file(bytes, "model file 'x.net'")); });
}

Tensor& tensor(ModelFile& m, const std::string& name) {
    for (Tensor& t : m.tensors)
        if (t.name == name) return t;
    throw std::logic_error(name);
}

void set_field(ModelFile& m, const std::string& key, const std::string& value) {
    for (auto& [k, v] : m.fields)
        if (k == key) v = value;
}

TEST(ModelFile, RoundTrips) {
    const ModelFile m = net_file();
    const std::string bytes = bytes_of(m);
    const ModelFile r = parse_model_file(bytes, "x");
    EXPECT_EQ(r.fields, m.fields);
    EXPECT_EQ(r.comments, m.comments);
    ASSERT_EQ(r.tensors.size(), m.tensors.size());
    for (std::size_t i = 0; i < m.tensors.size(); ++i) {
        EXPECT_EQ(r.tensors[i].name, m.tensors[i].name);
        EXPECT_EQ(r.tensors[i].shape, m.tensors[i].shape);
        EXPECT_EQ(r.tensors[i].f32, m.tensors[i].f32);
        EXPECT_EQ(r.tensors[i].i16, m.tensors[i].i16);
    }
    EXPECT_EQ(bytes_of(r), bytes);
    EXPECT_EQ(refusal(bytes), "(no error)");
}

TEST(ModelFile, DoublesRoundTripExactlyAndANetworkRefusesThem) {
    ModelFile m = net_file();
    Tensor& w = tensor(m, "out.weight");
    const std::vector<double> exact = {0.1, -1.0 / 3, 1e-300, 9999.999999999998};
    w.dtype = DType::kF64;
    w.shape = {4};
    w.f64 = exact;
    w.f32.clear();
    ModelFile r = parse_model_file(bytes_of(m), "x");
    EXPECT_EQ(tensor(r, "out.weight").f64, exact);  // bit for bit
    EXPECT_NE(refusal(bytes_of(m)).find("tensor 'out.weight': type f64, expected f32"),
              std::string::npos);
    w.f64[2] = std::numeric_limits<double>::infinity();
    EXPECT_NE(refusal(bytes_of(m)).find("tensor 'out.weight' element 2: not finite"),
              std::string::npos);
    w.f64[2] = 1e5;
    EXPECT_NE(refusal(bytes_of(m)).find("tensor 'out.weight' element 2: huge"), std::string::npos);
}

TEST(ModelFile, RefusesATruncatedFileAtAnyByte) {
    const std::string bytes = bytes_of(net_file());
    for (std::size_t cut : {std::size_t{0}, std::size_t{10}, bytes.find("tensor"),
                            bytes.find("checksum") + 5, bytes.size() - 1, bytes.size() / 2}) {
        const std::string e = refusal(bytes.substr(0, cut));
        EXPECT_TRUE(e.starts_with("model file 'x.net': ")) << e;
        EXPECT_TRUE(e.find("truncated") != std::string::npos ||
                    e.find("not a model file") != std::string::npos)
            << cut << ": " << e;
    }
    EXPECT_EQ(refusal(bytes.substr(0, bytes.size() - 3)),
              "model file 'x.net': truncated: the payload has " +
                  std::to_string(bytes.size() - 3 - bytes.find('\n', bytes.find("checksum")) - 1) +
                  " of " +
                  std::to_string(bytes.size() - bytes.find('\n', bytes.find("checksum")) - 1) +
                  " bytes");
}

TEST(ModelFile, RefusesAlteredBytesByTheChecksum) {
    std::string bytes = bytes_of(net_file());
    bytes[bytes.size() - 2] ^= 1;
    EXPECT_NE(refusal(bytes).find("model file 'x.net': field 'checksum': "), std::string::npos);
    std::string header = bytes_of(net_file());
    header.replace(header.find("seeds 3"), 7, "seeds 4");
    EXPECT_NE(refusal(header).find("field 'checksum'"), std::string::npos);
}

TEST(ModelFile, RefusesNanInfiniteAndHugeWeights) {
    for (float bad : {std::numeric_limits<float>::quiet_NaN(),
                      std::numeric_limits<float>::infinity(), -1e30f}) {
        ModelFile m = net_file();
        tensor(m, "l2.weight").f32[17] = bad;
        const std::string e = refusal(bytes_of(m));
        EXPECT_TRUE(e.starts_with("model file 'x.net': tensor 'l2.weight' element 17: ")) << e;
        EXPECT_NE(e.find(std::isnan(bad) || std::isinf(bad) ? "not finite" : "huge"),
                  std::string::npos)
            << e;
    }
    // First-layer weights that could wrap the int16 accumulator.
    ModelFile m = net_file();
    tensor(m, "ft.weight").i16[100] = 20000;
    EXPECT_EQ(refusal(bytes_of(m)),
              "model file 'x.net': tensor 'ft.weight': huge (largest magnitude 20000): 84 "
              "features could overflow the int16 accumulator");
}

TEST(ModelFile, RefusesWrongShapesAndFeatureVersions) {
    ModelFile m = net_file();
    tensor(m, "l1.weight").shape = {16, 256};
    tensor(m, "l1.weight").f32.resize(16 * 256);
    EXPECT_EQ(refusal(bytes_of(m)),
              "model file 'x.net': tensor 'l1.weight': shape 16 x 256, expected 16 x 128");
    m = net_file();
    tensor(m, "out.weight").shape = {3, 32};
    tensor(m, "out.weight").f32.resize(3 * 32);
    tensor(m, "out.bias").shape = {3};
    tensor(m, "out.bias").f32.resize(3);
    EXPECT_EQ(refusal(bytes_of(m)),
              "model file 'x.net': tensor 'out.weight': 3 outputs, a value network has 4");
    m = net_file();
    set_field(m, "features", "cards 3 496");
    EXPECT_EQ(refusal(bytes_of(m)),
              "model file 'x.net': field 'features': 'cards 3 496', expected 'cards 2 496' (card "
              "features version 2 for hearts4)");
    m = net_file();
    m.fields.erase(m.fields.begin() + 2);  // form
    EXPECT_EQ(refusal(bytes_of(m)), "model file 'x.net': field 'form': missing");
    m = net_file();
    set_field(m, "kind", "linear");
    EXPECT_EQ(refusal(bytes_of(m)),
              "model file 'x.net': field 'kind': 'linear', expected 'network'");
    std::string bytes = bytes_of(net_file());
    bytes.replace(0, 17, "cardgames-model 1");
    EXPECT_NE(refusal(bytes).find("field 'version': 1, this program reads 2"), std::string::npos);
}

TEST(ModelFile, RefusesAnotherFormsNetwork) {
    const Network net(net_file());
    EXPECT_EQ(error_of([&] { net.check("hearts4", "value"); }), "(no error)");
    EXPECT_EQ(error_of([&] { net.check("spades-partnership", "value"); }),
              "random network: field 'form': made for hearts4, not for spades-partnership");
    EXPECT_EQ(error_of([&] { net.check("hearts4", "policy"); }),
              "random network: field 'task': a value network, not a policy network");
}

class ModelStoreTest : public cardgames::testing::TempFolderTest {};

TEST_F(ModelStoreTest, ReadsOnceAndAgainOnlyWhenTheFileChanged) {
    const std::filesystem::path path = dir_ / "v.net";
    write_model_file(path, net_file());
    ModelStore store(std::chrono::milliseconds(0));  // trusts the file's status at once
    const auto a = store.network(path, "hearts4", "value");
    const auto b = store.network(path);
    EXPECT_EQ(a, b);
    EXPECT_EQ(store.reads(), 1);

    // Rewritten with other weights (and a later time): the new network, never the stale one.
    ModelFile other = random_network_file("hearts4", "value", 4, 4);
    write_model_file(path, other);
    std::filesystem::last_write_time(
        path, std::filesystem::last_write_time(path) + std::chrono::seconds(2));
    const auto c = store.network(path);
    EXPECT_NE(c, a);
    EXPECT_EQ(store.reads(), 2);
    Evaluator ea(*a), ec(*c);
    EXPECT_NE(ea.evaluate()[0], ec.evaluate()[0]);

    // Touched but the same bytes: read to compare, the network already made is kept.
    std::filesystem::last_write_time(
        path, std::filesystem::last_write_time(path) + std::chrono::seconds(2));
    EXPECT_EQ(store.network(path), c);
    EXPECT_EQ(store.reads(), 3);
}

// A file rewritten in place with as many bytes, within one tick of the file system's clock, keeps
// its status (inode, size, times): until its last change is `settle` old, the store compares the
// bytes at every request.
TEST_F(ModelStoreTest, ARecentFileIsComparedByItsBytesSoAnInPlaceRewriteIsSeen) {
    const std::filesystem::path path = dir_ / "m.txt";
    ModelStore store(std::chrono::seconds(60));  // however slow the machine, recent throughout
    const auto as_text = [](const std::string& bytes) {
        return std::make_shared<const std::string>(bytes);
    };
    for (const char* bytes : {"first", "other", "third"}) {
        std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;  // the same inode
        EXPECT_EQ(*store.get<std::string>(path, "text", as_text), bytes);
    }
    const auto kept = store.get<std::string>(path, "text", as_text);
    EXPECT_EQ(store.get<std::string>(path, "text", as_text),
              kept);  // the same bytes: the same model
    EXPECT_EQ(store.reads(), 5);
    // Another type read from the same file is another model.
    EXPECT_EQ(*store.get<std::size_t>(path, "text",
                                      [](const std::string& b) {
                                          return std::make_shared<const std::size_t>(b.size());
                                      }),
              5u);
}

TEST_F(ModelStoreTest, RefusesBadFilesAndKeepsNoHalfEntry) {
    const std::filesystem::path path = dir_ / "bad.net";
    ModelStore store;
    EXPECT_NE(error_of([&] {
                  store.network(path);
              }).find("model file '" + path.string() + "': cannot open the file"),
              std::string::npos);
    std::string bytes = bytes_of(net_file());
    std::ofstream(path, std::ios::binary) << bytes.substr(0, bytes.size() / 2);
    EXPECT_NE(error_of([&] { store.network(path); }).find("truncated"), std::string::npos);
    write_model_file(path, net_file());
    std::filesystem::last_write_time(
        path, std::filesystem::last_write_time(path) + std::chrono::seconds(2));
    EXPECT_EQ(store.network(path, "hearts4")->form(), "hearts4");
    EXPECT_EQ(error_of([&] { store.network(path, "spades-partnership"); }),
              "model file '" + path.string() +
                  "': field 'form': made for hearts4, not for spades-partnership");
}

}  // namespace
}  // namespace cardgames::models
