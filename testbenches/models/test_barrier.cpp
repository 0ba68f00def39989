// The barrier network (models/barrier.hpp): the host's spanning tree (heights, parents, child masks),
// image validation, and the fixed latency B = 2 H h + 2 from the last node's entry to every node's
// release, whichever node comes last (the equalisation pads). docs/cycle-model.md relies on B.
#include <gtest/gtest.h>

#include <memory>

#include "models/barrier.hpp"

namespace torx::model {
namespace {

using sw::Topology;

struct FakeNi : Clocked {
  TokenWire release;
  std::vector<uint64_t> released;
  void evaluate(uint64_t t, int) override {
    if (release.take(t)) released.push_back(t);
  }
  void update(uint64_t, int) override {}
  bool busy() const override { return false; }
};

struct BarrierBench {
  Topology topo;
  int hop;
  Scheduler sched;
  BarrierTree tree;
  std::vector<std::unique_ptr<BarrierUnit>> units;
  std::vector<std::unique_ptr<FakeNi>> nis;

  BarrierBench(Topology t, int h) : topo(std::move(t)), hop(h), tree(build_barrier_tree(topo)) {
    const sw::NodeId n = topo.nodes();
    for (sw::NodeId v = 0; v < n; ++v) {
      units.push_back(std::make_unique<BarrierUnit>(v, tree.images[v], topo));
      sched.add(units.back().get());
      nis.push_back(std::make_unique<FakeNi>());
      sched.add(nis.back().get());
    }
    for (sw::NodeId v = 0; v < n; ++v) {
      units[v]->configure_wires(&sched, hop);
      nis[v]->release.configure(1 + units[v]->pad() * hop, 1, &sched, nis[v]->clock_id());
    }
    for (sw::NodeId v = 0; v < n; ++v) {
      BarrierUnit& u = *units[v];
      TokenWire* parent = nullptr;
      if (!u.root()) {
        const sw::NodeId p = topo.neighbor(v, Topology::port_dim(u.parent_port()), Topology::port_dir(u.parent_port()));
        parent = &units[p]->gather_in();
      }
      std::vector<TokenWire*> kids;
      for (int q = 0; q < topo.ports(); ++q)
        if ((u.child_mask() >> q) & 1u)
          kids.push_back(&units[topo.neighbor(v, Topology::port_dim(q), Topology::port_dir(q))]->release_in());
      u.connect(parent, kids, &nis[v]->release);
    }
  }
  // Node v enters in cycle entry[v]; returns the release cycle of every node.
  std::vector<uint64_t> run(const std::vector<uint64_t>& entry) {
    uint64_t last = 0;
    for (uint64_t e : entry) last = std::max(last, e);
    for (uint64_t t = 0; t <= last + 4 * (tree.height + 2) * hop + 8; ++t) {
      for (size_t v = 0; v < entry.size(); ++v)
        if (entry[v] == t) units[v]->entry_in().send(t, 0);
      sched.step();
    }
    std::vector<uint64_t> rel;
    for (auto& ni : nis) {
      EXPECT_EQ(ni->released.size(), 1u);
      rel.push_back(ni->released.empty() ? 0 : ni->released.back());
    }
    return rel;
  }
};

TEST(BarrierTree, HeightParentsAndChildren) {
  for (const Topology& t : {Topology({16, 16}, true), Topology({5, 4, 3}, true), Topology({6, 5}, false),
                            Topology({2, 2}, true), Topology({7}, true)}) {
    const BarrierTree tree = build_barrier_tree(t);
    int want = 0;
    for (int d = 0; d < t.ndims(); ++d) want += t.radix(d) / 2;
    EXPECT_EQ(tree.height, want) << t.to_string();
    int roots = 0;
    for (sw::NodeId v = 0; v < t.nodes(); ++v) {
      BarrierUnit u(v, tree.images[v], t);
      if (u.root()) {
        ++roots;
        EXPECT_EQ(v, tree.root);
        continue;
      }
      const sw::NodeId p = t.neighbor(v, Topology::port_dim(u.parent_port()), Topology::port_dir(u.parent_port()));
      ASSERT_GE(p, 0);
      BarrierUnit pu(p, tree.images[p], t);
      EXPECT_EQ(pu.pad(), u.pad() + 1) << "the parent is one hop closer to the root";
      bool listed = false;
      for (int q = 0; q < t.ports(); ++q)
        if (((pu.child_mask() >> q) & 1u) && t.neighbor(p, Topology::port_dim(q), Topology::port_dir(q)) == v) listed = true;
      EXPECT_TRUE(listed) << "the parent's child mask names the child";
    }
    EXPECT_EQ(roots, 1);
  }
}

TEST(BarrierTree, ImagesAreValidated) {
  const Topology t({4, 4}, false);
  const BarrierTree tree = build_barrier_tree(t);
  BarrierImage bad = tree.images[0];
  bad[0] = 0;
  EXPECT_THROW(BarrierUnit(0, bad, t), sw::InputError);
  bad = tree.images[0];
  bad[1] |= 1u << 1;  // node (0,0) of a mesh has no -x neighbour
  EXPECT_THROW(BarrierUnit(0, bad, t), sw::InputError);
  bad = tree.images[0];
  bad[2] = (bad[2] & ~0xffu) | 9;
  EXPECT_THROW(BarrierUnit(0, bad, t), sw::InputError);
  bad = tree.images[0];
  bad[2] = (bad[2] & 0xffu) | (0xffffffu << 8);  // a pad no tree has (it would size wires to gigabytes)
  EXPECT_THROW(BarrierUnit(0, bad, t), sw::InputError);
}

TEST(Barrier, LatencyIsFixedWhoeverArrivesLast) {
  for (int hop : {1, 3}) {
    BarrierBench b(Topology({6, 5}, true), hop);
    const int B = 2 * b.tree.height * hop + 2;
    const sw::NodeId n = b.topo.nodes();
    // Each node in turn is the last to enter; every node must be released in last + B.
    for (sw::NodeId last : {sw::NodeId{0}, b.tree.root, n - 1, n / 2}) {
      BarrierBench run(Topology({6, 5}, true), hop);
      std::vector<uint64_t> entry(static_cast<size_t>(n));
      for (sw::NodeId v = 0; v < n; ++v) entry[v] = static_cast<uint64_t>(v % 3);
      entry[last] = 10;
      for (uint64_t r : run.run(entry)) EXPECT_EQ(r, 10u + B) << "hop " << hop << " last " << last;
    }
  }
}

TEST(Barrier, TwoEpisodesInARow) {
  BarrierBench b(Topology({4}, true), 1);
  const int B = 2 * b.tree.height + 2;
  std::vector<uint64_t> rel = b.run({0, 0, 0, 0});
  for (uint64_t r : rel) EXPECT_EQ(r, static_cast<uint64_t>(B));
  // Second episode on the same units (counters were reset by the release).
  const uint64_t t0 = b.sched.cycle();
  for (sw::NodeId v = 0; v < 4; ++v) b.units[v]->entry_in().send(t0 + static_cast<uint64_t>(v), 0);
  for (int i = 0; i < 3 * B + 10; ++i) b.sched.step();
  for (auto& ni : b.nis) {
    ASSERT_EQ(ni->released.size(), 2u);
    EXPECT_EQ(ni->released[1], t0 + 3 + B);
  }
}

}  // namespace
}  // namespace torx::model
