// Exact cycles beyond the default router and --sync barrier: the cycle counts of --sync local,
// software and priority, of 2 and 3 VCs per class, and of buffers shallower than the credit loop,
// each derived term by term from docs/timing-contract.md and checked cycle for cycle under several
// timings (so that a formula fitted to one point cannot pass by accident). A fault that shifts one
// of these paths by a cycle (a null message's startup, a pointer of the VC allocator, the throttle's
// reserve) changes the count.
//
// The terms, with P router_latency, L link_latency, Lc credit_latency, Lloc local_latency:
//   span(F, h)  = t_s + F + h (L + P) + 2 Lloc + P     one message of F flits over h links, from its
//                                                      issue to the end of the cycle its tail is stored
//   a hand-over = -1                                   the receiver acts (enters a barrier, sends a null
//                                                      message, issues a send) in the cycle the tail is
//                                                      stored, which is the span's last cycle
// so a chain of messages, each waiting for the one before, takes the sum of its spans minus one per
// hand-over; a null message is a one-flit message with startup null_ts.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "model_test_util.hpp"

namespace torx::model {
namespace {

using sw::SyncMode;
using sw::Topology;
using testing::header;
using testing::parse_schedule;

struct Timing {
  uint64_t ts;
  int64_t null_ts;  // -1: t_s
  int P, L, Lc, Lloc, D;
};

// The timings every formula below is checked under: the defaults, and others with longer links,
// pipelines and credit paths (buffers deep enough for the credit loop unless a test says otherwise).
const std::vector<Timing> kTimings = {
    {100, -1, 2, 1, 1, 1, 8},  // the defaults
    {5, 0, 2, 1, 1, 1, 8},     // a null message whose head leaves in its issue cycle
    {7, 3, 3, 2, 2, 2, 12},
    {0, 11, 1, 3, 1, 1, 8},
};

CycleOptions options(const Timing& t, SyncMode sync, uint32_t block_bytes) {
  CycleOptions o;
  o.sync = sync;
  o.cost.ts_cycles = t.ts;
  o.cost.block_bytes = block_bytes;
  o.params.null_ts = t.null_ts;
  o.params.router_latency = t.P;
  o.params.link_latency = t.L;
  o.params.credit_latency = t.Lc;
  o.params.local_latency = t.Lloc;
  o.params.buffer_depth = t.D;
  return o;
}

uint64_t span(const Timing& t, uint64_t ts, uint64_t flits, uint64_t hops) {
  return ts + flits + hops * (t.L + t.P) + 2 * t.Lloc + t.P;
}
uint64_t null_ts(const Timing& t) { return t.null_ts < 0 ? t.ts : static_cast<uint64_t>(t.null_ts); }

std::string describe(const Timing& t) {
  return "t_s " + std::to_string(t.ts) + ", null_ts " + std::to_string(t.null_ts) + ", P " + std::to_string(t.P) +
         ", L " + std::to_string(t.L) + ", Lc " + std::to_string(t.Lc) + ", Lloc " + std::to_string(t.Lloc) + ", D " +
         std::to_string(t.D);
}

struct Outcome {
  CycleResult r;
  bool clean;  // nothing duplicated, misdelivered or corrupted
};

Outcome run(const sw::Schedule& s, const Topology& topo, const CycleOptions& o) {
  CycleNetwork net(s, topo, o);
  net.run();
  const sw::CheckResult c = sw::check_delivery(net.memory());
  return {net.result(), c.duplicated + c.misdelivered + c.corrupted == 0};
}

// --sync local. Node 0 sends a 64-flit worm 0 -> 4 in step 0; after a marked boundary node 1 sends
// 1 -> 3, which shares links 1 -> 2 -> 3 with it (Sync.LocalAndSoftwareKeepApartThePhasesNoneLetsCollide).
// The plan's one signal is a null message from 4 to 1 (3 links, the short way round). So:
//   node 4 stores the tail in cycle span(64, 4) - 1 and issues the null message in that cycle;
//   node 1 receives it span_null(1 flit, 3 links) - 1 cycles later and issues 1 -> 3 in that cycle;
//   cycles = span(64, 4) + span_null(1, 3) + span(64, 2) - 2.
TEST(TimingModes, LocalSynchronizationCostsOneNullMessagePerHandOver) {
  const Topology ring({8}, true);
  const sw::Schedule s = parse_schedule(header("8") + "step\n0 -> 4 x+ | 0>4\nstep\n1 -> 3 x+ | 1>3\nend\n", ring);
  for (const Timing& t : kTimings) {
    SCOPED_TRACE(describe(t));
    const Outcome x = run(s, ring, options(t, SyncMode::kLocal, 1024));
    ASSERT_TRUE(x.clean);
    ASSERT_EQ(x.r.null_messages, 1u);
    EXPECT_EQ(x.r.null_flit_hops, 3u);
    const uint64_t s0 = span(t, t.ts, 64, 4), sn = span(t, null_ts(t), 1, 3), s1 = span(t, t.ts, 64, 2);
    EXPECT_EQ(x.r.step_start[0], 0);
    EXPECT_EQ(x.r.step_end[0], static_cast<int64_t>(s0));
    EXPECT_EQ(x.r.step_start[1], static_cast<int64_t>(s0 - 1 + sn - 1)) << "1 -> 3 issues as the signal is stored";
    EXPECT_EQ(x.r.cycles, s0 + sn + s1 - 2);
    EXPECT_EQ(x.r.blocked_cycles, 0u);
  }
}

// A chain of local signals through a whole ring schedule: ring 16 under --sync local against
// --sync barrier. Not a closed form (the ring's phases overlap), but the difference between a
// one-cycle-cheaper and a one-cycle-dearer null message is exact: every signal sits on a chain of
// hand-overs, so the run's length moves with null_ts cycle for cycle over this range.
TEST(TimingModes, LocalSynchronizationFollowsTheNullMessagesStartupCycleForCycle) {
  const Topology ring({16}, true);
  const sw::Schedule s = testing::generate("ring", ring);
  std::vector<uint64_t> cycles;
  for (int64_t nts : {20, 21, 22}) {
    Timing t = kTimings[0];
    t.null_ts = nts;
    const Outcome x = run(s, ring, options(t, SyncMode::kLocal, 64));
    ASSERT_TRUE(x.clean);
    cycles.push_back(x.r.cycles);
  }
  EXPECT_GT(cycles[1], cycles[0]);
  EXPECT_EQ(cycles[2] - cycles[1], cycles[1] - cycles[0]) << "a chain of signals: linear in null_ts";
}

// --sync software. Every node of a ring of N sends one block to its + neighbour in step 0 and to its -
// neighbour in step 1 (contention-free, one-port). All nodes store their step-0 block in the same
// cycle, span(F, 1) - 1, and enter the software barrier then: round r (r < ceil(lg N)) is a null
// message from i to i + 2^r over h_r = min(2^r, N - 2^r) links, and a node starts round r + 1 (and
// after the last round, its step-1 send) in the cycle the round-r message reaches it. All nodes move
// in lock step, so no two null messages meet. Hence
//   cycles = span(F, 1) + sum over r of (span_null(1, h_r) - 1) + span(F, 1) - 1.
TEST(TimingModes, SoftwareBarrierCostsItsRoundsOfNullMessages) {
  for (int n : {4, 6, 8, 16}) {
    const Topology ring({n}, true);
    std::string text = header(std::to_string(n)) + "step\n";
    for (int i = 0; i < n; ++i)
      text += std::to_string(i) + " -> " + std::to_string((i + 1) % n) + " x+ | " + std::to_string(i) + ">" +
              std::to_string((i + 1) % n) + "\n";
    text += "step\n";
    for (int i = 0; i < n; ++i)
      text += std::to_string(i) + " -> " + std::to_string((i + n - 1) % n) + " x- | " + std::to_string(i) + ">" +
              std::to_string((i + n - 1) % n) + "\n";
    const sw::Schedule s = parse_schedule(text + "end\n", ring);
    for (const Timing& t : kTimings) {
      SCOPED_TRACE("ring of " + std::to_string(n) + ", " + describe(t));
      const Outcome x = run(s, ring, options(t, SyncMode::kSoftware, 160));
      ASSERT_TRUE(x.clean);
      int rounds = 0;
      while ((1 << rounds) < n) ++rounds;
      uint64_t barrier = 0;
      for (int r = 0; r < rounds; ++r) barrier += span(t, null_ts(t), 1, std::min(1 << r, n - (1 << r))) - 1;
      const uint64_t step = span(t, t.ts, 10, 1);
      EXPECT_EQ(x.r.software_barriers, 1u);
      EXPECT_EQ(x.r.null_messages, static_cast<uint64_t>(rounds) * n);
      EXPECT_EQ(x.r.step_end[0], static_cast<int64_t>(step));
      EXPECT_EQ(x.r.step_start[1], static_cast<int64_t>(step - 1 + barrier));
      EXPECT_EQ(x.r.cycles, step + barrier + step - 1);
      EXPECT_EQ(x.r.blocked_cycles, 0u) << "the rounds move in lock step: no null message waits";
    }
  }
}

// Buffers shallower than the credit loop (docs/timing-contract.md, "Credit loop"). A slot freed in
// cycle t is refilled by a flit sent in t + Lc that can leave in t + Lc + L + P: on every link of the
// path (the injection link's loop is Lloc + P + Lc, the ejection link's Lloc + Lc) a VC streams D
// flits per W cycles, W the longest loop, once D < W. Flit k then leaves every hop
// floor(k / D) W + k mod D cycles after the head, and a message of F flits over h links takes
//   t_s + h (L + P) + 2 Lloc + P + 1 + floor((F - 1) / D) W + (F - 1) mod D      (D < W)
// cycles, which is span(F, h) when D >= W.
uint64_t shallow_span(const Timing& t, uint64_t flits, uint64_t hops) {
  const uint64_t w = std::max({t.Lloc + t.P + t.Lc, t.L + t.P + t.Lc, t.Lloc + t.Lc});
  const uint64_t d = static_cast<uint64_t>(t.D);
  const uint64_t tail = d >= w ? flits - 1 : (flits - 1) / d * w + (flits - 1) % d;
  return t.ts + hops * (t.L + t.P) + 2 * t.Lloc + t.P + 1 + tail;
}

TEST(TimingModes, ShallowBuffersStreamDFlitsPerCreditLoop) {
  const Topology ring({8}, true);
  const sw::Schedule s = parse_schedule(header("8") + "step\n0 -> 3 x+ | 0>3\nstep\n3 -> 7 x+ | 3>7\nend\n", ring);
  const std::vector<Timing> shallow = {
      {10, -1, 2, 1, 1, 1, 1}, {10, -1, 2, 1, 1, 1, 2}, {10, -1, 2, 1, 1, 1, 3}, {10, -1, 2, 1, 1, 1, 4},
      {3, -1, 3, 2, 2, 2, 5},  {3, -1, 1, 1, 3, 1, 2},  {0, -1, 2, 2, 1, 2, 3},
  };
  for (const Timing& t : shallow) {
    SCOPED_TRACE(describe(t));
    for (const uint32_t block_bytes : {16u, 160u, 1000u}) {
      const uint64_t flits = (block_bytes + 15) / 16;
      const Outcome x = run(s, ring, options(t, SyncMode::kBarrier, block_bytes));
      ASSERT_TRUE(x.clean);
      const uint64_t s0 = shallow_span(t, flits, 3), s1 = shallow_span(t, flits, 4);
      EXPECT_EQ(x.r.step_end[0], static_cast<int64_t>(s0)) << flits << " flits";
      const uint64_t B = 2 * build_barrier_tree(ring).height + 2;
      EXPECT_EQ(x.r.cycles, s0 + (B - 1) + s1) << flits << " flits";
    }
  }
}

// --sync priority: no barrier separates the steps; a step's sender waits only for the blocks it
// forwards. Step 0 sends 0 -> 2 (prio 1), step 1 forwards the block 2 -> 5 (prio 0): two priorities,
// so the routers run the two highest of K levels, K - 1 and K - 2, and the throttle keeps
// (K - 1 - q) r slots of every buffer out of reach of level q (docs/priority.md). The forwarded worm
// therefore streams as if the buffers had D - r slots, and
//   cycles = span(F, 2) + shallow_span with depth D - r (F, 3) - 1.
TEST(TimingModes, PriorityForwardingChainAndTheThrottlesReserve) {
  const Topology ring({8}, true);
  const sw::Schedule s =
      parse_schedule(header("8") + "step\n0 -> 2 x+ prio=1 | 0>5\nstep\n2 -> 5 x+ prio=0 | 0>5\nend\n", ring);
  struct Case {
    Timing t;
    int levels, reserve;
  };
  const std::vector<Case> cases = {
      {{10, -1, 2, 1, 1, 1, 8}, 4, 1},   // level K-2 keeps 7 slots: no throttling
      {{10, -1, 2, 1, 1, 1, 5}, 2, 2},   // 3 slots, below the loop of 4
      {{10, -1, 2, 1, 1, 1, 4}, 2, 2},   // 2 slots
      {{4, -1, 3, 2, 1, 2, 9}, 3, 4},    // 5 slots, below the loop of 6
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(describe(c.t) + ", K " + std::to_string(c.levels) + ", r " + std::to_string(c.reserve));
    CycleOptions o = options(c.t, SyncMode::kPriority, 480);
    o.params.priority_levels = c.levels;
    o.params.priority_reserve = c.reserve;
    const Outcome x = run(s, ring, o);
    ASSERT_TRUE(x.clean);
    EXPECT_EQ(x.r.priority_levels, static_cast<uint64_t>(c.levels));
    Timing low = c.t;
    low.D = c.t.D - c.reserve;  // level K - 2
    const uint64_t s0 = shallow_span(c.t, 30, 2), s1 = shallow_span(low, 30, 3);
    EXPECT_EQ(x.r.step_end[0], static_cast<int64_t>(s0));
    EXPECT_EQ(x.r.step_start[1], static_cast<int64_t>(s0 - 1)) << "the block is forwarded as it is stored";
    EXPECT_EQ(x.r.cycles, s0 + s1 - 1);
    EXPECT_EQ(x.r.preemptions, 0u);
  }
}

// 2 and 3 VCs per class: the VC allocator gives a head the first free VC of its class at or after
// the class's pointer, which then moves past it (docs/timing-contract.md, stage P step 3). On a ring
// of 8 (all worms in dateline class 1), node 4 keeps node 3's ejection channel busy with a long worm;
// worm A (0 -> 3, 12 flits) stalls behind it: 8 flits fill router 3's buffer, 4 (the tail among
// them) wait in router 2's, and A's tail has left router 1. Then worm B (1 -> 2, issued after node 1's
// 10-flit send to node 0) asks router 1 for +x in class 1. The class's pointer moved past A's VC, so
// B gets the next one, finds router 2's buffer of that VC empty and ejects at node 2 in its
// contention-free span. (A pointer that did not move would give B the VC A used, and B would wait
// in router 2 behind A's flits until node 3's ejection is free; with one VC per class B waits too.)
TEST(TimingModes, AHeadGetsTheNextVcOfItsClassAndPassesAStalledWorm) {
  const Topology ring({8}, true);
  const sw::Schedule s = parse_schedule(header("8") +
                                            "step\n4 -> 3 x- | 4>3 4>5 4>6 4>7 4>0 4>1 4>2\n"
                                            "0 -> 3 x+ | 0>3\n"
                                            "1 -> 0 x- | 1>0\n"
                                            "step sync=none\n1 -> 2 x+ | 1>2\nend\n",
                                        ring);
  // Blocks of 192 bytes (12 flits): the long worm carries 7 blocks (84 flits; six of them are not
  // node 3's, a fragment built for its length, so the run is judged by its cycles, not checked).
  for (const int v : {1, 2, 3}) {
    SCOPED_TRACE(std::to_string(v) + " VCs per class");
    Timing t = kTimings[0];
    t.ts = 10;
    CycleOptions o = options(t, SyncMode::kBarrier, 192);
    o.params.vcs_per_class = v;
    const Outcome x = run(s, ring, o);
    const int64_t b = x.r.step_end[1] - x.r.step_start[1];
    const int64_t free_span = static_cast<int64_t>(span(t, t.ts, 12, 1));
    if (v == 1) {
      EXPECT_GT(b, free_span + 50) << "one VC per class: B waits behind the stalled worm";
    } else {
      EXPECT_EQ(b, free_span) << "B passes the stalled worm on the class's next VC";
    }
  }
}

// The cycle formula of docs/cycle-model.md with 2 and 3 VCs per class: on contention-free schedules
// with a barrier at every boundary the VCs per class change nothing.
TEST(TimingModes, BarrierFormulaHoldsWithTwoAndThreeVcsPerClass) {
  for (const auto& [algo, dims] : {std::pair{"ring", std::vector<int>{16}}, std::pair{"t4", std::vector<int>{8, 8}},
                                   std::pair{"tsay-wang", std::vector<int>{7, 7}}}) {
    const Topology topo(dims, true);
    sw::Schedule s = testing::generate(algo, topo);
    for (sw::Step& st : s.steps) st.sync = sw::SyncMark::kBarrier;
    uint64_t base = 0;
    for (const int v : {1, 2, 3}) {
      SCOPED_TRACE(std::string(algo) + ", " + std::to_string(v) + " VCs per class");
      CycleOptions o;
      o.params.vcs_per_class = v;
      CycleNetwork net(s, topo, o);
      net.run();
      EXPECT_TRUE(sw::check_delivery(net.memory()).ok);
      EXPECT_EQ(net.result().cycles, net.predicted_cycles());
      if (v == 1) base = net.result().cycles;
      EXPECT_EQ(net.result().cycles, base);
    }
  }
}

}  // namespace
}  // namespace torx::model
