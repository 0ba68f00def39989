// SPDX-License-Identifier: Apache-2.0
// The MPI world of a partitioned run (mpirun -np R torx run ...; docs/distributed.md). MPI is
// started only when this process is one of several ranks that mpirun launched (Open MPI's
// OMPI_COMM_WORLD_SIZE, or PMI_SIZE, above 1): a torx started without mpirun, or with -np 1, never
// touches MPI. Built with TORX_WITH_MPI=ON; without it, a torx that finds itself one of several
// ranks refuses to run (each rank would run the whole network and write its own document).
#pragma once

#include <array>
#include <cstdint>
#include <string>

#include "core/errors.hpp"

namespace torx::model {
class RankComm;
}
namespace torx::sw {
struct CheckResult;
}

namespace torx::app {

// An MPI call failed on this rank (exit 3; the other ranks are stopped by MPI_Abort).
class MpiError : public sw::WatchdogError {
 public:
  using sw::WatchdogError::WatchdogError;
};

// Starts MPI if this process is one of several ranks. Throws sw::InputError when it is but this
// build has no MPI. Errors of MPI calls throw (MPI_ERRORS_RETURN), never abort silently.
void mpi_start(int* argc, char*** argv);
// Ends MPI (a no-op when it was not started). `code`: this rank's exit code; a rank that fails
// alone (an MPI error, an internal error, a limit of its own: anything but bad input and a
// collective stop, which every rank meets alike) aborts every rank with it instead of leaving them
// waiting (MPI_Abort: mpirun exits with `code`).
void mpi_finish(int code, bool alone);
// The world of a partitioned run, or null when this process runs alone.
model::RankComm* mpi_world();
int mpi_rank();   // 0 when alone
int mpi_size();   // 1 when alone
// Only rank 0 writes results (documents, summaries, files).
inline bool output_rank() { return mpi_rank() == 0; }
// A partitioned run's check (each rank judged its own nodes' deliveries): the counts summed over
// the ranks, the examples merged on rank 0 (models/partitioned.hpp, reduce_check).
void reduce_partial_check(sw::CheckResult& c);
// A partitioned run's schedule: each rank's step model tracks its share of the blocks, so a broken
// holding rule is seen by one rank only. Every rank calls this after generating (or reading) the
// schedule, with `error` the text of the InputError it stopped at (null if none) and `position` its
// step model's failure_position(): when any rank failed, every rank throws the InputError of the
// earliest position (the one one process, tracking every block, stops at).
void agree_on_schedule_error(const std::array<uint64_t, 5>& position, const std::string* error);
// The number of ranks mpirun started this process among (1 if none), from the environment.
int launched_ranks();

}  // namespace torx::app
