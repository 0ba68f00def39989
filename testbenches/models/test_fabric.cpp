// Whole networks without the SystemC kernel: evaluation order cannot change any flit movement; the
// same inputs give the same cycles (and the seed changes content, not timing); the cycle model's
// check agrees with the step model's on every algorithm at small sizes and on injected faults; a
// torus deadlocks without the dateline and not with it; a cyclic routing table is caught by the
// watchdog with a report of every stuck worm.
#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <tuple>

#include "model_test_util.hpp"

namespace torx::model {
namespace {

using sw::Topology;
using testing::generate;
using testing::parse_schedule;

struct Event {
  uint64_t cycle;
  uint32_t link, msg, seq;
  uint8_t vc;
  bool operator<(const Event& o) const {
    return std::tie(cycle, link, msg, seq, vc) < std::tie(o.cycle, o.link, o.msg, o.seq, o.vc);
  }
  bool operator==(const Event& o) const {
    return std::tie(cycle, link, msg, seq, vc) == std::tie(o.cycle, o.link, o.msg, o.seq, o.vc);
  }
};

struct Recorder : FlitObserver {
  std::vector<Event> events;
  void on_flit(uint64_t cycle, uint32_t link, const Flit& f) override {
    events.push_back({cycle, link, f.msg, f.seq, f.vc});
  }
};

struct Trace {
  std::vector<Event> events;
  uint64_t cycles;
  uint64_t blocked;
};

Trace run_in_order(const sw::Schedule& s, const Topology& topo, EvalOrder order, uint64_t seed) {
  CycleOptions o;
  o.cost.block_bytes = 128;  // 8-flit worms
  o.cost.ts_cycles = 5;
  o.sync = sw::SyncMode::kNone;      // steps overlap: worms of different steps meet
  CycleNetwork net(s, topo, o);
  Recorder rec;
  net.fabric().set_observer(&rec);
  net.fabric().scheduler().set_order(order, seed);
  net.run();
  std::sort(rec.events.begin(), rec.events.end());
  return {rec.events, net.stats().last_store, net.fabric().blocked_vc_cycles()};
}

TEST(Fabric, EvaluationOrderDoesNotChangeAnyFlitMovement) {
  // direct on a 4x4 torus without barriers: heavy contention, so arbitration decides in most cycles.
  const Topology topo({4, 4}, true);
  const sw::Schedule s = generate("direct", topo);
  const Trace a = run_in_order(s, topo, EvalOrder::kAsWoken, 1);
  ASSERT_GT(a.events.size(), 1000u);
  ASSERT_GT(a.blocked, 0u) << "the scenario must contend";
  for (auto [order, seed] : {std::pair{EvalOrder::kReversed, 1}, std::pair{EvalOrder::kShuffled, 1},
                             std::pair{EvalOrder::kShuffled, 99}}) {
    const Trace b = run_in_order(s, topo, order, static_cast<uint64_t>(seed));
    EXPECT_EQ(a.cycles, b.cycles);
    EXPECT_EQ(a.blocked, b.blocked);
    EXPECT_TRUE(a.events == b.events) << "order " << static_cast<int>(order) << " seed " << seed;
  }
}

// Everything a run reports except its speed.
struct RunFigures {
  uint64_t cycles, evaluations, blocked, occupancy, buffer_flit_cycles, flit_hops;
  std::vector<uint64_t> link_flits, step_first_issue, step_end;
  bool ok;
  bool operator==(const RunFigures& o) const {
    return std::tie(cycles, evaluations, blocked, occupancy, buffer_flit_cycles, flit_hops, link_flits, step_first_issue,
                    step_end, ok) == std::tie(o.cycles, o.evaluations, o.blocked, o.occupancy, o.buffer_flit_cycles,
                                              o.flit_hops, o.link_flits, o.step_first_issue, o.step_end, o.ok);
  }
};

// threads = 2 with `split`: the routers from `split` on join the interfaces on lane 1, so that
// router-to-router links cross between the threads too (the scheduler's balancing moves the split
// only on large networks).
RunFigures run_with_threads(const std::string& algo, const Topology& topo, int threads, sw::SyncMode sync,
                            uint32_t split = 0) {
  const sw::Schedule s = generate(algo, topo);
  CycleOptions o;
  o.cost.block_bytes = 128;
  o.cost.ts_cycles = 5;
  o.sync = sync;
  o.params.threads = threads;
  CycleNetwork net(s, topo, o);
  EXPECT_EQ(net.fabric().threads(), threads);
  if (threads == 2 && split) net.fabric().scheduler().set_lanes(2, split, split, split);
  net.run();
  const Fabric& f = net.fabric();
  return {net.stats().last_store, f.evaluations(), f.blocked_vc_cycles(), f.max_vc_occupancy(), f.buffer_flit_cycles(),
          f.flit_hops(), f.link_flits(), net.stats().step_first_issue, net.stats().step_end,
          sw::check_delivery(net.memory()).ok};
}

TEST(Fabric, TwoThreadsGiveExactlyTheRunOfOne) {
  // Contention without barriers (direct), barriers (t4), copies (gossip), all-port interfaces.
  const std::vector<std::tuple<std::string, Topology, sw::SyncMode>> cases = {
      {"direct", Topology({8, 8}, true), sw::SyncMode::kNone},
      {"t4", Topology({8, 8}, true), sw::SyncMode::kBarrier},
      {"ms-hc", Topology({6, 6}, true), sw::SyncMode::kBarrier},
      {"tsay-wang", Topology({7, 7}, true), sw::SyncMode::kBarrier},
      {"suh", Topology({6, 8}, false), sw::SyncMode::kNone}};
  for (const auto& [algo, topo, sync] : cases) {
    const RunFigures one = run_with_threads(algo, topo, 1, sync);
    EXPECT_TRUE(one.ok) << algo;
    EXPECT_GT(one.flit_hops, 0u) << algo;
    const uint32_t n = static_cast<uint32_t>(topo.nodes());
    for (uint32_t split : {0u, n / 2, n / 3 + 1}) {
      const RunFigures two = run_with_threads(algo, topo, 2, sync, split);
      EXPECT_EQ(one.cycles, two.cycles) << algo << " split " << split;
      EXPECT_EQ(one.link_flits, two.link_flits) << algo << " split " << split;
      EXPECT_TRUE(one == two) << algo << " split " << split << ": every figure, not only the cycles";
    }
  }
}

TEST(Fabric, SameInputsSameCyclesAndSeedChangesOnlyContent) {
  const Topology topo({4, 3}, true);
  const sw::Schedule s = generate("direct", topo);
  auto run = [&](uint64_t seed, std::vector<uint8_t>* memory) {
    CycleOptions o;
    o.seed = seed;
    o.cost.block_bytes = 32;
    CycleNetwork net(s, topo, o);
    net.run();
    const sw::BlockId b = net.space().alltoall_id(1, 5);
    memory->assign(net.memory().slot(b, 5), net.memory().slot(b, 5) + 32);
    EXPECT_TRUE(sw::check_delivery(net.memory()).ok);
    return net.stats().last_store;
  };
  std::vector<uint8_t> m1, m1b, m2;
  const uint64_t c1 = run(1, &m1), c1b = run(1, &m1b), c2 = run(2, &m2);
  EXPECT_EQ(c1, c1b);
  EXPECT_EQ(m1, m1b);
  EXPECT_EQ(c1, c2) << "timing does not depend on the payload";
  EXPECT_NE(m1, m2);
}

// Small topologies on which each registered algorithm can run (the first that meets its
// preconditions), so that algorithms landing later are picked up automatically.
std::optional<Topology> small_topology(const sw::Algorithm& a) {
  return testing::first_accepted(a, {
      {{8}, true},        {{5}, true},        {{4, 4}, true},   {{8, 8}, true},    {{3, 4}, true},
      {{4, 4}, false},    {{4, 4, 4}, true},  {{8, 8, 8}, true}, {{2, 2, 2, 2}, true}, {{9}, true},
      {{5, 5}, true},     {{3, 3, 3}, true},  {{16}, true},     {{4, 4, 4}, false}});
}

TEST(Fabric, EveryAlgorithmChecksOkAndAgreesWithTheStepModel) {
  int ran = 0;
  for (const sw::Algorithm& a : sw::algorithms()) {
    const std::optional<Topology> topo = small_topology(a);
    if (!topo) {
      ADD_FAILURE() << a.id << ": no small topology meets its preconditions; extend the candidate list";
      continue;
    }
    SCOPED_TRACE(a.id + " on the " + topo->to_string());
    const sw::Schedule s = generate(a.id, *topo);
    // Small blocks keep the 512-node instances (c64 needs 8x8x8) quick; both synchronisations on
    // the small networks.
    const bool small = topo->nodes() <= 64;
    for (const sw::SyncMode sync : {sw::SyncMode::kBarrier, sw::SyncMode::kNone}) {
      if (!small && sync == sw::SyncMode::kNone) continue;
      CycleOptions o;
      o.sync = sync;
      o.cost.ts_cycles = 20;
      o.cost.block_bytes = small ? 64 : 16;
      const testing::StepFigures step = testing::step_model(s, *topo, o);
      CycleNetwork net(s, *topo, o);
      net.run();
      const sw::CheckResult c = sw::check_delivery(net.memory());
      EXPECT_TRUE(c.ok) << sw::sync_mode_name(sync) << ": " << (c.examples.empty() ? "" : c.examples[0]);
      EXPECT_EQ(c.expected, step.check.expected);
      EXPECT_EQ(c.delivered, step.check.delivered);
      EXPECT_GE(net.stats().last_store, step.result.step_model_cycles) << sw::sync_mode_name(sync);
    }
    ++ran;
  }
  EXPECT_GE(ran, 1);
}

TEST(Fabric, CorruptionIsCaughtByContentAsInTheStepModel) {
  const Topology topo({3, 2}, true);
  const std::string text = testing::header("3x2") +
                           "step\n0,0 -> 1,0 x+y+ fault=corrupt | 0,0>1,0\n1,1 -> 2,1 | 1,1>2,1\nend\n";
  const sw::Schedule s = parse_schedule(text, topo);
  CycleOptions o;
  CycleNetwork net(s, topo, o);
  net.run();
  const sw::CheckResult c = sw::check_delivery(net.memory());
  const testing::StepFigures step = testing::step_model(s, topo, o);
  EXPECT_EQ(c.corrupted, 1u);
  EXPECT_EQ(c.corrupted, step.check.corrupted);
  EXPECT_EQ(c.delivered, step.check.delivered);
  EXPECT_FALSE(c.ok);
}

TEST(Fabric, ATorusDeadlocksWithoutTheDatelineAndNotWithIt) {
  const Topology ring({8}, true);
  const sw::Schedule s = parse_schedule(testing::ring_all_to_all_plus(8), ring);
  CycleOptions o;
  o.cost.block_bytes = 512;  // 32-flit worms, longer than the buffers of their path
  o.cost.ts_cycles = 0;
  o.params.vcs_per_class = 2;  // the same 2 VCs per port either way
  {
    CycleNetwork net(s, ring, o);
    EXPECT_NO_THROW(net.run());
    EXPECT_TRUE(sw::check_delivery(net.memory()).ok);
  }
  o.params.dateline = false;
  o.params.vcs_per_class = 2;
  o.params.watchdog_cycles = 300;
  CycleNetwork net(s, ring, o);
  try {
    net.run();
    FAIL() << "expected a deadlock without the dateline";
  } catch (const sw::WatchdogError& e) {
    const std::string r = e.what();
    EXPECT_NE(r.find("no flit moved for 300 cycles"), std::string::npos) << r;
    EXPECT_NE(r.find("waiting for a free VC"), std::string::npos) << r;
    EXPECT_NE(r.find("head: flit"), std::string::npos) << r;
  }
  EXPECT_EQ(net.fabric().status(), RunStatus::kStalled);
}

TEST(Fabric, CyclicRoutingTableIsCaughtByTheWatchdog) {
  // Node 2's table never lets a worm for node 2 eject: it sends it round the ring again. The worm
  // catches its own tail and stops; the watchdog reports where its head and tail are.
  const Topology ring({4}, true);
  const sw::Schedule s = parse_schedule(testing::header("4") + "step\n0 -> 2 x+ | 0>2\nend\n", ring);
  CycleOptions o;
  o.params.watchdog_cycles = 200;
  o.cost.block_bytes = 1024;
  o.cost.ts_cycles = 0;
  o.edit_routing = [&](std::vector<RoutingImage>& images) {
    images[2][route_entry_index(ring, 0, 2, false)] = route_entry(0, 0);  // +x instead of skip
    seal_routing_image(images[2]);
  };
  CycleNetwork net(s, ring, o);
  EXPECT_THROW(net.run(), sw::WatchdogError);
  const Fabric& f = net.fabric();
  EXPECT_EQ(f.status(), RunStatus::kStalled);
  const std::string r = net.stall_report();
  EXPECT_NE(r.find("watchdog: no flit moved for 200 cycles"), std::string::npos) << r;
  EXPECT_NE(r.find("message 0 (step 0, 0 -> 2"), std::string::npos) << r;
  EXPECT_NE(r.find("head: flit"), std::string::npos) << r;
  EXPECT_NE(r.find("tail:"), std::string::npos) << r;
  EXPECT_GT(f.flit_hops(), 4u) << "the worm went round the ring before it stopped";
}

TEST(Fabric, WatchdogFiresExactlyAfterTheConfiguredIdleCycles) {
  const Topology ring({8}, true);
  const sw::Schedule s = parse_schedule(testing::ring_all_to_all_plus(8), ring);
  for (uint64_t wd : {100u, 1000u}) {
    CycleOptions o;
    o.cost.block_bytes = 512;
    o.cost.ts_cycles = 0;
    o.params.dateline = false;
    o.params.vcs_per_class = 2;
    o.params.watchdog_cycles = wd;
    CycleNetwork net(s, ring, o);
    EXPECT_THROW(net.run(), sw::WatchdogError);
    // The last flit moved in some cycle m; the watchdog stops in cycle m + wd.
    const uint64_t stop = net.fabric().cycle() - 1;
    EXPECT_GE(stop, wd);
    CycleOptions o2 = o;
    o2.params.watchdog_cycles = wd + 7;
    CycleNetwork net2(s, ring, o2);
    EXPECT_THROW(net2.run(), sw::WatchdogError);
    EXPECT_EQ(net2.fabric().cycle() - 1, stop + 7);
  }
}

TEST(Fabric, SyncNoneOverlapsStepsSyncBarrierSeparatesThem) {
  const Topology topo({4, 4}, true);
  const sw::Schedule s = generate("direct", topo);
  CycleOptions o;
  o.sync = sw::SyncMode::kBarrier;
  CycleNetwork with(s, topo, o);
  with.run();
  o.sync = sw::SyncMode::kNone;
  CycleNetwork without(s, topo, o);
  without.run();
  EXPECT_TRUE(sw::check_delivery(with.memory()).ok);
  EXPECT_TRUE(sw::check_delivery(without.memory()).ok);
  // With barriers no step starts before the previous one has ended.
  const RunStats& st = with.stats();
  for (size_t k = 1; k < st.step_end.size(); ++k) EXPECT_GT(st.step_first_issue[k], st.step_end[k - 1] - 1);
  const RunStats& sn = without.stats();
  bool overlap = false;
  for (size_t k = 1; k < sn.step_end.size(); ++k) overlap |= sn.step_first_issue[k] < sn.step_end[k - 1];
  EXPECT_TRUE(overlap) << "without barriers, a node starts its next step while others still receive";
  EXPECT_EQ(with.fabric().barrier_latency(), 2 * 4 + 2);
}

// Network parameters outside their ranges are refused by the loader as bad input; the options the
// application settles before (the flit size: app::validate_request; priority lanes only under sync
// priority: app::params_as_run) are sanity-checked, an internal error if a caller skips that.
TEST(Fabric, OptionsOutsideTheModelAreInputErrors) {
  const Topology topo({4}, true);
  const sw::Schedule s = generate("direct", topo);
  CycleOptions o;
  o.sync = sw::SyncMode::kPriority;
  o.params.priority_levels = 9;  // the throttle would leave the lowest of 9 levels no slot of 8
  EXPECT_THROW(CycleNetwork(s, topo, o), sw::InputError);
  o.params.priority_levels = 4;
  o.sync = sw::SyncMode::kBarrier;  // 4 levels without sync priority
  EXPECT_THROW(CycleNetwork(s, topo, o), sw::InputError);
  o.params.priority_levels = 1;
  o.cost.flit_bytes = 65;
  EXPECT_THROW(CycleNetwork(s, topo, o), std::logic_error);
  o.cost.flit_bytes = 16;
  o.params.buffer_depth = 0;
  EXPECT_THROW(CycleNetwork(s, topo, o), sw::InputError);
  sw::NetworkParams p;
  EXPECT_THROW(set_param(p, "bogus=1"), sw::InputError);
  EXPECT_THROW(set_param(p, "buffer_depth=x"), sw::InputError);
  EXPECT_THROW(set_param(p, "router_latency=0"), sw::InputError);
  set_param(p, "router_latency=4");
  EXPECT_EQ(p.router_latency, 4);
}

}  // namespace
}  // namespace torx::model
