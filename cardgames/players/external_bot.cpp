#include "cardgames/players/external_bot.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <functional>
#include <iostream>
#include <optional>
#include <stdexcept>
#include <system_error>
#include <thread>

#include "cardgames/cards/deal.hpp"
#include "cardgames/cards/error.hpp"
#include "cardgames/cards/seeds.hpp"
#include "cardgames/cards/text.hpp"
#include "cardgames/players/bot_spec.hpp"

namespace cardgames {

namespace {

using Clock = std::chrono::steady_clock;

constexpr std::size_t kMaxLine = 64 * 1024;

int millis_until(Clock::time_point deadline) {
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
    return left <= 0 ? 0 : static_cast<int>(left + 1);
}

// write() that reports EPIPE instead of raising SIGPIPE: the signal is blocked in this thread for
// the call and a SIGPIPE it raised is taken off the pending set before unblocking.
ssize_t write_no_sigpipe(int fd, const char* data, std::size_t size) {
    sigset_t pipe_set, old;
    sigemptyset(&pipe_set);
    sigaddset(&pipe_set, SIGPIPE);
    sigset_t pending_before;
    pthread_sigmask(SIG_BLOCK, &pipe_set, &old);
    sigpending(&pending_before);
    const ssize_t r = ::write(fd, data, size);
    const int err = errno;
    if (r < 0 && err == EPIPE && !sigismember(&pending_before, SIGPIPE)) {
        const timespec zero{0, 0};
        while (sigtimedwait(&pipe_set, nullptr, &zero) < 0 && errno == EINTR) {
        }
    }
    pthread_sigmask(SIG_SETMASK, &old, nullptr);
    errno = err;
    return r;
}

// Moves `fd` onto `target` in a freshly forked child, keeping it open across exec.
void move_fd(int fd, int target) {
    if (fd == target)
        fcntl(target, F_SETFD, 0);
    else
        dup2(fd, target);
}

std::string describe_status(int status) {
    if (WIFEXITED(status)) return "exited with status " + std::to_string(WEXITSTATUS(status));
    if (WIFSIGNALED(status)) return "was killed by signal " + std::to_string(WTERMSIG(status));
    return "stopped";
}

// A simple command ("python3 bot.py --x") runs as "exec ...", so the program itself, not a shell
// waiting for it, is our child: its own end of output and exit status then reach us directly.
std::string shell_command(const std::string& command) {
    const auto first = command.find_first_not_of(" \t");
    if (first == std::string::npos) return command;
    const std::string word = command.substr(first, command.find_first_of(" \t", first) - first);
    const bool compound = command.find_first_of(";&|(){}\n") != std::string::npos ||
                          word.find('=') != std::string::npos || word == "if" || word == "for" ||
                          word == "while" || word == "until" || word == "case" || word == "!" ||
                          word == "exec";
    return compound ? command : "exec " + command;
}

// Why the program of a simple command cannot be started ("" when it can, or when the shell
// decides: a compound command, or a word the shell expands). Checked when the bot is made, so
// that a mistyped program stops the run at once instead of every game falling back.
std::string start_problem(const std::string& command) {
    if (shell_command(command) == command) return {};
    const auto first = command.find_first_not_of(" \t");
    const std::string word = command.substr(first, command.find_first_of(" \t", first) - first);
    if (word.find_first_of("'\"\\$~`*?[") != std::string::npos) return {};
    auto runnable = [](const std::string& path) {
        struct stat st {};
        return stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) &&
               access(path.c_str(), X_OK) == 0;
    };
    if (word.find('/') != std::string::npos) {
        struct stat st {};
        if (stat(word.c_str(), &st) != 0) return "'" + word + "': no such file";
        if (!runnable(word)) return "'" + word + "' is not an executable file";
        return {};
    }
    const char* path = std::getenv("PATH");
    std::string dirs = path ? path : "/usr/bin:/bin";
    for (std::size_t from = 0;;) {
        const std::size_t colon = dirs.find(':', from);
        const std::string dir = dirs.substr(from, colon - from);
        if (runnable((dir.empty() ? "." : dir) + "/" + word)) return {};
        if (colon == std::string::npos) break;
        from = colon + 1;
    }
    return "'" + word + "': no such program in PATH";
}

// The group's watcher: when the table dies, however it dies, the bot's whole process group dies
// too. Called in the freshly forked child (the group's leader), async-signal-safe calls only.
extern "C" void kill_own_group(int) {
    kill(0, SIGKILL);
}

// The forked child stays as a watcher: it asks the kernel for a signal when the table dies
// (PR_SET_PDEATHSIG) and then kills its process group, the bot's own children included; the bot
// itself runs in a child of it, in the same group. The watcher ends as the bot ends, with the
// same status, so the table sees the bot's exit. Returns in the bot's process.
void watch_table(pid_t table) {
    struct sigaction on_death {};
    on_death.sa_handler = kill_own_group;
    sigaction(SIGUSR1, &on_death, nullptr);
    sigset_t usr1;
    sigemptyset(&usr1);
    sigaddset(&usr1, SIGUSR1);
    sigprocmask(SIG_UNBLOCK, &usr1, nullptr);
    prctl(PR_SET_PDEATHSIG, SIGUSR1);
    if (getppid() != table) kill(0, SIGKILL);  // the table died before the request took
    const pid_t bot = fork();
    if (bot == 0) {
        signal(SIGUSR1, SIG_DFL);  // the death signal is not inherited; the handler would be
        return;
    }
    if (bot < 0) _exit(127);
    // The bot's pipes are its own: the table sees their end when the bot closes them. The
    // watcher never execs, so the pipes' original descriptors (and the table's files, its results
    // file's lock among them) would stay open in it despite O_CLOEXEC: it keeps only stderr.
    close(STDIN_FILENO);
    close(STDOUT_FILENO);
    if (close_range(3, ~0U, 0) != 0)
        for (int fd = 3; fd < 1024; ++fd) close(fd);
    int status = 0;
    while (waitpid(bot, &status, 0) < 0)
        if (errno != EINTR) _exit(127);
    if (WIFEXITED(status)) _exit(WEXITSTATUS(status));
    const int sig = WTERMSIG(status);
    signal(sig, SIG_DFL);
    kill(getpid(), sig);
    _exit(128 + sig);
}

}  // namespace

// A program run by /bin/sh -c in its own process group (under a watcher that ends the group when
// the table dies, even by SIGKILL), with pipes to its stdin and from its stdout (its stderr is
// ours). Reads and writes never block past a deadline. The destructor (or
// finish) closes its stdin, gives it a grace period to exit, kills the whole group and reaps it.
class ChildProcess {
  public:
    enum class Read { kLine, kTimeout, kClosed, kTooLong };

    // `stop` kills the process group when requested: a wait for the program then ends at once.
    ChildProcess(const std::string& command, const std::stop_token& stop) {
        int to_child[2], from_child[2];
        // A pipe or a process the machine cannot give is no fault of the bot: a std::system_error
        // that ends the run (the apps report it as out of threads or processes), not a fallback.
        if (pipe2(to_child, O_CLOEXEC) != 0)
            throw std::system_error(errno, std::generic_category(), "pipe");
        if (pipe2(from_child, O_CLOEXEC) != 0) {
            const int err = errno;
            close(to_child[0]);
            close(to_child[1]);
            throw std::system_error(err, std::generic_category(), "pipe");
        }
        const std::string script = shell_command(command);
        const char* argv[] = {"/bin/sh", "-c", script.c_str(), nullptr};
        const pid_t table = getpid();
        pid_ = fork();
        if (pid_ == 0) {
            // Only async-signal-safe calls between fork and exec.
            setpgid(0, 0);
            move_fd(to_child[0], STDIN_FILENO);
            move_fd(from_child[1], STDOUT_FILENO);
            watch_table(table);
            sigset_t none;
            sigemptyset(&none);
            sigprocmask(SIG_SETMASK, &none, nullptr);
            signal(SIGPIPE, SIG_DFL);
            execv("/bin/sh", const_cast<char* const*>(argv));
            _exit(127);
        }
        const int err = errno;
        close(to_child[0]);
        close(from_child[1]);
        if (pid_ < 0) {
            close(to_child[1]);
            close(from_child[0]);
            throw std::system_error(err, std::generic_category(), "fork");
        }
        setpgid(pid_, pid_);  // also here, so that a kill right away reaches the group
        in_fd_ = to_child[1];
        out_fd_ = from_child[0];
        fcntl(in_fd_, F_SETFL, fcntl(in_fd_, F_GETFL) | O_NONBLOCK);
        fcntl(out_fd_, F_SETFL, fcntl(out_fd_, F_GETFL) | O_NONBLOCK);
        // The group is not reaped before finish() ends this callback, so the id is still ours.
        on_stop_.emplace(stop, [pid = pid_] { killpg(pid, SIGKILL); });
    }

    ~ChildProcess() { finish(std::chrono::milliseconds(0)); }
    ChildProcess(const ChildProcess&) = delete;
    ChildProcess& operator=(const ChildProcess&) = delete;

    // Writes all of `text` before the deadline; false (why says what happened) when the program
    // no longer reads or is too slow to.
    bool write_all(const std::string& text, Clock::time_point deadline, std::string& why) {
        if (in_fd_ < 0) {
            why = "its input is closed";
            return false;
        }
        std::size_t done = 0;
        while (done < text.size()) {
            const ssize_t r = write_no_sigpipe(in_fd_, text.data() + done, text.size() - done);
            if (r > 0) {
                done += static_cast<std::size_t>(r);
                continue;
            }
            if (r < 0 && errno == EINTR) continue;
            if (r < 0 && errno == EAGAIN) {
                pollfd p{in_fd_, POLLOUT, 0};
                const int ms = millis_until(deadline);
                if (ms == 0 || poll(&p, 1, ms) == 0) {
                    why = "late";
                    return false;
                }
                continue;
            }
            why = "closed";
            return false;
        }
        return true;
    }

    // One line (without its end) before the deadline.
    Read read_line(Clock::time_point deadline, std::string& line) {
        while (true) {
            const auto nl = buffer_.find('\n');
            if (nl != std::string::npos) {
                line = buffer_.substr(0, nl);
                if (!line.empty() && line.back() == '\r') line.pop_back();
                buffer_.erase(0, nl + 1);
                return Read::kLine;
            }
            if (buffer_.size() > kMaxLine) return Read::kTooLong;
            if (out_fd_ < 0) return Read::kClosed;
            pollfd p{out_fd_, POLLIN, 0};
            const int ms = millis_until(deadline);
            const int ready = poll(&p, 1, ms);  // ms 0: only what is there already
            if (ready < 0 && errno == EINTR) continue;
            if (ready == 0) return Read::kTimeout;
            char chunk[4096];
            const ssize_t r = ::read(out_fd_, chunk, sizeof chunk);
            if (r > 0)
                buffer_.append(chunk, static_cast<std::size_t>(r));
            else if (r == 0)
                return Read::kClosed;
            else if (errno != EINTR && errno != EAGAIN)
                return Read::kClosed;
        }
    }

    // What the program sent after its last full line.
    const std::string& pending() const { return buffer_; }

    // Closes its stdin, waits up to `grace` for it to exit, then kills what is left of its process
    // group and reaps it. Returns how it ended ("exited with status 0").
    std::string finish(std::chrono::milliseconds grace) {
        if (pid_ < 0) return ended_;
        on_stop_.reset();
        if (in_fd_ >= 0) close(in_fd_);
        in_fd_ = -1;
        const auto until = Clock::now() + grace;
        siginfo_t info{};
        while (true) {
            info.si_pid = 0;
            const int r =
                waitid(P_PID, static_cast<id_t>(pid_), &info, WEXITED | WNOHANG | WNOWAIT);
            if (r == 0 && info.si_pid != 0)
                break;  // exited; still a zombie, so the group id is ours
            if (r < 0 && errno != EINTR) break;
            if (Clock::now() >= until) break;
            std::this_thread::sleep_for(std::chrono::milliseconds(2));
        }
        killpg(pid_, SIGKILL);
        int status = 0;
        while (waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
        }
        ended_ = describe_status(status);
        pid_ = -1;
        if (out_fd_ >= 0) close(out_fd_);
        out_fd_ = -1;
        return ended_;
    }

  private:
    pid_t pid_ = -1;
    int in_fd_ = -1;   // the program's stdin
    int out_fd_ = -1;  // the program's stdout
    std::string buffer_;
    std::string ended_;
    std::optional<std::stop_callback<std::function<void()>>> on_stop_;
};

ExternalBot::ExternalBot(Options options, std::uint64_t seed)
    : options_(std::move(options)), seed_(seed), writer_(seed) {
    fallback_ = options_.make_fallback(seeds::fallback_bot(seed));
    // The table shows this seat only its own cards, and so it could show its fallback no more.
    if (fallback_->sees_all_hands())
        throw InputError(options_.fallback +
                         " sees every hand, and an external bot's seat is shown only its own");
}

ExternalBot::~ExternalBot() {
    stop();
}

void ExternalBot::stop() {
    if (!process_) return;
    std::string ignored;
    process_->write_all(protocol::TableWriter::end_line() + "\n",
                        Clock::now() + std::chrono::milliseconds(100), ignored);
    process_->finish(std::chrono::milliseconds(failed_ ? 0 : 1000));
    process_.reset();
}

void ExternalBot::fail(const InfoState& info, const std::string& received,
                       const std::string& reason) {
    FallbackNote note;
    note.hand = info.hand_number;
    note.seat = info.seat;
    note.decision = protocol::decision_name(info.phase);
    note.received = safe_text(received);
    // The reason may quote the answer (protocol::check_answer): as much outside text as received.
    note.reason = safe_text(reason, 2 * kSafeTextBytes);
    note.fallback = options_.fallback;
    std::cerr << "cardgames: external bot at seat " << note.seat << " ("
              << safe_text(options_.command) << "), hand " << note.hand << ", decision "
              << note.decision << ": received \"" << note.received << "\": " << note.reason << "; "
              << note.fallback << " plays the seat for the rest of the game\n";
    notes_.push_back(note);
    failed_ = true;
    if (process_) process_->finish(std::chrono::milliseconds(0));
    process_.reset();
}

bool ExternalBot::stopped() {
    if (process_) process_->finish(std::chrono::milliseconds(0));
    process_.reset();
    failed_ = true;
    return false;
}

bool ExternalBot::ask(const InfoState& info, protocol::Answer& answer) {
    if (game_done_) {
        // The same player is reused for another game: start afresh with a new program.
        writer_ = protocol::TableWriter(seed_);
        failed_ = game_done_ = false;
    }
    if (failed_) return false;
    if (options_.stop.stop_requested()) return stopped();
    const std::vector<std::string> lines = writer_.decision(info);
    const auto deadline = Clock::now() + std::chrono::milliseconds(options_.time_limit_ms);
    if (!process_) process_ = std::make_unique<ChildProcess>(options_.command, options_.stop);
    std::string text, why, stray;
    // Output nobody asked for (a second answer line, debug prints on stdout) is a protocol error.
    const auto early = process_->read_line(Clock::now(), stray);
    if (early == ChildProcess::Read::kLine || early == ChildProcess::Read::kTooLong ||
        (early == ChildProcess::Read::kTimeout && !process_->pending().empty())) {
        fail(info, stray.empty() ? process_->pending() : stray,
             "malformed: a line written when no decision was asked");
        return false;
    }
    for (const std::string& l : lines) text += l + "\n";
    const std::string limit = std::to_string(options_.time_limit_ms) + " ms";
    if (!process_->write_all(text, deadline, why)) {
        if (options_.stop.stop_requested()) return stopped();
        if (why == "late") {
            fail(info, process_->pending(),
                 "late: it did not read the table's lines within " + limit);
        } else {
            const std::string how = process_->finish(std::chrono::milliseconds(200));
            fail(info, process_->pending(),
                 "died: the program stopped reading before the decision (it " + how + ")");
        }
        return false;
    }
    std::string line;
    const ChildProcess::Read read = process_->read_line(deadline, line);
    if (read != ChildProcess::Read::kLine && options_.stop.stop_requested()) return stopped();
    switch (read) {
        case ChildProcess::Read::kLine:
            answer = protocol::check_answer(info, line);
            if (answer.status == protocol::Answer::Status::kOk) return true;
            fail(info, line,
                 (answer.status == protocol::Answer::Status::kMalformed ? "malformed: "
                                                                        : "illegal: ") +
                     answer.why);
            return false;
        case ChildProcess::Read::kTimeout:
            fail(info, process_->pending(), "late: no answer within " + limit);
            return false;
        case ChildProcess::Read::kTooLong:
            fail(info, process_->pending(), "malformed: a line longer than 64 KiB");
            return false;
        case ChildProcess::Read::kClosed: {
            const std::string pending = process_->pending();
            const std::string how = process_->finish(std::chrono::milliseconds(200));
            fail(info, pending,
                 "died: the program closed its output without answering (it " + how + ")");
            return false;
        }
    }
    return false;
}

template <class T>
T ExternalBot::answer_or_fallback(const InfoState& info, T protocol::Answer::*field,
                                  T (Player::*decide)(const InfoState&)) {
    protocol::Answer a;
    return ask(info, a) ? a.*field : (fallback_.get()->*decide)(info);
}

bool ExternalBot::blind_nil(const InfoState& info) {
    return answer_or_fallback(info, &protocol::Answer::blind, &Player::blind_nil);
}

int ExternalBot::bid(const InfoState& info) {
    return answer_or_fallback(info, &protocol::Answer::bid, &Player::bid);
}

CardSet ExternalBot::pass(const InfoState& info) {
    return answer_or_fallback(info, &protocol::Answer::cards, &Player::pass);
}

Card ExternalBot::play(const InfoState& info) {
    return answer_or_fallback(info, &protocol::Answer::card, &Player::play);
}

void ExternalBot::hand_over(const HandRecord& hand, bool game_over,
                            const std::vector<int>& winners) {
    fallback_->hand_over(hand, game_over, winners);
    if (!failed_ && process_) {
        std::string text, ignored;
        for (const std::string& l : writer_.hand_over(hand, game_over, winners)) text += l + "\n";
        // A program that stopped reading is found out at its next decision.
        process_->write_all(text, Clock::now() + std::chrono::milliseconds(options_.time_limit_ms),
                            ignored);
    }
    if (game_over) {
        stop();
        game_done_ = true;
    }
}

std::unique_ptr<Player> make_external_bot(const std::string& spec_text, const std::string& command,
                                          int time_limit_ms, const std::string& fallback,
                                          const protocol::PlayerFactory& make_fallback,
                                          std::uint64_t seed, std::stop_token stop) {
    if (command.empty())
        throw InputError("bot spec '" + spec_text +
                         "': external needs cmd=\"program and arguments\"");
    if (time_limit_ms <= 0)
        throw InputError("bot spec '" + spec_text + "': ms=" + std::to_string(time_limit_ms) +
                         " must be positive");
    if (const std::string why = start_problem(command); !why.empty())
        throw InputError("bot spec '" + spec_text + "': the program cannot be started: " + why);
    if (parse_bot_spec(fallback).name == "external")
        throw InputError("bot spec '" + spec_text +
                         "': the fallback must be one of our own bots, not external");
    ExternalBot::Options o;
    o.command = command;
    o.time_limit_ms = time_limit_ms;
    o.fallback = fallback;
    o.make_fallback = make_fallback;
    o.stop = std::move(stop);
    try {
        return std::make_unique<ExternalBot>(o, seed);
    } catch (const InputError& e) {
        rethrow_with_context("bot spec '" + spec_text + "': fallback", e);
    }
}

}  // namespace cardgames
