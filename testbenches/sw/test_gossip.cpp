// Seed 003's oblivious gossip (ms-hc, ms-one): every node receives every piece exactly once with no
// link carrying two messages in a step; the per-router forwarding tables, written to their text
// format and read back, reproduce the whole generated schedule step for step; a damaged table is
// caught by the checker; the step counts against the paper's.
#include <gtest/gtest.h>

#include <sstream>

#include "algorithms/meyer_sibeyn.hpp"
#include "algorithms/plain_adapter.hpp"
#include "algorithms/registry.hpp"
#include "core/checker.hpp"
#include "core/step_model.hpp"
#include "test_util.hpp"

namespace torx::sw {
namespace {

std::vector<PlainStep> collect(const std::function<void(const PlainStepSink&)>& gen) {
  std::vector<PlainStep> steps;
  gen([&](PlainStep&& s) { steps.push_back(std::move(s)); });
  return steps;
}

// Canonical form of a step for comparison: messages sorted, blocks sorted.
std::vector<std::tuple<int64_t, int64_t, int, std::vector<uint64_t>>> canon(const PlainStep& s) {
  std::vector<std::tuple<int64_t, int64_t, int, std::vector<uint64_t>>> v;
  for (const PlainMessage& m : s.messages) {
    auto b = m.blocks;
    std::sort(b.begin(), b.end());
    v.emplace_back(m.src, m.dst, m.route.start_dim, b);
  }
  std::sort(v.begin(), v.end());
  return v;
}

// Runs plain steps through the step model and the checker as an allgather with `pieces`.
CheckResult run_steps(const Topology& topo, int pieces, const std::vector<PlainStep>& steps, StepModelResult* out = nullptr) {
  StepModel m(topo, {});
  ScheduleHeader h;
  h.collective = Collective::kAllgather;
  h.dims = topo.radices();
  h.wrap = true;
  h.ports = PortModel::kAll;
  h.switching = Switching::kStoreAndForward;
  h.pieces = pieces;
  m.begin(h);
  const BlockSpace space(Collective::kAllgather, topo, pieces, 0);
  PlainStepAdapter adapter(topo, space, m, static_cast<int64_t>(steps.size()));
  for (PlainStep s : steps) adapter(std::move(s));
  m.end();
  if (out) *out = m.result();
  return check_delivery(m);
}

void expect_tables_reproduce(const std::string& algo, const std::vector<int>& dims) {
  const PlainTopology pt{dims, true};
  const GossipPlan plan = algo == "ms-hc" ? plan_ms_hc(pt) : plan_ms_one(pt);
  std::stringstream text;
  write_forwarding_table(text, plan.table);
  const ForwardingTable tab2 = read_forwarding_table(text);
  EXPECT_EQ(tab2.dims, dims);
  const auto generated = collect([&](const PlainStepSink& e) { algo == "ms-hc" ? generate_ms_hc(pt, e) : generate_ms_one(pt, e); });
  const auto derived = collect([&](const PlainStepSink& e) { schedule_from_tables(tab2, e); });
  ASSERT_EQ(generated.size(), derived.size()) << algo;
  for (size_t k = 0; k < generated.size(); ++k) ASSERT_EQ(canon(generated[k]), canon(derived[k])) << algo << " step " << k;
  StepModelResult r;
  const CheckResult c = run_steps(Topology(dims, true), tab2.pieces, derived, &r);
  EXPECT_TRUE(c.ok) << algo << ": missing " << c.missing << " duplicated " << c.duplicated;
  EXPECT_EQ(r.port_conflicts + r.link_conflicts, 0u);
  EXPECT_EQ(r.steps, plan.table.steps);
}

TEST(Gossip, TablesAloneReproduceTheSchedule) {
  for (const std::vector<int>& dims : {std::vector<int>{8, 8}, {6, 10}, {7, 8}, {8, 7}, {5, 9}, {7, 7}, {3, 3}, {4, 4, 4}, {3, 4, 5}})
    expect_tables_reproduce("ms-hc", dims);
  for (const std::vector<int>& dims : {std::vector<int>{8, 8}, {6, 9}, {9, 6}, {3, 3, 3}, {6, 6, 4}})
    expect_tables_reproduce("ms-one", dims);
}

TEST(Gossip, ADamagedTableIsCaught) {
  const PlainTopology pt{{8, 8}, true};
  GossipPlan plan = plan_ms_hc(pt);
  // Shorten one forwarding rule's age window by a step: its last packet is never forwarded.
  auto& rule = plan.table.rules[5].front();
  rule.last -= 1;
  const auto derived = collect([&](const PlainStepSink& e) { schedule_from_tables(plan.table, e); });
  const CheckResult c = run_steps(Topology({8, 8}, true), plan.table.pieces, derived);
  EXPECT_FALSE(c.ok);
  EXPECT_GT(c.missing, 0u);
  // Widening it instead sends one packet once more: a duplicate.
  GossipPlan wide = plan_ms_hc(pt);
  wide.table.rules[5].front().last += 1;
  const auto derived2 = collect([&](const PlainStepSink& e) { schedule_from_tables(wide.table, e); });
  EXPECT_GT(run_steps(Topology({8, 8}, true), wide.table.pieces, derived2).duplicated, 0u);
}

using testing::Outcome;
using testing::run_algo;

TEST(MsHc, StepCountsIn2D) {
  for (int n1 = 3; n1 <= 12; ++n1)
    for (int n2 = 3; n2 <= 12; ++n2) {
      const Topology topo({n1, n2}, true);
      const auto o = run_algo("ms-hc", topo);
      ASSERT_TRUE(o.c.ok) << topo.to_string();
      EXPECT_EQ(o.c.duplicated, 0u);
      EXPECT_EQ(o.r.port_conflicts + o.r.link_conflicts, 0u) << topo.to_string();
      const int64_t p = int64_t{n1} * n2;
      if (n1 % 2 == 0 && n2 % 2 == 0) {
        EXPECT_EQ(o.r.steps, p / 2) << topo.to_string();  // Theorem 1
      } else if (n1 % 2 == 1 && n2 % 2 == 1) {
        EXPECT_EQ(o.r.steps, (p - 1) / 2) << topo.to_string();  // Hamiltonian decomposition
      } else {
        // Section 2.2 with the re-packing step: at most the paper's n1 n2 / 2 + 1 + n_odd.
        EXPECT_LE(o.r.steps, ms_hc_formula_steps(plain_topology(topo))) << topo.to_string();
      }
    }
}

TEST(MsHc, HigherDimensions) {
  for (const std::vector<int>& dims : {std::vector<int>{3, 3, 3}, {4, 4, 4}, {3, 4, 5}, {5, 5, 5}, {3, 3, 3, 3}}) {
    const Topology topo(dims, true);
    const auto o = run_algo("ms-hc", topo);
    EXPECT_TRUE(o.c.ok) << topo.to_string();
    EXPECT_EQ(o.r.port_conflicts + o.r.link_conflicts, 0u);
    EXPECT_EQ(o.r.steps, topo.nodes() / 2) << topo.to_string();  // floor(P/2)
  }
}

TEST(MsOne, TwoDimensionsAndRods) {
  for (const std::vector<int>& dims : {std::vector<int>{4, 4}, {8, 8}, {6, 9}, {10, 7}, {16, 16}}) {
    const Topology topo(dims, true);
    const auto o = run_algo("ms-one", topo);
    EXPECT_TRUE(o.c.ok) << topo.to_string();
    EXPECT_EQ(o.r.port_conflicts + o.r.link_conflicts, 0u);
    // One side even plays n1: floor(n1 (n2 + 2) / 4) steps, at most Theorem 3.
    const int n1 = dims[0] % 2 == 0 ? dims[0] : dims[1], n2 = dims[0] % 2 == 0 ? dims[1] : dims[0];
    EXPECT_EQ(o.r.steps, n1 * (n2 + 2) / 4) << topo.to_string();
    EXPECT_LE(o.r.steps, ms_one_formula_steps(plain_topology(topo)));
  }
  for (const std::vector<int>& dims : {std::vector<int>{3, 3, 3}, {3, 6, 4}, {6, 6, 6}, {6, 12, 5}}) {
    const Topology topo(dims, true);
    const auto o = run_algo("ms-one", topo);
    EXPECT_TRUE(o.c.ok) << topo.to_string();
    EXPECT_EQ(o.r.port_conflicts + o.r.link_conflicts, 0u);
    const int64_t n1 = dims[0], n2 = dims[1], n3 = dims[2];
    EXPECT_EQ(o.r.steps, (n1 * n2 * n3 + 3 * n1 * n2) / 6) << topo.to_string();  // n1 n2 n3 / 6 + n1 n2 / 2
  }
  EXPECT_THROW(find_algorithm("ms-one")->check(Topology({7, 9}, true), {}), PreconditionError);
  EXPECT_THROW(find_algorithm("ms-one")->check(Topology({4, 6, 5}, true), {}), PreconditionError);
  EXPECT_THROW(find_algorithm("ms-hc")->check(Topology({8, 8}, false), {}), PreconditionError);
}

}  // namespace
}  // namespace torx::sw
