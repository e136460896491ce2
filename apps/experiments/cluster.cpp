#include "apps/cluster.hpp"

#include <mpi.h>

#include <boost/program_options/errors.hpp>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <thread>

#include "apps/common.hpp"
#include "cardgames/cards/error.hpp"

namespace apps {

using cardgames::InputError;

namespace {

// Set once by MpiSession, read-only afterwards.
bool g_mpi = false;
int g_rank = 0;
int g_size = 1;
int g_local = 1;

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

int rank() {
    return g_rank;
}
int ranks() {
    return g_size;
}
int ranks_on_this_machine() {
    return g_local;
}

std::string workers_text(int threads) {
    const std::string t = std::to_string(threads) + (threads == 1 ? " thread" : " threads");
    if (g_size == 1) return t;
    return std::to_string(g_size) + " ranks x " + t;
}

MpiSession::MpiSession(int& argc, char**& argv) {
    if (!started_by_mpirun()) return;
    int provided = 0;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
    g_mpi = true;
    MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &g_size);
    MPI_Comm local;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &local);
    MPI_Comm_size(local, &g_local);
    MPI_Comm_free(&local);
}

MpiSession::~MpiSession() {
    if (g_mpi) MPI_Finalize();
}

int first_rank_that_differs(const std::string& text) {
    if (g_size == 1) return -1;
    const std::uint64_t hash = fnv1a(text);
    std::vector<std::uint64_t> all(static_cast<std::size_t>(g_size));
    MPI_Allgather(&hash, 1, MPI_UINT64_T, all.data(), 1, MPI_UINT64_T, MPI_COMM_WORLD);
    for (int r = 1; r < g_size; ++r)
        if (all[static_cast<std::size_t>(r)] != all[0]) return r;
    return -1;
}

std::string command_line_mismatch(int argc, char** argv) {
    std::string joined;
    for (int i = 0; i < argc; ++i) joined += std::string(argv[i]) + '\0';
    const int r = first_rank_that_differs(joined);
    if (r < 0) return "";
    return "rank " + std::to_string(r) +
           " was started with other arguments than rank 0; give every rank the same command";
}

void agree_on_setup(std::exception_ptr local) {
    if (g_size == 1) {
        if (local) std::rethrow_exception(local);
        return;
    }
    const int failed = local ? 1 : 0;
    std::vector<int> all(static_cast<std::size_t>(g_size));
    MPI_Allgather(&failed, 1, MPI_INT, all.data(), 1, MPI_INT, MPI_COMM_WORLD);
    int first = -1;
    for (int r = 0; r < g_size && first < 0; ++r)
        if (all[static_cast<std::size_t>(r)]) first = r;
    if (first < 0) return;
    if (first == 0) {
        if (g_rank == 0) std::rethrow_exception(local);
        throw QuietExit{2};
    }
    // The first failing rank tells rank 0 what went wrong; rank 0 says it, the others are quiet.
    Outbox box;
    if (g_rank == first) {
        box.send(0, Tag::kError, exit_status_of(local), message_of(local));
        box.drain();
    }
    if (g_rank != 0) throw QuietExit{2};
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
    } catch (const boost::program_options::error&) {
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

std::int64_t broadcast_from_root(std::int64_t value) {
    if (g_size > 1) MPI_Bcast(&value, 1, MPI_INT64_T, 0, MPI_COMM_WORLD);
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

std::optional<Message> poll_message() {
    if (g_size == 1) return std::nullopt;
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
