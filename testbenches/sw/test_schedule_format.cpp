// Every documented form of every field of the schedule format (docs/schedule-format.md), read and
// checked value by value: comments and blank lines, the version line, each header field with each
// of its values, step lines, messages (coordinates and node ids, routes, attributes, null
// messages) and every block-set and range form. A form the reader drops or misreads fails here
// (issue 17, item 6: a message starting with the node-id form '#0' was taken for a comment).
#include <gtest/gtest.h>

#include "test_util.hpp"

namespace torx::sw {
namespace {

Schedule parse(const std::string& text, const std::string& name = "form.sched") {
  Schedule s;
  read_schedule(testing::write_temp(name, text), nullptr, s);
  return s;
}

std::string parse_error(const std::string& text) {
  try {
    parse(text, "bad_form.sched");
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

// The ranges of box k of message m in step st, as (start, count, stride) triples.
std::vector<std::array<uint32_t, 3>> box(const Schedule& s, size_t st, size_t m, uint32_t k) {
  const Topology topo(s.header.dims, s.header.wrap);
  const BlockSpace space(s.header.collective, topo, s.header.pieces, s.header.root);
  const AxisRange* b = s.steps[st].box(s.steps[st].messages[m], k, space.arity());
  std::vector<std::array<uint32_t, 3>> out;
  for (int a = 0; a < space.arity(); ++a) out.push_back({b[a].start, b[a].count, b[a].stride});
  return out;
}

using R = std::array<uint32_t, 3>;
using Boxes = std::vector<R>;

const std::string kHead1D = "torx-schedule 1\ncollective alltoall\ntopology 16 torus\nports one\nswitching wormhole\n";

TEST(ScheduleFormat, CommentsAndBlankLinesAnywhereButNodeIdsAreMessages) {
  const Schedule s = parse(
      "# before the version line\n"
      "\n"
      "torx-schedule 1\n"
      "   # indented comment\n"
      "#no blank after the hash\n"
      "#\n"
      "collective alltoall\n"
      "\t\n"
      "topology 3 torus\nports one\nswitching wormhole\n"
      "step\n"
      "# inside a step\n"
      "#0 -> 1 x+ | 0>1\n"          // the node-id form: a message, not a comment
      "  #1 -> #2 x+ | 1>2\n"        // indented, node ids at both ends
      "2 -> #0 x+ | 2>0\n"
      "#-> a comment that happens to contain an arrow\n"
      "end\n"
      "# after end\n");
  ASSERT_EQ(s.steps.size(), 1u);
  ASSERT_EQ(s.steps[0].messages.size(), 3u);
  EXPECT_EQ(s.steps[0].messages[0].src, 0);
  EXPECT_EQ(s.steps[0].messages[0].dst, 1);
  EXPECT_EQ(s.steps[0].messages[0].line, 14u);
  EXPECT_EQ(s.steps[0].messages[1].src, 1);
  EXPECT_EQ(s.steps[0].messages[1].dst, 2);
  EXPECT_EQ(s.steps[0].messages[2].dst, 0);
}

TEST(ScheduleFormat, NodeIdLinesOutsideAStepAreErrorsNotComments) {
  EXPECT_NE(parse_error("torx-schedule 1\n#0 -> 1 x+ | 0>1\n").find("bad_form.sched:2: '#0 -> 1 x+ | 0>1' starts like a message"),
            std::string::npos);
  EXPECT_NE(parse_error("#1 draft\ntorx-schedule 1\n").find(":1: '#1 draft' starts like a message"), std::string::npos);
  EXPECT_NE(parse_error(kHead1D + "step\nend\n#3 -> 4 | 3>4\n").find(":8: text after 'end'"), std::string::npos);
}

TEST(ScheduleFormat, VersionLine) {
  EXPECT_EQ(parse(kHead1D + "end\n").header.version, 1);
  EXPECT_NE(parse_error("torx-schedule\n").find(":1: the first line must be 'torx-schedule VERSION'"), std::string::npos);
  EXPECT_NE(parse_error("torx-schedule one\n").find(":1: the first line must be"), std::string::npos);
}

TEST(ScheduleFormat, EveryHeaderFieldInAnyOrder) {
  // Required fields only, defaults for the rest.
  Schedule s = parse("torx-schedule 1\nswitching wormhole\nports one\ntopology 16 torus\ncollective alltoall\nend\n");
  EXPECT_EQ(s.header.algorithm, "custom");
  EXPECT_EQ(s.header.collective, Collective::kAlltoall);
  EXPECT_EQ(s.header.dims, std::vector<int>{16});
  EXPECT_TRUE(s.header.wrap);
  EXPECT_EQ(s.header.ports, PortModel::kOne);
  EXPECT_EQ(s.header.switching, Switching::kWormhole);
  EXPECT_EQ(s.header.pieces, 1);
  EXPECT_EQ(s.header.root, 0);
  EXPECT_EQ(s.header.steps, 0);  // counted at the end: no steps
  EXPECT_EQ(s.header.source, "");

  // Every optional field, every value of the enumerated ones.
  s = parse("torx-schedule 1\nalgorithm tsay-wang\ncollective broadcast\ntopology 4x6 mesh\nports all\n"
            "switching store-and-forward\npieces 4\nroot 2,3\nsteps 0\nsource seed 001, Section 3 (any text)\nend\n");
  EXPECT_EQ(s.header.algorithm, "tsay-wang");
  EXPECT_EQ(s.header.collective, Collective::kBroadcast);
  EXPECT_EQ(s.header.dims, (std::vector<int>{4, 6}));
  EXPECT_FALSE(s.header.wrap);
  EXPECT_EQ(s.header.ports, PortModel::kAll);
  EXPECT_EQ(s.header.switching, Switching::kStoreAndForward);
  EXPECT_EQ(s.header.pieces, 4);
  EXPECT_EQ(s.header.root, 2 + 4 * 3);
  EXPECT_EQ(s.header.source, "seed 001, Section 3 (any text)");

  s = parse("torx-schedule 1\ncollective allgather\ntopology 8x8x8 torus\nports all\nswitching wormhole\npieces 3\nend\n");
  EXPECT_EQ(s.header.collective, Collective::kAllgather);
  EXPECT_EQ(s.header.dims, (std::vector<int>{8, 8, 8}));
  EXPECT_EQ(s.header.pieces, 3);

  // The root as a node id.
  s = parse("torx-schedule 1\ncollective broadcast\ntopology 4x4 torus\nports all\nswitching wormhole\nroot #13\nend\n");
  EXPECT_EQ(s.header.root, 13);
}

TEST(ScheduleFormat, StepLines) {
  const Schedule s = parse(kHead1D + "steps 5\nstep\nstep GP2\nstep sync=none\nstep S1.SP0 sync=none\nstep x sync=barrier\nend\n");
  ASSERT_EQ(s.steps.size(), 5u);
  EXPECT_EQ(s.steps[0].label, "");
  EXPECT_EQ(s.steps[0].sync, SyncMark::kBarrier);
  EXPECT_EQ(s.steps[1].label, "GP2");
  EXPECT_EQ(s.steps[2].label, "");
  EXPECT_EQ(s.steps[2].sync, SyncMark::kNone);
  EXPECT_EQ(s.steps[3].label, "S1.SP0");
  EXPECT_EQ(s.steps[3].sync, SyncMark::kNone);
  EXPECT_EQ(s.steps[4].label, "x");
  EXPECT_EQ(s.steps[4].sync, SyncMark::kBarrier);
  EXPECT_TRUE(s.steps[3].messages.empty());
}

TEST(ScheduleFormat, MessageEndpointsRoutesAndAttributes) {
  const Schedule s = parse(
      "torx-schedule 1\ncollective alltoall\ntopology 4x4x4 torus\nports one\nswitching wormhole\nstep\n"
      "0,0,0 -> 1,2,3 | 0,0,0>1,2,3\n"               // no route: shortest, dimension order from x
      "#1 -> #62 x-y+z- prio=7 | 1,0,0>2,3,3\n"       // node ids; every dimension with its direction
      "0,1,0 -> 0,1,3 y+z-x+ fault=corrupt | 0,1,0>0,1,3\n"  // cyclic order from y; x and y agree
      "3,3,3 -> 2,3,3 prio=255 fault=corrupt z+x-y+ |\n"     // attributes before the route; null message
      "end\n");
  const auto& m = s.steps[0].messages;
  ASSERT_EQ(m.size(), 4u);
  const Topology topo({4, 4, 4}, true);
  EXPECT_EQ(m[0].src, 0);
  EXPECT_EQ(m[0].dst, topo.node({1, 2, 3}));
  EXPECT_EQ(m[0].route, topo.shortest_route(m[0].src, m[0].dst));
  EXPECT_EQ(m[0].route.start_dim, 0);
  EXPECT_EQ(m[0].priority, 0);
  EXPECT_EQ(m[0].flags, 0);
  EXPECT_EQ(m[0].box_count, 1u);
  EXPECT_EQ(m[1].src, 1);
  EXPECT_EQ(m[1].dst, 62);
  EXPECT_EQ(topo.route_string(m[1].route), "x-y+z-");
  EXPECT_EQ(m[1].priority, 7);
  EXPECT_EQ(m[2].route.start_dim, 1);
  EXPECT_EQ(topo.route_string(m[2].route), "y+z-x+");
  EXPECT_EQ(m[2].flags, kFaultCorrupt);
  EXPECT_EQ(m[3].priority, 255);
  EXPECT_EQ(m[3].flags, kFaultCorrupt);
  EXPECT_EQ(m[3].route.start_dim, 2);
  EXPECT_EQ(m[3].box_count, 0u);  // a null message
}

TEST(ScheduleFormat, DimensionNamesBeyondW) {
  // Dimensions are named x y z w d4 d5 ...
  const Schedule s = parse(
      "torx-schedule 1\ncollective alltoall\ntopology 2x2x2x2x2x2 torus\nports one\nswitching wormhole\nstep\n"
      "0,0,0,0,0,0 -> 1,1,1,1,1,1 d4+d5-x+y+z-w+ | 0,0,0,0,0,0>1,1,1,1,1,1\nend\n");
  const Topology topo(std::vector<int>(6, 2), true);
  const Route r = s.steps[0].messages[0].route;
  EXPECT_EQ(r.start_dim, 4);
  EXPECT_TRUE(r.negative(5));
  EXPECT_TRUE(r.negative(2));
  EXPECT_FALSE(r.negative(3));
  EXPECT_EQ(topo.route_string(r), "d4+d5-x+y+z-w+");
}

TEST(ScheduleFormat, EveryRangeFormOnAnAlltoallBox) {
  const Schedule s = parse(kHead1D +
                           "step\n"
                           "0 -> 1 | 0>1\n"             // v
                           "1 -> 2 | 1>*\n"             // * (the box includes 1>1, which does not exist)
                           "step\n"
                           "3 -> 4 | 3..5>14..1\n"      // a..b, counting cyclically: 14, 15, 0, 1
                           "6 -> 7 | 6>0..12/4\n"       // a..b/s
                           "8 -> 9 | 8>14..2/2\n"       // a..b/s across the wrap: 14, 0, 2
                           "10 -> 11 | 10>3 10>5..6\n"  // several boxes in one message
                           "end\n");
  EXPECT_EQ(box(s, 0, 0, 0), (Boxes{{0, 1, 1}, {1, 1, 1}}));
  EXPECT_EQ(box(s, 0, 1, 0), (Boxes{{1, 1, 1}, {0, 16, 1}}));
  EXPECT_EQ(box(s, 1, 0, 0), (Boxes{{3, 3, 1}, {14, 4, 1}}));  // the documented 12 blocks
  EXPECT_EQ(box(s, 1, 1, 0), (Boxes{{6, 1, 1}, {0, 4, 4}}));
  EXPECT_EQ(box(s, 1, 2, 0), (Boxes{{8, 1, 1}, {14, 3, 2}}));
  ASSERT_EQ(s.steps[1].messages[3].box_count, 2u);
  EXPECT_EQ(box(s, 1, 3, 0), (Boxes{{10, 1, 1}, {3, 1, 1}}));
  EXPECT_EQ(box(s, 1, 3, 1), (Boxes{{10, 1, 1}, {5, 2, 1}}));
  // A stride that does not land on the end of its range is an error.
  EXPECT_NE(parse_error(kHead1D + "step\n0 -> 1 | 0>1..4/2\nend\n").find("does not end on its stride"), std::string::npos);
}

TEST(ScheduleFormat, TheDocumentedTwoDimensionalBox) {
  // `0..1,4>*,0..6/2` on an 8x8 torus: sources (0,4) and (1,4) to every node whose y is 0, 2, 4, 6.
  const Schedule s = parse("torx-schedule 1\ncollective alltoall\ntopology 8x8 torus\nports one\nswitching wormhole\n"
                           "step\n0,4 -> 1,4 | 0..1,4>*,0..6/2\nend\n");
  EXPECT_EQ(box(s, 0, 0, 0), (Boxes{{0, 2, 1}, {4, 1, 1}, {0, 8, 1}, {0, 4, 2}}));
  const Topology topo({8, 8}, true);
  const BlockSpace space(Collective::kAlltoall, topo, 1, 0);
  EXPECT_EQ(message_blocks(space, s.steps[0], s.steps[0].messages[0]), 2u * 8 * 4);
}

TEST(ScheduleFormat, BroadcastAndGossipBlockSets) {
  Schedule s = parse("torx-schedule 1\ncollective broadcast\ntopology 4 torus\nports all\nswitching wormhole\npieces 8\n"
                     "step\n0 -> 1 | #0\n0 -> 3 | #1..3 #5..0/3\nend\n");
  EXPECT_EQ(box(s, 0, 0, 0), (Boxes{{0, 1, 1}}));
  EXPECT_EQ(box(s, 0, 1, 0), (Boxes{{1, 3, 1}}));
  EXPECT_EQ(box(s, 0, 1, 1), (Boxes{{5, 2, 3}}));  // pieces 5, 0
  s = parse("torx-schedule 1\ncollective allgather\ntopology 4x4 torus\nports all\nswitching wormhole\npieces 2\n"
            "step\n1,2 -> 2,2 | 1,2#0..1\n2,2 -> 3,2 | 2,2#1 *,0#*\nend\n");
  EXPECT_EQ(box(s, 0, 0, 0), (Boxes{{1, 1, 1}, {2, 1, 1}, {0, 2, 1}}));
  EXPECT_EQ(box(s, 0, 1, 0), (Boxes{{2, 1, 1}, {2, 1, 1}, {1, 1, 1}}));
  EXPECT_EQ(box(s, 0, 1, 1), (Boxes{{0, 4, 1}, {0, 1, 1}, {0, 2, 1}}));
}

TEST(ScheduleFormat, TheCompleteExampleOfTheDocumentRunsAndChecks) {
  // docs/schedule-format.md, "A complete example", verbatim.
  const std::string text =
      "torx-schedule 1\n"
      "# a comment: '#' and anything but a digit, on a line of its own\n"
      "algorithm custom\ncollective alltoall\ntopology 3 torus\nports one\nswitching wormhole\nsteps 2\n"
      "step first\n0 -> 1 x+ | 0>1\n1 -> 2 x+ | 1>2\n2 -> 0 x+ | 2>0\n"
      "step second sync=none\n0 -> 2 x- | 0>2\n1 -> 0 x- | 1>0\n2 -> 1 x- | 2>1\nend\n";
  const auto r = testing::run_text(text, Topology({3}, true), "ring3.sched");
  EXPECT_EQ(r.steps.steps, 2);
  EXPECT_EQ(r.steps.transmission_blocks, 2u);
  EXPECT_EQ(r.steps.port_conflicts + r.steps.link_conflicts, 0u);
  EXPECT_TRUE(r.check.ok);
  EXPECT_EQ(r.check.delivered, 6u);
}

}  // namespace
}  // namespace torx::sw
