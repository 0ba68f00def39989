// Seed 000 on tori (Sections 3-5): T1 (Lemma 7), T4 (Theorem 2, Table 1), C1, C64 (Theorem 3,
// Table 2) and the dimension-by-dimension scheme on tori of any size and dimension. Every schedule
// is run through the step model and the checker: the closed forms hold, no port or link conflicts,
// every block delivered. The largest runs (C64 on 32x32x32 with 2^30 blocks tracked) are in
// scripts/tseng_sweep.py; here C64 at that size is counted without tracking blocks.
#include <gtest/gtest.h>

#include "algorithms/registry.hpp"
#include "algorithms/ring_plan.hpp"
#include "algorithms/tseng.hpp"
#include "core/checker.hpp"
#include "core/step_model.hpp"
#include "test_util.hpp"

namespace torx::sw {
namespace {

using testing::Outcome;

Outcome run_algo(const std::string& id, const Topology& topo, bool track = true) {
  return testing::run_algo(id, topo, {}, track);
}

int64_t t1d(int d) { return ring::theorem1_transmission_blocks(d); }

void expect_clean(const Outcome& o, const std::string& what) {
  EXPECT_EQ(o.r.port_conflicts, 0u) << what;
  EXPECT_EQ(o.r.link_conflicts, 0u) << what;
  EXPECT_TRUE(o.c.ok) << what;
}

TEST(T4, TheoremTwo) {
  // Theorem 2: 2 t_s + 2^(2d) b t_x + T_2D,T1(d-1, 4b) = 4d-6 startups and 2^(2d) + 2^(d+2) T_1D(d-1) blocks.
  const int64_t expected[] = {0, 0, 0, 0, 1152, 6784, 47872};
  for (int d = 4; d <= 6; ++d) {
    const int n = 1 << d;
    const auto o = run_algo("t4", Topology({n, n}, true));
    EXPECT_EQ(o.r.steps, 4 * d - 6) << "d = " << d;
    EXPECT_EQ(static_cast<int64_t>(o.r.transmission_blocks), expected[d]) << "d = " << d;
    EXPECT_EQ((int64_t{1} << (2 * d)) + (int64_t{1} << (d + 2)) * t1d(d - 1), expected[d]);
    expect_clean(o, "t4 d=" + std::to_string(d));
  }
}

TEST(T4, PreparationPhasesCarryHalfTheBlocks) {
  // Pre1 and Pre2 each carry n^2/2 blocks per node (Section 3.2).
  const auto o = run_algo("t4", Topology({16, 16}, true));
  ASSERT_GE(o.r.per_step.size(), 2u);
  EXPECT_EQ(o.r.per_step[0].label, "prep-x1");
  EXPECT_EQ(o.r.per_step[0].max_blocks, 128u);
  EXPECT_EQ(o.r.per_step[1].max_blocks, 128u);
}

TEST(T4, SmallAndNonPowerOfTwoSides) {
  // d = 3 (8x8): logical rings of 4 take 2 steps; Theorem 2 does not apply (T_1D needs d >= 3).
  const auto small = run_algo("t4", Topology({8, 8}, true));
  EXPECT_EQ(small.r.steps, 6);
  expect_clean(small, "t4 8x8");
  for (int n : {4, 6, 10, 12, 20}) expect_clean(run_algo("t4", Topology({n, n}, true)), "t4 n=" + std::to_string(n));
}

TEST(T1, LemmaSeven) {
  for (int d = 3; d <= 5; ++d) {
    const int n = 1 << d;
    const auto o = run_algo("t1", Topology({n, n}, true));
    EXPECT_EQ(o.r.steps, 2 * (2 * d - 2));
    EXPECT_EQ(static_cast<int64_t>(o.r.transmission_blocks), 2 * n * t1d(d)) << "d = " << d;
    expect_clean(o, "t1 d=" + std::to_string(d));
  }
  expect_clean(run_algo("t1", Topology({10, 6}, true)), "t1 10x6");
  expect_clean(run_algo("t1", Topology({3, 7}, true)), "t1 3x7");
}

TEST(C1, ThreeRingStages) {
  const auto o = run_algo("c1", Topology({8, 8, 8}, true));
  EXPECT_EQ(o.r.steps, 3 * 4);
  EXPECT_EQ(static_cast<int64_t>(o.r.transmission_blocks), 3 * 64 * t1d(3));
  expect_clean(o, "c1 8x8x8");
  expect_clean(run_algo("c1", Topology({5, 6, 3}, true)), "c1 5x6x3");
}

TEST(C64, SixteenCubedTrackedAndThirtyTwoCubedCounted) {
  const auto o = run_algo("c64", Topology({16, 16, 16}, true));
  EXPECT_EQ(o.r.steps, 9 + 4 * 2);
  expect_clean(o, "c64 16^3");
  // Theorem 3, d = 5: 8d-15 = 25 startups, 9 2^(3d-1) + 2^(2d+4) T_1D(d-2) = 376832 blocks.
  const auto big = run_algo("c64", Topology({32, 32, 32}, true), /*track=*/false);
  EXPECT_EQ(big.r.steps, 25);
  EXPECT_EQ(big.r.transmission_blocks, 376832u);
  EXPECT_EQ(9 * (int64_t{1} << 14) + (int64_t{1} << 14) * t1d(3), 376832);
  EXPECT_EQ(big.r.port_conflicts, 0u);
  EXPECT_EQ(big.r.link_conflicts, 0u);
  // The nine preparation phases carry 48, 32, 16 (x n^3/64) blocks, three times over.
  const uint64_t q = 32768 / 64;
  for (int k = 0; k < 9; ++k) EXPECT_EQ(big.r.per_step[k].max_blocks, (48 - 16 * (k % 3)) * q) << "prep " << k;
}

TEST(TsengDd, TwoToFourDimensionsSample) {
  // Every torus with 2..4 dimensions and sides 3..12 is run by scripts/tseng_sweep.py; a sample here.
  const std::vector<std::vector<int>> sample = {
      {3, 3}, {3, 12}, {7, 5}, {12, 12}, {9, 10}, {4, 11}, {3, 3, 3}, {5, 7, 4}, {12, 3, 6}, {8, 9, 10},
      {11, 11, 3}, {3, 4, 5, 6}, {3, 3, 3, 3}, {7, 3, 5, 4}, {6, 6, 6, 6}};
  for (const auto& dims : sample) {
    const Topology topo(dims, true);
    const auto o = run_algo("tseng-dd", topo);
    int64_t steps = 0;
    for (int r : dims) {
      int d = 0;
      while ((1 << d) < r) ++d;
      steps += 2 * d - 2;
    }
    EXPECT_EQ(o.r.steps, steps) << topo.to_string();
    expect_clean(o, topo.to_string());
  }
}

TEST(Tseng, PreconditionsAreEnforced) {
  EXPECT_THROW(find_algorithm("t4")->check(Topology({16, 8}, true), {}), PreconditionError);
  EXPECT_THROW(find_algorithm("t4")->check(Topology({9, 9}, true), {}), PreconditionError);
  EXPECT_THROW(find_algorithm("t4")->check(Topology({16, 16}, false), {}), PreconditionError);
  EXPECT_THROW(find_algorithm("c64")->check(Topology({10, 10, 10}, true), {}), PreconditionError);
  EXPECT_THROW(find_algorithm("c64")->check(Topology({4, 4, 4}, true), {}), PreconditionError);
  EXPECT_THROW(find_algorithm("c64")->check(Topology({16, 16}, true), {}), PreconditionError);
  EXPECT_THROW(find_algorithm("t1")->check(Topology({8}, true), {}), PreconditionError);
  EXPECT_THROW(find_algorithm("c1")->check(Topology({8, 8}, true), {}), PreconditionError);
  EXPECT_THROW(find_algorithm("tseng-dd")->check(Topology({8, 8}, false), {}), PreconditionError);
}

}  // namespace
}  // namespace torx::sw

namespace torx::sw {
namespace {

TEST(Tseng, PlanDerivedCountsEqualGeneratedSchedules) {
  // scheme_counts() feeds the paper reproduction at sizes that cannot be generated; it must equal
  // what generated schedules measure, step by step.
  struct Case {
    const char* algo;
    std::vector<int> dims;
  } cases[] = {{"t4", {16, 16}}, {"t4", {32, 32}}, {"t4", {12, 12}}, {"c64", {16, 16, 16}}, {"c64", {32, 32, 32}},
               {"t1", {16, 8}}, {"c1", {8, 6, 5}}, {"tseng-dd", {3, 4, 5, 6}}, {"ring", {37}}};
  for (const Case& c : cases) {
    const Topology topo(c.dims, true);
    const Algorithm* a = find_algorithm(c.algo);
    StepModelOptions o;
    o.track_blocks = false;
    StepModel m(topo, o);
    a->generate(topo, {}, m);
    const auto scheme = std::string(c.algo) == "t4" ? tseng::t4_scheme()
                        : std::string(c.algo) == "c64" ? tseng::c64_scheme()
                                                       : tseng::plain_scheme(topo);
    const auto counts = tseng::scheme_counts(c.dims, scheme);
    ASSERT_EQ(counts.step_max_blocks.size(), m.result().per_step.size()) << c.algo << " " << topo.to_string();
    for (size_t k = 0; k < counts.step_max_blocks.size(); ++k)
      EXPECT_EQ(counts.step_max_blocks[k], static_cast<int64_t>(m.result().per_step[k].max_blocks))
          << c.algo << " " << topo.to_string() << " step " << k;
  }
}

}  // namespace
}  // namespace torx::sw
