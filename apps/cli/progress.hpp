#pragma once
// Progress of a long batch on stderr: on a terminal a one-line bar with rate and ETA, redrawn in
// place a few times a second; otherwise (a log, a pipe) a plain line every few seconds.

#include <chrono>
#include <string>

namespace apps {

class Progress {
  public:
    // `done` items are already finished (a resumed run); the rate counts only this run's items.
    // `where` says what runs them ("2 threads", "3 ranks x 2 threads").
    Progress(long total, long done, std::string unit, std::string where, bool quiet);
    void update(long done);
    void finish(long done);

  private:
    void draw(long done);

    long total_;
    long start_done_;
    std::string unit_;
    std::string where_;
    bool quiet_;
    bool tty_;
    bool drawn_ = false;
    std::chrono::steady_clock::time_point start_;
    std::chrono::steady_clock::time_point last_;
};

}  // namespace apps
