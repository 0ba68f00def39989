// Exact cycles beyond the default router and --sync barrier: the cycle counts of --sync local,
// software and priority, of 2 and 3 VCs per class, of buffers shallower than the credit loop, and of
// the schedules' own synchronization marks (a replay of every contention-free run), each derived
// term by term from docs/timing-contract.md and checked cycle for cycle under several timings (so
// that a formula fitted to one point cannot pass by accident). A fault that shifts one
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

#include <algorithm>
#include <optional>
#include <set>
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
  sw::CycleFigures r;
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

// A whole ring schedule (16 nodes) under --sync local. Not a closed form (the ring's phases overlap),
// but the run's length is set by a chain of hand-overs through the signals, so it moves with the
// null message's startup by the same number of cycles per cycle of null_ts over this range.
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

// The schedules' own marks (Step::sync): barriers only at the marked boundaries, the other steps
// overlapping as far as each node's program lets them. On a run in which no worm ever waits for
// another (zero blocked VC-cycles) the cycle count follows from the contract message by message,
// and this calculator, independent of the model, replays it:
//   a node issues its sends in program order; send m issues at the latest of: the previous send's
//   issue, its channel free (the cycle after the previous worm on it injected its tail: issue + t_s
//   + F), every block it carries held (a block is held from the cycle its last byte is stored), and
//   the release of a barrier before its step;
//   flit k of m is stored in cycle issue + t_s + 2 Lloc + P + h (L + P) + k (a block when its last
//   byte is), m is complete at the end of its tail's cycle;
//   a node enters the barrier before step k in the cycle it has issued every send of earlier steps,
//   one cycle after their tails were injected, and stored every receive of earlier steps; all are
//   released B = 2 H h + 2 cycles after the last entry.
struct Replay {
  uint64_t cycles = 0;
  std::vector<int64_t> step_end;
  uint64_t barriers = 0;
};

Replay replay_own_marks(const sw::Schedule& s, const Topology& topo, const CycleOptions& o, int tree_height) {
  const sw::NetworkParams& p = o.params;
  const sw::BlockSpace space(s.header.collective, topo, s.header.pieces, s.header.root);
  const bool moves = sw::moves_blocks(s.header.collective);
  const sw::NodeId n = topo.nodes();
  const uint64_t B = 2 * static_cast<uint64_t>(tree_height) * p.barrier_hop_latency + 2;
  const bool all_port = o.ports.value_or(s.header.ports) == sw::PortModel::kAll;
  // held[b] (moved blocks: one holder) or held[b * n + v] (copies): cycle from which it is held.
  constexpr int64_t kNever = INT64_MAX;
  std::vector<int64_t> held(moves ? space.universe() : space.universe() * static_cast<uint64_t>(n), kNever);
  for (sw::BlockId b = 0; b < space.universe(); ++b) {
    if (moves && !space.exists(b)) continue;
    if (moves) held[b] = 0;
    else held[b * static_cast<uint64_t>(n) + space.source(b)] = 0;
  }
  std::vector<sw::NodeId> holder(moves ? space.universe() : 0);
  for (sw::BlockId b = 0; moves && b < space.universe(); ++b) holder[b] = space.exists(b) ? space.source(b) : -1;
  std::vector<int64_t> last_issue(static_cast<size_t>(n), 0), sends_done(static_cast<size_t>(n), 0),
      stored(static_cast<size_t>(n), 0);
  std::vector<std::vector<int64_t>> chan_free(static_cast<size_t>(n), std::vector<int64_t>(64, 0));
  int64_t release = 0;
  Replay r;
  r.step_end.assign(s.steps.size(), -1);
  const uint64_t fb = o.cost.flit_bytes, bb = o.cost.block_bytes;
  for (size_t k = 0; k < s.steps.size(); ++k) {
    const sw::Step& st = s.steps[k];
    if (k > 0 && st.sync == sw::SyncMark::kBarrier) {
      int64_t last_entry = 0;
      for (sw::NodeId v = 0; v < n; ++v)
        last_entry = std::max({last_entry, sends_done[v], stored[v], release});
      release = last_entry + static_cast<int64_t>(B);
      ++r.barriers;
    }
    // Within a step, blocks received in it are not forwarded in it: issue every send, then store.
    struct Arrival {
      sw::NodeId dst;
      std::vector<sw::BlockId> blocks;
      int64_t first;  // cycle its head flit is stored
    };
    std::vector<Arrival> arrivals;
    for (const sw::Message& m : st.messages) {
      std::vector<sw::BlockId> blocks;
      for (uint32_t x = 0; x < m.box_count; ++x)
        space.for_each_block(st.box(m, x, space.arity()), [&](sw::BlockId b) { blocks.push_back(b); });
      int first_port = -1;
      int hops = 0;
      topo.for_each_link(m.src, m.dst, m.route, [&](sw::LinkId l) {
        if (first_port < 0) first_port = topo.link_port(l);
        ++hops;
      });
      const int ch = all_port ? first_port : 0;
      int64_t issue = std::max({last_issue[m.src], chan_free[m.src][ch], release});
      for (sw::BlockId b : blocks) issue = std::max(issue, moves ? held[b] : held[b * static_cast<uint64_t>(n) + m.src]);
      const uint64_t flits = std::max<uint64_t>(1, (blocks.size() * bb + fb - 1) / fb);
      last_issue[m.src] = issue;
      chan_free[m.src][ch] = issue + static_cast<int64_t>(o.cost.ts_cycles + flits);
      sends_done[m.src] = std::max(sends_done[m.src], chan_free[m.src][ch]);
      const int64_t head = issue + static_cast<int64_t>(o.cost.ts_cycles + 2 * p.local_latency + p.router_latency) +
                           hops * (p.link_latency + p.router_latency);
      const int64_t tail = head + static_cast<int64_t>(flits) - 1;
      stored[m.dst] = std::max(stored[m.dst], tail);
      r.step_end[k] = std::max(r.step_end[k], tail + 1);
      r.cycles = std::max<uint64_t>(r.cycles, static_cast<uint64_t>(tail + 1));
      if (moves)
        for (sw::BlockId b : blocks) held[b] = kNever;  // in flight
      arrivals.push_back({m.dst, std::move(blocks), head});
    }
    for (const Arrival& a : arrivals)
      for (size_t j = 0; j < a.blocks.size(); ++j) {
        const int64_t at = a.first + static_cast<int64_t>(((j + 1) * bb + fb - 1) / fb) - 1;
        int64_t& h = moves ? held[a.blocks[j]] : held[a.blocks[j] * static_cast<uint64_t>(n) + a.dst];
        h = moves ? at : std::min(h, at);
      }
  }
  return r;
}

// Every registered algorithm at a small size, with its own marks, under --sync barrier and --sync
// none: where the run is free of contention, the replay's cycles and step ends are the model's. The
// set of algorithms this covers is pinned, so none drops out unnoticed.
TEST(TimingModes, SchedulesOwnMarksReplayExactlyWhereNoWormWaits) {
  std::set<std::string> checked;
  for (const sw::Algorithm& a : sw::algorithms()) {
    const std::optional<Topology> topo = testing::first_accepted(
        a, {{{16}, true}, {{64}, true}, {{8, 8}, true}, {{4, 4}, true}, {{4, 4}, false}, {{4, 4, 4}, true},
            {{8, 8, 8}, true}, {{2, 2, 2, 2}, true}});
    if (!topo) continue;
    const sw::Schedule s = testing::generate(a.id, *topo);
    for (const SyncMode mode : {SyncMode::kBarrier, SyncMode::kNone}) {
      for (const Timing& t : {kTimings[0], kTimings[2]}) {
        CycleOptions o = options(t, mode, topo->nodes() <= 64 ? 48 : 16);
        CycleNetwork net(s, *topo, o);
        net.run();
        if (net.fabric().blocked_vc_cycles() != 0) continue;
        SCOPED_TRACE(a.id + " on the " + topo->to_string() + ", --sync " + std::string(sw::sync_mode_name(mode)) +
                     ", " + describe(t));
        sw::Schedule marks = s;
        if (mode == SyncMode::kNone)
          for (sw::Step& st : marks.steps) st.sync = sw::SyncMark::kNone;
        const Replay want = replay_own_marks(marks, *topo, o, build_barrier_tree(*topo).height);
        const sw::CycleFigures r = net.result();
        EXPECT_EQ(r.cycles, want.cycles);
        EXPECT_EQ(r.step_end, want.step_end);
        EXPECT_EQ(r.barriers, want.barriers);
        EXPECT_TRUE(sw::check_delivery(net.memory()).ok);
        checked.insert(a.id + (mode == SyncMode::kNone ? " none" : " barrier") + (t.ts == 100 ? "" : " (other timing)"));
      }
    }
  }
  const std::set<std::string> want = {
      "c1 barrier", "c1 barrier (other timing)", "c1 none", "c1 none (other timing)", "c64 barrier",
      "c64 barrier (other timing)", "dimak-a2 barrier", "dimak-a2 barrier (other timing)", "dimak-a2 none",
      "dimak-a2 none (other timing)", "dimak-a3 barrier", "dimak-a3 barrier (other timing)", "dimak-a3 none",
      "dimak-a3 none (other timing)", "direct barrier", "direct barrier (other timing)", "direct none",
      "ms-hc barrier", "ms-hc barrier (other timing)", "ms-hc none", "ms-hc none (other timing)", "ms-hc-hd barrier",
      "ms-hc-hd barrier (other timing)", "ms-hc-hd none", "ms-hc-hd none (other timing)", "ms-hc-steps barrier",
      "ms-hc-steps barrier (other timing)", "ms-hc-steps none", "ms-hc-steps none (other timing)", "ms-one barrier",
      "ms-one barrier (other timing)", "ms-one none", "ms-one none (other timing)", "ring barrier",
      "ring barrier (other timing)", "suh barrier", "suh barrier (other timing)", "suh none", "t4 barrier",
      "t4 barrier (other timing)", "t4 none", "tsay-wang barrier", "tsay-wang barrier (other timing)",
      "tsay-wang none", "tsay-wang none (other timing)", "tseng-dd barrier", "tseng-dd barrier (other timing)"};
  EXPECT_EQ(checked, want) << "the runs free of contention, each replayed exactly";
}

}  // namespace
}  // namespace torx::model
