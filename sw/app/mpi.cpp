// SPDX-License-Identifier: Apache-2.0
// MPI behind model::RankComm (app/mpi.hpp). Every call checks its return code (the communicator's
// error handler is MPI_ERRORS_RETURN) and throws sw::WatchdogError naming the call, so that a
// failing rank exits 3 with a message and mpirun stops the others.
#include "app/mpi.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <vector>

#include "core/errors.hpp"
#include "core/output_file.hpp"

#ifdef TORX_WITH_MPI
#include <mpi.h>

#include "models/partitioned.hpp"
#endif

namespace torx::app {

int launched_ranks() {
  for (const char* var : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_SIZE"}) {
    const char* v = std::getenv(var);
    if (v && *v) {
      const long n = std::strtol(v, nullptr, 10);
      if (n >= 1 && n <= std::numeric_limits<int>::max()) return static_cast<int>(n);
    }
  }
  return 1;
}

#ifdef TORX_WITH_MPI

namespace {

void check(int rc, const char* call) {
  if (rc == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING] = {};
  int len = 0;
  MPI_Error_string(rc, text, &len);
  throw MpiError(fmt::format("MPI: {} failed: {}", call, std::string(text, static_cast<size_t>(len))));
}

MPI_Op op_of(model::RankComm::Op op) {
  switch (op) {
    case model::RankComm::Op::kSum: return MPI_SUM;
    case model::RankComm::Op::kMin: return MPI_MIN;
    case model::RankComm::Op::kMax: return MPI_MAX;
    case model::RankComm::Op::kOr: return MPI_BOR;
  }
  return MPI_SUM;
}

class MpiComm final : public model::RankComm {
 public:
  MpiComm() {
    check(MPI_Comm_rank(MPI_COMM_WORLD, &rank_), "MPI_Comm_rank");
    check(MPI_Comm_size(MPI_COMM_WORLD, &size_), "MPI_Comm_size");
  }
  // Testing the failure paths (docs/distributed.md): TORX_MPI_FAULT=RANK:N makes rank RANK's N-th
  // collective call fail as an MPI error would; RANK:N:kill makes the rank die there by SIGKILL
  // (a rank that dies: mpirun stops the others, torx-mpirun exits 3).
  void set_fault(int rank, long calls, bool kill) {
    if (rank == rank_) fault_at_ = calls;
    kill_ = kill;
  }
  int rank() const override { return rank_; }
  int size() const override { return size_; }
  void allgather(const uint64_t* mine, size_t n, uint64_t* all) override {
    count_call();
    check(MPI_Allgather(mine, static_cast<int>(n), MPI_UINT64_T, all, static_cast<int>(n), MPI_UINT64_T, MPI_COMM_WORLD),
          "MPI_Allgather");
  }
  void alltoallv(const std::vector<std::vector<uint8_t>>& out, std::vector<std::vector<uint8_t>>& in) override {
    count_call();
    const size_t r = static_cast<size_t>(size_);
    std::vector<int> scount(r), rcount(r), sdispl(r), rdispl(r);
    size_t total = 0;
    for (size_t i = 0; i < r; ++i) {
      TORX_CHECK(out[i].size() < (1u << 30), "exchange of more than 1 GiB per rank pair in one cycle");
      scount[i] = static_cast<int>(out[i].size());
      sdispl[i] = static_cast<int>(total);
      total += out[i].size();
    }
    TORX_CHECK(total < (1u << 31), "exchange of more than 2 GiB in one cycle");
    std::vector<uint8_t> sbuf(total);
    for (size_t i = 0; i < r; ++i) std::copy(out[i].begin(), out[i].end(), sbuf.begin() + sdispl[i]);
    check(MPI_Alltoall(scount.data(), 1, MPI_INT, rcount.data(), 1, MPI_INT, MPI_COMM_WORLD), "MPI_Alltoall");
    size_t rtotal = 0;
    for (size_t i = 0; i < r; ++i) {
      rdispl[i] = static_cast<int>(rtotal);
      rtotal += static_cast<size_t>(rcount[i]);
    }
    TORX_CHECK(rtotal < (1u << 31), "exchange of more than 2 GiB in one cycle");
    std::vector<uint8_t> rbuf(rtotal);
    check(MPI_Alltoallv(sbuf.data(), scount.data(), sdispl.data(), MPI_BYTE, rbuf.data(), rcount.data(), rdispl.data(),
                        MPI_BYTE, MPI_COMM_WORLD),
          "MPI_Alltoallv");
    in.assign(r, {});
    for (size_t i = 0; i < r; ++i)
      in[i].assign(rbuf.begin() + rdispl[i], rbuf.begin() + rdispl[i] + rcount[i]);
  }
  void allreduce(uint64_t* d, size_t n, Op op) override { reduce(d, n, MPI_UINT64_T, op); }
  void allreduce(uint32_t* d, size_t n, Op op) override { reduce(d, n, MPI_UINT32_T, op); }
  void allreduce(uint8_t* d, size_t n, Op op) override { reduce(d, n, MPI_UINT8_T, op); }

 private:
  void count_call() {
    if (++calls_ != fault_at_) return;
    if (kill_) {
      std::fprintf(stderr, "torx: rank %d kills itself (SIGKILL) at collective call %ld: TORX_MPI_FAULT\n", rank_, calls_);
      std::fflush(stderr);
      ::raise(SIGKILL);
    }
    throw MpiError(fmt::format("MPI: collective call {} failed: injected by TORX_MPI_FAULT", calls_));
  }
  template <class T>
  void reduce(T* d, size_t n, MPI_Datatype type, Op op) {
    count_call();
    constexpr size_t kChunk = size_t{1} << 26;  // MPI counts are int: large arrays in chunks
    for (size_t i = 0; i < n; i += kChunk)
      check(MPI_Allreduce(MPI_IN_PLACE, d + i, static_cast<int>(std::min(kChunk, n - i)), type, op_of(op), MPI_COMM_WORLD),
            "MPI_Allreduce");
  }
  int rank_ = 0, size_ = 1;
  long calls_ = 0, fault_at_ = -1;
  bool kill_ = false;
};

// What a surviving rank says when mpirun stops it (SIGTERM: another rank died, or the job was
// stopped); written by the signal handler (core/output_file.hpp), so formatted beforehand.
char g_stop_message[160];

std::unique_ptr<MpiComm> g_world;

}  // namespace

void mpi_start(int* argc, char*** argv) {
  if (launched_ranks() <= 1) return;
  int provided = 0;
  if (MPI_Init_thread(argc, argv, MPI_THREAD_SINGLE, &provided) != MPI_SUCCESS)
    throw MpiError("MPI: MPI_Init_thread failed");
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  g_world = std::make_unique<MpiComm>();
  std::snprintf(g_stop_message, sizeof g_stop_message,
                "torx: stopped (rank %d): terminated by mpirun (another rank died, or the job was stopped)\n",
                g_world->rank());
  sw::set_signal_exit(3, g_stop_message);
  if (const char* f = std::getenv("TORX_MPI_FAULT")) {
    int rank = -1, end = 0;
    long calls = -1;
    const std::string spec = f;
    const bool kill = spec.size() > 5 && spec.compare(spec.size() - 5, 5, ":kill") == 0;
    const std::string nums = kill ? spec.substr(0, spec.size() - 5) : spec;
    if (std::sscanf(nums.c_str(), "%d:%ld%n", &rank, &calls, &end) != 2 || calls < 1 ||
        static_cast<size_t>(end) != nums.size())
      throw sw::InputError(fmt::format("TORX_MPI_FAULT={}: give RANK:CALLS or RANK:CALLS:kill (a rank, and its "
                                       "collective call to fail or to die at)",
                                       f));
    g_world->set_fault(rank, calls, kill);
  }
}

void mpi_finish(int code, bool alone) {
  if (!g_world) return;
  if (alone && code != 0) MPI_Abort(MPI_COMM_WORLD, code);
  g_world.reset();
  MPI_Finalize();
}

model::RankComm* mpi_world() { return g_world.get(); }
void reduce_partial_check(sw::CheckResult& c) {
  TORX_CHECK(g_world != nullptr, "a partial check outside a partitioned run");
  model::reduce_check(c, *g_world);
}
int mpi_rank() { return g_world ? g_world->rank() : 0; }
int mpi_size() { return g_world ? g_world->size() : 1; }

void agree_on_schedule_error(const std::array<uint64_t, 5>& position, const std::string* error) {
  if (!g_world) {
    if (error) throw sw::InputError(*error);
    return;
  }
  constexpr size_t kw = 6;  // failed, then the position
  const uint64_t mine[kw] = {error ? 1u : 0u, position[0], position[1], position[2], position[3], position[4]};
  const size_t r = static_cast<size_t>(g_world->size());
  std::vector<uint64_t> all(kw * r);
  g_world->allgather(mine, kw, all.data());
  size_t first = r;
  for (size_t i = 0; i < r; ++i) {
    const uint64_t* w = &all[i * kw];
    if (w[0] && (first == r || std::lexicographical_compare(w + 1, w + kw, &all[first * kw + 1], &all[first * kw + kw])))
      first = i;
  }
  if (first == r) return;
  std::vector<std::vector<uint8_t>> out(r), in;
  if (first == static_cast<size_t>(g_world->rank()))
    for (auto& o : out) o.assign(error->begin(), error->end());
  g_world->alltoallv(out, in);
  throw sw::InputError(std::string(in[first].begin(), in[first].end()));
}

#else

void mpi_start(int*, char***) {
  if (launched_ranks() > 1)
    throw sw::InputError(fmt::format("started as one of {} MPI ranks, but this torx was built without MPI "
                                     "(cmake -DTORX_WITH_MPI=ON; docs/distributed.md)",
                                     launched_ranks()));
}
void mpi_finish(int, bool) {}
model::RankComm* mpi_world() { return nullptr; }
void reduce_partial_check(sw::CheckResult&) { TORX_CHECK(false, "a partial check in a build without MPI"); }
int mpi_rank() { return 0; }
int mpi_size() { return 1; }
void agree_on_schedule_error(const std::array<uint64_t, 5>&, const std::string* error) {
  if (error) throw sw::InputError(*error);
}

#endif

}  // namespace torx::app
