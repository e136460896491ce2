// A small fuzzing engine of our own, linked into each fuzz target when it is not built with
// libFuzzer (the g++ ASan+UBSan build that `make test` runs): the target's LLVMFuzzerTestOneInput
// gets every seed of its corpus unchanged, then a bounded number of deterministic mutations of them
// (bit flips, byte inserts, deletes and overwrites, block copies, splices of two seeds, dictionary
// tokens) from a seeded PRNG. No coverage feedback: the seeds and the dictionary carry the
// structure, the mutations the surprise.
//
// On a crash (an escaping exception, a signal, a sanitizer report) or a case that runs past the
// time limit, the input is printed as hex and written to a file, which the same executable replays:
//   fuzz_<target> --corpus DIR [--dict FILE] [--cases N] [--seconds S] [--seed N] [--max-len N]
//                 [--timeout S] [--artifact-dir DIR]
//   fuzz_<target> FILE...      runs each file once (a saved crash, a corpus entry)
// Exit status 0 when every case ran, 1 on a crash or a hang (after the report).
#include <fcntl.h>
#include <sys/time.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#ifdef __SANITIZE_ADDRESS__
#include <sanitizer/common_interface_defs.h>
#endif

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

namespace {

namespace fs = std::filesystem;
using Bytes = std::vector<std::uint8_t>;

// What the crash handlers report; set before each case. Handlers only use write(2) and open(2).
Bytes g_current;
char g_artifact_path[4096] = "";
char g_target_name[256] = "fuzz";
volatile std::sig_atomic_t g_reporting = 0;

void write_all(int fd, const void* p, std::size_t n) {
    const char* c = static_cast<const char*>(p);
    while (n > 0) {
        const ssize_t w = ::write(fd, c, n);
        if (w <= 0) return;
        c += w;
        n -= static_cast<std::size_t>(w);
    }
}

void write_str(int fd, const char* s) {
    write_all(fd, s, std::strlen(s));
}

// The failing input: hex on stderr (64 bytes a line) and its bytes in the artifact file.
void report_current(const char* what) {
    if (g_reporting) return;
    g_reporting = 1;
    write_str(2, "\n==fuzz== ");
    write_str(2, what);
    write_str(2, " in target ");
    write_str(2, g_target_name);
    write_str(2, "; input (");
    char num[32];
    std::snprintf(num, sizeof num, "%zu", g_current.size());
    write_str(2, num);
    write_str(2, " bytes) as hex:\n");
    static const char kHex[] = "0123456789abcdef";
    char line[129];
    for (std::size_t i = 0; i < g_current.size(); i += 64) {
        std::size_t n = 0;
        for (std::size_t j = i; j < g_current.size() && j < i + 64; ++j) {
            line[n++] = kHex[g_current[j] >> 4];
            line[n++] = kHex[g_current[j] & 15];
        }
        line[n++] = '\n';
        write_all(2, line, n);
    }
    if (g_artifact_path[0]) {
        const int fd = ::open(g_artifact_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (fd >= 0) {
            write_all(fd, g_current.data(), g_current.size());
            ::close(fd);
            write_str(2, "==fuzz== input written to ");
            write_str(2, g_artifact_path);
            write_str(2, " (replay: ");
            write_str(2, g_target_name);
            write_str(2, " <that file>)\n");
        }
    }
}

// Every failure ends with exit status 1 after its report (a sanitizer's too: it aborts after
// the death callback, and the abort lands here).
void on_signal(int sig) {
    report_current(sig == SIGALRM ? "timeout (a case ran past --timeout)"
                                  : "crash (deadly signal)");
    ::_exit(1);
}

#ifdef __SANITIZE_ADDRESS__
void on_sanitizer_death() {
    report_current("sanitizer report");
}
#endif

void on_terminate() {
    std::string what = "crash (uncaught exception)";
    if (const auto e = std::current_exception()) {
        try {
            std::rethrow_exception(e);
        } catch (const std::exception& ex) {
            what = std::string("crash (uncaught exception: ") + ex.what() + ")";
        } catch (...) {
        }
    }
    report_current(what.c_str());
    ::_exit(1);
}

void install_handlers() {
    std::set_terminate(on_terminate);
    for (int sig : {SIGABRT, SIGALRM}) std::signal(sig, on_signal);
#ifdef __SANITIZE_ADDRESS__
    // The sanitizers catch the deadly signals themselves (a stack overflow too, on their own
    // signal stack) and call this before they end the process.
    __sanitizer_set_death_callback(on_sanitizer_death);
#else
    for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL}) std::signal(sig, on_signal);
#endif
}

void arm_timer(double seconds) {
    itimerval t{};
    t.it_value.tv_sec = static_cast<long>(seconds);
    t.it_value.tv_usec =
        static_cast<long>((seconds - static_cast<double>(t.it_value.tv_sec)) * 1e6);
    ::setitimer(ITIMER_REAL, &t, nullptr);
}

// noexcept: an exception the target lets escape ends here, in on_terminate, never in our own catch.
void run_case(const Bytes& input, double timeout) noexcept {
    g_current = input;
    if (timeout > 0) arm_timer(timeout);
    LLVMFuzzerTestOneInput(g_current.data(), g_current.size());
    if (timeout > 0) arm_timer(0);
}

Bytes read_file(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    if (!in) throw std::runtime_error("cannot read " + p.string());
    return Bytes(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// libFuzzer's dictionary format: one token a line, `name="value"` or `"value"`, with \\, \" and
// \xNN escapes; '#' starts a comment line. The same file serves both engines.
std::vector<Bytes> read_dictionary(const fs::path& p) {
    std::vector<Bytes> tokens;
    std::ifstream in(p);
    if (!in) throw std::runtime_error("cannot read dictionary " + p.string());
    std::string line;
    int line_no = 0;
    while (std::getline(in, line)) {
        ++line_no;
        const auto first = line.find_first_not_of(" \t");
        if (first == std::string::npos || line[first] == '#') continue;
        const auto open = line.find('"');
        const auto close = line.rfind('"');
        if (open == std::string::npos || close == open)
            throw std::runtime_error(p.string() + " line " + std::to_string(line_no) +
                                     ": expected a quoted token");
        Bytes t;
        for (std::size_t i = open + 1; i < close; ++i) {
            if (line[i] == '\\' && i + 1 < close) {
                if (line[i + 1] == 'x' && i + 3 < close) {
                    t.push_back(
                        static_cast<std::uint8_t>(std::stoi(line.substr(i + 2, 2), nullptr, 16)));
                    i += 3;
                } else {
                    t.push_back(static_cast<std::uint8_t>(line[++i]));
                }
            } else {
                t.push_back(static_cast<std::uint8_t>(line[i]));
            }
        }
        tokens.push_back(std::move(t));
    }
    return tokens;
}

class Mutator {
  public:
    Mutator(std::uint64_t seed, const std::vector<Bytes>& corpus, const std::vector<Bytes>& dict,
            std::size_t max_len)
        : rng_(seed), corpus_(corpus), dict_(dict), max_len_(max_len) {}

    Bytes next() {
        Bytes b = corpus_[below(corpus_.size())];
        const int steps =
            1 + static_cast<int>(below(4)) + (below(8) == 0 ? static_cast<int>(below(12)) : 0);
        for (int i = 0; i < steps; ++i) mutate(b);
        if (b.size() > max_len_) b.resize(max_len_);
        return b;
    }

  private:
    std::size_t below(std::size_t n) { return n ? static_cast<std::size_t>(rng_() % n) : 0; }

    void mutate(Bytes& b) {
        switch (below(10)) {
            case 0:  // flip one bit
                if (!b.empty()) b[below(b.size())] ^= static_cast<std::uint8_t>(1u << below(8));
                break;
            case 1:  // overwrite a byte with any value
                if (!b.empty()) b[below(b.size())] = static_cast<std::uint8_t>(below(256));
                break;
            case 2:  // overwrite a byte with one that matters in text formats
                if (!b.empty())
                    b[below(b.size())] =
                        static_cast<std::uint8_t>(interesting()[below(interesting().size())]);
                break;
            case 3:  // insert a byte
                b.insert(b.begin() + static_cast<long>(below(b.size() + 1)),
                         static_cast<std::uint8_t>(below(256)));
                break;
            case 4: {  // delete a run of bytes
                if (b.empty()) break;
                const std::size_t at = below(b.size());
                const std::size_t n = 1 + below(std::min<std::size_t>(16, b.size() - at));
                b.erase(b.begin() + static_cast<long>(at), b.begin() + static_cast<long>(at + n));
                break;
            }
            case 5: {  // copy a block of the input to another place in it
                if (b.empty()) break;
                const std::size_t from = below(b.size());
                const std::size_t n = 1 + below(std::min<std::size_t>(64, b.size() - from));
                const Bytes block(b.begin() + static_cast<long>(from),
                                  b.begin() + static_cast<long>(from + n));
                b.insert(b.begin() + static_cast<long>(below(b.size() + 1)), block.begin(),
                         block.end());
                break;
            }
            case 6: {  // splice: this input's head, another seed's tail
                const Bytes& other = corpus_[below(corpus_.size())];
                const std::size_t cut = below(b.size() + 1);
                const std::size_t from = below(other.size() + 1);
                b.resize(cut);
                b.insert(b.end(), other.begin() + static_cast<long>(from), other.end());
                break;
            }
            case 7:
            case 8: {  // insert or overwrite with a dictionary token
                if (dict_.empty()) break;
                const Bytes& t = dict_[below(dict_.size())];
                const std::size_t at = below(b.size() + 1);
                if (below(2) == 0 || at + t.size() > b.size()) {
                    b.insert(b.begin() + static_cast<long>(at), t.begin(), t.end());
                } else {
                    std::copy(t.begin(), t.end(), b.begin() + static_cast<long>(at));
                }
                break;
            }
            default: {  // replace a run of digits with an extreme number
                static const char* kNumbers[] = {"0",
                                                 "-1",
                                                 "255",
                                                 "-2147483648",
                                                 "2147483647",
                                                 "4294967296",
                                                 "9223372036854775807",
                                                 "18446744073709551616",
                                                 "1e300",
                                                 "-0",
                                                 "13",
                                                 "52"};
                const std::string n = kNumbers[below(std::size(kNumbers))];
                std::size_t at = below(b.size() + 1);
                std::size_t end = at;
                while (end < b.size() && b[end] >= '0' && b[end] <= '9') ++end;
                b.erase(b.begin() + static_cast<long>(at), b.begin() + static_cast<long>(end));
                b.insert(b.begin() + static_cast<long>(at), n.begin(), n.end());
                break;
            }
        }
    }

    static const std::string& interesting() {
        static const std::string s =
            std::string("\n\r\t :=.,-+0123456789\"{}[]\\") + '\0' + "\xff\x80\xe2";
        return s;
    }

    std::mt19937_64 rng_;
    const std::vector<Bytes>& corpus_;
    const std::vector<Bytes>& dict_;
    std::size_t max_len_;
};

struct Options {
    fs::path corpus, dict, artifact_dir = ".";
    long cases = 1000;
    double seconds = 0;  // 0: no time limit, only --cases
    std::uint64_t seed = 1;
    std::size_t max_len = 4096;
    double timeout = 10;
    std::vector<fs::path> files;
};

Options parse(int argc, char** argv) {
    Options o;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        auto value = [&]() -> std::string {
            if (i + 1 >= argc) throw std::runtime_error(a + " needs a value");
            return argv[++i];
        };
        if (a == "--corpus")
            o.corpus = value();
        else if (a == "--dict")
            o.dict = value();
        else if (a == "--artifact-dir")
            o.artifact_dir = value();
        else if (a == "--cases")
            o.cases = std::stol(value());
        else if (a == "--seconds")
            o.seconds = std::stod(value());
        else if (a == "--seed")
            o.seed = std::stoull(value());
        else if (a == "--max-len")
            o.max_len = std::stoul(value());
        else if (a == "--timeout")
            o.timeout = std::stod(value());
        else if (a.starts_with("--"))
            throw std::runtime_error("unknown option " + a);
        else
            o.files.emplace_back(a);
    }
    if (o.corpus.empty() && o.files.empty())
        throw std::runtime_error("give --corpus DIR, or files to replay");
    return o;
}

int fuzz(const Options& o) {
    std::vector<fs::path> paths;
    for (const auto& e : fs::directory_iterator(o.corpus))
        if (e.is_regular_file()) paths.push_back(e.path());
    std::sort(paths.begin(), paths.end());  // the same order everywhere: the run is reproducible
    std::vector<Bytes> corpus;
    for (const auto& p : paths) corpus.push_back(read_file(p));
    if (corpus.empty()) throw std::runtime_error("empty corpus " + o.corpus.string());
    const std::vector<Bytes> dict = o.dict.empty() ? std::vector<Bytes>{} : read_dictionary(o.dict);

    fs::create_directories(o.artifact_dir);
    const std::string artifact =
        (o.artifact_dir / (std::string("crash-") + g_target_name)).string();
    std::snprintf(g_artifact_path, sizeof g_artifact_path, "%s", artifact.c_str());

    const auto start = std::chrono::steady_clock::now();
    auto elapsed = [&] {
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    };
    for (const Bytes& seed : corpus) run_case(seed, o.timeout);
    Mutator mutator(o.seed, corpus, dict, o.max_len);
    long cases = 0;
    while (cases < o.cases && (o.seconds <= 0 || elapsed() < o.seconds)) {
        run_case(mutator.next(), o.timeout);
        ++cases;
    }
    std::printf(
        "==fuzz== %s: %zu seeds and %ld mutated cases in %.1f s, seed %llu: 0 crashes, 0 hangs\n",
        g_target_name, corpus.size(), cases, elapsed(), static_cast<unsigned long long>(o.seed));
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    std::snprintf(g_target_name, sizeof g_target_name, "%s", fs::path(argv[0]).filename().c_str());
    install_handlers();
    try {
        const Options o = parse(argc, argv);
        if (!o.files.empty()) {
            g_artifact_path[0] = '\0';  // replaying: the input is already in a file
            for (const auto& f : o.files) {
                run_case(read_file(f), o.timeout);
                std::printf("==fuzz== %s: %s ran without a crash\n", g_target_name, f.c_str());
            }
            return 0;
        }
        return fuzz(o);
    } catch (const std::runtime_error& e) {
        // Only the driver's own errors land here: a target's exceptions escape to on_terminate.
        std::fprintf(stderr, "%s: %s\n", g_target_name, e.what());
        return 2;
    }
}
