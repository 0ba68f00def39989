// Seed 000's ring complete exchange (Sections 2 and 5): for n = 2^d the exact step and transmission
// counts of Theorem 1, the per-phase counts of Lemmas 2-5 for the positive tree alone, and for every
// other length 3..64 a conflict-free, fully delivered exchange in 2 ceil(lg n) - 2 steps within
// Section 5's conjectured T_1D(ceil(lg n)) (every even length; odd lengths below 2^D - 7), with the
// even lengths up to 1024 checked against it through their plans.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "algorithms/registry.hpp"
#include "algorithms/ring_plan.hpp"
#include "core/checker.hpp"
#include "core/step_model.hpp"
#include "test_util.hpp"

namespace torx::sw {
namespace {

testing::Outcome run_ring(int n) { return testing::run_algo("ring", Topology({n}, true)); }

int ceil_lg(int n) {
  int d = 0;
  while ((1 << d) < n) ++d;
  return d;
}

// Lemma 6 and Theorem 1 written out from the seed, independently of the library:
// T+_1D = (1/3)(31/32) 2^(2d-1) + 2^(d-3) - 1/3 for 3 <= d <= 5, (1/3)(65/64) 2^(2d-1) - 2^(d-2) - 1/3 for d >= 6.
int64_t theorem1(int d) {
  const int64_t p = int64_t{1} << (2 * d - 1);
  int64_t lemma6_times_96;  // 96 * T+ keeps every term an integer
  if (d <= 5) lemma6_times_96 = 31 * p + 96 * (int64_t{1} << d) / 8 - 32;
  else lemma6_times_96 = 65 * p / 2 - 96 * (int64_t{1} << d) / 4 - 32;
  EXPECT_EQ(lemma6_times_96 % 96, 0) << "d = " << d;
  return lemma6_times_96 / 96 + (d == 3 ? 3 : 2);
}

TEST(Ring, TheoremOneForPowersOfTwo) {
  EXPECT_EQ(theorem1(4), 45);   // the examples
  EXPECT_EQ(theorem1(6), 679);
  for (int d = 3; d <= 10; ++d) {
    const auto o = run_ring(1 << d);
    EXPECT_EQ(o.r.steps, 2 * d - 2) << "d = " << d;
    EXPECT_EQ(static_cast<int64_t>(o.r.transmission_blocks), theorem1(d)) << "d = " << d;
    EXPECT_EQ(ring::theorem1_transmission_blocks(d), theorem1(d));
    EXPECT_EQ(o.r.port_conflicts, 0u) << "d = " << d;
    EXPECT_EQ(o.r.link_conflicts, 0u) << "d = " << d;
    EXPECT_TRUE(o.c.ok) << "d = " << d;
  }
}

// Lemmas 2-5 (Corollary 1 resolves the max) written out from the seed.
std::vector<int64_t> lemmas(int d) {
  std::vector<int64_t> gp, sp;
  auto case1 = [&](int l) { return (int64_t{1} << (d + l - 1)) - 5 * (int64_t{1} << (2 * l)) / 2 + 3 * (int64_t{1} << l) / 2; };
  auto case2 = [&](int l) { return l == 0 ? 2 : 7 * (int64_t{1} << (2 * l)) / 4; };
  for (int l = 0; l <= d - 3; ++l) gp.push_back(std::max(case1(l), case2(l)));  // Lemma 2
  gp.push_back((int64_t{1} << (2 * d)) / 64 + 3 * (int64_t{1} << d) / 8);     // Lemma 3
  sp.push_back(1);                                                           // Lemma 4
  for (int l = d - 3; l >= 0; --l) sp.push_back(std::max(case1(l), case2(l)));  // Lemma 5
  gp.insert(gp.end(), sp.begin(), sp.end());
  return gp;
}

TEST(Ring, PositiveTreeAloneGivesLemmasTwoToFive) {
  for (int d = 3; d <= 8; ++d) {
    const ring::Plan plan = ring::build_positive_tree(d);
    EXPECT_EQ(ring::phase_max_blocks(plan), lemmas(d)) << "d = " << d;
    EXPECT_EQ(ring::lemma_phase_blocks(d), lemmas(d)) << "d = " << d;
  }
}

TEST(Ring, PositiveTreeAloneDeliversThePositiveBlocks) {
  // Run the positive tree as a schedule: every positive block b_s^{s+1..s+n/2} arrives, legally,
  // and exactly the negative ones are missing.
  for (int d = 3; d <= 7; ++d) {
    const int n = 1 << d;
    const Topology topo({n}, true);
    const BlockSpace space(Collective::kAlltoall, topo, 1, 0);
    StepModel m(topo, {});
    ScheduleHeader h;
    h.dims = {n};
    m.begin(h);
    Step step;
    for (const ring::Phase& ph : ring::build_positive_tree(d).phases) {
      step.clear();
      StepBuilder b(space, step);
      for (const ring::Transmission& tx : ph.tx) {
        Route r;
        r.neg_mask = tx.dir < 0 ? 1 : 0;
        b.message(tx.from, tx.to, r);
        for (const ring::BlockRun& run : tx.blocks)
          b.add_box({{static_cast<uint32_t>(run.src), 1, 1}, {static_cast<uint32_t>(run.first_dst), static_cast<uint32_t>(run.count), 1}});
      }
      m.step(step);
    }
    m.end();
    const CheckResult c = check_delivery(m);
    EXPECT_EQ(c.delivered, uint64_t(n) * (n / 2)) << "d = " << d;
    EXPECT_EQ(c.missing, uint64_t(n) * (n / 2 - 1)) << "d = " << d;
    EXPECT_EQ(m.result().link_conflicts, 0u);
  }
}

TEST(Ring, EveryLengthThreeToSixtyFour) {
  for (int n = 3; n <= 64; ++n) {
    const auto o = run_ring(n);
    EXPECT_EQ(o.r.steps, 2 * ceil_lg(n) - 2) << "n = " << n;
    EXPECT_EQ(o.r.port_conflicts, 0u) << "n = " << n;
    EXPECT_EQ(o.r.link_conflicts, 0u) << "n = " << n;
    EXPECT_TRUE(o.c.ok) << "n = " << n;
    // Section 5's conjecture T_1D(ceil(lg n)): every even length (the contraction of the 2^D plan,
    // docs/ring.md), and every odd length below 2^D - 7 (the top odd lengths of each octave are the
    // open cases the doc lists).
    const int d = ceil_lg(n);
    if (d >= 3 && (n % 2 == 0 || n < (1 << d) - 7)) {
      EXPECT_LE(static_cast<int64_t>(o.r.transmission_blocks), theorem1(d)) << "n = " << n;
    }
  }
  const auto two = run_ring(2);
  EXPECT_EQ(two.r.steps, 1);
  EXPECT_TRUE(two.c.ok);
}

// Every even length below 2^D contracts the 2^D plan (pairs of nodes removed, every block on the
// image of its route): each message is a subset of one of the 2^D plan's, so the transmission is
// at most Theorem 1's. The plans of the tightest lengths (2^D - 2) and a sample up to 1024; the
// smaller ones also run through the step model.
TEST(Ring, EvenLengthsMeetTheoremOne) {
  for (int n : {30, 62, 100, 126, 254, 300, 510, 998, 1000, 1022}) {
    const int d = ceil_lg(n);
    const ring::Plan plan = ring::build_plan(n);
    EXPECT_LE(ring::transmission_blocks(plan), theorem1(d)) << "n = " << n;
    EXPECT_EQ(static_cast<int>(plan.phases.size()), 2 * d - 2) << "n = " << n;
    if (n <= 254) {
      const auto o = run_ring(n);
      EXPECT_TRUE(o.c.ok) << "n = " << n;
      EXPECT_EQ(o.r.port_conflicts + o.r.link_conflicts, 0u) << "n = " << n;
      EXPECT_EQ(static_cast<int64_t>(o.r.transmission_blocks), ring::transmission_blocks(plan)) << "n = " << n;
    }
  }
}

// Plans are built by searches over skeletons and tie rules: two separate processes must write the
// same schedule file, byte for byte.
TEST(Ring, DeterministicAcrossProcesses) {
  for (int n : {37, 61, 100}) {
    const std::string a = testing::temp_dir() + "/ring_a.sched", b = testing::temp_dir() + "/ring_b.sched";
    ASSERT_EQ(testing::run_torx("schedule ring --topo " + std::to_string(n) + " -o " + a).code, 0);
    ASSERT_EQ(testing::run_torx("schedule ring --topo " + std::to_string(n) + " -o " + b).code, 0);
    const std::string text = testing::read_file(a);
    EXPECT_FALSE(text.empty());
    EXPECT_EQ(text, testing::read_file(b)) << "n = " << n;
  }
}

TEST(Ring, RefusesOutsidePreconditions) {
  const Algorithm* a = find_algorithm("ring");
  EXPECT_THROW(a->check(Topology({8, 8}, true), {}), PreconditionError);
  EXPECT_THROW(a->check(Topology({8}, false), {}), PreconditionError);
}

TEST(Ring, ScheduleFileGivesTheSameResultAsTheDirectRun) {
  const std::string path = testing::temp_dir() + "/ring1024.sched";
  ASSERT_EQ(testing::run_torx("schedule ring --topo 1024 -o " + path).code, 0);
  const auto direct = testing::run_torx("run ring --topo 1024 --json -");
  const auto file = testing::run_torx("run --schedule " + path + " --topo 1024 --json -");
  ASSERT_EQ(direct.code, 0) << direct.err;
  ASSERT_EQ(file.code, 0) << file.err;
  auto a = nlohmann::json::parse(direct.out), b = nlohmann::json::parse(file.out);
  for (auto* j : {&a, &b}) {
    j->erase("schedule");
    j->erase("sim");
  }
  EXPECT_EQ(a, b);
  EXPECT_EQ(a["steps"], 18);
  EXPECT_EQ(a["transmission_blocks"], theorem1(10));
  EXPECT_EQ(a["check"]["ok"], true);
}

}  // namespace
}  // namespace torx::sw
