// SPDX-License-Identifier: Apache-2.0
#include "models/partitioned.hpp"

#include <fmt/format.h>

#include <chrono>
#include <iterator>

#include "core/collective_stop.hpp"
#include "core/errors.hpp"

namespace torx::model {

namespace {

using clock_type = std::chrono::steady_clock;
double since(clock_type::time_point t) { return std::chrono::duration<double>(clock_type::now() - t).count(); }

// The words each rank contributes after a cycle.
enum Word : size_t { kFinished, kInjected, kEjected, kMoves, kUntilDue, kDeadline, kWords };

struct Global {
  NetworkCounters c;
  uint64_t until_due = UINT64_MAX;  // cycles from now until something is due on some rank
  uint64_t deadline = UINT64_MAX;   // earliest cycle by which a cut value must reach its rank
};

Global agree(Fabric& f, RankComm& comm, std::vector<uint64_t>& all) {
  const NetworkCounters c = f.counters();
  const uint64_t mine[kWords] = {c.endpoints_finished, c.flits_injected, c.flits_ejected, c.flit_moves,
                                 f.scheduler().cycles_until_due(), f.cut_deadline()};
  all.resize(static_cast<size_t>(comm.size()) * kWords);
  comm.allgather(mine, kWords, all.data());
  Global g;
  for (int r = 0; r < comm.size(); ++r) {
    const uint64_t* w = &all[static_cast<size_t>(r) * kWords];
    g.c.endpoints_finished += w[kFinished];
    g.c.flits_injected += w[kInjected];
    g.c.flits_ejected += w[kEjected];
    g.c.flit_moves += w[kMoves];
    g.until_due = std::min(g.until_due, w[kUntilDue]);
    g.deadline = std::min(g.deadline, w[kDeadline]);
  }
  return g;
}

void exchange(Fabric& f, RankComm& comm, PartitionedStats& st) {
  std::vector<std::vector<uint8_t>> out(static_cast<size_t>(comm.size())), in;
  f.export_cut(out);
  for (const auto& o : out) st.bytes_sent += o.size();
  comm.alltoallv(out, in);
  for (const auto& i : in) f.import_cut(i.data(), i.size());
  ++st.exchanges;
}

void reduce_stats(RunStats& s, GossipTotals& g, RankComm& comm) {
  comm.allreduce(s.step_first_issue.data(), s.step_first_issue.size(), RankComm::Op::kMin);
  comm.allreduce(s.step_end.data(), s.step_end.size(), RankComm::Op::kMax);
  uint64_t sums[5] = {s.messages_done, s.injection_stall_cycles, s.barrier_entries, g.host_sends, g.deliveries};
  comm.allreduce(sums, 5, RankComm::Op::kSum);
  s.messages_done = sums[0];
  s.injection_stall_cycles = sums[1];
  s.barrier_entries = sums[2];
  g.host_sends = sums[3];
  g.deliveries = sums[4];
  uint64_t maxes[2] = {s.last_store, g.last_store};
  comm.allreduce(maxes, 2, RankComm::Op::kMax);
  s.last_store = maxes[0];
  g.last_store = maxes[1];
}

// The figures each rank computed over its own nodes, combined.
void reduce_figures(sw::CycleFigures& c, uint64_t occupancy_sum, uint64_t cycle, RankComm& comm) {
  uint64_t sums[] = {c.flit_hops, c.blocked_cycles, c.router_evaluations, c.null_messages, c.null_flit_hops,
                     c.sync_wait_cycles, c.preemptions, c.preempted_cycles, c.gossip_router_copies, occupancy_sum};
  comm.allreduce(sums, std::size(sums), RankComm::Op::kSum);
  c.flit_hops = sums[0];
  c.blocked_cycles = sums[1];
  c.router_evaluations = sums[2];
  c.null_messages = sums[3];
  c.null_flit_hops = sums[4];
  c.sync_wait_cycles = sums[5];
  c.preemptions = sums[6];
  c.preempted_cycles = sums[7];
  c.gossip_router_copies = sums[8];
  c.mean_buffer_flits = cycle ? static_cast<double>(sums[9]) / static_cast<double>(cycle) : 0.0;
  comm.allreduce(c.link_flits.data(), c.link_flits.size(), RankComm::Op::kSum);
  uint32_t occ = c.max_vc_occupancy;
  comm.allreduce(&occ, 1, RankComm::Op::kMax);
  c.max_vc_occupancy = occ;
}

// Rank 0 gets every rank's text (stall reports).
std::string gather_text(const std::string& mine, RankComm& comm) {
  std::vector<std::vector<uint8_t>> out(static_cast<size_t>(comm.size())), in;
  out[0].assign(mine.begin(), mine.end());
  comm.alltoallv(out, in);
  std::string all;
  if (comm.rank() != 0) return all;
  for (size_t r = 0; r < in.size(); ++r)
    if (!in[r].empty()) all += fmt::format("\n[rank {}] ", r) + std::string(in[r].begin(), in[r].end());
  return all;
}

}  // namespace

sw::CycleFigures run_partitioned(CycleNetwork& net, const Partition& part, RankComm& comm, const CycleOptions& opt,
                                 PartitionedStats* stats) {
  PartitionedStats local;
  PartitionedStats& st = stats ? *stats : local;
  TORX_CHECK(part.ranks == comm.size(), "a partition for another number of ranks");
  TORX_CHECK(opt.trace.empty(), "partitioned runs take no trace");
  Fabric& f = net.fabric();
  f.set_partition(part, comm.rank());
  const auto t_start = clock_type::now();
  f.start_owned();
  std::vector<uint64_t> all;
  auto timed_agree = [&] {
    const auto t = clock_type::now();
    const Global g = agree(f, comm, all);
    st.sync_seconds += since(t);
    return g;
  };
  Global g = timed_agree();
  const bool done0 = g.c.endpoints_finished == static_cast<uint64_t>(net.fabric().topology().nodes()) &&
                     g.c.flits_injected == g.c.flits_ejected;
  f.set_status(done0 ? RunStatus::kDone : RunStatus::kRunning);
  uint64_t next_progress = 0;
  while (f.status() == RunStatus::kRunning) {
    // Fabric::run: skip the cycles nothing is due in (on any rank), then step one.
    const uint64_t skip = f.idle_cycles(g.until_due, &g.c);
    if (g.deadline <= f.cycle() + skip) {
      const auto t = clock_type::now();
      exchange(f, comm, st);
      st.exchange_seconds += since(t);
    }
    f.skip_cycles(skip);
    const uint64_t now = f.cycle();
    const auto t = clock_type::now();
    f.step_local();
    st.step_seconds += since(t);
    ++st.cycles_stepped;
    g = timed_agree();
    const bool idle = g.until_due == UINT64_MAX;
    f.judge(now, g.c, &idle);
    if (opt.progress && comm.rank() == 0 && f.cycle() >= next_progress) {
      opt.progress(Progress{f.cycle(), net.stats().messages_done, net.program().messages()});
      next_progress = f.cycle() + 20000;
    }
  }
  const double run_seconds = since(t_start);
  const auto t_reduce = clock_type::now();
  // The same status on every rank (judged from the same sums); the reports of every rank to rank 0.
  if (f.status() != RunStatus::kDone) {
    const std::string reports = gather_text(net.stall_report(), comm);
    throw sw::CollectiveStop(comm.rank() == 0 ? f.stop_reason() + " (partitioned over " +
                                                   std::to_string(comm.size()) + " ranks; each rank's report:)" + reports
                                             : fmt::format("rank {} stopped with the others (rank 0 reports)", comm.rank()));
  }
  reduce_stats(net.stats_mut(), net.gossip_totals_mut(), comm);
  sw::CycleFigures c = net.result();
  reduce_figures(c, f.buffer_flit_cycles(), f.cycle(), comm);
  net.memory().merge_partitioned(
      [&f](sw::NodeId v) { return f.owns(v); },
      [&comm](uint32_t* owner, size_t n) { comm.allreduce(owner, n, RankComm::Op::kMin); },
      [&comm](uint8_t* state, size_t n) { comm.allreduce(state, n, RankComm::Op::kMax); },
      [&comm](uint8_t* bytes, size_t n) { comm.allreduce(bytes, n, RankComm::Op::kOr); });
  st.reduce_seconds = since(t_reduce);
  c.run_seconds = run_seconds;
  c.threads = 1;
  return c;
}

}  // namespace torx::model
