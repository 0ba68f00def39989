// Seeds 001, 002 and 004 through the step model and the checker: Suh's mesh exchange (closed forms,
// tori, odd sides refused, every send one contiguous slice of the data array), Dimakopoulos' A2 and
// A3 against the average-status and cut bounds (the bounds themselves checked against brute force),
// and Tsay-Wang's broadcast for every n from 3 to 30 in 2D with any root.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>

#include "algorithms/dimak.hpp"
#include "algorithms/plain_adapter.hpp"
#include "algorithms/registry.hpp"
#include "algorithms/suh.hpp"
#include "algorithms/tsay_wang.hpp"
#include "core/checker.hpp"
#include "core/int_math.hpp"
#include "core/step_model.hpp"
#include "test_util.hpp"

namespace torx::sw {
namespace {

using testing::Outcome;
using testing::run_algo;

void expect_clean(const Outcome& o, const std::string& what) {
  EXPECT_EQ(o.r.port_conflicts, 0u) << what;
  EXPECT_EQ(o.r.link_conflicts, 0u) << what;
  EXPECT_TRUE(o.c.ok) << what << ": missing " << o.c.missing << " duplicated " << o.c.duplicated;
}

// ---- seed 002 ----

TEST(Suh, SixByTenMesh) {
  const auto o = run_algo("suh", Topology({6, 10}, false));
  EXPECT_EQ(o.r.steps, 10);
  EXPECT_EQ(o.r.transmission_blocks, 300u);
  expect_clean(o, "suh 6x10");
}

TEST(Suh, TwoDimensionalClosedFormsForEveryEvenMeshUpToTwelve) {
  for (int r = 2; r <= 12; r += 2)
    for (int c = r; c <= 12; c += 2) {
      const auto o = run_algo("suh", Topology({r, c}, false));
      EXPECT_EQ(o.r.steps, c) << r << "x" << c;
      EXPECT_EQ(o.r.transmission_blocks, uint64_t(r) * c * c / 2) << r << "x" << c;
      expect_clean(o, "suh " + std::to_string(r) + "x" + std::to_string(c));
    }
}

TEST(Suh, MultiDimensionalMeshesAndTori) {
  struct Case {
    std::vector<int> dims;
    int64_t steps, tx;
  } cases[] = {{{8, 8, 8}, 12, 3072}, {{4, 6, 8}, 12, 1152}, {{8, 6, 4}, 12, 1152}, {{4, 4, 4, 4}, 8, 1024}};
  for (const Case& c : cases)
    for (bool wrap : {false, true}) {
      const Topology topo(c.dims, wrap);
      const auto o = run_algo("suh", topo);
      EXPECT_EQ(o.r.steps, c.steps) << topo.to_string();
      EXPECT_EQ(static_cast<int64_t>(o.r.transmission_blocks), c.tx) << topo.to_string();
      expect_clean(o, topo.to_string());
    }
}

TEST(Suh, OddSidesAreRefused) {
  EXPECT_THROW(find_algorithm("suh")->check(Topology({6, 9}, false), {}), PreconditionError);
  EXPECT_THROW(find_algorithm("suh")->check(Topology({8}, false), {}), PreconditionError);
}

TEST(Suh, EverySendIsAContiguousSliceOfTheDataArray) {
  // Replay the data arrays: a message must equal the sender's slots [begin, end); the receiver's
  // message lands in its own slice of the same step; a re-sort only permutes a node's blocks.
  for (const std::vector<int>& dims : {std::vector<int>{6, 10}, std::vector<int>{4, 6, 8}}) {
    const PlainTopology pt{dims, false};
    std::vector<std::vector<uint64_t>> arr;
    std::vector<SuhSend> sends;
    int steps = 0, resorts = 0;
    generate_suh(
        pt,
        [&](PlainStep&& s) {
          ASSERT_EQ(s.messages.size(), sends.size());
          std::vector<std::vector<uint64_t>> incoming(s.messages.size());
          std::map<int64_t, size_t> recv_of;  // receiver -> message index
          for (size_t i = 0; i < s.messages.size(); ++i) {
            const SuhSend& sd = sends[i];
            ASSERT_EQ(sd.node, s.messages[i].src);
            const std::vector<uint64_t> slice(arr[sd.node].begin() + sd.begin, arr[sd.node].begin() + sd.end);
            EXPECT_EQ(slice, s.messages[i].blocks) << "step " << steps << " node " << sd.node;
            recv_of[s.messages[i].dst] = i;
          }
          for (size_t i = 0; i < s.messages.size(); ++i) {
            const int64_t dst = s.messages[i].dst;
            // The receiver's own send slice in this step.
            auto it = std::find_if(sends.begin(), sends.end(), [&](const SuhSend& x) { return x.node == dst; });
            ASSERT_NE(it, sends.end());
            ASSERT_EQ(it->end - it->begin, static_cast<int64_t>(s.messages[i].blocks.size()));
            incoming[i] = s.messages[i].blocks;
          }
          for (size_t i = 0; i < s.messages.size(); ++i) {
            const int64_t dst = s.messages[i].dst;
            auto it = std::find_if(sends.begin(), sends.end(), [&](const SuhSend& x) { return x.node == dst; });
            std::copy(incoming[i].begin(), incoming[i].end(), arr[dst].begin() + it->begin);
          }
          ++steps;
        },
        [&](SuhArrayStep&& a) {
          if (!a.layout.empty()) {
            if (!arr.empty()) {
              ++resorts;
              for (size_t v = 0; v < arr.size(); ++v) {
                auto x = arr[v], y = a.layout[v];
                std::sort(x.begin(), x.end());
                std::sort(y.begin(), y.end());
                EXPECT_EQ(x, y) << "a re-sort must only permute node " << v << "'s blocks";
              }
            }
            arr = std::move(a.layout);
          }
          sends = std::move(a.sends);
        });
    EXPECT_EQ(resorts, suh_rearrangements(dims)) << dims.size() << "D";
    // At the end every node's array holds exactly the blocks destined to it (and its own slot).
    const int64_t n = static_cast<int64_t>(arr.size());
    for (int64_t v = 0; v < n; ++v)
      for (uint64_t b : arr[v]) EXPECT_EQ(static_cast<int64_t>(b % n), v);
  }
}

// ---- seed 004 ----

int64_t brute_average_status(const Topology& topo) {
  int64_t total = 0;
  for (NodeId a = 0; a < topo.nodes(); ++a)
    for (NodeId b = 0; b < topo.nodes(); ++b) total += topo.distance(a, b);
  return (total + topo.nodes() - 1) / topo.nodes();
}

TEST(Dimak, BoundsAgreeWithBruteForce) {
  for (const std::vector<int>& dims : {std::vector<int>{4, 6}, {5, 5, 3}, {2, 2, 2, 2}, {7}, {12, 3}})
    for (bool wrap : {true, false}) {
      const Topology topo(dims, wrap);
      EXPECT_EQ(average_status_bound(plain_topology(topo)), brute_average_status(topo)) << topo.to_string();
    }
  // Cut bound of a 4x6 torus across the 6-side: |V1||V2| = 12*12 blocks over 2*4 links each way.
  EXPECT_EQ(bisection_cut_bound(PlainTopology{{4, 6}, true}), 18);
}

TEST(DimakA2, TakesTheAverageStatusOnToriAndHypercubes) {
  const auto o = run_algo("dimak-a2", Topology({4, 6}, true));
  EXPECT_EQ(o.r.steps, 60);
  expect_clean(o, "a2 4x6");
  for (const std::vector<int>& dims : {std::vector<int>{3, 5}, {6, 6}, {4, 4, 4}, {3, 4, 5}, {7}, {8}}) {
    const Topology topo(dims, true);
    const auto r = run_algo("dimak-a2", topo);
    EXPECT_EQ(r.r.steps, average_status_bound(plain_topology(topo))) << topo.to_string();
    expect_clean(r, topo.to_string());
  }
  // Hypercube 2^4 as a 2x2x2x2 mesh: k 2^(k-1) = 32 steps.
  const auto cube = run_algo("dimak-a2", Topology({2, 2, 2, 2}, false));
  EXPECT_EQ(cube.r.steps, 32);
  EXPECT_EQ(cube.r.steps, average_status_bound(PlainTopology{{2, 2, 2, 2}, false}));
  expect_clean(cube, "hypercube 2^4");
}

TEST(DimakA2, MeshesReportStepsAboveTheBound) {
  for (const std::vector<int>& dims : {std::vector<int>{4, 6}, {5, 5}, {3, 4, 5}}) {
    const Topology topo(dims, false);
    const auto o = run_algo("dimak-a2", topo);
    EXPECT_EQ(o.r.steps, dimak_a2_steps(plain_topology(topo)));
    EXPECT_GT(o.r.steps, average_status_bound(plain_topology(topo))) << topo.to_string();
    expect_clean(o, topo.to_string());
  }
  EXPECT_EQ(run_algo("dimak-a2", Topology({4, 6}, false)).r.steps, 110);
}

TEST(DimakA3, NTimesTheFactorTimeAndTheCutBoundWhereTheFactorMeetsIt) {
  for (int n = 2; n <= 9; ++n)
    for (bool ring : {true, false}) {
      const Topology topo({n, n}, ring);
      const auto o = run_algo("dimak-a3", topo);
      const int64_t th = dimak_line_steps(n, ring, DimakPorts::kMultiport);
      EXPECT_EQ(o.r.steps, n * th) << topo.to_string();
      expect_clean(o, topo.to_string());
      // H meets its cut bound exactly (not after rounding) on arrays and on rings with n odd or n % 4 == 0.
      const bool exact = !ring || n % 2 == 1 || n % 4 == 0;
      if (exact && n > 2) {
        EXPECT_EQ(o.r.steps, bisection_cut_bound(plain_topology(topo))) << topo.to_string();
      }
    }
  const auto four = run_algo("dimak-a3", Topology({3, 3, 3, 3}, true));
  EXPECT_EQ(four.r.steps, 27 * dimak_line_steps(3, true, DimakPorts::kMultiport));
  expect_clean(four, "3^4 torus");
  EXPECT_THROW(find_algorithm("dimak-a3")->check(Topology({4, 5}, true), {}), PreconditionError);
  EXPECT_THROW(find_algorithm("dimak-a3")->check(Topology({4, 4, 4}, true), {}), PreconditionError);
}

// ---- seed 001 ----

// The improvement for d = 2 and 3 (seed 001's abstract; tsay_wang.hpp): d ceil(log_{2d+1} n) steps
// for every n, every node informed exactly once, no link or port conflict. 2D: every n from 3 to 30
// with three roots (docs/tsay-wang.md's table, made by scripts/tsay_wang_table.py, covers 3..64).
TEST(TsayWang, EveryNFromThreeToThirtyIn2DMeetsTheImprovedCount) {
  for (int n = 3; n <= 30; ++n) {
    const Topology topo({n, n}, true);
    for (NodeId root : {NodeId{0}, NodeId(topo.nodes() / 3), NodeId(topo.nodes() - 1)}) {
      AlgorithmOptions opt;
      opt.root = root;
      const auto o = run_algo("tsay-wang", topo, opt);
      expect_clean(o, "tsay-wang n=" + std::to_string(n) + " root " + std::to_string(root));
      EXPECT_EQ(o.c.duplicated, 0u);
      EXPECT_GE(o.r.steps, broadcast_lower_bound(2, n)) << n;
      EXPECT_EQ(o.r.steps, 2 * ceil_log(5, n)) << n;
      EXPECT_EQ(o.r.steps, tsay_wang_improved_steps(2, n)) << n;
    }
  }
}

// 3D: 3 ceil(log_7 n) for every n from 3 to 16 (n = 8 .. 16 in a sample: the table covers all).
TEST(TsayWang, ThreeDimensionsMeetTheImprovedCount) {
  for (int n : {3, 4, 5, 6, 7, 8, 9, 10, 12, 15}) {
    const Topology topo({n, n, n}, true);
    AlgorithmOptions opt;
    opt.root = topo.nodes() / 2 + 1;
    const auto o = run_algo("tsay-wang", topo, opt);
    expect_clean(o, "tsay-wang " + topo.to_string());
    EXPECT_EQ(o.c.duplicated, 0u);
    EXPECT_EQ(o.r.steps, 3 * ceil_log(7, n)) << topo.to_string();
    EXPECT_EQ(o.r.steps, tsay_wang_improved_steps(3, n)) << topo.to_string();
    EXPECT_GE(o.r.steps, broadcast_lower_bound(3, n));
  }
}

// The paper's own construction (d >= 4, and for d <= 3 with the improvement off) still takes the
// paper's count.
TEST(TsayWang, ThePapersConstructionMeetsThePapersStepCount) {
  for (int d : {2, 3, 4})
    for (int n = 3; n <= (d == 4 ? 5 : 9); ++n) {
      const PlainTopology pt{std::vector<int>(d, n), true};
      const Topology topo(pt.dims, true);
      TsayWangOptions paper;
      paper.improved_low_dimensions = false;
      paper.keep_empty_steps = true;
      StepModelOptions so;
      StepModel m(topo, so);
      ScheduleHeader h;
      h.collective = Collective::kBroadcast;
      h.dims = pt.dims;
      h.ports = PortModel::kAll;
      m.begin(h);
      const BlockSpace space(Collective::kBroadcast, topo, 1, 0);
      PlainStepAdapter adapter(topo, space, m, -1);
      generate_tsay_wang(pt, 0, [&](PlainStep&& s) { adapter(std::move(s)); }, paper);
      m.end();
      const CheckResult c = check_delivery(m);
      EXPECT_TRUE(c.ok) << topo.to_string();
      EXPECT_EQ(m.result().link_conflicts + m.result().port_conflicts, 0u) << topo.to_string();
      EXPECT_EQ(m.result().steps, tsay_wang_steps(d, n)) << topo.to_string();
      if (d == 4) {
        EXPECT_EQ(run_algo("tsay-wang", topo).r.steps, tsay_wang_steps(4, n)) << topo.to_string();
      }
    }
}

TEST(TsayWang, KeepingTheEmptyStepGivesOneMore) {
  for (int d : {2, 3})
    for (int n = 3; n <= (d == 2 ? 12 : 6); ++n) {
      int steps = 0;
      TsayWangOptions keep;
      keep.keep_empty_steps = true;
      generate_tsay_wang(PlainTopology{std::vector<int>(d, n), true}, 0, [&](PlainStep&&) { ++steps; }, keep);
      EXPECT_EQ(steps, tsay_wang_improved_steps(d, n) + 1) << d << " " << n;
    }
}

}  // namespace
}  // namespace torx::sw
