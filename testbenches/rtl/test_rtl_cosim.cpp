// SPDX-License-Identifier: Apache-2.0
// Lock-step co-simulation of whole networks: every router simulated as the C++ model and as the
// Verilated RTL on the same inputs, outputs and registers compared every cycle (label cosim).
#include <gtest/gtest.h>

#include "hw/rtl_router.hpp"
#include "models/cosim.hpp"
#include "models/port_router.hpp"

namespace torx::model {
namespace {

using sw::Topology;

CosimConfig traffic(uint64_t cycles, double load) {
  CosimConfig c;
  c.traffic.cycles = cycles;
  c.traffic.load = load;
  c.traffic.max_worm_flits = 12;
  c.traffic.seed = 7;
  c.traffic.barrier_every = 1500;
  return c;
}

TEST(RtlCosim, DefaultRouterAgreesWithTheModel) {
  const CppRouterFactory cpp{RouterConfig{}};
  const rtl::RtlRouterFactory rtl;
  const CppBarrierFactory cpp_b;
  const rtl::RtlBarrierFactory rtl_b;
  const CosimResult r = run_cosim(Topology({4, 4}, true), traffic(3000, 0.4), cpp, rtl, &cpp_b, &rtl_b);
  EXPECT_EQ(r.mismatches, 0u) << r.first_mismatch_text;
  EXPECT_GT(r.barrier_releases, 0u);
  std::printf("barrier cycles %lu releases %lu\n", (unsigned long)r.barrier_cycles, (unsigned long)r.barrier_releases);
  EXPECT_EQ(r.traffic.worms_delivered, r.traffic.worms_offered);
  std::printf("%s\n", r.coverage.describe().c_str());
}

}  // namespace
}  // namespace torx::model
