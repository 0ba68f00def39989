// The pairs of local synchronization (core/sync_plan.hpp) are exactly those of its rule, recomputed
// here by brute force: for every message m2 and every resource it uses (each directed link of its
// route, and the receiver's ejection channel: the only one on one-port nodes, the arriving side's on
// all-port nodes), the messages that used the resource in the most recent earlier epoch that used it
// at all, except a worm from the same injection channel of the same node (it follows its
// predecessor). A node's worms on different channels of an all-port node are not exempt: no
// generator's schedule has such a pair, a hand-made one does and must get its signal.
#include <gtest/gtest.h>

#include <set>
#include <tuple>
#include <vector>

#include "core/sync_plan.hpp"
#include "test_util.hpp"

namespace torx::sw {
namespace {

using Ref = std::pair<uint32_t, uint32_t>;  // (step, index)

std::set<std::pair<Ref, Ref>> brute_force_pairs(const Schedule& s, const Topology& topo, PortModel ports) {
  std::vector<uint32_t> epoch(s.steps.size(), 0);
  for (size_t k = 1; k < s.steps.size(); ++k) epoch[k] = epoch[k - 1] + (s.steps[k].sync == SyncMark::kBarrier);
  struct Use {
    Ref ref;
    uint32_t epoch;
    NodeId src;
    int channel;
    std::vector<LinkId> resources;
  };
  std::vector<Use> uses;
  for (uint32_t k = 0; k < s.steps.size(); ++k)
    for (uint32_t i = 0; i < s.steps[k].messages.size(); ++i) {
      const Message& m = s.steps[k].messages[i];
      Use u{{k, i}, epoch[k], m.src, 0, {}};
      int first = -1, last = -1;
      topo.for_each_link(m.src, m.dst, m.route, [&](LinkId l) {
        u.resources.push_back(l);
        if (first < 0) first = topo.link_port(l);
        last = topo.link_port(l);
      });
      const bool all = ports == PortModel::kAll;
      u.channel = all ? first : 0;
      u.resources.push_back(topo.link_count() + static_cast<LinkId>(m.dst) * topo.ports() + (all ? (last ^ 1) : 0));
      uses.push_back(std::move(u));
    }
  std::set<std::pair<Ref, Ref>> out;
  for (const Use& m2 : uses)
    for (LinkId r : m2.resources) {
      // The most recent earlier epoch that used r.
      int64_t best = -1;
      for (const Use& m1 : uses)
        if (m1.epoch < m2.epoch && std::count(m1.resources.begin(), m1.resources.end(), r))
          best = std::max<int64_t>(best, m1.epoch);
      if (best < 0) continue;
      for (const Use& m1 : uses) {
        if (static_cast<int64_t>(m1.epoch) != best || !std::count(m1.resources.begin(), m1.resources.end(), r)) continue;
        if (m1.src == m2.src && m1.channel == m2.channel) continue;
        out.insert({m1.ref, m2.ref});
      }
    }
  return out;
}

TEST(SyncPlanPairs, ExactlyTheRulesPairsOnOnePortAndAllPortSchedules) {
  struct Case {
    std::string algo;
    Topology topo;
    bool same_node_pairs;  // pairs of one node's worms (on two channels of an all-port node)
  };
  const std::vector<Case> cases = {{"t4", Topology({8, 8}, true), false},
                                   {"direct", Topology({4, 4}, true), false},
                                   {"suh", Topology({4, 6}, false), false},
                                   {"tsay-wang", Topology({8, 8}, true), false}};
  for (const Case& c : cases) {
    SCOPED_TRACE(c.algo + " on the " + c.topo.to_string());
    const Algorithm* a = find_algorithm(c.algo);
    ASSERT_NE(a, nullptr);
    Schedule s;
    a->check(c.topo, {});
    a->generate(c.topo, {}, s);
    const LocalSyncPlan plan = derive_local_sync(s, c.topo, a->ports);
    std::set<std::pair<Ref, Ref>> got;
    size_t same_node = 0;
    for (const SyncPair& p : plan.pairs) {
      got.insert({{p.m1.step, p.m1.index}, {p.m2.step, p.m2.index}});
      same_node += s.steps[p.m1.step].messages[p.m1.index].src == s.steps[p.m2.step].messages[p.m2.index].src;
    }
    const auto want = brute_force_pairs(s, c.topo, a->ports);
    EXPECT_EQ(got.size(), plan.pairs.size()) << "no pair twice";
    EXPECT_EQ(got, want);
    EXPECT_FALSE(want.empty());
    EXPECT_EQ(same_node > 0, c.same_node_pairs) << same_node;
  }
}

// No generator's all-port schedule has them, so a hand-made one: node 0,0 of an all-port 4x4 torus
// sends to 1,1 through 0,1 (+y, then +x) and, after a boundary, through 0,3 and 0,2 (-y, then the
// same +x link from 0,1). The second worm leaves on another channel and can catch the first on that
// link and at 1,1's -x ejection channel: one pair, a signal from 1,1 to 0,0.
TEST(SyncPlanPairs, WormsOfOneAllPortNodeOnTwoChannelsArePaired) {
  const Topology t({4, 4}, true);
  const std::string path = testing::write_temp(
      "allport.sched", "torx-schedule 1\ncollective alltoall\ntopology 4x4 torus\nports all\nswitching wormhole\n"
                       "step\n0,0 -> 1,1 y+x+ | 0,0>1,1\nstep\n0,0 -> 1,1 y-x+ | 0,0>1,1\nend\n");
  Schedule s;
  read_schedule(path, &t, s);
  const LocalSyncPlan plan = derive_local_sync(s, t, PortModel::kAll);
  ASSERT_EQ(plan.pairs.size(), 1u);
  EXPECT_EQ(plan.pairs[0].m1.step, 0u);
  EXPECT_EQ(plan.pairs[0].m2.step, 1u);
  EXPECT_EQ(brute_force_pairs(s, t, PortModel::kAll).size(), 1u);
  ASSERT_EQ(plan.signals.size(), 1u);
  EXPECT_EQ(plan.signals[0].from, t.node({1, 1}));
  EXPECT_EQ(plan.signals[0].to, t.node({0, 0}));
  // On one-port nodes the second worm follows the first out of the one injection channel.
  EXPECT_TRUE(derive_local_sync(s, t, PortModel::kOne).pairs.empty());
}

}  // namespace
}  // namespace torx::sw
