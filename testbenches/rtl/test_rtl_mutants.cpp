// SPDX-License-Identifier: Apache-2.0
// The build-time mutants of the RTL (docs/rtl.md, "Mutants") each change something observable: the
// default router and a mutant run one contended scenario side by side and their outputs and named
// registers are compared every cycle with the lock-step comparison (models/router_core.cpp); each
// mutant differs within a bounded number of cycles, in the field its bug touches, and the default
// router against itself never differs. (A sanity check; torx cosim against the C++ model is the proof.)
#include <gtest/gtest.h>

#include <optional>
#include <stdexcept>

#include "rtl_test_util.hpp"

namespace torx::rtl {
namespace {

using testing::Bench;
using testing::worm;

// Node (1, 1) of a 4x4 torus with worms from four inputs, most of them into +x class 1, and one to
// x = 0 through +x (the route mutant 4 corrupts).
void scenario(Bench& b) {
  std::vector<model::Flit> west, north, south, inj;
  for (uint32_t k = 0; k < 4; ++k) {
    for (const auto& f : worm(6, 3, 100 + k, 1)) west.push_back(f);
    for (const auto& f : worm(6, 2, 200 + k, 1)) north.push_back(f);
    for (const auto& f : worm(k % 2 ? 7 : 9, 4, 300 + k, 0)) south.push_back(f);
  }
  for (const auto& f : worm(4, 2, 400)) inj.push_back(f);  // to (0, 1) going +x: wraps
  for (const auto& f : worm(6, 5, 401)) inj.push_back(f);
  b.send(1, west);
  b.send(2, north);
  b.send(3, south);
  b.send(4, inj);
}

std::optional<model::Mismatch> first_difference(const char* config, int cycles) {
  const sw::Topology topo({4, 4}, true);
  Bench a("r2d", topo, 5), b(config, topo, 5);
  scenario(a);
  scenario(b);
  const int np = a.shape().ports();
  for (int t = 0; t < cycles; ++t) {
    a.step();
    try {
      b.step();
    } catch (const std::logic_error&) {
      // One of the RTL's properties (hw/props, docs/verification.md) stopped the mutant in this
      // cycle, before its outputs could be compared: Verilator printed which.
      model::Mismatch m;
      m.field = "property";
      m.cycle = static_cast<uint64_t>(t);
      m.router = 5;
      return m;
    }
    std::vector<model::PortWires> oa, ob;
    for (int p = 0; p < np; ++p) {
      oa.push_back(a.out(p));
      ob.push_back(b.out(p));
    }
    model::Mismatch m;
    bool same = model::compare_outputs(a.shape(), oa.data(), ob.data(), m) &&
                model::compare_snapshots(a.shape(), a.snapshot(), b.snapshot(), m);
    if (!same) {
      m.cycle = static_cast<uint64_t>(t);
      m.router = 5;
      return m;
    }
  }
  EXPECT_TRUE(a.router().quiescent());
  return std::nullopt;
}

const std::vector<std::string> kPorts = {"+x", "-x", "+y", "-y", "inj0"};

TEST(RtlMutants, DefaultAgainstItselfNeverDiffers) { EXPECT_FALSE(first_difference("r2d", 200).has_value()); }

TEST(RtlMutants, LateCreditIsVisibleOnTheCreditWires) {
  const auto m = first_difference("r2d_m1", 50);
  ASSERT_TRUE(m.has_value());
  EXPECT_EQ(m->field, "credit_valid") << m->describe("r2d", "mutant", kPorts);
  EXPECT_EQ(m->cycle, 2u);  // the first flit leaves in cycle P = 2: its credit is missing
}

TEST(RtlMutants, EarlyReleaseIsVisibleInTheVcOwners) {
  const auto m = first_difference("r2d_m2", 50);
  ASSERT_TRUE(m.has_value());
  // The VC goes to a waiting worm while the old tail is still at the front: the new owner, or (as
  // outputs are compared first) the new worm's flit on that VC in the same cycle.
  // Or, in the cycle of the grant, the property ou_grant_free (a claim of a VC that has an owner).
  EXPECT_TRUE(m->field == "ovc_owner_q" || m->field.rfind("flit", 0) == 0 || m->field == "property")
      << m->describe("r2d", "mutant", kPorts);
}

TEST(RtlMutants, StuckArbiterPointerIsVisibleInTheSnapshot) {
  const auto m = first_difference("r2d_m3", 50);
  ASSERT_TRUE(m.has_value());
  EXPECT_EQ(m->field, "sa_out_rr_q") << m->describe("r2d", "mutant", kPorts);
  EXPECT_EQ(m->cycle, 2u);  // the first switch grant
}

TEST(RtlMutants, CorruptedTableEntrySendsAWormTheWrongWay) {
  const auto m = first_difference("r2d_m4", 50);
  ASSERT_TRUE(m.has_value());
  const std::string d = m->describe("r2d", "mutant", kPorts);
  EXPECT_TRUE(m->field == "ivc_out_port_q" || m->field == "flit_valid") << d;
}

}  // namespace
}  // namespace torx::rtl
