// NodeMemory, the DeliveryView over the network interfaces' memories: move semantics (one slot per
// block, an owner), copy semantics (a slot per block and node), arrival counting, and content checks
// that catch a flipped bit, a poisoned (never written) slot and blocks of odd sizes; the BlockSubset
// a rank's part indexes its blocks by (members and ranks against a count, at every word boundary); a
// rank's part of moved blocks, whose blocks at rest are their identity and a damaged bit: the same
// holders, arrivals and content verdicts as a whole memory through sends, relays, poisoned and
// corrupted stores and changes planted at rest, and payload only for the blocks moving.
#include <gtest/gtest.h>

#include <random>

#include "core/checker.hpp"
#include "models/node_memory.hpp"

namespace torx::model {
namespace {

using sw::BlockSpace;
using sw::Collective;
using sw::Topology;

TEST(NodeMemory, MovedBlocksStartAtTheirSourceIntact) {
  const Topology t({3}, true);
  const BlockSpace space(Collective::kAlltoall, t, 1, 0);
  NodeMemory mem(space, 12, 7);  // 12 bytes: one and a half words
  EXPECT_TRUE(mem.moves());
  const sw::BlockId b = space.alltoall_id(0, 2);
  EXPECT_EQ(mem.holder(b), 0);
  EXPECT_TRUE(mem.holds(b, 0));
  EXPECT_TRUE(mem.intact(b, 0));
  EXPECT_EQ(mem.arrivals(b, 2), 0u);
  EXPECT_EQ(mem.holder(space.alltoall_id(1, 1)), -1) << "the diagonal is not a block";
  const sw::CheckResult c = sw::check_delivery(mem);
  EXPECT_FALSE(c.ok);
  EXPECT_EQ(c.missing, 6u);
}

TEST(NodeMemory, MoveStoreAndContent) {
  const Topology t({3}, true);
  const BlockSpace space(Collective::kAlltoall, t, 1, 0);
  NodeMemory mem(space, 12, 7);
  const sw::BlockId b = space.alltoall_id(0, 2);
  uint8_t saved[12];
  std::memcpy(saved, mem.slot(b, 0), 12);
  mem.take(b);
  EXPECT_EQ(mem.holder(b), -1) << "in flight";
  std::memset(mem.slot(b, 0), NodeMemory::kPoison, 12);
  mem.stored(b, 2);
  EXPECT_EQ(mem.holder(b), 2);
  EXPECT_EQ(mem.arrivals(b, 2), 1u);
  EXPECT_FALSE(mem.intact(b, 2)) << "a never-written (poisoned) slot is not intact";
  std::memcpy(mem.slot(b, 2), saved, 12);
  EXPECT_TRUE(mem.intact(b, 2));
  mem.slot(b, 2)[11] ^= 0x80;  // the last byte of an odd-sized block counts
  EXPECT_FALSE(mem.intact(b, 2));
}

TEST(NodeMemory, CopiesPerNodeWithDuplicates) {
  const Topology t({4}, true);
  const BlockSpace space(Collective::kBroadcast, t, 2, 1);
  NodeMemory mem(space, 64, 3);
  EXPECT_FALSE(mem.moves());
  EXPECT_TRUE(mem.holds(0, 1));
  EXPECT_FALSE(mem.holds(0, 2));
  std::memcpy(mem.slot(0, 2), mem.slot(0, 1), 64);
  mem.stored(0, 2);
  EXPECT_TRUE(mem.holds(0, 2));
  EXPECT_TRUE(mem.intact(0, 2));
  EXPECT_TRUE(mem.holds(0, 1)) << "the source keeps its copy";
  mem.stored(0, 2);
  EXPECT_EQ(mem.arrivals(0, 2), 2u);
  const sw::CheckResult c = sw::check_delivery(mem);
  EXPECT_EQ(c.duplicated, 1u);
  EXPECT_EQ(c.delivered, 1u);
}

TEST(NodeMemory, SeedsChangeContentNotIdentity) {
  const Topology t({2}, true);
  const BlockSpace space(Collective::kAlltoall, t, 1, 0);
  NodeMemory a(space, 16, 1), b(space, 16, 2);
  const sw::BlockId id = space.alltoall_id(0, 1);
  EXPECT_NE(std::memcmp(a.slot(id, 0), b.slot(id, 0), 16), 0);
}

TEST(NodeMemory, ABlockSubsetRanksItsMembers) {
  // Universes around the 64-id words and 512-id counts, densities from empty to full.
  for (uint64_t u : {1u, 63u, 64u, 65u, 511u, 512u, 513u, 1000u, 4097u}) {
    for (int density : {0, 1, 50, 99, 100}) {
      std::mt19937_64 rng(u * 131 + static_cast<uint64_t>(density));
      BlockSubset set(u);
      std::vector<uint8_t> in(u, 0);
      for (uint64_t b = 0; b < u; ++b)
        if (static_cast<int>(rng() % 100) < density) {
          set.insert(b);
          in[b] = 1;
        }
      uint64_t count = 0;
      for (uint8_t x : in) count += x;
      ASSERT_EQ(set.seal(), count) << u << " ids, " << density << " %";
      uint64_t before = 0;
      for (uint64_t b = 0; b < u; ++b) {
        ASSERT_EQ(set.contains(b), in[b] != 0) << b << " of " << u;
        ASSERT_EQ(set.rank(b), before) << b << " of " << u << ", " << density << " %";
        before += in[b];
      }
    }
  }
}

// A rank's part of moved blocks keeps a block at rest as its identity (and whether it was stored as
// its content): every verdict must be a whole memory's, step by step, with bytes only while moving.
TEST(NodeMemory, ARanksMovedBlocksAtRestAreTheirIdentity) {
  const Topology t({4}, true);
  const BlockSpace space(Collective::kAlltoall, t, 1, 0);
  const uint32_t bb = 12;
  NodeMemory whole(space, bb, 7);
  BlockSubset need(space.universe());
  for (sw::BlockId b = 0; b < space.universe(); ++b) need.insert(b);
  need.seal();
  NodeMemory part(space, bb, 7, {1, 1, 0, 0}, need);  // nodes 0 and 1
  const auto same = [&](const char* when) {
    for (sw::BlockId b = 0; b < space.universe(); ++b) {
      if (!space.exists(b)) continue;
      for (sw::NodeId v = 0; v < 2; ++v) {
        ASSERT_EQ(part.holds(b, v), whole.holds(b, v)) << when << ": block " << b << " node " << v;
        ASSERT_EQ(part.arrivals(b, v), whole.arrivals(b, v)) << when << ": block " << b << " node " << v;
        if (whole.holds(b, v)) {
          ASSERT_EQ(part.intact(b, v), whole.intact(b, v)) << when << ": block " << b;
        }
      }
    }
  };
  // Send block b from node `from` to `to` flit by flit (4-byte flits), as the interfaces do:
  // take, pack (copy, poison behind), release; the receiver writes what arrives and stores it.
  const auto move = [&](NodeMemory& m, sw::BlockId b, sw::NodeId to, bool corrupt, bool skip_write) {
    m.take(b);
    uint8_t* src = m.slot(b, 0);
    for (uint32_t off = 0; off < bb; off += 4) {
      uint8_t flit[4];
      std::memcpy(flit, src + off, 4);
      std::memset(src + off, NodeMemory::kPoison, 4);
      if (corrupt && off == 0) flit[0] ^= 1;
      if (off + 4 == bb) m.release(b);
      if (!skip_write || off != 4) std::memcpy(m.slot_to_write(b, to) + off, flit, 4);
    }
    m.stored(b, to);
  };
  same("start");
  EXPECT_EQ(part.payload_peak_bytes(), 0u) << "nothing moved: no payload";
  const sw::BlockId a = space.alltoall_id(0, 1), c = space.alltoall_id(1, 0), d = space.alltoall_id(0, 3);
  for (NodeMemory* m : {&whole, &part}) move(*m, a, 1, false, false);  // 0 -> 1, intact
  same("a moved");
  EXPECT_TRUE(part.intact(a, 1));
  for (NodeMemory* m : {&whole, &part}) move(*m, c, 0, true, false);  // 1 -> 0, corrupted in flight
  same("c corrupted");
  EXPECT_FALSE(part.intact(c, 0));
  for (NodeMemory* m : {&whole, &part}) move(*m, c, 1, false, false);  // relayed back: still damaged
  same("c relayed");
  EXPECT_FALSE(part.intact(c, 1));
  for (NodeMemory* m : {&whole, &part}) move(*m, d, 1, false, true);  // a flit never written: poison
  same("d partly written");
  EXPECT_FALSE(part.intact(d, 1));
  EXPECT_LE(part.payload_peak_bytes(), 16u) << "one block moving at a time: one payload slot";
  // A change planted at rest, through slot(): seen as in a whole memory.
  const sw::BlockId e = space.alltoall_id(1, 2);
  for (NodeMemory* m : {&whole, &part}) m->slot(e, 1)[bb - 1] ^= 0x80;
  same("e planted");
  EXPECT_FALSE(part.intact(e, 1));
  for (NodeMemory* m : {&whole, &part}) m->take(space.alltoall_id(1, 3));  // lost in flight
  same("lost");
  EXPECT_EQ(sw::check_delivery(part).corrupted, sw::check_delivery(whole).corrupted);
  uint64_t missing_here = 0;  // the part checks the deliveries to its own nodes
  for (sw::BlockId b = 0; b < space.universe(); ++b)
    if (space.exists(b) && space.destination(b) < 2 && !whole.holds(b, space.destination(b))) ++missing_here;
  EXPECT_EQ(sw::check_delivery(part).missing, missing_here);
  EXPECT_EQ(sw::check_delivery(part).corrupted, 0u) << "c is not at its destination yet";
  for (NodeMemory* m : {&whole, &part}) move(*m, c, 0, false, false);  // delivered, damaged
  same("c delivered");
  EXPECT_EQ(sw::check_delivery(part).corrupted, 1u);
  EXPECT_EQ(sw::check_delivery(whole).corrupted, 1u);
}

}  // namespace
}  // namespace torx::model
