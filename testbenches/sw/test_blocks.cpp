// Blocks: cyclic strided ranges and boxes enumerate exactly the blocks they name; compress() turns
// any set of ids into boxes that cover exactly that set; box text round-trips; contents are seeded.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <set>

#include "core/blocks.hpp"

namespace torx::sw {
namespace {

std::vector<BlockId> enumerate(const BlockSpace& s, const std::vector<AxisRange>& boxes) {
  std::vector<BlockId> v;
  for (size_t k = 0; k < boxes.size(); k += s.arity()) s.for_each_block(&boxes[k], [&](BlockId b) { v.push_back(b); });
  return v;
}

TEST(Blocks, AlltoallIdentity) {
  const Topology t({4, 4}, true);
  const BlockSpace s(Collective::kAlltoall, t, 1, 0);
  EXPECT_EQ(s.arity(), 4);
  EXPECT_EQ(s.universe(), 256u);
  EXPECT_EQ(s.expected_deliveries(), 240u);
  const BlockId b = s.alltoall_id(5, 9);
  EXPECT_EQ(s.source(b), 5);
  EXPECT_EQ(s.destination(b), 9);
  EXPECT_FALSE(s.exists(s.alltoall_id(3, 3)));
  EXPECT_EQ(s.block_name(b), "(1,1)->(1,2)");
}

TEST(Blocks, WrappingStridedRangeEnumeratesCyclically) {
  const Topology t({8}, true);
  const BlockSpace s(Collective::kAlltoall, t, 1, 0);
  // Source 2, destinations 5, 7, 1, 3.
  const std::vector<AxisRange> box = {{2, 1, 1}, {5, 4, 2}};
  const auto v = enumerate(s, box);
  EXPECT_EQ(v, (std::vector<BlockId>{2 * 8 + 5, 2 * 8 + 7, 2 * 8 + 1, 2 * 8 + 3}));
  EXPECT_EQ(s.box_string(box.data()), "2>5..3/2");
  std::vector<AxisRange> back(2);
  s.parse_box("2>5..3/2", back.data());
  EXPECT_EQ(enumerate(s, back), v);
}

TEST(Blocks, BoxTextRoundTripsEveryShape) {
  const Topology t({6, 4}, true);
  const BlockSpace s(Collective::kAlltoall, t, 1, 0);
  for (const char* text : {"0,0>1..5,*", "3,2>*,1..3", "1..4,1>0..4/2,3", "5..1,0..1>2,2", "*,*>0,0"}) {
    std::vector<AxisRange> box(4);
    s.parse_box(text, box.data());
    s.validate_box(box.data(), text);
    EXPECT_EQ(s.box_string(box.data()), text);
  }
  const BlockSpace g(Collective::kAllgather, t, 3, 0);
  std::vector<AxisRange> gb(3);
  g.parse_box("1,2#0..2", gb.data());
  EXPECT_EQ(g.box_string(gb.data()), "1,2#*");
  const BlockSpace bc(Collective::kBroadcast, t, 4, 0);
  std::vector<AxisRange> bb(1);
  bc.parse_box("#1..2", bb.data());
  EXPECT_EQ(bc.box_string(bb.data()), "#1..2");
}

TEST(Blocks, ParseRejectsMalformedBoxes) {
  const Topology t({8}, true);
  const BlockSpace s(Collective::kAlltoall, t, 1, 0);
  AxisRange box[2];
  for (const char* bad : {"1", "1>", "1>9", "1>2..9", "1>0..5/2", "1>0..4/0", "a>1", "1,2>3", "1>2>3", ">"})
    EXPECT_THROW(s.parse_box(bad, box), InputError) << bad;
}

TEST(Blocks, CompressCoversExactlyTheGivenSet) {
  const Topology t({6, 5}, true);
  const BlockSpace s(Collective::kAlltoall, t, 1, 0);
  std::mt19937_64 rng(7);
  for (int trial = 0; trial < 200; ++trial) {
    std::set<BlockId> want;
    const int n = 1 + static_cast<int>(rng() % 300);
    for (int i = 0; i < n; ++i) {
      // Mix isolated ids with runs so that boxes of several shapes appear.
      const BlockId b = rng() % s.universe();
      const int run = 1 + static_cast<int>(rng() % 8);
      for (int k = 0; k < run; ++k) want.insert((b + k) % s.universe());
    }
    std::vector<BlockId> ids(want.begin(), want.end());
    std::vector<AxisRange> boxes;
    s.compress(ids, boxes);
    auto got = enumerate(s, boxes);
    std::sort(got.begin(), got.end());
    ASSERT_EQ(got, ids) << "trial " << trial;
  }
}

TEST(Blocks, CompressMakesRectanglesAndWrapsRuns) {
  const Topology t({16}, true);
  const BlockSpace s(Collective::kAlltoall, t, 1, 0);
  std::vector<BlockId> ids;
  for (int src = 3; src <= 5; ++src)
    for (int dst : {14, 15, 0, 1}) ids.push_back(s.alltoall_id(src, dst));
  std::sort(ids.begin(), ids.end());
  std::vector<AxisRange> boxes;
  s.compress(ids, boxes);
  ASSERT_EQ(boxes.size(), 2u);  // one box
  EXPECT_EQ(s.box_string(boxes.data()), "3..5>14..1");
}

TEST(Blocks, ContentIsSeededAndDistinct) {
  const ContentModel a(1, Collective::kAlltoall), b(2, Collective::kAlltoall);
  EXPECT_EQ(a.word(10, 0), a.word(10, 0));
  EXPECT_NE(a.word(10, 0), a.word(11, 0));
  EXPECT_NE(a.word(10, 0), a.word(10, 1));
  EXPECT_NE(a.word(10, 0), b.word(10, 0));
  uint64_t payload[4];
  for (uint32_t i = 0; i < 4; ++i) payload[i] = a.word(10, i);
  EXPECT_EQ(ContentModel::digest(payload, 4), a.expected_digest(10, 4));
  payload[2] ^= 1;
  EXPECT_NE(ContentModel::digest(payload, 4), a.expected_digest(10, 4));
}

}  // namespace
}  // namespace torx::sw
