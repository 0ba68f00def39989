// SPDX-License-Identifier: Apache-2.0
// Synthetic traffic on a network of Verilated routers (the prebuilt r2d shape: 2D torus, V = 1,
// D = 8, P = 2, one-port) gives the C++ model's figures exactly: the same packets, latencies,
// link counts and cycles, every payload checked; a planted corruption is caught there too.
#include <gtest/gtest.h>

#include "hw/rtl_router.hpp"
#include "models/traffic_run.hpp"

namespace torx::model {
namespace {

TEST(RtlTraffic, VerilatedRoutersGiveTheCycleModelsFigures) {
  const sw::Topology t({4, 4}, true);
  for (PatternKind k : {PatternKind::kUniform, PatternKind::kTornado}) {
    PatternSpec s;
    s.kind = k;
    const DestinationPattern pattern(s, t);
    TrafficRunConfig c;
    c.warmup = 200;
    c.measure = 1500;
    for (double rate : {0.2, 0.9}) {
      c.source.rate = rate;
      const TrafficRunResult cpp = run_traffic(t, c, pattern);
      const rtl::RtlRouterFactory rtl;
      const TrafficRunResult hw = run_traffic(t, c, pattern, &rtl);
      EXPECT_TRUE(cpp.check_ok() && hw.check_ok()) << hw.check_summary();
      EXPECT_EQ(cpp.packets_delivered, hw.packets_delivered);
      EXPECT_EQ(cpp.accepted, hw.accepted);
      EXPECT_EQ(cpp.packet_latency.histogram, hw.packet_latency.histogram);
      EXPECT_EQ(cpp.network_latency.histogram, hw.network_latency.histogram);
      EXPECT_EQ(cpp.link_flits, hw.link_flits);
      EXPECT_EQ(cpp.cycles, hw.cycles);
      EXPECT_EQ(cpp.flit_hops, hw.flit_hops);
      EXPECT_EQ(cpp.saturated, hw.saturated);
      EXPECT_GT(hw.packets_delivered, 100u);
    }
  }
}

TEST(RtlTraffic, PlantedCorruptionIsCaughtOnTheRtl) {
  const sw::Topology t({4, 4}, true);
  const DestinationPattern pattern(PatternSpec{}, t);
  TrafficRunConfig c;
  c.warmup = 100;
  c.measure = 800;
  c.source.rate = 0.2;
  c.source.fault = TrafficFault::kCorrupt;
  const rtl::RtlRouterFactory rtl;
  const TrafficRunResult r = run_traffic(t, c, pattern, &rtl);
  EXPECT_FALSE(r.check_ok());
  EXPECT_EQ(r.check.corrupted, 1u) << r.check_summary();
}

}  // namespace
}  // namespace torx::model
