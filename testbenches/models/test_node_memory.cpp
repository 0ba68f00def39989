// NodeMemory, the DeliveryView over the network interfaces' memories: move semantics (one slot per
// block, an owner), copy semantics (a slot per block and node), arrival counting, and content checks
// that catch a flipped bit, a poisoned (never written) slot and blocks of odd sizes; the BlockSubset
// a rank's part indexes its blocks by (members and ranks against a count, at every word boundary).
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

}  // namespace
}  // namespace torx::model
