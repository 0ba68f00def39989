// The step model's rules for copies and its cost, checked where one test each used to be alone: a
// copy collective's sender must hold the piece at the start of the step (a piece received in a step
// is forwarded from the next one on), for broadcast and allgather; and a step costs t_s plus the
// flits of its largest message rounded up, for every block size from 1 to 70 bytes and flit widths
// 1 to 32, against ceil(bytes / flit) computed here.
#include <gtest/gtest.h>

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
