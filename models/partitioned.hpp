// SPDX-License-Identifier: Apache-2.0
// A cycle run partitioned over ranks (mpirun -np R torx run ... --model cycle|rtl; docs/distributed.md).
//
// Every rank builds the whole CycleNetwork from the same schedule and options, then simulates only
// the nodes its Partition gives it (Fabric::set_partition): the blocks of other ranks are never
// woken. Blocks meet only through latency lines of latency >= 1 (scheduler.hpp), so a rank can
// step a cycle with nothing but what reached its lines before it; after each cycle the ranks
//   1. agree on the network's status (Fabric::judge with the counters summed over the ranks: done,
//      watchdog, nothing can advance, cycle limit) and on the next cycle anything is due anywhere
//      (idle cycles are skipped together), in one allgather of a few words per rank;
//   2. exchange what waits on the cut lines, in one all-to-all, when any of it is due by the next
//      cycle to step: a flit the cycle after it was sent (the receiver's occupancy figure counts
//      flits still on the link, router.cpp), a credit or a barrier pulse when it becomes visible
//      (credit_latency, barrier_hop_latency cycles after it was sent: the lookahead).
// At the end the ranks reduce the run's statistics (sums, minima, maxima over the nodes each owns)
// so that every rank holds the figures of one process, byte for byte. Each rank's node memories
// hold only what its own nodes may hold (CycleOptions::partition, node_memory.hpp): a moved block
// that did not reach its destination is located among the ranks, each rank checks the deliveries
// to its nodes and reduce_check() sums the counts and merges the examples; rank 0 writes the
// document.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/checker.hpp"
#include "core/cycle_figures.hpp"
#include "models/loader.hpp"
#include "models/partition.hpp"

namespace torx::model {

// The communication a partitioned run needs (the application implements it over MPI). Every call
// is collective: all ranks make it, in the same order. Errors throw.
class RankComm {
 public:
  enum class Op { kSum, kMin, kMax, kOr };
  virtual ~RankComm() = default;
  virtual int rank() const = 0;
  virtual int size() const = 0;
  // Every rank's `n` words, rank by rank, into `all` (size() * n words).
  virtual void allgather(const uint64_t* mine, size_t n, uint64_t* all) = 0;
  // out[r]: the bytes for rank r; in[r] receives the bytes from rank r.
  virtual void alltoallv(const std::vector<std::vector<uint8_t>>& out, std::vector<std::vector<uint8_t>>& in) = 0;
  virtual void allreduce(uint64_t* data, size_t n, Op op) = 0;
  virtual void allreduce(uint32_t* data, size_t n, Op op) = 0;
  virtual void allreduce(uint8_t* data, size_t n, Op op) = 0;
};

// What a partitioned run measured about itself (not part of the result document).
struct PartitionedStats {
  double step_seconds = 0;      // stepping this rank's blocks
  double sync_seconds = 0;      // in the per-cycle allgather (waiting for the slowest rank included)
  double exchange_seconds = 0;  // exporting, the all-to-all, importing
  uint64_t cycles_stepped = 0;
  uint64_t exchanges = 0;
  uint64_t bytes_sent = 0;
  double reduce_seconds = 0;    // the final reduction of figures and memories
};

// Runs `net` (built with connect = true and opt.partition = &part, opt.rank = comm.rank(), not
// started) partitioned by `part` over comm's ranks and returns the figures of the whole network on
// every rank; net.memory() then holds this rank's nodes' blocks (check them with check_delivery,
// then reduce_check). Throws sw::WatchdogError on every rank if the network stalls (rank 0's message carries
// the stall reports of all ranks).
sw::CycleFigures run_partitioned(CycleNetwork& net, const Partition& part, RankComm& comm, const CycleOptions& opt,
                                 PartitionedStats* stats = nullptr);

// The checker's result over every rank's nodes (each rank's check_delivery of its part, summed);
// rank 0 gets the first `max_examples` examples in one process's order.
void reduce_check(sw::CheckResult& c, RankComm& comm, size_t max_examples = 8);

}  // namespace torx::model
