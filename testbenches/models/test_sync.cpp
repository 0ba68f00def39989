// Synchronization in the cycle model (docs/cycle-model.md, "Synchronization"): every registered
// algorithm checks ok under none, barrier, local and software; local signals and software barriers
// keep apart the phases that --sync none lets collide; null messages are one-flit worms counted with
// their hops; the null message's startup is a parameter; waiting is accounted.
#include <gtest/gtest.h>

#include <optional>

#include "core/sync_plan.hpp"
#include "model_test_util.hpp"

namespace torx::model {
namespace {

using sw::SyncMode;
using sw::Topology;

std::optional<Topology> small_topology(const sw::Algorithm& a) {
  return testing::first_accepted(a, {{{8}, true},
                                     {{5}, true},
                                     {{4, 4}, true},
                                     {{8, 8}, true},
                                     {{3, 4}, true},
                                     {{4, 4}, false},
                                     {{4, 4, 4}, true},
                                     {{8, 8, 8}, true},
                                     {{2, 2, 2, 2}, true},
                                     {{5, 5}, true},
                                     {{3, 3, 3}, true}});
}

TEST(Sync, EveryAlgorithmChecksOkUnderEveryMode) {
  int ran = 0;
  for (const sw::Algorithm& a : sw::algorithms()) {
    const std::optional<Topology> topo = small_topology(a);
    ASSERT_TRUE(topo.has_value()) << a.id;
    const sw::Schedule s = testing::generate(a.id, *topo);
    for (const SyncMode mode : {SyncMode::kNone, SyncMode::kBarrier, SyncMode::kLocal, SyncMode::kSoftware}) {
      SCOPED_TRACE(a.id + " on the " + topo->to_string() + ", --sync " + std::string(sw::sync_mode_name(mode)));
      CycleOptions o;
      o.sync = mode;
      o.cost.ts_cycles = 20;
      o.cost.block_bytes = topo->nodes() <= 64 ? 64 : 16;
      CycleNetwork net(s, *topo, o);
      net.run();
      const sw::CheckResult c = sw::check_delivery(net.memory());
      EXPECT_TRUE(c.ok) << (c.examples.empty() ? "" : c.examples[0]);
      const sw::CycleFigures r = net.result();
      EXPECT_EQ(r.barriers, mode == SyncMode::kBarrier ? net.program().barrier_steps().size() : 0u);
      if (mode == SyncMode::kSoftware) {
        EXPECT_EQ(r.null_messages, r.software_barriers * net.program().software_rounds() * topo->nodes());
      }
      if (mode == SyncMode::kLocal) {
        EXPECT_EQ(r.null_messages, net.program().signals());
      }
      if (mode == SyncMode::kNone || mode == SyncMode::kBarrier) {
        EXPECT_EQ(r.null_messages, 0u);
      }
      uint64_t hops = 0;
      for (uint32_t k = 0; k < net.program().signals(); ++k) hops += net.program().signal(k).hops;
      EXPECT_EQ(r.null_flit_hops, hops) << "every null message is one flit over its route";
    }
    ++ran;
  }
  EXPECT_EQ(ran, static_cast<int>(sw::algorithms().size()));
}

// Node 0 sends a long worm 0 -> 4 in step 0; after a marked boundary node 1 sends 1 -> 3, which
// shares the links 1 -> 2 -> 3 with it. Without synchronization node 1 starts at once (it has nothing
// to do in step 0) and the worms collide; the barrier, the local signal 4 -> 1 and the software
// barrier all keep step 1 out of step 0's way.
TEST(Sync, LocalAndSoftwareKeepApartThePhasesNoneLetsCollide) {
  const Topology ring({8}, true);
  const sw::Schedule s = testing::parse_schedule(
      testing::header("8") + "step\n0 -> 4 x+ | 0>4\nstep\n1 -> 3 x+ | 1>3\nend\n", ring);
  const sw::LocalSyncPlan plan = sw::derive_local_sync(s, ring, sw::PortModel::kOne);
  ASSERT_EQ(plan.signals.size(), 1u);
  EXPECT_EQ(plan.signals[0].from, 4);
  EXPECT_EQ(plan.signals[0].to, 1);
  for (const SyncMode mode : {SyncMode::kNone, SyncMode::kBarrier, SyncMode::kLocal, SyncMode::kSoftware}) {
    SCOPED_TRACE(sw::sync_mode_name(mode));
    CycleOptions o;
    o.sync = mode;
    o.cost.ts_cycles = 5;
    o.cost.block_bytes = 1024;  // 64 flits: step 0 is still on the links when node 1 is ready
    CycleNetwork net(s, ring, o);
    net.run();
    const sw::CheckResult c = sw::check_delivery(net.memory());
    EXPECT_EQ(c.delivered, 2u) << "a two-message fragment of an all-to-all: the rest is missing by design";
    EXPECT_EQ(c.duplicated + c.misdelivered + c.corrupted, 0u);
    const sw::CycleFigures r = net.result();
    // Each step has one worm; uncontended it takes t_s + F + h (L + P) + 2 Lloc + P cycles from its
    // issue (docs/timing-contract.md, "One message").
    const int64_t span0 = 5 + 64 + 4 * 3 + 4, span1 = 5 + 64 + 2 * 3 + 4;
    if (mode == SyncMode::kNone) {
      EXPECT_GT(r.blocked_cycles, 0u) << "the worms collide";
      EXPECT_LT(r.step_start[1], r.step_end[0]) << "step 1 starts while step 0 is on the links";
      EXPECT_TRUE(r.step_end[0] - r.step_start[0] > span0 || r.step_end[1] - r.step_start[1] > span1)
          << "one of the worms is held up by the other";
      EXPECT_EQ(r.sync_wait_cycles, 0u);
    } else {
      EXPECT_GE(r.step_start[1], r.step_end[0]) << "step 1 starts after step 0 is stored";
      EXPECT_EQ(r.step_end[0] - r.step_start[0], span0) << "neither data worm waits for anything";
      EXPECT_EQ(r.step_end[1] - r.step_start[1], span1);
      EXPECT_GT(r.sync_wait_cycles, 0u) << "node 1 waited";
      if (mode != SyncMode::kSoftware) {
        EXPECT_EQ(r.blocked_cycles, 0u) << "no worm waits for another (a software barrier's null messages may)";
      }
    }
  }
}

TEST(Sync, TheNullMessagesStartupIsAParameter) {
  const Topology ring({16}, true);
  const sw::Schedule s = testing::generate("ring", ring);
  auto cycles = [&](int64_t null_ts) {
    CycleOptions o;
    o.sync = SyncMode::kLocal;
    o.params.null_ts = null_ts;
    CycleNetwork net(s, ring, o);
    net.run();
    EXPECT_TRUE(sw::check_delivery(net.memory()).ok);
    return net.result().cycles;
  };
  const uint64_t as_ts = cycles(-1), explicit_ts = cycles(100), cheap = cycles(2);
  EXPECT_EQ(as_ts, explicit_ts) << "-1 means the send startup, --ts";
  EXPECT_LT(cheap, as_ts) << "a cheap hardware signal shortens every wait";
}

}  // namespace
}  // namespace torx::model
