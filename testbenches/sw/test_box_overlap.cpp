// Overlap of block sets (issue 17, item 10): BlockSpace::boxes_overlap agrees with enumerating both
// boxes on random cyclic strided ranges, and BoxOverlapFinder finds an overlapping pair exactly in
// each of its tiers (every pair, equal single-valued coordinates, sweep, bitmap, sorted blocks) and
// refuses what it cannot check within bounded work.
#include <gtest/gtest.h>

#include <random>
#include <set>

#include "core/blocks.hpp"

namespace torx::sw {
namespace {

AxisRange random_range(std::mt19937& rng, uint32_t radix) {
  const uint32_t start = rng() % radix;
  const uint32_t stride = 1 + rng() % (radix - 1 > 0 ? radix - 1 : 1);
  const uint32_t max_count = (radix - 1) / stride + 1;
  return {start, 1 + static_cast<uint32_t>(rng() % max_count), stride};
}

std::set<BlockId> blocks_of(const BlockSpace& s, const AxisRange* box) {
  std::set<BlockId> out;
  s.for_each_block(box, [&](BlockId b) { out.insert(b); });
  return out;
}

TEST(BoxOverlap, PairTestAgreesWithEnumerationOnRandomBoxes) {
  std::mt19937 rng(17);
  int overlapping = 0, disjoint = 0;
  for (int trial = 0; trial < 4000; ++trial) {
    const int r0 = 2 + static_cast<int>(rng() % 11), r1 = 2 + static_cast<int>(rng() % 7);
    const Topology topo({r0, r1}, true);
    const BlockSpace s(Collective::kAlltoall, topo, 1, 0);
    AxisRange a[4], b[4];
    for (int ax = 0; ax < 4; ++ax) {
      const uint32_t radix = static_cast<uint32_t>(s.axis_radix(ax));
      a[ax] = random_range(rng, radix);
      // Often a near copy, so that both outcomes are common.
      b[ax] = rng() % 2 ? a[ax] : random_range(rng, radix);
    }
    s.validate_box(a, "a");
    s.validate_box(b, "b");
    const auto x = blocks_of(s, a), y = blocks_of(s, b);
    bool meet = false;
    for (BlockId id : x) meet |= y.count(id) > 0;
    ASSERT_EQ(s.boxes_overlap(a, b), meet) << s.box_string(a) << " and " << s.box_string(b) << " on " << topo.to_string();
    ASSERT_EQ(s.boxes_overlap(b, a), meet);
    (meet ? overlapping : disjoint)++;
  }
  EXPECT_GT(overlapping, 500);
  EXPECT_GT(disjoint, 500);
}

// Boxes (s0..s0+s(c-1)/s) x (t0..t0+s(c-1)/s) for every residue pair s0, t0 < s: s^2 disjoint boxes
// whose extents all meet on both axes, so neither grouping nor sweeping can tell them apart cheaply.
std::vector<AxisRange> interleaved(uint32_t s, uint32_t c) {
  std::vector<AxisRange> v;
  for (uint32_t i = 0; i < s; ++i)
    for (uint32_t j = 0; j < s; ++j) {
      v.push_back({i, c, s});
      v.push_back({j, c, s});
    }
  return v;
}

void expect_pair(BoxOverlapFinder& f, const BlockSpace& s, const std::vector<AxisRange>& boxes, int64_t i, int64_t j) {
  const auto got = f.find(boxes.data(), static_cast<uint32_t>(boxes.size() / s.arity()));
  EXPECT_EQ(got.first, i);
  EXPECT_EQ(got.second, j);
}

TEST(BoxOverlap, FewBoxesEveryPair) {
  const Topology topo({16}, true);
  const BlockSpace s(Collective::kAlltoall, topo, 1, 0);
  BoxOverlapFinder f(s);
  expect_pair(f, s, {{0, 1, 1}, {1, 2, 1}, {0, 1, 1}, {3, 1, 1}}, -1, -1);
  expect_pair(f, s, {{0, 1, 1}, {1, 2, 1}, {0, 1, 1}, {3, 1, 1}, {0, 1, 1}, {15, 4, 1}}, 0, 2);  // 15..2 wraps onto 1
  // Strided ranges that interleave without meeting: 0, 4, 8, 12 and 2, 6, 10, 14.
  expect_pair(f, s, {{0, 16, 1}, {0, 4, 4}, {0, 16, 1}, {2, 4, 4}}, -1, -1);
  expect_pair(f, s, {{0, 16, 1}, {0, 4, 4}, {0, 16, 1}, {10, 3, 3}}, 0, 1);  // 10, 13, 0
}

TEST(BoxOverlap, SingleValuedCoordinatesGroupTheBoxes) {
  // 200 boxes, one per source, listed in a scrambled order, each to a range of destinations.
  const Topology topo({256}, true);
  const BlockSpace s(Collective::kAlltoall, topo, 1, 0);
  std::vector<AxisRange> boxes;
  for (uint32_t k = 0; k < 200; ++k) {
    boxes.push_back({(k * 37) % 256, 1, 1});
    boxes.push_back({0, 256, 1});
  }
  BoxOverlapFinder f(s);
  expect_pair(f, s, boxes, -1, -1);
  boxes[2 * 150] = {(7 * 37) % 256, 1, 1};  // box 150 now has box 7's source
  expect_pair(f, s, boxes, 7, 150);
}

TEST(BoxOverlap, SweepFindsMeetingExtents) {
  // No axis with single values only: 300 boxes of 200 sources each, destinations in disjoint
  // windows of 3 (the sweep's axis), and one box whose window meets its neighbour's.
  const Topology topo({1024}, true);
  const BlockSpace s(Collective::kAlltoall, topo, 1, 0);
  std::vector<AxisRange> boxes;
  for (uint32_t k = 0; k < 300; ++k) {
    boxes.push_back({k % 7, 200, 1});
    boxes.push_back({3 * k, 3, 1});
  }
  BoxOverlapFinder f(s);
  expect_pair(f, s, boxes, -1, -1);
  boxes[2 * 200 + 1] = {3 * 201 - 1, 2, 1};  // 602..603 meets box 201's 603..605
  boxes[2 * 200] = boxes[2 * 201];            // from the same sources
  expect_pair(f, s, boxes, 200, 201);
}

TEST(BoxOverlap, InterleavedBoxesOnASmallSpaceUseTheBitmap) {
  // 1600 boxes: about 1.3 million pairs, beyond the pair budget; the ring of 80 has 6400 blocks.
  const Topology topo({80}, true);
  const BlockSpace s(Collective::kAlltoall, topo, 1, 0);
  std::vector<AxisRange> boxes = interleaved(40, 2);
  BoxOverlapFinder f(s);
  expect_pair(f, s, boxes, -1, -1);
  boxes.push_back({39, 1, 1});  // block 39 -> 40 lies in box (39, 0) = 39 * 40 + 0
  boxes.push_back({40, 1, 1});
  expect_pair(f, s, boxes, 39 * 40, 1600);
  // The bitmap is clean for the next message.
  boxes.resize(boxes.size() - 2);
  expect_pair(f, s, boxes, -1, -1);
}

TEST(BoxOverlap, InterleavedBoxesOnALargeSpaceSortTheirBlocks) {
  // The same on a ring of 16384 (2^28 blocks: no bitmap), 4 blocks per box.
  const Topology topo({16384}, true);
  const BlockSpace s(Collective::kAlltoall, topo, 1, 0);
  std::vector<AxisRange> boxes = interleaved(40, 2);
  BoxOverlapFinder f(s);
  expect_pair(f, s, boxes, -1, -1);
  boxes.push_back({0, 1, 1});
  boxes.push_back({40, 1, 1});  // 0 -> 40 is in box (0, 0)
  expect_pair(f, s, boxes, 0, 1600);
}

TEST(BoxOverlap, TooInterleavedToCheckIsRefused) {
  // 1600 boxes of 160,000 blocks each on 2^28 blocks: neither a bitmap nor sorting fits the bounds.
  const Topology topo({16384}, true);
  const BlockSpace s(Collective::kAlltoall, topo, 1, 0);
  const std::vector<AxisRange> boxes = interleaved(40, 400);
  BoxOverlapFinder f(s);
  try {
    f.find(boxes.data(), 1600);
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("1600 block sets (256000000 blocks in all) are too many and too interleaved"),
              std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace torx::sw
