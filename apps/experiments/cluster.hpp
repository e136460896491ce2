#pragma once
// The processes of one run. Started by mpirun, a run is one of several MPI ranks: main() opens an
// MpiSession, every rank checks that all were given the same command line, and the batch
// commands (tournament, eval) split their items over the ranks (batch.hpp). Started on its own,
// a run is rank 0 of 1 and makes no MPI call at all, so it behaves as it always has.
//
// MPI is process-wide state by nature: main() opens the one MpiSession and every run is handed
// it. Every MPI call is made from the main thread (MPI_THREAD_FUNNELED).

#include <cstdint>
#include <exception>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace apps {

// Thrown on the ranks other than 0 where rank 0 reports the error: exit with this status, say
// nothing (one message per run, from rank 0).
struct QuietExit {
    int status;
};

// Messages of a batch between the ranks and rank 0, which alone writes the results file.
enum class Tag : int {
    kResult = 1,   // rank -> 0: an item's index and line
    kDone = 2,     // rank -> 0: how many results the rank sent, all before this message
    kError = 3,    // rank -> 0: a failed item: exit status and message
    kStop = 4,     // 0 -> rank: stop taking items (interrupt or a failure elsewhere)
    kOutcome = 5,  // 0 -> rank: how the run ended (its exit status), the last message
    kWritten = 6,  // 0 -> rank: how many results are in the file (the farm's window moves on)
};

struct Message {
    Tag tag;
    int source;
    std::int64_t number = 0;  // kResult: the index; kDone: results sent; kError: exit status;
                              // kWritten: results written
    std::string text;         // kResult: the line; kError: the message
};

// The processes of this run: which rank this one is, how many there are. Created once, by main()
// (MPI can be initialised once per process), and handed to the runs; a default-constructed
// session is a single process that makes no MPI call (the Python module's runs).
class MpiSession {
  public:
    // A single process: rank 0 of 1, no MPI.
    MpiSession() = default;
    // Initialises MPI when this process was started by mpirun; otherwise a single process.
    MpiSession(int& argc, char**& argv);
    ~MpiSession();
    MpiSession(const MpiSession&) = delete;
    MpiSession& operator=(const MpiSession&) = delete;
    // The session of a process that does not use MPI (the default of the library's runs).
    static const MpiSession& single_process();

    // This process's rank and the number of ranks (0 and 1 without mpirun).
    int rank() const { return rank_; }
    int ranks() const { return size_; }
    // Ranks sharing this machine (1 without mpirun): the default --threads divides the cores by it.
    int ranks_on_this_machine() const { return local_; }
    // "2 threads" or "3 ranks x 2 threads": for the progress line and the final tables.
    std::string workers_text(int threads) const;

    // Collective: the lowest rank whose `text` differs from rank 0's, or -1 when all agree.
    int first_rank_that_differs(const std::string& text) const;
    // Collective: empty when every rank was given the same arguments, else which rank's differ.
    std::string command_line_mismatch(int argc, char** argv) const;
    // Collective: every rank passes what its own set-up threw (null if it succeeded). If any
    // failed, every rank throws: rank 0 its own error or an InputError naming the first failing
    // rank and its message, the others QuietExit{2}. Single process: rethrows `local` if set.
    void agree_on_setup(std::exception_ptr local) const;
    // Collective: rank 0's value on every rank.
    std::int64_t broadcast_from_root(std::int64_t value) const;
    // A message for this rank, if one has arrived (never blocks).
    std::optional<Message> poll_message() const;

  private:
    bool mpi_ = false;
    int rank_ = 0;
    int size_ = 1;
    int local_ = 1;
};

// What an exception means for the exit status (2 bad input, 1 otherwise; QuietExit its own) and
// its message: what a rank sends rank 0 in a kError message.
int exit_status_of(const std::exception_ptr& e);
std::string message_of(const std::exception_ptr& e);
// A kError message as the exception rank 0 reports: an InputError when it was bad input.
std::exception_ptr error_from(const Message& m);

// Non-blocking sends that keep their buffers until delivered.
class Outbox {
  public:
    Outbox();
    ~Outbox();
    Outbox(const Outbox&) = delete;
    Outbox& operator=(const Outbox&) = delete;
    void send(int dest, Tag tag, std::int64_t number, const std::string& text);
    // Frees the buffers of delivered messages; true when none is pending.
    bool progress();
    // Blocks (politely, without spinning a core) until everything was delivered.
    void drain();

  private:
    struct Pending;
    std::vector<std::unique_ptr<Pending>> pending_;
};

}  // namespace apps
