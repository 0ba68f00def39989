// The cycle formula of docs/cycle-model.md: on a contention-free schedule with a barrier at every
// step boundary, the cycle model takes exactly
//   sum over steps k of ( t_s + max over messages m of k of (F_m + h_m (L + P)) + 2 Lloc + P )
//   + (number of barriers) * (B - 1),      B = 2 H h + 2,
// i.e. the step model's t_s + F per step, plus the distance term h (L + P) the papers neglect, plus
// a constant 2 Lloc + P per step and the barrier latency. The test computes it independently from
// the schedule and checks it, cycle for cycle, for every registered algorithm whose small instance
// is contention-free, under default and non-default timing, and in every router organization with P
// replaced by the head's cycles in a router (docs/timing-contract.md, "Hop latency and one message":
// P + 1 lookahead, P + 3 classic).
#include <gtest/gtest.h>

#include <optional>
#include <set>
#include <string>

#include "model_test_util.hpp"

namespace torx::model {
namespace {

using sw::Topology;

std::optional<Topology> small_topology(const sw::Algorithm& a) {
  return testing::first_accepted(a, {
      {{16}, true}, {{9}, true}, {{8, 8}, true}, {{5, 5}, true}, {{4, 4}, true}, {{6, 4}, true}, {{4, 4}, false},
      {{4, 4, 4}, true}, {{8, 8, 8}, true}, {{2, 2, 2, 2}, true}});
}

uint64_t formula(const sw::Schedule& s, const Topology& topo, const CycleOptions& o, int tree_height) {
  const sw::NetworkParams& p = o.params;
  const sw::BlockSpace space(s.header.collective, topo, s.header.pieces, s.header.root);
  uint64_t total = 0;
  int barriers = 0;
  for (size_t k = 0; k < s.steps.size(); ++k) {
    const sw::Step& st = s.steps[k];
    if (k > 0) ++barriers;  // every boundary carries a barrier in this test
    uint64_t worst = 0;
    for (const sw::Message& m : st.messages) {
      const uint64_t bytes = sw::message_blocks(space, st, m) * o.cost.block_bytes;
      const uint64_t flits = std::max<uint64_t>(1, (bytes + o.cost.flit_bytes - 1) / o.cost.flit_bytes);
      const uint64_t hops = static_cast<uint64_t>(topo.route_hops(m.src, m.dst, m.route));
      worst = std::max(worst, flits + hops * (p.link_latency + sw::router_head_cycles(p)));
    }
    // An empty step between two barriers still costs the cycle in which nodes re-enter.
    total += st.messages.empty() ? 1 : o.cost.ts_cycles + worst + 2 * p.local_latency + sw::router_head_cycles(p);
  }
  const uint64_t B = 2 * static_cast<uint64_t>(tree_height) * p.barrier_hop_latency + 2;
  return total + barriers * (B - 1);
}

// The registered algorithms whose small instance (small_topology) is contention-free: each must be
// checked against the formula, so none can drop out of the set unnoticed. An algorithm that lands
// later, or becomes contention-free, joins this list deliberately.
const std::set<std::string> kContentionFree = {"ring",     "t1",       "c1",    "tseng-dd",    "t4",       "c64",
                                               "suh",      "tsay-wang", "dimak-a2", "dimak-a3", "ms-hc", "ms-hc-steps",
                                               "ms-hc-hd", "ms-one"};

void check_formula(CycleOptions o) {
  std::set<std::string> checked;
  const uint32_t block_bytes = o.cost.block_bytes;
  for (const sw::Algorithm& a : sw::algorithms()) {
    const std::optional<Topology> topo = small_topology(a);
    if (!topo) continue;
    o.cost.block_bytes = topo->nodes() <= 64 ? block_bytes : o.cost.flit_bytes;  // 512-node instances: 1-flit blocks
    sw::Schedule s = testing::generate(a.id, *topo);
    const testing::StepFigures step = testing::step_model(s, *topo, o);
    if (step.result.port_conflicts || step.result.link_conflicts) continue;  // not contention-free
    for (sw::Step& st : s.steps) st.sync = sw::SyncMark::kBarrier;
    SCOPED_TRACE(a.id + " on the " + topo->to_string());
    CycleNetwork net(s, *topo, o);
    net.run();
    const uint64_t cycles = net.stats().last_store;
    const uint64_t want = formula(s, *topo, o, build_barrier_tree(*topo).height);
    EXPECT_EQ(cycles, want);
    EXPECT_EQ(net.predicted_cycles(), want) << "the report's predicted_cycles uses the same formula";
    EXPECT_EQ(net.fabric().blocked_vc_cycles(), 0u) << "contention-free: no worm ever waits";
    EXPECT_TRUE(sw::check_delivery(net.memory()).ok);
    checked.insert(a.id);
  }
  EXPECT_EQ(checked, kContentionFree) << "the contention-free algorithms checked against the formula";
}

TEST(CycleFormula, ContentionFreeSchedulesWithBarriersDefaultTiming) {
  CycleOptions o;
  check_formula(o);
}

// Non-default timing: every latency and the block and flit sizes changed.
CycleOptions other_timing(CycleOptions o) {
  o.cost.ts_cycles = 7;
  o.cost.block_bytes = 40;
  o.cost.flit_bytes = 24;
  o.params.router_latency = 3;
  o.params.link_latency = 2;
  o.params.local_latency = 2;
  o.params.credit_latency = 2;
  o.params.barrier_hop_latency = 2;
  // >= L + P + Lc + 3: the credit loop never throttles a worm, in any organization. (L + P + Lc + 1
  // = 8 is the loop of a pipelined router; a classic head holds its slot for its RC and VA cycles
  // as well, and the flits behind it would wait upstream for credits: in blocked cycles, not in the
  // worm's arrival, since they cannot pass the head.)
  o.params.buffer_depth = 10;
  return o;
}

TEST(CycleFormula, ContentionFreeSchedulesWithBarriersOtherTiming) { check_formula(other_timing(CycleOptions{})); }

TEST(CycleFormula, ContentionFreeSchedulesInEveryOrganization) {
  for (const char* org : {"lookahead", "classic"}) {
    SCOPED_TRACE(org);
    CycleOptions o;
    sw::set_param(o.params, std::string("pipeline=") + org);
    check_formula(o);
    check_formula(other_timing(o));
  }
}

TEST(CycleFormula, DirectStepAloneMatchesThePerMessageTerm) {
  // One message of F flits over h links, t_s = 100: 100 + F + 3 h + 4 cycles with the defaults.
  const Topology ring({8}, true);
  const sw::Schedule s = testing::parse_schedule(testing::header("8") + "step\n0 -> 3 x+ | 0>3\nend\n", ring);
  CycleOptions o;
  o.cost.block_bytes = 160;  // 10 flits
  CycleNetwork net(s, ring, o);
  net.run();
  EXPECT_EQ(net.stats().last_store, 100u + 10 + 3 * 3 + 4);
}

// The same message in each organization: t_s + F + h (L + P + e) + 2 Lloc + P + e, e = 0, 1, 3; and
// with buffers one slot short of the credit loop (D = L + P + Lc for a pipelined router) the worm
// slows down (the loop is one cycle longer than the single router's).
TEST(CycleFormula, OneMessageInEachOrganization) {
  const Topology ring({8}, true);
  const sw::Schedule s = testing::parse_schedule(testing::header("8") + "step\n0 -> 3 x+ | 0>3\nend\n", ring);
  const struct {
    const char* org;
    uint64_t e;
  } cases[] = {{"single", 0}, {"lookahead", 1}, {"classic", 3}};
  for (const auto& c : cases) {
    SCOPED_TRACE(c.org);
    CycleOptions o;
    o.cost.block_bytes = 160;  // 10 flits
    sw::set_param(o.params, std::string("pipeline=") + c.org);
    CycleNetwork net(s, ring, o);
    net.run();
    EXPECT_EQ(net.stats().last_store, 100u + 10 + 3 * (3 + c.e) + 4 + c.e);
    EXPECT_EQ(net.predicted_cycles(), net.stats().last_store);
    o.params.buffer_depth = 4;  // L + P + Lc: enough for single only
    CycleNetwork shallow(s, ring, o);
    shallow.run();
    if (c.e == 0) EXPECT_EQ(shallow.stats().last_store, net.stats().last_store);
    else EXPECT_GT(shallow.stats().last_store, net.stats().last_store);
  }
}

}  // namespace
}  // namespace torx::model
