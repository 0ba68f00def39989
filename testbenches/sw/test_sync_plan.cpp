// Local synchronization derived from a schedule (core/sync_plan.hpp), against seed 000, Section
// 7.2. On the ring of 2^d nodes the derived signals of the positive tree are the seed's: after each
// v_{i+2^(l-1)} -> v_{i+2^l} of GP_{l-1}, v_{i+2^l} signals v_i (l = 1 .. d-2), and before
// v_{i+2^(l-1)} -> v_{i+2^l} of SP_{l-1} (l = d-2 .. 2) v_{i+2^(l-1)} waits for a signal about
// v_i -> v_{i+2^l} of SP_l: the seed has v_i send it, torx has the receiver v_{i+2^l} send it once
// the worm is stored (with dateline VC classes a null message from v_i can overtake the worm it is
// meant to follow: docs/sync-study.md). The remaining signals are the negative tree's mirror images,
// and pairs the seed's one-tree analysis cannot see: torx overlaps both trees on one-port nodes, so a
// node's ejection channel receives from the negative tree in one epoch and from the positive tree in
// a later one. Every pair is a real collision; the reduction keeps one signal per gate.
#include <gtest/gtest.h>

#include <set>
#include <tuple>

#include "core/sync_plan.hpp"
#include "test_util.hpp"

namespace torx::sw {
namespace {

struct Sig {
  NodeId from, to;
  std::string phase;  // label of the gated send's step
  NodeId gate_src, gate_dst;
  bool operator<(const Sig& o) const {
    return std::tie(from, to, phase, gate_src, gate_dst) < std::tie(o.from, o.to, o.phase, o.gate_src, o.gate_dst);
  }
  bool operator==(const Sig& o) const { return !(*this < o) && !(o < *this); }
};

Schedule ring_schedule(int n) {
  const Topology t({n}, true);
  Schedule s;
  const Algorithm* a = find_algorithm("ring");
  a->check(t, {});
  a->generate(t, {}, s);
  return s;
}

TEST(SyncPlan, RingSignalsAreTheSeedsUpToTheSignallerOfScatterPairsAndTheSecondTree) {
  for (int d = 4; d <= 8; ++d) {
    const int n = 1 << d;
    SCOPED_TRACE("ring of " + std::to_string(n));
    const Topology t({n}, true);
    const Schedule s = ring_schedule(n);
    const LocalSyncPlan plan = derive_local_sync(s, t, PortModel::kOne);
    EXPECT_EQ(plan.boundaries, static_cast<uint32_t>(2 * d - 5)) << "2d - 5 synchronizations, as the seed counts";
    EXPECT_TRUE(plan.local_waits.empty());
    auto mod = [n](int64_t v) { return static_cast<NodeId>(((v % n) + n) % n); };
    std::set<Sig> pos, neg;
    for (const SyncSignal& g : plan.signals) {
      const Message& m = s.steps[g.gate.step].messages[g.gate.index];
      (m.route.negative(0) ? neg : pos).insert({g.from, g.to, s.steps[g.gate.step].label, m.src, m.dst});
    }
    // The negative tree mirrors the positive one (v -> 1 - v).
    std::set<Sig> mirrored;
    for (const Sig& p : pos) mirrored.insert({mod(1 - p.from), mod(1 - p.to), p.phase, mod(1 - p.gate_src), mod(1 - p.gate_dst)});
    EXPECT_EQ(mirrored, neg);
    // The seed's pairs.
    std::set<Sig> seed;
    for (int l = 1; l <= d - 2; ++l)
      for (int i = 0; i < n; i += 1 << l)
        seed.insert({mod(i + (1 << l)), i, "GP" + std::to_string(l), i, mod(i + (1 << l))});
    for (int l = d - 2; l >= 2; --l)
      for (int i = 0; i < n; i += 1 << l)  // seed: v_i signals; torx: the receiver v_{i+2^l}
        seed.insert({mod(i + (1 << l)), mod(i + (1 << (l - 1))), "SP" + std::to_string(l - 1), mod(i + (1 << (l - 1))),
                     mod(i + (1 << l))});
    for (const Sig& x : seed) EXPECT_TRUE(pos.count(x)) << "seed pair " << x.from << " -> " << x.to << " before " << x.phase;
    // Everything else: an ejection channel that received from the negative tree in an earlier epoch.
    size_t extra = 0;
    for (const Sig& p : pos) {
      if (seed.count(p)) continue;
      ++extra;
      EXPECT_EQ(p.from, p.gate_dst) << "the gated worm ends where the signaller received";
      bool shared_ejection = false;
      for (const SyncPair& pr : plan.pairs) {
        const Message& m1 = s.steps[pr.m1.step].messages[pr.m1.index];
        const Message& m2 = s.steps[pr.m2.step].messages[pr.m2.index];
        shared_ejection |= m2.src == p.gate_src && m2.dst == p.gate_dst && m1.dst == m2.dst && m1.route.negative(0);
      }
      EXPECT_TRUE(shared_ejection) << p.from << " -> " << p.to << " before " << p.phase;
    }
    EXPECT_EQ(pos.size(), seed.size() + extra);
    EXPECT_GT(extra, 0u);
  }
}

TEST(SyncPlan, EveryPairCollidesAcrossABoundaryAndEveryGateIsCovered) {
  for (const char* algo : {"t4", "direct", "suh", "tsay-wang"}) {
    SCOPED_TRACE(algo);
    const Algorithm* a = find_algorithm(algo);
    const Topology t = std::string(algo) == "suh" ? Topology({4, 6}, false) : Topology({8, 8}, true);
    Schedule s;
    a->check(t, {});
    a->generate(t, {}, s);
    const PortModel ports = a->ports;
    const LocalSyncPlan plan = derive_local_sync(s, t, ports);
    std::vector<uint32_t> epoch(s.steps.size(), 0);
    for (size_t k = 1; k < s.steps.size(); ++k) epoch[k] = epoch[k - 1] + (s.steps[k].sync == SyncMark::kBarrier);
    ASSERT_FALSE(plan.pairs.empty());
    for (const SyncPair& p : plan.pairs) {
      const Message& m1 = s.steps[p.m1.step].messages[p.m1.index];
      const Message& m2 = s.steps[p.m2.step].messages[p.m2.index];
      EXPECT_LT(epoch[p.m1.step], epoch[p.m2.step]) << "a pair crosses a marked boundary";
      std::set<LinkId> l1;
      t.for_each_link(m1.src, m1.dst, m1.route, [&](LinkId l) { l1.insert(l); });
      bool shared = m1.dst == m2.dst;
      t.for_each_link(m2.src, m2.dst, m2.route, [&](LinkId l) { shared |= l1.count(l) > 0; });
      EXPECT_TRUE(shared) << "the two worms would share a link or the receiver";
      // Covered: a signal from m1's receiver (or a local wait) gates m2 or an earlier send of its node.
      bool covered = false;
      for (const SyncSignal& g : plan.signals)
        covered |= g.from == m1.dst && g.to == m2.src && g.boundary > p.m1.step && !(p.m2 < g.gate);
      for (const LocalWait& w : plan.local_waits)
        covered |= w.node == m1.dst && w.node == m2.src && w.boundary > p.m1.step && !(p.m2 < w.gate);
      EXPECT_TRUE(covered) << "pair " << m1.src << "->" << m1.dst << " / " << m2.src << "->" << m2.dst;
    }
    // Reduced: no two signals for the same pair of nodes and boundary.
    std::set<std::tuple<NodeId, NodeId, uint32_t>> seen;
    for (const SyncSignal& g : plan.signals) EXPECT_TRUE(seen.insert({g.from, g.to, g.boundary}).second);
  }
}

// Parses a one-port all-to-all schedule fragment on a ring of 8 (docs/schedule-format.md).
Schedule ring8_schedule(const std::string& steps) {
  const std::string path = testing::write_temp("reduce.sched", "torx-schedule 1\ncollective alltoall\ntopology 8 torus\n"
                                                                 "ports one\nswitching wormhole\n" + steps + "end\n");
  Schedule s;
  read_schedule(path, nullptr, s);
  return s;
}

// 0 -> 2 in step 0; after a boundary 7 -> 1 shares the link 0 -> 1 with it (node 2 signals node 7);
// after the next boundary 1 -> 2 shares the link 1 -> 2 and node 2's ejection channel with it (node
// 2 signals node 1). When 1 -> 2 forwards the block that 7 -> 1 brought, node 1 cannot issue it
// before 7 -> 1 was issued, which node 2's signal to node 7 already holds back: the signal to node 1
// is implied. When 1 -> 2 carries node 1's own block, nothing else orders it: both are needed.
TEST(SyncPlan, ASignalImpliedByAnotherSignalAndTheDataIsDropped) {
  const Topology t({8}, true);
  for (const bool forwards : {true, false}) {
    SCOPED_TRACE(forwards ? "1 -> 2 forwards 7's block" : "1 -> 2 carries its own block");
    const Schedule s = ring8_schedule(std::string("step\n0 -> 2 x+ | 0>2\nstep\n7 -> 1 x+ | 7>2\nstep\n1 -> 2 x+ | ") +
                                      (forwards ? "7>2" : "1>2") + "\n");
    const LocalSyncPlan plan = derive_local_sync(s, t, PortModel::kOne);
    ASSERT_EQ(plan.signals.size(), 2u);
    const SyncReduction red = reduce_local_sync(plan, s, t);
    EXPECT_EQ(red.data_orderings, forwards ? 1u : 0u);
    if (forwards) {
      ASSERT_EQ(red.implied.size(), 1u);
      EXPECT_EQ(red.implied[0].from, 2);
      EXPECT_EQ(red.implied[0].to, 1);
      ASSERT_EQ(red.kept.size(), 1u);
      EXPECT_EQ(red.kept[0].to, 7);
    } else {
      EXPECT_EQ(red.kept.size(), 2u);
      EXPECT_TRUE(red.implied.empty());
    }
  }
}

// The reduction's result holds up on its own: a plan of only the kept signals orders every pair and
// nothing in it is implied (irreducible); dropping any kept signal leaves a pair unordered, which
// the analysis refuses as a plan that does not synchronize (the planted fault). On rings every
// derived signal is needed, the extra ones too: 4n - 16 signals against the seed's 3n - 16.
TEST(SyncPlan, EveryRingSignalIsNeededAndAKeptSignalDroppedIsCaught) {
  auto check = [](const Schedule& s, const Topology& t, PortModel ports, size_t want_kept) {
    const LocalSyncPlan plan = derive_local_sync(s, t, ports);
    const SyncReduction red = reduce_local_sync(plan, s, t);
    EXPECT_EQ(red.kept.size() + red.implied.size(), plan.signals.size());
    if (want_kept) {
      EXPECT_EQ(red.kept.size(), want_kept);
    }
    LocalSyncPlan kept = plan;
    kept.signals = red.kept;
    const SyncReduction again = reduce_local_sync(kept, s, t);
    EXPECT_TRUE(again.implied.empty()) << "the kept set is irreducible";
    for (size_t i = 0; i < red.kept.size(); i += 1 + red.kept.size() / 7) {
      LocalSyncPlan fault = kept;
      fault.signals.erase(fault.signals.begin() + static_cast<std::ptrdiff_t>(i));
      EXPECT_THROW(reduce_local_sync(fault, s, t), std::logic_error) << "kept signal " << i << " dropped";
    }
  };
  for (int d = 4; d <= 7; ++d) {
    const int n = 1 << d;
    SCOPED_TRACE("ring of " + std::to_string(n));
    const Topology t({n}, true);
    check(ring_schedule(n), t, PortModel::kOne, static_cast<size_t>(4 * n - 16));
  }
  for (const char* algo : {"t4", "tsay-wang"}) {
    SCOPED_TRACE(algo);
    const Topology t({8, 8}, true);
    const Algorithm* a = find_algorithm(algo);
    Schedule s;
    a->check(t, {});
    a->generate(t, {}, s);
    check(s, t, a->ports, 0);
  }
}

}  // namespace
}  // namespace torx::sw