// Every arbiter pointer of the router's contract is covered by the lock-step runs, so a pointer that
// sticks shows without the RTL. A C++-against-C++ lock step cannot see a fault in the C++ router
// (both cores carry it), but it records which pointers wrapped (models/lockstep.hpp): sa_in_rr_q per
// input port, sa_out_rr_q per output port, va_rr_q per (output, class), va_vc_rr_q per (output,
// class) with 2 and 3 VCs per class, gossip_rr_q per gossip router. These tests require every
// pointer that can move to have wrapped, under traffic chosen to make each one move; a pointer that
// never moves, or never comes back, leaves its count short.
#include <gtest/gtest.h>

#include "algorithms/meyer_sibeyn.hpp"
#include "model_test_util.hpp"
#include "models/cosim.hpp"
#include "models/port_router.hpp"

namespace torx::model {
namespace {

using sw::Topology;

CosimConfig traffic(uint64_t cycles, double load, int vcs_per_class) {
  CosimConfig c;
  c.traffic.cycles = cycles;
  c.traffic.load = load;
  c.traffic.max_worm_flits = 12;
  c.traffic.seed = 11;
  c.traffic.barrier_every = 1000;
  c.params.vcs_per_class = vcs_per_class;
  return c;
}

uint64_t used_vcs(const LockstepCoverage& c) {
  uint64_t n = 0;
  for (uint64_t x : c.class_vcs_used) n += x;
  return n;
}

// Random traffic on a 4x4 torus with mixed dimension orders (4 VC classes) and 2 or 3 VCs per class,
// one-port and all-port interfaces: every network input port's switch pointer wraps (each has 4 V
// VCs), every output port's wraps, and in every (output, class) whose VCs the traffic used the
// pointer within the class comes back round (so all V VCs of the class were granted in turn).
TEST(PointerCoverage, EveryArbiterPointerWrapsWithTwoAndThreeVcsPerClass) {
  const CppRouterFactory cpp{RouterConfig{}};
  const Topology topo({4, 4}, true);
  for (const int v : {2, 3})
    for (const sw::PortModel ports : {sw::PortModel::kOne, sw::PortModel::kAll}) {
      SCOPED_TRACE(std::to_string(v) + " VCs per class" + (ports == sw::PortModel::kAll ? ", all-port" : ""));
      CosimConfig c = traffic(3000, 0.6, v);
      c.traffic.mixed_orders = true;
      c.ports = ports;
      const CosimResult r = run_cosim(topo, c, cpp, cpp);
      ASSERT_EQ(r.mismatches, 0u) << r.first_mismatch_text;
      EXPECT_EQ(r.traffic.worms_delivered, r.traffic.worms_offered);
      const LockstepCoverage& cov = r.coverage;
      const uint64_t network_ports = static_cast<uint64_t>(topo.nodes()) * topo.ports();
      EXPECT_EQ(cov.sa_in_wraps, network_ports) << cov.describe();
      EXPECT_GE(cov.sa_out_wraps, network_ports) << cov.describe();
      if (ports == sw::PortModel::kOne) {
        EXPECT_EQ(cov.sa_out_wraps, cov.output_ports) << cov.describe();
      }
      EXPECT_EQ(cov.va_vc_groups, network_ports * 4) << "(output, class) pairs with V >= 2";
      EXPECT_GT(cov.va_vc_wraps, cov.va_vc_groups / 2) << cov.describe();
      EXPECT_EQ(cov.va_vc_wraps * static_cast<uint64_t>(v), used_vcs(cov))
          << "every class whose VCs were used had its pointer come round: " << cov.describe();
      EXPECT_GT(cov.va_wraps, cov.va_groups / 3) << cov.describe();
      EXPECT_NE(cov.describe().find("within a class"), std::string::npos);
    }
}

// With one VC per class the pointer within a class has nothing to rotate over: it is not counted,
// and the report reads as it always did.
TEST(PointerCoverage, OneVcPerClassHasNoPointerWithinAClass) {
  const CppRouterFactory cpp{RouterConfig{}};
  const CosimResult r = run_cosim(Topology({4, 4}, true), traffic(1000, 0.3, 1), cpp, cpp);
  ASSERT_EQ(r.mismatches, 0u);
  EXPECT_EQ(r.coverage.va_vc_groups, 0u);
  EXPECT_EQ(r.coverage.va_vc_wraps, 0u);
  EXPECT_EQ(r.coverage.describe().find("within a class"), std::string::npos);
  EXPECT_GT(r.coverage.va_wraps, 0u);
}

// Hardwired gossip routers claim whole packets in rotating order among equal ages (gossip_rr_q):
// on ms-hc the pointer of every router comes round.
TEST(PointerCoverage, EveryGossipRoutersClaimPointerWraps) {
  const CppRouterFactory cpp{RouterConfig{}};
  const LockstepFactory pairs(cpp, cpp);
  for (const Topology& topo : {Topology({6, 6}, true), Topology({4, 4, 4}, true)}) {
    SCOPED_TRACE(topo.to_string());
    const sw::GossipPlan plan = sw::find_algorithm("ms-hc")->gossip_plan(topo, {});
    const sw::Schedule s = testing::generate("ms-hc", topo);
    CycleOptions o;
    o.cost.block_bytes = 64;
    o.cost.ts_cycles = 10;
    o.gossip = &plan.table;
    CycleNetwork lock(s, topo, o, true, &pairs);
    lock.run();  // a difference would throw LockstepMismatch
    EXPECT_TRUE(sw::check_delivery(lock.memory()).ok);
    const LockstepCoverage cov = fabric_coverage(lock.fabric());
    EXPECT_EQ(cov.gossip_routers, static_cast<uint64_t>(topo.nodes()));
    EXPECT_EQ(cov.gossip_rr_wraps, cov.gossip_routers) << cov.describe();
    EXPECT_NE(cov.describe().find("gossip claims"), std::string::npos);
  }
}

}  // namespace
}  // namespace torx::model
