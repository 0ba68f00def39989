// The step model's rules for copies and its cost, checked where one test each used to be alone: a
// copy collective's sender must hold the piece at the start of the step (a piece received in a step
// is forwarded from the next one on), for broadcast and allgather; and a step costs t_s plus the
// flits of its largest message rounded up, for every block size from 1 to 70 bytes and flit widths
// 1 to 32, against ceil(bytes / flit) computed here; and a partitioned run's parts, each tracking its
// range of blocks, naming the one process's first error.
#include <gtest/gtest.h>

#include <array>

#include "test_util.hpp"

namespace torx::sw {
namespace {

using testing::run_text;

const std::string kBroadcast =
    "torx-schedule 1\ncollective broadcast\ntopology 4 torus\nports all\nswitching wormhole\npieces 1\nroot 0\n";
const std::string kAllgather =
    "torx-schedule 1\ncollective allgather\ntopology 4 torus\nports all\nswitching wormhole\npieces 1\n";

TEST(StepModelRules, ACopyIsForwardedFromTheStepAfterItArrives) {
  const Topology topo({4}, true);
  // Broadcast: node 1 forwards the piece in the step it receives it; in the next step it may.
  EXPECT_THROW(run_text(kBroadcast + "step\n0 -> 1 x+ | #0\n1 -> 2 x+ | #0\nend\n", topo), InputError);
  const auto later = run_text(kBroadcast + "step\n0 -> 1 x+ | #0\n0 -> 3 x- | #0\nstep\n1 -> 2 x+ | #0\nend\n", topo);
  EXPECT_TRUE(later.check.ok);
  // Allgather: node 2 sends node 0's piece, which it never received.
  try {
    run_text(kAllgather + "step\n0 -> 1 x+ | 0#0\n2 -> 3 x+ | 0#0\nend\n", topo, "gather.sched");
    FAIL() << "a piece its sender does not hold";
  } catch (const InputError& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("gather.sched:9:"), std::string::npos) << msg;
    EXPECT_NE(msg.find("node 2 sends"), std::string::npos) << msg;
    EXPECT_NE(msg.find("which it does not hold at the start of step"), std::string::npos) << msg;
  }
  // A node's own piece it holds from the start.
  const auto own = run_text(kAllgather + "step\n2 -> 3 x+ | 2#0\nend\n", topo);
  EXPECT_EQ(own.check.delivered, 1u);
}

TEST(StepModelRules, AStepCostsTheStartupAndTheLargestMessagesFlitsRoundedUp) {
  const Topology topo({4}, true);
  const std::string path = testing::write_temp(
      "cost.sched", "torx-schedule 1\ncollective alltoall\ntopology 4 torus\nports one\nswitching wormhole\n"
                    "step\n0 -> 1 x+ | 0>1..3\n2 -> 3 x+ | 2>3\nend\n");
  for (uint32_t block = 1; block <= 70; ++block)
    for (uint32_t flit = 1; flit <= 32; ++flit) {
      StepModelOptions o;
      o.cost.ts_cycles = 7;
      o.cost.block_bytes = block;
      o.cost.flit_bytes = flit;
      StepModel m(topo, o);
      read_schedule(path, &topo, m);
      const uint64_t bytes = 3 * block;
      ASSERT_EQ(m.result().per_step[0].cycles, 7 + (bytes + flit - 1) / flit) << block << " bytes, " << flit << "-byte flits";
    }
}

}  // namespace
}  // namespace torx::sw

namespace torx::sw {
namespace {

// A partitioned run's step model (StepModelOptions::track_parts): each of P parts tracks its range
// of block ids, and the earliest failure_position() over the parts names the one process's error.
// Returns that error's text ("" if none), running the schedule file at `path` in `parts` parts.
std::string first_error(const std::string& path, const Topology& topo, uint32_t parts) {
  std::array<uint64_t, 5> best{};
  std::string text;
  for (uint32_t p = 0; p < parts; ++p) {
    StepModelOptions o;
    o.track_part = p;
    o.track_parts = parts;
    StepModel m(topo, o);
    try {
      read_schedule(path, &topo, m);
    } catch (const InputError& e) {
      if (text.empty() || m.failure_position() < best) {
        best = m.failure_position();
        text = e.what();
      }
    }
  }
  return text;
}

TEST(StepModelRules, ThePartsOfAPartitionedRunFindTheOneProcessError) {
  const Topology topo({4}, true);
  const std::string head = "torx-schedule 1\ncollective alltoall\ntopology 4 torus\nports all\nswitching wormhole\n";
  // Blocks s>t have id 4 s + t: 3>0 is 12, 0>2 is 2. Each schedule breaks the rules at least twice,
  // the later break in a lower part than the first (so picking the lowest part would be wrong).
  const std::vector<std::string> bad = {
      // One message, two blocks its sender lacks: box 0 (id 12) before box 1 (id 2).
      "step\n1 -> 2 x+ | 3>0 0>2\nend\n",
      // Within one box: 1 sends 1>0..3 (ids 4..7, its own) and 3>1 and 0>3 it lacks, 3>1 first.
      "step\n1 -> 2 x+ | 1>0 3>1 0>3\nend\n",
      // Within one box, cyclically: 2 sends 3>1 (id 13), then 0>1 (id 1), neither its own.
      "step\n2 -> 3 x+ | 3..0>1\nend\n",
      // Two messages of one step: block 12 in the first, block 1 in the second.
      "step\n1 -> 2 x+ | 3>0\n2 -> 3 x+ | 0>1\nend\n",
      // Step 1 breaks a rule for block 12; step 2 for block 2 and is also bad as a message.
      "step\n1 -> 2 x+ | 3>0\nstep\n1 -> 2 x+ | 0>2\n0 -> 0 x+ | 0>1\nend\n",
      // Step 2 moves a block (id 2) its sender gave up in step 1.
      "step\n0 -> 1 x+ | 0>2\n2 -> 3 x+ | 2>3\nstep\n0 -> 1 x+ | 0>3 0>2\nend\n",
      // A message-level error (a node to itself) is found before any block of its step (id 12).
      "step\n1 -> 2 x+ | 3>0\n2 -> 2 x+ | 2>1\nend\n",
      // Forwarded in the step it arrives: block 0>3 (id 3).
      "step\n0 -> 1 x+ | 0>3\n1 -> 2 x+ | 0>3\nend\n",
  };
  for (size_t k = 0; k < bad.size(); ++k) {
    const std::string path = testing::write_temp("parts.sched", head + bad[k]);
    const std::string one = first_error(path, topo, 1);
    ASSERT_FALSE(one.empty()) << "schedule " << k << " is not bad";
    for (uint32_t parts = 2; parts <= 5; ++parts)
      EXPECT_EQ(first_error(path, topo, parts), one) << "schedule " << k << ", " << parts << " parts";
  }
  // A good schedule: no part finds an error, and every part's step records are the one process's.
  const std::string good = testing::write_temp(
      "good.sched", head + "step\n0 -> 1 x+ | 0>1..2\n2 -> 3 x+ | 2>3\nstep\n1 -> 2 x+ | 0>2\nend\n");
  StepModel whole(topo, StepModelOptions{});
  read_schedule(good, &topo, whole);
  for (uint32_t p = 0; p < 3; ++p) {
    StepModelOptions o;
    o.track_part = p;
    o.track_parts = 3;
    StepModel m(topo, o);
    read_schedule(good, &topo, m);
    EXPECT_EQ(m.result().block_transfers, whole.result().block_transfers);
    EXPECT_EQ(m.result().step_model_cycles, whole.result().step_model_cycles);
    ASSERT_EQ(m.result().per_step.size(), whole.result().per_step.size());
  }
}

}  // namespace
}  // namespace torx::sw
