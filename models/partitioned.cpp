// SPDX-License-Identifier: Apache-2.0
#include "models/partitioned.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstring>
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

// Every rank's moved blocks that did not end at their (owned) destination: where they are, as the
// ranks agree (each answers for its own nodes; the minimum is the holder, kInFlight if none has it).
void resolve_holders(NodeMemory& mem, RankComm& comm) {
  const std::vector<sw::BlockId> mine = mem.unresolved();
  const size_t ranks = static_cast<size_t>(comm.size());
  std::vector<uint64_t> counts(ranks);
  const uint64_t n = mine.size();
  comm.allgather(&n, 1, counts.data());
  uint64_t total = 0;
  for (uint64_t c : counts) total += c;
  if (total == 0) return;  // every block is at its destination (a run that passes)
  std::vector<std::vector<uint8_t>> out(ranks), in;
  for (auto& o : out) {
    o.resize(mine.size() * sizeof(sw::BlockId));
    if (!mine.empty()) std::memcpy(o.data(), mine.data(), o.size());
  }
  comm.alltoallv(out, in);
  std::vector<sw::BlockId> all;
  all.reserve(total);
  for (const auto& i : in) {
    const size_t k = all.size();
    all.resize(k + i.size() / sizeof(sw::BlockId));
    if (!i.empty()) std::memcpy(all.data() + k, i.data(), i.size());
  }
  TORX_CHECK(all.size() == total, "an exchange of unresolved blocks lost some");
  std::vector<uint32_t> holders(all.size());
  for (size_t k = 0; k < all.size(); ++k) holders[k] = mem.owner_answer(all[k]);
  comm.allreduce(holders.data(), holders.size(), RankComm::Op::kMin);
  uint64_t first = 0;
  for (int r = 0; r < comm.rank(); ++r) first += counts[static_cast<size_t>(r)];
  mem.resolve(mine, std::vector<uint32_t>(holders.begin() + static_cast<ptrdiff_t>(first),
                                          holders.begin() + static_cast<ptrdiff_t>(first + n)));
}

}  // namespace

void reduce_check(sw::CheckResult& c, RankComm& comm, size_t max_examples) {
  uint64_t sums[] = {c.delivered, c.missing, c.duplicated, c.misdelivered, c.corrupted};
  comm.allreduce(sums, std::size(sums), RankComm::Op::kSum);
  c.delivered = sums[0];
  c.missing = sums[1];
  c.duplicated = sums[2];
  c.misdelivered = sums[3];
  c.corrupted = sums[4];
  c.ok = c.missing == 0 && c.duplicated == 0 && c.misdelivered == 0 && c.corrupted == 0 && c.delivered == c.expected;
  // The examples to rank 0, merged in the checker's order (key, then rank: one process's order).
  std::vector<uint8_t> mine;
  for (size_t k = 0; k < c.examples.size(); ++k) {
    const uint64_t key = c.example_keys[k];
    const uint32_t len = static_cast<uint32_t>(c.examples[k].size());
    const size_t at = mine.size();
    mine.resize(at + sizeof key + sizeof len + len);
    std::memcpy(mine.data() + at, &key, sizeof key);
    std::memcpy(mine.data() + at + sizeof key, &len, sizeof len);
    std::memcpy(mine.data() + at + sizeof key + sizeof len, c.examples[k].data(), len);
  }
  std::vector<std::vector<uint8_t>> out(static_cast<size_t>(comm.size())), in;
  out[0] = std::move(mine);
  comm.alltoallv(out, in);
  if (comm.rank() != 0) return;
  std::vector<std::pair<uint64_t, std::string>> all;
  for (const auto& i : in) {
    size_t at = 0;
    while (at + 12 <= i.size()) {
      uint64_t key = 0;
      uint32_t len = 0;
      std::memcpy(&key, i.data() + at, sizeof key);
      std::memcpy(&len, i.data() + at + sizeof key, sizeof len);
      at += sizeof key + sizeof len;
      TORX_CHECK(at + len <= i.size(), "a truncated example");
      all.emplace_back(key, std::string(reinterpret_cast<const char*>(i.data() + at), len));
      at += len;
    }
  }
  std::stable_sort(all.begin(), all.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  c.examples.clear();
  c.example_keys.clear();
  for (size_t k = 0; k < all.size() && k < max_examples; ++k) {
    c.example_keys.push_back(all[k].first);
    c.examples.push_back(std::move(all[k].second));
  }
}

sw::CycleFigures run_partitioned(CycleNetwork& net, const Partition& part, RankComm& comm, const CycleOptions& opt,
                                 PartitionedStats* stats) {
  PartitionedStats local;
  PartitionedStats& st = stats ? *stats : local;
  TORX_CHECK(part.ranks == comm.size(), "a partition for another number of ranks");
  TORX_CHECK(opt.trace.empty(), "partitioned runs take no trace");
  TORX_CHECK(opt.partition == &part && opt.rank == comm.rank() && net.memory().partial(),
             "a partitioned run needs the network built for its part (CycleOptions::partition, rank)");
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
  resolve_holders(net.memory(), comm);
  st.reduce_seconds = since(t_reduce);
  c.run_seconds = run_seconds;
  c.threads = 1;
  return c;
}

}  // namespace torx::model
