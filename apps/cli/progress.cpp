#include "apps/cli/progress.hpp"

#include <unistd.h>

#include <cstdio>

namespace apps {

namespace {

std::string duration(double seconds) {
    const long s = static_cast<long>(seconds + 0.5);
    char buf[32];
    if (s >= 3600)
        std::snprintf(buf, sizeof buf, "%ld:%02ld:%02ld", s / 3600, s / 60 % 60, s % 60);
    else
        std::snprintf(buf, sizeof buf, "%ld:%02ld", s / 60, s % 60);
    return buf;
}

}  // namespace

Progress::Progress(long total, long done, std::string unit, std::string where, bool quiet)
    : total_(total),
      start_done_(done),
      unit_(std::move(unit)),
      where_(std::move(where)),
      quiet_(quiet),
      tty_(isatty(STDERR_FILENO)),
      start_(std::chrono::steady_clock::now()),
      last_(start_) {}

void Progress::update(long done) {
    if (quiet_) return;
    const auto now = std::chrono::steady_clock::now();
    const auto every = tty_ ? std::chrono::milliseconds(200) : std::chrono::milliseconds(5000);
    if (now - last_ < every) return;
    last_ = now;
    draw(done);
}

void Progress::finish(long done) {
    if (quiet_ || !tty_ || !drawn_) return;
    draw(done);
    std::fputc('\n', stderr);
}

void Progress::draw(long done) {
    const double elapsed =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    const double rate = elapsed > 0 ? static_cast<double>(done - start_done_) / elapsed : 0;
    const double pct =
        total_ > 0 ? 100.0 * static_cast<double>(done) / static_cast<double>(total_) : 100;
    const std::string eta = rate > 0 ? duration(static_cast<double>(total_ - done) / rate) : "?";
    drawn_ = true;
    if (tty_) {
        constexpr int kWidth = 30;
        const int filled = static_cast<int>(pct / 100 * kWidth);
        std::fprintf(stderr, "\r[%s%s] %ld/%ld %5.1f%%  %.1f %s/s on %s  ETA %s  ",
                     std::string(filled, '#').c_str(), std::string(kWidth - filled, '.').c_str(),
                     done, total_, pct, rate, unit_.c_str(), where_.c_str(), eta.c_str());
    } else {
        std::fprintf(stderr, "%ld/%ld %s (%.1f%%), %.2f/s on %s, ETA %s\n", done, total_,
                     unit_.c_str(), pct, rate, where_.c_str(), eta.c_str());
    }
    std::fflush(stderr);
}

}  // namespace apps
