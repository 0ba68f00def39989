// The checker is itself checked: a correct schedule passes, and each kind of fault, planted in a
// deliberately broken schedule, is caught and counted as exactly that kind (missing, duplicated,
// misdelivered, corrupted), for personalized and for copy collectives.
#include <gtest/gtest.h>

#include "test_util.hpp"

namespace torx::sw {
namespace {

using testing::run_text;

const std::string kHead =
    "torx-schedule 1\ncollective alltoall\ntopology 3 torus\nports one\nswitching wormhole\n";
// A correct complete exchange on a ring of three.
const std::string kStep1 = "step\n0 -> 1 x+ | 0>1\n1 -> 2 x+ | 1>2\n2 -> 0 x+ | 2>0\n";
const std::string kStep2 = "step\n0 -> 2 x- | 0>2\n1 -> 0 x- | 1>0\n2 -> 1 x- | 2>1\n";

TEST(Checker, CorrectScheduleIsOk) {
  const auto run = run_text(kHead + kStep1 + kStep2 + "end\n", Topology({3}, true));
  EXPECT_TRUE(run.check.ok);
  EXPECT_EQ(run.check.expected, 6u);
  EXPECT_EQ(run.check.delivered, 6u);
}

TEST(Checker, CatchesMissingBlock) {
  // Node 2 never sends its block for node 1.
  const auto run = run_text(kHead + kStep1 + "step\n0 -> 2 x- | 0>2\n1 -> 0 x- | 1>0\nend\n", Topology({3}, true));
  EXPECT_FALSE(run.check.ok);
  EXPECT_EQ(run.check.missing, 1u);
  EXPECT_EQ(run.check.delivered, 5u);
  EXPECT_EQ(run.check.duplicated + run.check.misdelivered + run.check.corrupted, 0u);
}

TEST(Checker, CatchesMisdeliveredBlock) {
  // Node 0 sends its block for node 1 to node 2 instead (with the block for node 2).
  const auto run = run_text(kHead + "step\n1 -> 2 x+ | 1>2\n2 -> 0 x+ | 2>0\n" +
                                "step\n0 -> 2 x- | 0>1..2\n1 -> 0 x- | 1>0\n2 -> 1 x- | 2>1\nend\n",
                            Topology({3}, true));
  EXPECT_FALSE(run.check.ok);
  EXPECT_EQ(run.check.misdelivered, 1u);
  EXPECT_EQ(run.check.missing, 1u);
  EXPECT_EQ(run.check.duplicated + run.check.corrupted, 0u);
}

TEST(Checker, CatchesDuplicatedPersonalizedBlock) {
  // Block 0->1 reaches node 1, is sent back to node 0 and delivered a second time.
  const auto run = run_text(kHead + kStep1 + kStep2 + "step\n1 -> 0 x- | 0>1\nstep\n0 -> 1 x+ | 0>1\nend\n",
                            Topology({3}, true));
  EXPECT_FALSE(run.check.ok);
  EXPECT_EQ(run.check.duplicated, 1u);
  EXPECT_EQ(run.check.missing + run.check.misdelivered + run.check.corrupted, 0u);
}

TEST(Checker, CatchesCorruptedBlock) {
  // The second message of step 1 carries a fault: its payload is flipped in flight.
  const auto run = run_text(kHead + "step\n0 -> 1 x+ | 0>1\n1 -> 2 x+ fault=corrupt | 1>2\n2 -> 0 x+ | 2>0\n" + kStep2 +
                                "end\n",
                            Topology({3}, true));
  EXPECT_FALSE(run.check.ok);
  EXPECT_EQ(run.check.corrupted, 1u);
  EXPECT_EQ(run.check.delivered, 6u);
  EXPECT_EQ(run.check.missing + run.check.misdelivered + run.check.duplicated, 0u);
}

TEST(Checker, CorruptionTravelsWithTheBlock) {
  // Corrupted on the first hop of a relayed path, still caught at the destination.
  const std::string t = "torx-schedule 1\ncollective alltoall\ntopology 4 torus\nports one\nswitching wormhole\n"
                        "step\n0 -> 1 x+ fault=corrupt | 0>2\nstep\n1 -> 2 x+ | 0>2\nend\n";
  const auto run = run_text(t, Topology({4}, true));
  EXPECT_EQ(run.check.corrupted, 1u);
}

const std::string kBcastHead =
    "torx-schedule 1\ncollective broadcast\ntopology 4 torus\nports all\nswitching wormhole\npieces 1\nroot 0\n";

TEST(Checker, BroadcastOkAndDuplicateReceipt) {
  const Topology topo({4}, true);
  const auto ok = run_text(kBcastHead + "step\n0 -> 1 x+ | #0\n0 -> 3 x- | #0\nstep\n1 -> 2 x+ | #0\nend\n", topo);
  EXPECT_TRUE(ok.check.ok);
  EXPECT_EQ(ok.check.expected, 3u);
  // Node 2 receives the message twice.
  const auto dup = run_text(kBcastHead + "step\n0 -> 1 x+ | #0\n0 -> 3 x- | #0\nstep\n1 -> 2 x+ | #0\n3 -> 2 x- | #0\nend\n", topo);
  EXPECT_FALSE(dup.check.ok);
  EXPECT_EQ(dup.check.duplicated, 1u);
  EXPECT_EQ(dup.check.missing, 0u);
  // Sending the message back to the root is a duplicate too.
  const auto back = run_text(kBcastHead + "step\n0 -> 1 x+ | #0\n0 -> 3 x- | #0\nstep\n1 -> 2 x+ | #0\n3 -> 0 x+ | #0\nend\n", topo);
  EXPECT_EQ(back.check.duplicated, 1u);
}

TEST(Checker, BroadcastMissingAndCorrupted) {
  const Topology topo({4}, true);
  const auto miss = run_text(kBcastHead + "step\n0 -> 1 x+ | #0\nstep\n1 -> 2 x+ | #0\nend\n", topo);
  EXPECT_EQ(miss.check.missing, 1u);
  const auto bad = run_text(kBcastHead + "step\n0 -> 1 x+ fault=corrupt | #0\n0 -> 3 x- | #0\nstep\n1 -> 2 x+ | #0\nend\n", topo);
  EXPECT_EQ(bad.check.corrupted, 2u);  // node 1's copy and the copy it forwarded to node 2
}

TEST(Checker, GossipNeedsEveryPieceEverywhere) {
  const Topology topo({3}, true);
  const std::string head = "torx-schedule 1\ncollective allgather\ntopology 3 torus\nports all\nswitching store-and-forward\npieces 1\n";
  const std::string good = head + "step\n0 -> 1 x+ | 0#0\n1 -> 2 x+ | 1#0\n2 -> 0 x+ | 2#0\n"
                                  "step\n0 -> 1 x+ | 2#0\n1 -> 2 x+ | 0#0\n2 -> 0 x+ | 1#0\nend\n";
  const auto ok = run_text(good, topo);
  EXPECT_TRUE(ok.check.ok);
  EXPECT_EQ(ok.check.expected, 6u);
  const auto miss = run_text(head + "step\n0 -> 1 x+ | 0#0\n1 -> 2 x+ | 1#0\n2 -> 0 x+ | 2#0\nend\n", topo);
  EXPECT_EQ(miss.check.missing, 3u);
}

}  // namespace
}  // namespace torx::sw
