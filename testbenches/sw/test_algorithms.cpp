// Algorithms run through the step model and the checker with the numbers the issues state: `direct`
// is the honest baseline (link conflicts on tori, check ok).
#include <gtest/gtest.h>

#include "algorithms/registry.hpp"
#include "core/checker.hpp"
#include "core/step_model.hpp"
#include "test_util.hpp"

namespace torx::sw {
namespace {

using testing::run_algo;

TEST(Direct, EightByEightTorus) {
  const auto o = run_algo("direct", Topology({8, 8}, true));
  EXPECT_TRUE(o.c.ok);
  EXPECT_EQ(o.r.steps, 63);
  EXPECT_EQ(o.r.transmission_blocks, 63u);
  EXPECT_EQ(o.r.port_conflicts, 0u);
  EXPECT_GT(o.r.link_conflicts, 0u);
  EXPECT_EQ(o.c.expected, 64u * 63u);
}

TEST(Direct, RingOfThreeHasNoConflictsAndMeshWorks) {
  const auto ring = run_algo("direct", Topology({3}, true));
  EXPECT_TRUE(ring.c.ok);
  EXPECT_EQ(ring.r.link_conflicts, 0u);
  const auto mesh = run_algo("direct", Topology({5, 3}, false));
  EXPECT_TRUE(mesh.c.ok);
  EXPECT_EQ(mesh.r.steps, 14);
}

TEST(Direct, RefusesOutsidePreconditions) {
  const Algorithm* a = find_algorithm("direct");
  EXPECT_THROW(a->check(Topology({128, 64}, true), {}), PreconditionError);
}

}  // namespace
}  // namespace torx::sw
