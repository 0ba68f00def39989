// The router organizations (docs/timing-contract.md, "Router organizations"): every registered
// algorithm checks ok under lookahead and classic in every sync mode they run (priority and gossip
// refused); the port-level router runs a network exactly as the fast path in each organization; two
// C++ routers in lock step agree on random traffic with the traversal registers compared; and the
// harness catches a speculation that is not cancelled and a lookahead route read from the wrong
// table.
#include <gtest/gtest.h>

#include <cstdio>
#include <optional>

#include "model_test_util.hpp"
#include "models/cosim.hpp"
#include "models/port_router.hpp"

namespace torx::model {
namespace {

using sw::SyncMode;
using sw::Topology;

std::optional<Topology> small_topology(const sw::Algorithm& a) {
  return testing::first_accepted(a, {{{8}, true},
                                     {{5}, true},
                                     {{4, 4}, true},
                                     {{3, 4}, true},
                                     {{4, 4}, false},
                                     {{4, 4, 4}, true},
                                     {{8, 8}, true},
                                     {{2, 2, 2, 2}, true},
                                     {{5, 5}, true},
                                     {{3, 3, 3}, true},
                                     {{8, 8, 8}, true}});
}

CycleOptions options(const char* org, SyncMode mode, const Topology& topo) {
  CycleOptions o;
  o.sync = mode;
  o.cost.ts_cycles = 20;
  o.cost.block_bytes = topo.nodes() <= 64 ? 64 : 16;
  sw::set_param(o.params, std::string("pipeline=") + org);
  return o;
}

TEST(Pipelines, EveryAlgorithmChecksOkInEveryOrganizationAndSyncMode) {
  int ran = 0;
  for (const sw::Algorithm& a : sw::algorithms()) {
    const std::optional<Topology> topo = small_topology(a);
    ASSERT_TRUE(topo.has_value()) << a.id;
    const sw::Schedule s = testing::generate(a.id, *topo);
    for (const char* org : {"lookahead", "classic"})
      for (const SyncMode mode : {SyncMode::kNone, SyncMode::kBarrier, SyncMode::kLocal, SyncMode::kSoftware}) {
        SCOPED_TRACE(a.id + " on the " + topo->to_string() + ", " + org + ", --sync " + std::string(sw::sync_mode_name(mode)));
        const CycleOptions o = options(org, mode, *topo);
        CycleNetwork net(s, *topo, o);
        net.run();
        const sw::CheckResult c = sw::check_delivery(net.memory());
        EXPECT_TRUE(c.ok) << (c.examples.empty() ? "" : c.examples[0]);
        ++ran;
      }
  }
  EXPECT_EQ(ran, static_cast<int>(sw::algorithms().size()) * 8);
}

TEST(Pipelines, PriorityLanesAndGossipModeAreRefusedWithAPipelinedOrganization) {
  const Topology topo({4, 4}, true);
  const sw::Schedule s = testing::generate("t4", topo);
  CycleOptions o = options("classic", SyncMode::kPriority, topo);
  o.params.priority_levels = 4;
  try {
    CycleNetwork net(s, topo, o);
    ADD_FAILURE() << "priority lanes with the classic organization";
  } catch (const sw::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("pipeline=classic: priority lanes run with the single organization only"),
              std::string::npos)
        << e.what();
  }
  sw::NetworkParams p;
  EXPECT_THROW(sw::set_param(p, "pipeline=pipelined"), sw::InputError);
  EXPECT_THROW(sw::set_param(p, "pipeline=3"), sw::InputError);
  sw::set_param(p, "pipeline=lookahead");
  EXPECT_EQ(p.pipeline, 1);
  sw::set_param(p, "pipeline=2");
  EXPECT_EQ(p.pipeline, 2);
}

// Everything a run reports except its speed.
struct Figures {
  uint64_t cycles, blocked, occupancy, buffer_flit_cycles, flit_hops;
  std::vector<uint64_t> link_flits;
  std::vector<int64_t> step_end;
  bool ok;
  bool operator==(const Figures& o) const {
    return std::tie(cycles, blocked, occupancy, buffer_flit_cycles, flit_hops, link_flits, step_end, ok) ==
           std::tie(o.cycles, o.blocked, o.occupancy, o.buffer_flit_cycles, o.flit_hops, o.link_flits, o.step_end, o.ok);
  }
};

Figures run(const sw::Schedule& s, const Topology& topo, const CycleOptions& o, const RouterFactory* routers) {
  CycleNetwork net(s, topo, o, true, routers);
  net.run();
  const sw::CycleFigures r = net.result();
  return {r.cycles,   r.blocked_cycles, r.max_vc_occupancy, net.fabric().buffer_flit_cycles(), r.flit_hops,
          r.link_flits, r.step_end,     sw::check_delivery(net.memory()).ok};
}

TEST(Pipelines, PortModeRunsANetworkExactlyAsTheFastPathInEachOrganization) {
  struct Case {
    std::string algo;
    Topology topo;
    SyncMode sync;
    std::vector<std::string> params;
  };
  const std::vector<Case> cases = {
      {"direct", Topology({4, 4}, true), SyncMode::kNone, {}},
      {"direct", Topology({5, 3}, true), SyncMode::kNone, {"buffer_depth=3", "router_latency=1"}},
      {"t4", Topology({8, 8}, true), SyncMode::kBarrier, {}},
      {"tsay-wang", Topology({7, 7}, true), SyncMode::kBarrier, {"vcs_per_class=2"}},
      {"suh", Topology({6, 4}, false), SyncMode::kNone, {"router_latency=3", "link_latency=2"}},
      {"ms-hc", Topology({6, 6}, true), SyncMode::kNone, {"buffer_depth=2"}}};
  const CppRouterFactory port_mode{RouterConfig{}};
  for (const char* org : {"lookahead", "classic"})
    for (const Case& c : cases) {
      SCOPED_TRACE(c.algo + " on the " + c.topo.to_string() + ", " + org);
      const sw::Schedule s = testing::generate(c.algo, c.topo);
      CycleOptions o;
      o.cost.block_bytes = 96;
      o.cost.ts_cycles = 3;
      o.sync = c.sync;
      for (const std::string& p : c.params) sw::set_param(o.params, p);
      sw::set_param(o.params, std::string("pipeline=") + org);
      const Figures fast = run(s, c.topo, o, nullptr);
      const Figures ports = run(s, c.topo, o, &port_mode);
      EXPECT_TRUE(fast.ok);
      EXPECT_EQ(fast.cycles, ports.cycles);
      EXPECT_EQ(fast.blocked, ports.blocked);
      EXPECT_EQ(fast.occupancy, ports.occupancy);
      EXPECT_EQ(fast.buffer_flit_cycles, ports.buffer_flit_cycles);
      EXPECT_EQ(fast.link_flits, ports.link_flits);
      EXPECT_EQ(fast.step_end, ports.step_end);
      EXPECT_TRUE(fast == ports);
    }
}

CosimConfig traffic(const char* org, uint64_t cycles, double load) {
  CosimConfig c;
  c.traffic.cycles = cycles;
  c.traffic.load = load;
  c.traffic.max_worm_flits = 12;
  c.traffic.seed = 7;
  c.traffic.barrier_every = 1500;
  c.traffic.mixed_orders = true;
  sw::set_param(c.params, std::string("pipeline=") + org);
  return c;
}

TEST(Pipelines, CppRouterAgainstItselfAgreesInEachOrganization) {
  const CppRouterFactory cpp{RouterConfig{}};
  const Topology topo({8, 8}, true);
  for (const char* org : {"lookahead", "classic"}) {
    SCOPED_TRACE(org);
    CosimConfig c = traffic(org, 16000, 0.45);
    c.params.buffer_depth = 4;  // below the credit loop: credits run dry, speculations fail
    const CosimResult r = run_cosim(topo, c, cpp, cpp);
    EXPECT_EQ(r.mismatches, 0u) << r.first_mismatch_text;
    EXPECT_GE(r.compared, 1000000u) << "router-cycles compared";
    EXPECT_EQ(r.traffic.worms_delivered, r.traffic.worms_offered);
    EXPECT_GT(r.traffic.worms_offered, 10000u);
    std::printf("%s: %llu router-cycles, %llu worms, 0 mismatches\n", org,
                static_cast<unsigned long long>(r.compared), static_cast<unsigned long long>(r.traffic.worms_offered));
    EXPECT_GT(r.coverage.output_vcs_no_credit, 0u) << r.coverage.describe();
    EXPECT_GT(r.coverage.input_vcs_waited, r.coverage.input_vcs / 4) << r.coverage.describe();
    EXPECT_EQ(r.coverage.sa_out_wraps, r.coverage.output_ports) << r.coverage.describe();
  }
}

CosimResult against_mutant(const char* org, RouterMutation m, const Topology& topo, double load, int depth) {
  RouterConfig mutant;
  mutant.mutation = m;
  const CppRouterFactory cpp{RouterConfig{}};
  const CppRouterFactory bad{mutant};
  CosimConfig c = traffic(org, 3000, load);
  c.params.buffer_depth = depth;
  return run_cosim(topo, c, cpp, bad);
}

TEST(Pipelines, CatchesASpeculationThatIsNotCancelled) {
  // A head granted a VC whose downstream buffer still holds the previous worm's flits (no credit)
  // must not cross the switch in that cycle; the mutant lets it.
  const CosimResult r = against_mutant("lookahead", RouterMutation::kSpecNotCancelled, Topology({4, 4}, true), 0.6, 3);
  ASSERT_EQ(r.mismatches, 1u);
  // The flit leaves its buffer in the cycle of the grant: its credit goes upstream at once.
  EXPECT_EQ(r.first_mismatch->field, "credit_valid") << r.first_mismatch_text;
  EXPECT_GE(r.first_mismatch->port, 0);
  std::printf("caught: %s\n", r.first_mismatch_text.c_str());
  // In the single and classic organizations there is no speculation: the mutation changes nothing.
  for (const char* org : {"single", "classic"}) {
    const CosimResult s = against_mutant(org, RouterMutation::kSpecNotCancelled, Topology({4, 4}, true), 0.6, 3);
    EXPECT_EQ(s.mismatches, 0u) << org << ": " << s.first_mismatch_text;
  }
}

TEST(Pipelines, CatchesALookaheadRouteFromTheWrongTable) {
  // The route written into a leaving head must be the neighbour's entry; this router's own entry
  // differs where the worm turns or arrives at the next router.
  const CosimResult r =
      against_mutant("lookahead", RouterMutation::kLookaheadOwnTable, Topology({4, 4}, true), 0.3, 8);
  ASSERT_EQ(r.mismatches, 1u);
  EXPECT_EQ(r.first_mismatch->field.rfind("flit.la_", 0), 0u) << r.first_mismatch_text;
  EXPECT_LT(r.first_mismatch->cycle, 200u);
  std::printf("caught: %s\n", r.first_mismatch_text.c_str());
  const CosimResult s =
      against_mutant("classic", RouterMutation::kLookaheadOwnTable, Topology({4, 4}, true), 0.3, 8);
  EXPECT_EQ(s.mismatches, 0u) << "classic routes in its own RC stage: " << s.first_mismatch_text;
}

TEST(Pipelines, CatchesATraversalStageSkippedAndRcMergedWithVa) {
  // A flit that leaves in the cycle it wins the switch: its output appears a cycle early.
  for (const char* org : {"lookahead", "classic"}) {
    const CosimResult r = against_mutant(org, RouterMutation::kTraversalBypass, Topology({4, 4}, true), 0.3, 8);
    ASSERT_EQ(r.mismatches, 1u) << org;
    EXPECT_EQ(r.first_mismatch->field, "flit_valid") << org << ": " << r.first_mismatch_text;
    EXPECT_LT(r.first_mismatch->cycle, 50u);
    std::printf("caught (%s): %s\n", org, r.first_mismatch_text.c_str());
  }
  // A classic head that asks for its VC in its RC cycle gets it a cycle early.
  const CosimResult r = against_mutant("classic", RouterMutation::kClassicRcVaMerged, Topology({4, 4}, true), 0.3, 8);
  ASSERT_EQ(r.mismatches, 1u);
  EXPECT_EQ(r.first_mismatch->field, "ivc_state_q") << r.first_mismatch_text;
  std::printf("caught: %s\n", r.first_mismatch_text.c_str());
}

// Other shapes in lock step: a mesh (one VC class), one-port and all-port, two VCs per class,
// shallow buffers, 5-byte flits; a 3-D torus.
TEST(Pipelines, OtherShapesInLockStep) {
  const CppRouterFactory cpp{RouterConfig{}};
  for (const char* org : {"lookahead", "classic"})
    for (const sw::PortModel ports : {sw::PortModel::kOne, sw::PortModel::kAll}) {
      SCOPED_TRACE(std::string(org) + (ports == sw::PortModel::kAll ? " all-port" : " one-port"));
      CosimConfig c = traffic(org, 1500, 0.8);
      c.traffic.mixed_orders = false;
      c.ports = ports;
      c.params.buffer_depth = 3;
      c.params.vcs_per_class = 2;
      c.flit_bytes = 5;
      const CosimResult r = run_cosim(Topology({4, 3}, false), c, cpp, cpp);
      EXPECT_EQ(r.mismatches, 0u) << r.first_mismatch_text;
      EXPECT_EQ(r.traffic.worms_delivered, r.traffic.worms_offered);
      CosimConfig d = traffic(org, 1500, 0.4);
      const CosimResult q = run_cosim(Topology({3, 3, 3}, true), d, cpp, cpp);
      EXPECT_EQ(q.mismatches, 0u) << q.first_mismatch_text;
      EXPECT_EQ(q.traffic.worms_delivered, q.traffic.worms_offered);
    }
}

}  // namespace
}  // namespace torx::model
