// SPDX-License-Identifier: Apache-2.0
// Partitioned runs (models/partitioned.hpp) without MPI: R threads, each with its own CycleNetwork,
// meet through an in-process RankComm; the figures and the checked memories must be the one
// process's for every partition kind and R = 2, 3, 4, on the C++ routers and on the port-level
// boundary the RTL uses (PortRouter with C++ cores, barrier cores); a comm that loses one exchange
// record must be caught (a stall reported on every rank, or different figures). Each rank holds only
// its nodes' memories; their checks summed must be the one process's, and a block lost or corrupted
// on one rank must be counted and described as one process would. Also partition.hpp.
#include <gtest/gtest.h>

#include <condition_variable>
#include <cstdio>
#include <cstring>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>

#include "model_test_util.hpp"
#include "models/barrier_core.hpp"
#include "models/memory_estimate.hpp"
#include "models/partitioned.hpp"
#include "models/port_router.hpp"
#include "core/collective_stop.hpp"

namespace torx::model {
namespace {

using sw::Topology;

// Ranks as threads: every collective call copies into shared slots between two barriers.
class Threads {
 public:
  explicit Threads(int n) : n_(n), words_(static_cast<size_t>(n)), boxes_(static_cast<size_t>(n) * n) {}
  // A rank that fails alone releases the others (MPI_Abort's part under mpirun).
  void barrier() {
    std::unique_lock<std::mutex> lk(m_);
    const uint64_t gen = gen_;
    if (aborted_) throw std::runtime_error("another rank failed");
    if (++waiting_ == n_) {
      waiting_ = 0;
      ++gen_;
      cv_.notify_all();
    } else {
      cv_.wait(lk, [&] { return gen_ != gen || aborted_; });
      if (aborted_) throw std::runtime_error("another rank failed");
    }
  }
  void abort() {
    std::lock_guard<std::mutex> lk(m_);
    aborted_ = true;
    cv_.notify_all();
  }
  bool aborted_ = false;
  int n_;
  std::vector<std::vector<uint8_t>> words_;  // per rank: its contribution (raw bytes)
  std::vector<std::vector<uint8_t>> boxes_;  // [from * n + to]
  std::mutex m_;
  std::condition_variable cv_;
  int waiting_ = 0;
  uint64_t gen_ = 0;
};

class ThreadComm final : public RankComm {
 public:
  ThreadComm(Threads& t, int rank) : t_(t), rank_(rank) {}
  int rank() const override { return rank_; }
  int size() const override { return t_.n_; }
  void allgather(const uint64_t* mine, size_t n, uint64_t* all) override {
    put(mine, n);
    for (int r = 0; r < t_.n_; ++r) std::memcpy(all + static_cast<size_t>(r) * n, t_.words_[r].data(), n * 8);
    t_.barrier();
  }
  void alltoallv(const std::vector<std::vector<uint8_t>>& out, std::vector<std::vector<uint8_t>>& in) override {
    for (int r = 0; r < t_.n_; ++r) {
      std::vector<uint8_t> o = out[static_cast<size_t>(r)];
      if (drop_first_ && !o.empty()) {  // fault: lose this rank's first record (its tag byte says which kind)
        o.clear();
        drop_first_ = false;
      }
      t_.boxes_[static_cast<size_t>(rank_) * t_.n_ + r] = std::move(o);
    }
    t_.barrier();
    in.assign(static_cast<size_t>(t_.n_), {});
    for (int r = 0; r < t_.n_; ++r) in[static_cast<size_t>(r)] = t_.boxes_[static_cast<size_t>(r) * t_.n_ + rank_];
    t_.barrier();
  }
  void allreduce(uint64_t* d, size_t n, Op op) override { reduce(d, n, op); }
  void allreduce(uint32_t* d, size_t n, Op op) override { reduce(d, n, op); }
  void allreduce(uint8_t* d, size_t n, Op op) override { reduce(d, n, op); }
  bool drop_first_ = false;

 private:
  template <class T>
  void put(const T* d, size_t n) {
    t_.words_[static_cast<size_t>(rank_)].assign(reinterpret_cast<const uint8_t*>(d),
                                                 reinterpret_cast<const uint8_t*>(d + n));
    t_.barrier();
  }
  template <class T>
  void reduce(T* d, size_t n, Op op) {
    put(d, n);
    for (int r = 0; r < t_.n_; ++r) {
      const T* o = reinterpret_cast<const T*>(t_.words_[static_cast<size_t>(r)].data());
      for (size_t i = 0; i < n; ++i) {
        if (r == 0) {
          d[i] = o[i];
          continue;
        }
        switch (op) {
          case Op::kSum: d[i] = static_cast<T>(d[i] + o[i]); break;
          case Op::kMin: d[i] = std::min(d[i], o[i]); break;
          case Op::kMax: d[i] = std::max(d[i], o[i]); break;
          case Op::kOr: d[i] = static_cast<T>(d[i] | o[i]); break;
        }
      }
    }
    t_.barrier();
  }
  Threads& t_;
  int rank_;
};

struct Outcome {
  sw::CycleFigures fig;
  sw::CheckResult check;
  std::string error;
};

struct Blocks {
  const RouterFactory* routers = nullptr;
  const BarrierFactory* barriers = nullptr;
};

// Faults planted in the node memories after the run, before the check (only where the memory is
// the node's: a rank's part plants those of its nodes).
using Plant = std::function<void(NodeMemory&)>;

Outcome alone(const sw::Schedule& s, const Topology& topo, const CycleOptions& o, Blocks su = {}, Plant plant = {}) {
  CycleNetwork net(s, topo, o, true, su.routers, su.barriers);
  net.run();
  if (plant) plant(net.memory());
  return {net.result(), sw::check_delivery(net.memory()), {}};
}

std::vector<Outcome> partitioned(const sw::Schedule& s, const Topology& topo, const CycleOptions& o,
                                 const Partition& part, Blocks su = {}, int faulty_rank = -1, Plant plant = {}) {
  Threads t(part.ranks);
  std::vector<Outcome> out(static_cast<size_t>(part.ranks));
  std::vector<std::thread> th;
  for (int r = 0; r < part.ranks; ++r)
    th.emplace_back([&, r] {
      ThreadComm comm(t, r);
      comm.drop_first_ = r == faulty_rank;
      try {
        CycleOptions mine = o;  // this rank's part of the node memories
        mine.partition = &part;
        mine.rank = r;
        CycleNetwork net(s, topo, mine, true, su.routers, su.barriers);
        Outcome& oc = out[static_cast<size_t>(r)];
        oc.fig = run_partitioned(net, part, comm, mine);
        if (plant) plant(net.memory());
        oc.check = sw::check_delivery(net.memory());
        EXPECT_TRUE(net.memory().partial());
        reduce_check(oc.check, comm);
      } catch (const sw::CollectiveStop& e) {
        out[static_cast<size_t>(r)].error = e.what();  // every rank stops together
      } catch (const std::exception& e) {
        out[static_cast<size_t>(r)].error = e.what();
        t.abort();
      }
    });
  for (auto& x : th) x.join();
  return out;
}

// Every figure of the document (times and threads aside).
void expect_same(const Outcome& a, const Outcome& b) {
  ASSERT_EQ(b.error, "");
  const sw::CycleFigures &x = a.fig, &y = b.fig;
  EXPECT_EQ(x.cycles, y.cycles);
  EXPECT_EQ(x.simulated_cycles, y.simulated_cycles);
  EXPECT_EQ(x.router_cycles, y.router_cycles);
  EXPECT_EQ(x.flit_hops, y.flit_hops);
  EXPECT_EQ(x.predicted_cycles, y.predicted_cycles);
  EXPECT_EQ(x.barriers, y.barriers);
  EXPECT_EQ(x.step_start, y.step_start);
  EXPECT_EQ(x.step_end, y.step_end);
  EXPECT_EQ(x.link_flits, y.link_flits);
  EXPECT_EQ(x.blocked_cycles, y.blocked_cycles);
  EXPECT_EQ(x.injection_stall_cycles, y.injection_stall_cycles);
  EXPECT_EQ(x.mean_buffer_flits, y.mean_buffer_flits);  // exactly: the same integer sum over the same cycles
  EXPECT_EQ(x.max_vc_occupancy, y.max_vc_occupancy);
  EXPECT_EQ(x.router_evaluations, y.router_evaluations);
  EXPECT_EQ(x.null_messages, y.null_messages);
  EXPECT_EQ(x.null_flit_hops, y.null_flit_hops);
  EXPECT_EQ(x.sync_wait_cycles, y.sync_wait_cycles);
  EXPECT_EQ(x.preemptions, y.preemptions);
  EXPECT_EQ(x.preempted_cycles, y.preempted_cycles);
  EXPECT_EQ(x.gossip_host_sends, y.gossip_host_sends);
  EXPECT_EQ(x.gossip_router_copies, y.gossip_router_copies);
  EXPECT_EQ(x.gossip_deliveries, y.gossip_deliveries);
  EXPECT_TRUE(b.check.ok);
  EXPECT_EQ(a.check.delivered, b.check.delivered);
  EXPECT_EQ(a.check.expected, b.check.expected);
}

// A rank's memory estimate counts the block lists of its own nodes' interfaces only (the others are
// never stepped there): on 128x128, t4's lists were 8.6 GiB on each of 2 ranks against 4.3 stepped.
TEST(Partition, MemoryEstimateCountsTheRanksInterfacesOnly) {
  const Topology topo({8, 8}, true);
  const sw::Schedule s = testing::generate("t4", topo);
  const sw::BlockSpace space(s.header.collective, topo, s.header.pieces, s.header.root);
  MemoryEstimate whole;
  add_program(whole, s, space, sw::SyncMode::kBarrier, sw::PortModel::kOne);
  const Partition part = make_partition(topo, 2, PartitionKind::kAuto);
  uint64_t sum = 0;
  for (int r = 0; r < 2; ++r) {
    std::vector<uint8_t> owned(static_cast<size_t>(topo.nodes()), 0);
    for (sw::NodeId v = 0; v < topo.nodes(); ++v) owned[static_cast<size_t>(v)] = part.owns(r, v);
    MemoryEstimate e;
    add_program(e, s, space, sw::SyncMode::kBarrier, sw::PortModel::kOne, &owned);
    EXPECT_EQ(e.program, whole.program);  // every rank compiles the whole program
    EXPECT_LT(e.interfaces, whole.interfaces);
    EXPECT_GT(e.interfaces, 0u);
    sum += e.interfaces;
  }
  EXPECT_EQ(sum, whole.interfaces);  // the ranks' lists are the one process's, split
  std::vector<uint8_t> all(static_cast<size_t>(topo.nodes()), 1);
  MemoryEstimate e;
  add_program(e, s, space, sw::SyncMode::kBarrier, sw::PortModel::kOne, &all);
  EXPECT_EQ(e.interfaces, whole.interfaces);
}

TEST(Partition, SlabBlockAutoCountCutLinksAndBalanceRouters) {
  const Topology t({8, 4}, true);
  const Partition slab = make_partition(t, 4, PartitionKind::kSlab);
  EXPECT_EQ(slab.parts, (std::vector<int>{4, 1}));
  EXPECT_EQ(slab.cut_links, 4u * 4 * 2);  // 4 cuts of the x rings, 4 rows, both directions
  EXPECT_EQ(slab.max_routers, 8u);
  const Partition block = make_partition(t, 4, PartitionKind::kBlock);
  EXPECT_EQ(block.parts, (std::vector<int>{2, 2}));
  EXPECT_EQ(block.cut_links, 2u * 4 * 2 + 2u * 8 * 2);
  const Partition a = make_partition(t, 4, PartitionKind::kAuto);
  EXPECT_EQ(a.max_routers, 8u);
  EXPECT_EQ(a.cut_links, 32u);  // the slabs: 32 against the 2x2 grid's 48
  EXPECT_EQ(make_partition(t, 3, PartitionKind::kAuto).max_routers, 12u);  // 8 = 3+3+2 layers: 3 x 4
  EXPECT_THROW(make_partition(t, 33, PartitionKind::kAuto), sw::InputError);
  EXPECT_THROW(make_partition(t, 9, PartitionKind::kSlab), sw::InputError);
  EXPECT_THROW(make_partition(Topology({5, 5}, true), 7, PartitionKind::kAuto), sw::InputError);  // 7 > 5 per dimension
  EXPECT_THROW(partition_kind("stripes"), sw::InputError);
}

TEST(Partitioned, EveryPartitionOfT4GivesTheOneProcessFigures) {
  const Topology topo({8, 8}, true);
  const sw::Schedule s = testing::generate("t4", topo);
  CycleOptions o;
  const Outcome one = alone(s, topo, o);
  ASSERT_TRUE(one.check.ok);
  for (int r : {2, 3, 4})
    for (PartitionKind k : {PartitionKind::kSlab, PartitionKind::kBlock, PartitionKind::kAuto}) {
      if (k == PartitionKind::kBlock && r == 3) continue;  // 3 does not split over two dimensions of 8
      const Partition part = make_partition(topo, r, k);
      SCOPED_TRACE(part.describe());
      for (const Outcome& oc : partitioned(s, topo, o, part)) expect_same(one, oc);
    }
}

TEST(Partitioned, SyncModesLatenciesAndMeshesGiveTheOneProcessFigures) {
  struct Case {
    std::string algo;
    Topology topo;
    sw::SyncMode sync;
    std::vector<std::string> params;
  };
  const std::vector<Case> cases = {
      {"direct", Topology({4, 4}, true), sw::SyncMode::kNone, {}},
      {"tsay-wang", Topology({5, 5}, true), sw::SyncMode::kLocal, {}},
      {"t4", Topology({8, 8}, true), sw::SyncMode::kSoftware, {}},
      {"t4", Topology({8, 8}, true), sw::SyncMode::kPriority, {"priority_levels=4"}},
      {"c1", Topology({3, 3, 4}, true), sw::SyncMode::kBarrier, {}},
      {"suh", Topology({4, 6}, false), sw::SyncMode::kBarrier, {}},
      {"t4", Topology({8, 8}, true), sw::SyncMode::kBarrier,
       {"link_latency=3", "credit_latency=2", "barrier_hop_latency=4", "router_latency=3"}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.algo + " " + c.topo.to_string());
    const sw::Schedule s = testing::generate(c.algo, c.topo);
    CycleOptions o;
    o.sync = c.sync;
    for (const std::string& p : c.params) sw::set_param(o.params, p);
    const Outcome one = alone(s, c.topo, o);
    ASSERT_TRUE(one.check.ok);
    for (const Outcome& oc : partitioned(s, c.topo, o, make_partition(c.topo, 3, PartitionKind::kAuto)))
      expect_same(one, oc);
  }
}

// The boundary the Verilated routers sit behind (PortRouter and barrier cores), with C++ cores.
TEST(Partitioned, PortLevelRoutersAndBarrierCoresGiveTheOneProcessFigures) {
  const CppRouterFactory routers{RouterConfig{}};
  const CppBarrierFactory barriers;
  const Blocks su{&routers, &barriers};
  const Topology topo({8, 8}, true);
  const sw::Schedule s = testing::generate("t4", topo);
  CycleOptions o;
  const Outcome one = alone(s, topo, o, su);
  ASSERT_TRUE(one.check.ok);
  for (const Outcome& oc : partitioned(s, topo, o, make_partition(topo, 2, PartitionKind::kBlock), su))
    expect_same(one, oc);
}

// Each rank checks its own nodes' blocks: faults planted on either rank (a moved block lost or
// corrupted, a copy corrupted) are counted and described exactly as one process counts and
// describes them, examples in the same order.
TEST(Partitioned, PlantedFaultsAreCheckedAsInOneProcess) {
  for (const std::string algo : {"t4", "ms-hc"}) {
    SCOPED_TRACE(algo);
    const Topology topo = algo == "t4" ? Topology({8, 8}, true) : Topology({6, 6}, true);
    const sw::Schedule s = testing::generate(algo, topo);
    CycleOptions o;
    const sw::NodeId n = topo.nodes();
    const Plant plant = [n](NodeMemory& m) {
      // Blocks destined to nodes on both ranks, in an order that interleaves them.
      for (sw::BlockId b : {sw::BlockId(1) * n + (n - 1), sw::BlockId(2) * n + 1, sw::BlockId(3) * n + (n / 2),
                            sw::BlockId(5) * n + 2}) {
        if (m.moves()) {
          const sw::NodeId t = m.space().destination(b);
          if (!m.checks(t)) continue;
          if (b % 2) m.slot(b, t)[0] ^= 1;  // corrupted
          else m.take(b);                   // lost in flight
        } else {
          const sw::NodeId v = static_cast<sw::NodeId>(b % static_cast<sw::BlockId>(n));
          const sw::BlockId blk = b % m.space().universe();
          if (!m.checks(v) || m.space().source(blk) == v) continue;
          m.slot(blk, v)[0] ^= 1;
        }
      }
    };
    const Outcome one = alone(s, topo, o, {}, plant);
    ASSERT_FALSE(one.check.ok);
    ASSERT_GE(one.check.examples.size(), 2u);
    for (PartitionKind k : {PartitionKind::kSlab, PartitionKind::kBlock}) {
      const std::vector<Outcome> out = partitioned(s, topo, o, make_partition(topo, 2, k), {}, -1, plant);
      const sw::CheckResult& c = out[0].check;
      ASSERT_EQ(out[0].error, "");
      EXPECT_FALSE(c.ok);
      EXPECT_EQ(c.delivered, one.check.delivered);
      EXPECT_EQ(c.missing, one.check.missing);
      EXPECT_EQ(c.misdelivered, one.check.misdelivered);
      EXPECT_EQ(c.corrupted, one.check.corrupted);
      EXPECT_EQ(c.duplicated, one.check.duplicated);
      EXPECT_EQ(c.examples, one.check.examples);
    }
  }
}

// A lost exchange record (a flit, credit or pulse of one rank's first exchange) is not silently
// absorbed: every rank reports the stall, or the figures differ.
TEST(Partitioned, ALostExchangeRecordIsCaught) {
  const Topology topo({8, 8}, true);
  const sw::Schedule s = testing::generate("t4", topo);
  CycleOptions o;
  o.params.watchdog_cycles = 2000;
  const Outcome one = alone(s, topo, o);
  for (int faulty : {0, 1}) {
    const std::vector<Outcome> out = partitioned(s, topo, o, make_partition(topo, 2, PartitionKind::kSlab), {}, faulty);
    // Every rank stops (a stall judged together, or the receiver's check of the write pointer and
    // the others released), or the figures differ.
    const bool stopped = !out[0].error.empty() && !out[1].error.empty();
    const bool differs = out[0].error.empty() && (out[0].fig.cycles != one.fig.cycles || !out[0].check.ok ||
                                                  out[0].fig.link_flits != one.fig.link_flits);
    EXPECT_TRUE(stopped || differs) << "rank " << faulty << " lost a record unnoticed";
    if (stopped) std::printf("rank %d lost its first record: %s | %s\n", faulty, out[0].error.substr(0, 120).c_str(),
                             out[1].error.substr(0, 120).c_str());
  }
}

}  // namespace
}  // namespace torx::model
