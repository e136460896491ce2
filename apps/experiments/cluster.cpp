#include "apps/experiments/cluster.hpp"

#include <mpi.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <thread>

#include "apps/experiments/run.hpp"
#include "cardgames/cards/error.hpp"

namespace apps {

using cardgames::InputError;

namespace {

bool started_by_mpirun() {
    // Open MPI sets OMPI_COMM_WORLD_SIZE; PMIx and PMI launchers (MPICH, Slurm) set these.
    for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_SIZE"})
        if (std::getenv(name)) return true;
    return false;
}

// A short wait between polls: blocking MPI calls spin a core, which ranks sharing a machine with
// their own workers cannot spare; results come every few milliseconds at most.
void pause_briefly() {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
}

void wait_for(MPI_Request& request) {
    for (int done = 0;;) {
        MPI_Test(&request, &done, MPI_STATUS_IGNORE);
        if (done) return;
        pause_briefly();
    }
}

}  // namespace

std::string MpiSession::workers_text(int threads) const {
    const std::string t = std::to_string(threads) + (threads == 1 ? " thread" : " threads");
    if (size_ == 1) return t;
    return std::to_string(size_) + " ranks x " + t;
}

MpiSession::MpiSession(int& argc, char**& argv) {
    if (!started_by_mpirun()) return;
    int provided = 0;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
    mpi_ = true;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
    MPI_Comm_size(MPI_COMM_WORLD, &size_);
    MPI_Comm local;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &local);
    MPI_Comm_size(local, &local_);
    MPI_Comm_free(&local);
}

const MpiSession& MpiSession::single_process() {
    static const MpiSession single;
    return single;
}

MpiSession::~MpiSession() {
    if (mpi_) MPI_Finalize();
}

int MpiSession::first_rank_that_differs(const std::string& text) const {
    if (size_ == 1) return -1;
    const std::uint64_t hash = fnv1a(text);
    std::vector<std::uint64_t> all(static_cast<std::size_t>(size_));
    MPI_Allgather(&hash, 1, MPI_UINT64_T, all.data(), 1, MPI_UINT64_T, MPI_COMM_WORLD);
    for (int r = 1; r < size_; ++r)
        if (all[static_cast<std::size_t>(r)] != all[0]) return r;
    return -1;
}

std::string MpiSession::command_line_mismatch(int argc, char** argv) const {
    std::string joined;
    for (int i = 0; i < argc; ++i) joined += std::string(argv[i]) + '\0';
    const int r = first_rank_that_differs(joined);
    if (r < 0) return "";
    return "rank " + std::to_string(r) +
           " was started with other arguments than rank 0; give every rank the same command";
}

void MpiSession::agree_on_setup(std::exception_ptr local) const {
    if (size_ == 1) {
        if (local) std::rethrow_exception(local);
        return;
    }
    const int failed = local ? 1 : 0;
    std::vector<int> all(static_cast<std::size_t>(size_));
    MPI_Allgather(&failed, 1, MPI_INT, all.data(), 1, MPI_INT, MPI_COMM_WORLD);
    int first = -1;
    for (int r = 0; r < size_ && first < 0; ++r)
        if (all[static_cast<std::size_t>(r)]) first = r;
    if (first < 0) return;
    if (first == 0) {
        if (rank_ == 0) std::rethrow_exception(local);
        throw QuietExit{2};
    }
    // The first failing rank tells rank 0 what went wrong; rank 0 says it, the others are quiet.
    Outbox box;
    if (rank_ == first) {
        box.send(0, Tag::kError, exit_status_of(local), message_of(local));
        box.drain();
    }
    if (rank_ != 0) throw QuietExit{2};
    for (;;) {
        if (const std::optional<Message> m = poll_message(); m && m->tag == Tag::kError)
            std::rethrow_exception(error_from(*m));
        pause_briefly();
    }
}

int exit_status_of(const std::exception_ptr& e) {
    try {
        std::rethrow_exception(e);
    } catch (const InputError&) {
        return kExitBadInput;
    } catch (const QuietExit& x) {
        return x.status;
    } catch (...) {
        return kExitFailed;
    }
}

std::string message_of(const std::exception_ptr& e) {
    try {
        std::rethrow_exception(e);
    } catch (const std::exception& x) {
        return x.what();
    } catch (...) {
        return "unknown error";
    }
}

std::exception_ptr error_from(const Message& m) {
    const std::string text = "rank " + std::to_string(m.source) + ": " + m.text;
    if (m.number == kExitBadInput) return std::make_exception_ptr(InputError(text));
    return std::make_exception_ptr(std::runtime_error(text));
}

std::int64_t MpiSession::broadcast_from_root(std::int64_t value) const {
    if (size_ > 1) MPI_Bcast(&value, 1, MPI_INT64_T, 0, MPI_COMM_WORLD);
    return value;
}

struct Outbox::Pending {
    std::string buffer;  // the number (8 bytes), then the text
    MPI_Request request = MPI_REQUEST_NULL;
};

Outbox::Outbox() = default;

Outbox::~Outbox() {
    drain();
}

void Outbox::send(int dest, Tag tag, std::int64_t number, const std::string& text) {
    auto p = std::make_unique<Pending>();
    p->buffer.resize(sizeof number);
    std::memcpy(p->buffer.data(), &number, sizeof number);
    p->buffer += text;
    MPI_Isend(p->buffer.data(), static_cast<int>(p->buffer.size()), MPI_BYTE, dest,
              static_cast<int>(tag), MPI_COMM_WORLD, &p->request);
    pending_.push_back(std::move(p));
}

bool Outbox::progress() {
    std::erase_if(pending_, [](const std::unique_ptr<Pending>& p) {
        int done = 0;
        MPI_Test(&p->request, &done, MPI_STATUS_IGNORE);
        return done != 0;
    });
    return pending_.empty();
}

void Outbox::drain() {
    for (auto& p : pending_) wait_for(p->request);
    pending_.clear();
}

std::optional<Message> MpiSession::poll_message() const {
    if (size_ == 1) return std::nullopt;
    int flag = 0;
    MPI_Message handle;
    MPI_Status status;
    MPI_Improbe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &handle, &status);
    if (!flag) return std::nullopt;
    int count = 0;
    MPI_Get_count(&status, MPI_BYTE, &count);
    std::string buffer(static_cast<std::size_t>(count), '\0');
    MPI_Mrecv(buffer.data(), count, MPI_BYTE, &handle, MPI_STATUS_IGNORE);
    Message m{static_cast<Tag>(status.MPI_TAG), status.MPI_SOURCE, 0, ""};
    if (buffer.size() >= sizeof m.number) {
        std::memcpy(&m.number, buffer.data(), sizeof m.number);
        m.text = buffer.substr(sizeof m.number);
    }
    return m;
}

}  // namespace apps
