// The schedules' own synchronization marks (Step::sync, and the priorities --sync priority uses)
// against the seed's phase structure (seed 000, Sections 3, 4 and 7) and against an independent
// collision analysis. Two worms of consecutive steps meet when they use a directed link in common or
// the same one-port receiver, unless the later one cannot start before the earlier has left: it
// leaves the same node (one-port: it follows the earlier worm's tail) or it forwards a block the
// earlier worm delivers to its sender (held only once that worm is stored). The tests check:
//   - no boundary marked sync=none lets two worms share a link, for every generator (a generator
//     that drops a needed mark lets phases collide; worms that meet only at a receiver are allowed
//     across the ring's self-synchronized boundaries: the later waits for the ejection channel);
//   - ring (n = 2^d): exactly the seed's 2d - 5 barriers (Section 7.1), before GP1 .. GP{d-2} and
//     SP{d-3} .. SP1, none before SP{d-2} and SP0; each marked boundary has a link collision;
//   - t1, c1, tseng-dd: the ring's marks inside each stage, a barrier before every stage;
//   - t4, c64 (Sections 3.2 and 4, Tables 1 and 2): a barrier before the first preparation phase of
//     each further dimension (only receivers meet there), none between the phases of one
//     dimension, a barrier before every stage (the logical tori swap links between stages: link
//     collisions), and the logical rings' marks inside a stage;
//   - every barrier of the seed-000 family separates worms that would meet;
//   - the other generators mark every boundary (they claim no self-synchronization);
//   - every generator gives a step's messages one priority, higher for earlier phases (Section 7.3).
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "test_util.hpp"

namespace torx::sw {
namespace {

Schedule generate(const std::string& algo, const Topology& t) {
  const Algorithm* a = find_algorithm(algo);
  Schedule s;
  a->check(t, {});
  a->generate(t, {}, s);
  return s;
}

// The blocks a message carries.
std::set<BlockId> blocks_of(const BlockSpace& space, const Step& st, const Message& m) {
  std::set<BlockId> out;
  for (uint32_t k = 0; k < m.box_count; ++k)
    space.for_each_block(st.box(m, k, space.arity()), [&](BlockId b) { out.insert(b); });
  return out;
}

struct Collision {
  uint32_t i1, i2;      // message indices in steps k - 1 and k
  std::string where;    // "link L" or "receiver N"
};

// The pairs (earlier worm, later worm) that can meet across boundary k (between steps k - 1 and k)
// when nothing separates the steps.
std::vector<Collision> collisions(const Schedule& s, const Topology& topo, size_t k) {
  const BlockSpace space(s.header.collective, topo, s.header.pieces, s.header.root);
  const Step& a = s.steps[k - 1];
  const Step& b = s.steps[k];
  std::map<LinkId, std::vector<uint32_t>> link_users;
  std::map<NodeId, std::vector<uint32_t>> receivers;
  for (uint32_t i = 0; i < a.messages.size(); ++i) {
    const Message& m = a.messages[i];
    topo.for_each_link(m.src, m.dst, m.route, [&](LinkId l) { link_users[l].push_back(i); });
    receivers[m.dst].push_back(i);
  }
  std::vector<std::set<BlockId>> delivered(a.messages.size());
  std::vector<bool> have(a.messages.size(), false);
  std::vector<Collision> out;
  for (uint32_t j = 0; j < b.messages.size(); ++j) {
    const Message& m2 = b.messages[j];
    std::set<BlockId> carried;
    bool carried_known = false;
    auto follows = [&](uint32_t i) {
      const Message& m1 = a.messages[i];
      if (m1.src == m2.src) return true;  // the same injection channel: it leaves after m1's tail
      if (m1.dst != m2.src) return false;
      if (!have[i]) {
        delivered[i] = blocks_of(space, a, m1);
        have[i] = true;
      }
      if (!carried_known) {
        carried = blocks_of(space, b, m2);
        carried_known = true;
      }
      for (BlockId x : carried)
        if (delivered[i].count(x)) return true;  // it forwards what m1 delivers
      return false;
    };
    std::set<uint32_t> seen;
    topo.for_each_link(m2.src, m2.dst, m2.route, [&](LinkId l) {
      auto it = link_users.find(l);
      if (it == link_users.end()) return;
      for (uint32_t i : it->second)
        if (seen.insert(i).second && !follows(i)) out.push_back({i, j, "link " + topo.link_name(l)});
    });
    if (s.header.ports == PortModel::kOne) {
      auto it = receivers.find(m2.dst);
      if (it != receivers.end())
        for (uint32_t i : it->second)
          if (seen.insert(i).second && !follows(i)) out.push_back({i, j, "receiver " + topo.node_name(m2.dst)});
    }
  }
  return out;
}

// Labels of the steps whose boundary (before them) carries a barrier mark.
std::vector<std::string> marked(const Schedule& s) {
  std::vector<std::string> out;
  for (size_t k = 1; k < s.steps.size(); ++k)
    if (s.steps[k].sync == SyncMark::kBarrier) out.push_back(s.steps[k].label);
  return out;
}

size_t link_collisions(const std::vector<Collision>& c) {
  return static_cast<size_t>(std::count_if(c.begin(), c.end(), [](const Collision& x) { return x.where[0] == 'l'; }));
}

// Section 7.1 on a ring of 2^d: barriers before GP1 .. GP{d-2} and before SP{d-3} .. SP1; the
// boundaries GP{d-2} -> SP{d-2} and SP1 -> SP0 are self-synchronized. `prefix` names the stage.
std::vector<std::string> seed_ring_marks(int d, const std::string& prefix) {
  std::vector<std::string> out;
  for (int l = 1; l <= d - 2; ++l) out.push_back(prefix + "GP" + std::to_string(l));
  for (int l = d - 3; l >= 1; --l) out.push_back(prefix + "SP" + std::to_string(l));
  return out;
}

struct Case {
  std::string algo;
  std::vector<int> dims;
  bool wrap = true;
};

// Every registered generator at sizes that exercise its structure (powers of two and not).
std::vector<Case> every_generator() {
  std::vector<Case> out = {{"ring", {8}},        {"ring", {16}},          {"ring", {64}},    {"ring", {12}},
                           {"ring", {9}},        {"t1", {8, 8}},          {"t1", {5, 6}},    {"t4", {8, 8}},
                           {"t4", {16, 16}},     {"t4", {12, 12}},        {"c1", {4, 4, 4}}, {"c1", {8, 4, 2}},
                           {"c64", {8, 8, 8}},   {"tseng-dd", {8, 4}},    {"tseng-dd", {6, 5, 2}}};
  const std::set<std::string> tseng = {"ring", "t1", "t4", "c1", "c64", "tseng-dd"};
  const std::vector<std::pair<std::vector<int>, bool>> sizes = {{{8, 8}, true},   {{6, 6}, true}, {{4, 6}, false},
                                                                {{7, 7}, true},   {{8}, true},    {{4, 4, 4}, true},
                                                                {{2, 2, 2, 2}, true}, {{6, 4}, false}};
  for (const Algorithm& a : algorithms()) {
    if (tseng.count(a.id)) continue;
    for (const auto& [dims, wrap] : sizes) {
      try {
        a.check(Topology(dims, wrap), {});
      } catch (const PreconditionError&) {
        continue;
      }
      out.push_back({a.id, dims, wrap});
      break;
    }
  }
  return out;
}

std::string name(const Case& c, const Topology& t) { return c.algo + " on the " + t.to_string(); }

TEST(SyncMarks, RingBarriersAreTheSeedsTwoDMinusFive) {
  for (int d = 3; d <= 8; ++d) {
    const Topology t({1 << d}, true);
    SCOPED_TRACE("ring of " + std::to_string(1 << d));
    const Schedule s = generate("ring", t);
    ASSERT_EQ(s.steps.size(), static_cast<size_t>(2 * d - 2));
    EXPECT_EQ(marked(s), seed_ring_marks(d, ""));
    EXPECT_EQ(marked(s).size(), static_cast<size_t>(2 * d - 5)) << "Section 7.1: 2d - 5 global barriers";
    // Why: each marked boundary has a later worm that would share a directed link with an earlier
    // one it does not follow; the two self-synchronized ones have none.
    for (size_t k = 1; k < s.steps.size(); ++k) {
      const size_t links = link_collisions(collisions(s, t, k));
      if (s.steps[k].sync == SyncMark::kBarrier) {
        EXPECT_GT(links, 0u) << s.steps[k].label;
      } else {
        EXPECT_EQ(links, 0u) << s.steps[k].label;
      }
    }
  }
}

// No boundary marked sync=none lets a later worm share a directed link with an earlier worm it does
// not follow: dropping a needed barrier (a generator that forgets a mark) is caught here for every
// generator. (Worms that meet only at a receiver are allowed across the ring's self-synchronized
// boundaries: the later one waits for the ejection channel and holds no link another worm of the
// earlier step needs; the seed's one-tree analysis, Section 7.1, does not see them, docs/sync-study.md.)
TEST(SyncMarks, NoUnmarkedBoundaryLetsTwoWormsShareALink) {
  for (const Case& c : every_generator()) {
    const Topology t(c.dims, c.wrap);
    SCOPED_TRACE(name(c, t));
    const Schedule s = generate(c.algo, t);
    for (size_t k = 1; k < s.steps.size(); ++k) {
      if (s.steps[k].sync == SyncMark::kBarrier) continue;
      const std::vector<Collision> col = collisions(s, t, k);
      EXPECT_EQ(link_collisions(col), 0u) << "boundary before " << s.steps[k].label << " (step " << k << ") is marked "
                                          << "none, but worms meet: " << (col.empty() ? "" : col[0].where);
    }
  }
}

// Every marked boundary of the self-synchronizing generators separates worms that would meet (on a
// link or at a receiver): no barrier is spent where nothing could collide.
TEST(SyncMarks, EveryBarrierOfTheTsengFamilySeparatesWormsThatWouldMeet) {
  for (const Case& c : every_generator()) {
    if (!std::set<std::string>{"ring", "t1", "t4", "c1", "c64", "tseng-dd"}.count(c.algo)) continue;
    const Topology t(c.dims, c.wrap);
    SCOPED_TRACE(name(c, t));
    const Schedule s = generate(c.algo, t);
    for (size_t k = 1; k < s.steps.size(); ++k) {
      if (s.steps[k].sync != SyncMark::kBarrier) continue;
      EXPECT_FALSE(collisions(s, t, k).empty()) << "barrier before " << s.steps[k].label << " separates nothing";
    }
  }
}

// T4 (Section 3.2, Table 1) and C64 (Section 4, Table 2) on n = 2^d: the preparation phases of one
// dimension follow each other without a barrier (a node's phase-ph send uses the link and the
// receiver its phase-(ph-1) send used, and forwards what it received then); the first preparation
// phase of the next dimension needs one (its worms arrive at nodes still receiving the previous
// dimension's: one-port receivers); every stage starts after a barrier, because the logical tori
// swap links from one stage to the next (in T4's stage 1 the x-links of even rows are P00's and the
// y-links of even columns P01's; in stage 2 P00 uses those y-links), and inside a stage the logical
// rings of n/g nodes keep the ring's 2 lg(n/g) - 5 barriers.
TEST(SyncMarks, PartitionedSchemesMarkEachStageAndEachDimensionsFirstPreparationPhase) {
  struct P {
    std::string algo;
    int d, nd, g, stages;
  };
  for (const P& p : {P{"t4", 3, 2, 2, 2}, P{"t4", 4, 2, 2, 2}, P{"t4", 5, 2, 2, 2}, P{"c64", 3, 3, 4, 4},
                     P{"c64", 4, 3, 4, 4}}) {
    const Topology t(std::vector<int>(static_cast<size_t>(p.nd), 1 << p.d), true);
    SCOPED_TRACE(p.algo + " on the " + t.to_string());
    const Schedule s = generate(p.algo, t);
    std::vector<std::string> want;
    for (int dim = 1; dim < p.nd; ++dim) want.push_back("prep-" + Topology::dim_name(dim) + "1");
    const int ring = p.d - (p.g == 2 ? 1 : 2);  // the logical rings have 2^ring nodes
    for (int st = 1; st <= p.stages; ++st) {
      const std::string prefix = "S" + std::to_string(st) + ".";
      want.push_back(prefix + "GP0");
      for (const std::string& m : seed_ring_marks(ring, prefix)) want.push_back(m);
    }
    EXPECT_EQ(marked(s), want);
    // Why, boundary by boundary.
    for (size_t k = 1; k < s.steps.size(); ++k) {
      const std::string& label = s.steps[k].label;
      const std::vector<Collision> col = collisions(s, t, k);
      if (label.rfind("prep-", 0) == 0) {
        EXPECT_EQ(link_collisions(col), 0u) << label << ": the dimensions' preparation phases share no link";
        EXPECT_EQ(col.empty(), s.steps[k].sync == SyncMark::kNone) << label << ": receivers meet exactly where marked";
      } else if (label.size() > 4 && label.compare(label.size() - 4, 4, ".GP0") == 0) {
        EXPECT_GT(link_collisions(col), 0u) << label << ": the logical tori change links at a stage";
      }
    }
  }
}

// T1, C1 and tseng-dd (Sections 3.1, 4, 5): a dimension's stage is the ring exchange with the ring's
// marks, and the next dimension's stage starts after a barrier (its worms arrive at nodes still
// receiving the previous stage's last phase).
TEST(SyncMarks, DimensionByDimensionSchemesMarkEveryStage) {
  for (const auto& [algo, dims] : std::vector<std::pair<std::string, std::vector<int>>>{
           {"t1", {16, 16}}, {"t1", {8, 32}}, {"c1", {8, 8, 8}}, {"tseng-dd", {16, 8, 4, 2}}}) {
    const Topology t(dims, true);
    SCOPED_TRACE(algo + " on the " + t.to_string());
    const Schedule s = generate(algo, t);
    std::vector<std::string> want;
    for (int dim = 0; dim < t.ndims(); ++dim) {
      const std::string prefix = Topology::dim_name(dim) + ".";
      if (dim > 0) want.push_back(prefix + "GP0");
      int d = 0;
      while ((1 << d) < t.radix(dim)) ++d;
      for (const std::string& m : seed_ring_marks(d, prefix)) want.push_back(m);
    }
    EXPECT_EQ(marked(s), want);
  }
}

// The generators outside seed 000's family claim no self-synchronized boundary: every boundary
// carries a barrier mark.
TEST(SyncMarks, OtherGeneratorsMarkEveryBoundary) {
  int checked = 0;
  for (const Case& c : every_generator()) {
    if (std::set<std::string>{"ring", "t1", "t4", "c1", "c64", "tseng-dd"}.count(c.algo)) continue;
    const Topology t(c.dims, c.wrap);
    SCOPED_TRACE(name(c, t));
    const Schedule s = generate(c.algo, t);
    for (size_t k = 1; k < s.steps.size(); ++k) EXPECT_EQ(s.steps[k].sync, SyncMark::kBarrier) << s.steps[k].label;
    ++checked;
  }
  EXPECT_GE(checked, 8);
}

// --sync priority's marks (seed 000, Section 7.3): every generator gives all messages of a step one
// priority and an earlier phase a higher one than a later phase (clamped at 0 past 256 steps).
TEST(SyncMarks, EarlierPhasesCarryHigherPriorities) {
  for (const Case& c : every_generator()) {
    const Topology t(c.dims, c.wrap);
    SCOPED_TRACE(name(c, t));
    const Schedule s = generate(c.algo, t);
    int prev = 256;
    for (size_t k = 0; k < s.steps.size(); ++k) {
      if (s.steps[k].messages.empty()) continue;
      const int p = s.steps[k].messages[0].priority;
      for (const Message& m : s.steps[k].messages) EXPECT_EQ(m.priority, p) << "step " << k;
      EXPECT_TRUE(p < prev || p == 0) << "step " << k << " (" << s.steps[k].label << "): priority " << p << " after "
                                      << prev;
      prev = p;
    }
    EXPECT_EQ(prev, 0) << "the last phase has the lowest priority";
  }
}

}  // namespace
}  // namespace torx::sw
