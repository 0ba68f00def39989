// SPDX-License-Identifier: Apache-2.0
// The Verilated barrier unit (torx_barrier) through BarrierCore: it decodes the image as the C++
// BarrierUnit does and refuses the same damaged images; one unit gathers its node's entry and its
// children and pulses its parent (or releases, at the root) in the cycle the last pulse arrives; and
// a whole tree of units, wired with the hop latencies and pads of docs/timing-contract.md, releases
// every interface exactly B = 2 H h + 2 cycles after the last node entered.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <regex>

#include "hw/rtl_router.hpp"
#include "models/barrier.hpp"

namespace torx::rtl {
namespace {

TEST(RtlBarrier, DecodesImagesAsTheCppUnit) {
  for (const auto& topo : {sw::Topology({3, 3}, true), sw::Topology({4, 3}, false), sw::Topology({5}, true),
                           sw::Topology({3, 2, 3}, true)}) {
    const model::BarrierTree tree = model::build_barrier_tree(topo);
    for (sw::NodeId v = 0; v < topo.nodes(); ++v) {
      SCOPED_TRACE(topo.to_string() + " node " + topo.node_name(v));
      const model::BarrierUnit cpp(v, tree.images[static_cast<size_t>(v)], topo);
      auto rtl = make_rtl_barrier(topo, v, tree.images[static_cast<size_t>(v)]);
      EXPECT_EQ(rtl->child_mask(), cpp.child_mask());
      EXPECT_EQ(rtl->parent_port(), cpp.parent_port());
      EXPECT_EQ(rtl->pad(), cpp.pad());
      EXPECT_EQ(rtl->gathered(), 0u);
    }
  }
}

long word_of(const std::string& what) {
  std::smatch m;
  if (!std::regex_search(what, m, std::regex("word ([0-9]+)"))) return -1;
  return std::stol(m[1]);
}

TEST(RtlBarrier, DamagedImagesAreRefusedAtTheSameWord) {
  const sw::Topology topo({3, 3}, true);
  const model::BarrierTree tree = model::build_barrier_tree(topo);
  const model::BarrierImage good = tree.images[4];  // the root
  std::vector<model::BarrierImage> bad;
  bad.push_back(good);
  bad.back()[0] ^= 0x100;  // magic
  bad.push_back(good);
  bad.back()[1] |= 1u << 4;  // a child behind port 4: a 2D unit has ports 0..3
  bad.push_back(good);
  bad.back()[2] = (bad.back()[2] & ~0xffu) | 4;  // parent port 4
  bad.push_back({good[0], good[1]});             // two words
  bad.push_back(good);
  bad.back().push_back(0);  // four words
  for (const auto& img : bad) {
    std::string cpp_msg, rtl_msg;
    try {
      model::BarrierUnit u(4, img, topo);
    } catch (const sw::InputError& e) {
      cpp_msg = e.what();
    }
    try {
      make_rtl_barrier(topo, 4, img);
    } catch (const sw::InputError& e) {
      rtl_msg = e.what();
    }
    ASSERT_FALSE(cpp_msg.empty());
    ASSERT_FALSE(rtl_msg.empty());
    EXPECT_EQ(word_of(rtl_msg), word_of(cpp_msg)) << cpp_msg << " / " << rtl_msg;
  }
}

// One unit with children behind ports 0 and 2 (expects 3 pulses: its entry and two children).
TEST(RtlBarrier, GathersThenPulsesItsParent) {
  const sw::Topology topo({3, 3}, true);
  const model::BarrierImage img = {model::kBarrierMagic, 0b0101, 3u | (2u << 8)};  // parent behind -y, pad 2
  auto u = make_rtl_barrier(topo, 1, img);
  model::BarrierWiresIn in;
  model::BarrierWiresOut out;
  auto cycle = [&](uint64_t t, bool entry, uint32_t gather, bool release) {
    in.entry = entry;
    in.gather_mask = gather;
    in.release = release;
    u->cycle(t, in, out);
  };
  cycle(0, true, 0, false);
  EXPECT_EQ(u->gathered(), 1u);
  EXPECT_FALSE(out.gather);
  cycle(1, false, 0b0010, false);  // port 1 is no child: not counted
  EXPECT_EQ(u->gathered(), 1u);
  cycle(2, false, 0b0001, false);
  EXPECT_EQ(u->gathered(), 2u);
  EXPECT_FALSE(out.gather);
  cycle(3, false, 0b0100, false);  // the last: complete in cycle 3, the parent's pulse from its end
  EXPECT_EQ(u->gathered(), 0u);
  EXPECT_TRUE(out.gather);
  EXPECT_FALSE(out.release);
  cycle(4, false, 0, false);
  EXPECT_FALSE(out.gather);
  cycle(5, false, 0, true);  // the parent's release: forwarded from the end of the same cycle
  EXPECT_TRUE(out.release);
  cycle(6, false, 0, false);
  EXPECT_FALSE(out.release);
  // Two children completing in one cycle count twice.
  cycle(7, false, 0b0101, false);
  EXPECT_EQ(u->gathered(), 2u);
  cycle(8, true, 0, false);
  EXPECT_TRUE(out.gather);
}

TEST(RtlBarrier, RootReleasesWhenComplete) {
  const sw::Topology topo({3}, true);
  const model::BarrierTree tree = model::build_barrier_tree(topo);
  auto root = make_rtl_barrier(topo, tree.root, tree.images[static_cast<size_t>(tree.root)]);
  ASSERT_EQ(root->parent_port(), -1);
  model::BarrierWiresIn in;
  model::BarrierWiresOut out;
  in.gather_mask = root->child_mask();
  root->cycle(0, in, out);
  EXPECT_FALSE(out.release);
  in = {};
  in.entry = true;
  root->cycle(1, in, out);
  EXPECT_TRUE(out.release);
  EXPECT_FALSE(out.gather);
}

// A whole tree: the wires between units (gather and release h cycles, the interface's entry and
// release wires 1 + pad h) are the network's, modelled here; each unit's outputs are registers, so a
// pulse pushed in cycle t is at the far end of a wire of latency l in cycle t + l.
void run_tree(const sw::Topology& topo, int h, uint32_t seed) {
  const model::BarrierTree tree = model::build_barrier_tree(topo);
  const int n = topo.nodes();
  std::vector<std::unique_ptr<RtlBarrier>> units;
  for (sw::NodeId v = 0; v < n; ++v) units.push_back(make_rtl_barrier(topo, v, tree.images[static_cast<size_t>(v)]));
  const int B = 2 * tree.height * h + 2;
  std::mt19937 rng(seed);
  const int horizon = 200 + 4 * B;
  // Events at the far ends of wires: cycle -> pulses.
  std::vector<std::vector<model::BarrierWiresIn>> in(static_cast<size_t>(horizon + 4 * B),
                                                     std::vector<model::BarrierWiresIn>(static_cast<size_t>(n)));
  std::vector<std::vector<int>> ni_release(static_cast<size_t>(n));
  for (int episode = 0; episode < 2; ++episode) {
    const int base = episode * (100 + 2 * B);
    int last = 0;
    for (sw::NodeId v = 0; v < n; ++v) {
      const int t = base + static_cast<int>(rng() % 40);  // the interface pushes its entry in cycle t
      last = std::max(last, t);
      in[static_cast<size_t>(t + 1 + units[static_cast<size_t>(v)]->pad() * h)][static_cast<size_t>(v)].entry = true;
    }
    for (int t = base; t < base + 100 + 2 * B; ++t) {
      for (sw::NodeId v = 0; v < n; ++v) {
        model::BarrierWiresOut out;
        RtlBarrier& u = *units[static_cast<size_t>(v)];
        u.cycle(static_cast<uint64_t>(t), in[static_cast<size_t>(t)][static_cast<size_t>(v)], out);
        if (out.gather) {
          const int p = u.parent_port();
          const sw::NodeId parent = topo.neighbor(v, sw::Topology::port_dim(p), sw::Topology::port_dir(p));
          in[static_cast<size_t>(t + h)][static_cast<size_t>(parent)].gather_mask |= 1u << (p ^ 1);
        }
        if (out.release) {
          for (int p = 0; p < topo.ports(); ++p) {
            if (!((u.child_mask() >> p) & 1u)) continue;
            const sw::NodeId child = topo.neighbor(v, sw::Topology::port_dim(p), sw::Topology::port_dir(p));
            in[static_cast<size_t>(t + h)][static_cast<size_t>(child)].release = true;
          }
          ni_release[static_cast<size_t>(v)].push_back(t + 1 + u.pad() * h);
        }
      }
    }
    for (sw::NodeId v = 0; v < n; ++v) {
      ASSERT_EQ(ni_release[static_cast<size_t>(v)].size(), static_cast<size_t>(episode + 1)) << topo.node_name(v);
      EXPECT_EQ(ni_release[static_cast<size_t>(v)].back(), last + B) << topo.node_name(v);
      EXPECT_EQ(units[static_cast<size_t>(v)]->gathered(), 0u);
    }
  }
}

TEST(RtlBarrier, TreeReleasesEveryInterfaceBCyclesAfterTheLastEntry) {
  run_tree(sw::Topology({4, 4}, true), 1, 1);
  run_tree(sw::Topology({5, 3}, false), 2, 2);
  run_tree(sw::Topology({3, 3, 3}, true), 1, 3);
  run_tree(sw::Topology({7}, true), 3, 4);
}

}  // namespace
}  // namespace torx::rtl
