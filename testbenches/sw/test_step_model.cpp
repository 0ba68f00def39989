// Step model: the cost t_s + ceil(bytes / flit_bytes) per step, port conflicts under one-port and
// all-port, link conflicts under wormhole and store-and-forward, and the holding rules (a node may
// send only what it holds at the start of the step; a block moves at most once per step).
#include <gtest/gtest.h>

#include "core/checked.hpp"
#include "test_util.hpp"

namespace torx::sw {
namespace {

using testing::run_text;

std::string header(const std::string& topo, const std::string& ports = "one", const std::string& sw = "wormhole",
                   const std::string& collective = "alltoall") {
  return "torx-schedule 1\ncollective " + collective + "\ntopology " + topo + "\nports " + ports + "\nswitching " + sw + "\n";
}

TEST(StepModel, ChargesStartupPlusLargestMessagePerStep) {
  const Topology topo({4}, true);
  const std::string text = header("4 torus") +
                           "step\n0 -> 1 x+ | 0>1..3\n2 -> 3 x+ | 2>3\n"
                           "step\n1 -> 2 x+ | 0>2..3\n"
                           "step\n2 -> 3 x+ | 0>3\nend\n";
  StepModelOptions o;
  o.cost.ts_cycles = 100;
  o.cost.block_bytes = 24;
  o.cost.flit_bytes = 16;
  const std::string path = testing::write_temp("cost.sched", text);
  StepModel m(topo, o);
  read_schedule(path, &topo, m);
  const auto& r = m.result();
  ASSERT_EQ(r.steps, 3);
  EXPECT_EQ(r.per_step[0].max_blocks, 3u);
  EXPECT_EQ(r.per_step[0].cycles, 100u + (3 * 24 + 15) / 16);  // 72 bytes -> 5 flits
  EXPECT_EQ(r.per_step[1].cycles, 100u + 3);                   // 48 bytes -> 3 flits
  EXPECT_EQ(r.per_step[2].cycles, 100u + 2);                   // 24 bytes -> 2 flits
  EXPECT_EQ(r.transmission_blocks, 3u + 2 + 1);
  EXPECT_EQ(r.block_transfers, 3u + 1 + 2 + 1);
  EXPECT_EQ(r.step_model_cycles, 105u + 103 + 102);
}

TEST(StepModel, OnePortCountsExtraSendsAndReceives) {
  const Topology topo({4}, true);
  auto r = run_text(header("4 torus") + "step\n0 -> 1 x+ | 0>1\n0 -> 3 x- | 0>3\n2 -> 1 x- | 2>1\nend\n", topo).steps;
  EXPECT_EQ(r.port_conflicts, 2u);  // node 0 sends twice, node 1 receives twice
  EXPECT_EQ(r.link_conflicts, 0u);
}

TEST(StepModel, AllPortCountsMessagesPerOutgoingLink) {
  const Topology topo({4, 4}, true);
  // Node 0 sends on +x, -x and +y at once: fine all-port. Two messages on +x: one conflict.
  auto ok = run_text(header("4x4 torus", "all") + "step\n0,0 -> 1,0 x+y+ | 0,0>1,0\n0,0 -> 3,0 x-y+ | 0,0>3,0\n"
                                                    "0,0 -> 0,1 x+y+ | 0,0>0,1\nend\n", topo).steps;
  EXPECT_EQ(ok.port_conflicts, 0u);
  auto bad = run_text(header("4x4 torus", "all") + "step\n0,0 -> 1,0 x+y+ | 0,0>1,0\n0,0 -> 2,0 x+y+ | 0,0>2,0\nend\n", topo).steps;
  EXPECT_EQ(bad.port_conflicts, 1u);
  EXPECT_EQ(bad.link_conflicts, 1u);  // and they share the link 0,0+x
}

TEST(StepModel, WormholeLinkConflictsCountSharedDirectedLinks) {
  const Topology topo({6}, true);
  // 0->3 and 1->4 both use 1+x and 2+x; 3->0 travels the other way round on other links.
  auto r = run_text(header("6 torus", "all") + "step\n0 -> 3 x+ | 0>3\n1 -> 4 x+ | 1>4\n5 -> 2 x- | 5>2\nend\n", topo).steps;
  EXPECT_EQ(r.link_conflicts, 2u);
  EXPECT_EQ(r.port_conflicts, 0u);
}

TEST(StepModel, StoreAndForwardAllowsNeighboursOnly) {
  const Topology topo({6}, true);
  auto r = run_text(header("6 torus", "one", "store-and-forward") + "step\n0 -> 2 x+ | 0>2\n3 -> 4 x+ | 3>4\nend\n", topo).steps;
  EXPECT_EQ(r.link_conflicts, 1u);
}

TEST(StepModel, SenderMustHoldBlocksAtStepStart) {
  const Topology topo({4}, true);
  // Node 1 forwards block 0->2 in the same step it receives it.
  EXPECT_THROW(run_text(header("4 torus") + "step\n0 -> 1 x+ | 0>2\n1 -> 2 x+ | 0>2\nend\n", topo), InputError);
  try {
    run_text(header("4 torus") + "step\n1 -> 2 x+ | 0>2\nend\n", topo, "hold.sched");
    FAIL();
  } catch (const InputError& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("hold.sched:7:"), std::string::npos) << msg;
    EXPECT_NE(msg.find("sends block (0)->(2) which it does not hold"), std::string::npos) << msg;
  }
}

TEST(StepModel, BlockCarriedTwiceInOneStepIsRejected) {
  const Topology topo({4}, true);
  try {
    run_text(header("4 torus", "all") + "step\n0 -> 1 x+ | 0>1..2\n0 -> 3 x- | 0>2..3\nend\n", topo);
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("carried twice"), std::string::npos) << e.what();
  }
}

TEST(StepModel, PersonalizedBlocksMoveAndForwardedBlocksArrive) {
  const Topology topo({4}, true);
  // Block 0->2 relayed through node 1; block 0->1 stays at node 1.
  auto run = run_text(header("4 torus") + "step\n0 -> 1 x+ | 0>1..2\nstep\n1 -> 2 x+ | 0>2\nend\n", topo);
  EXPECT_EQ(run.check.delivered, 2u);
  EXPECT_EQ(run.check.misdelivered, 0u);
  EXPECT_EQ(run.check.missing, 10u);
}

TEST(StepModel, TopologyMustMatchTheSchedule) {
  const Topology topo({8}, true);
  EXPECT_THROW(run_text(header("4 torus") + "step\n0 -> 1 x+ | 0>1\nend\n", topo), InputError);
}

// Size estimates are checked (issue 17, item 1): a product or sum that does not fit in 64 bits is
// reported, never wrapped into a small number that passes every limit.
TEST(Checked, MultiplyAndAddReportOverflow) {
  EXPECT_EQ(checked_mul(uint64_t{1} << 32, uint64_t{1} << 31), uint64_t{1} << 63);
  EXPECT_FALSE(checked_mul(uint64_t{1} << 32, uint64_t{1} << 32));
  EXPECT_EQ(checked_add(~uint64_t{0} - 1, 1), ~uint64_t{0});
  EXPECT_FALSE(checked_add(~uint64_t{0}, 1));
  EXPECT_EQ(checked_product({uint64_t{1} << 24, (uint64_t{1} << 24) - 1, uint64_t{1} << 16}),
            ((uint64_t{1} << 24) - 1) << 40);
  EXPECT_FALSE(checked_product({uint64_t{1} << 24, uint64_t{1} << 24, uint64_t{1} << 16}));
}

TEST(StepModel, TrackingEstimateBeyond64BitsIsBadInput) {
  // 2^24 nodes x 2^16 pieces x 2^24 holders = 2^64 bytes of state: this wrapped to 0, passed the
  // memory check, and the step model wrote through a zero-length array (exit 139).
  const Topology topo({4096, 4096}, true);
  ScheduleHeader h;
  h.collective = Collective::kAllgather;
  h.dims = {4096, 4096};
  h.pieces = 65536;
  StepModelOptions o;
  o.origin = "big.sched";
  StepModel m(topo, o);
  try {
    m.begin(h);
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("big.sched: the step model cannot track this allgather"), std::string::npos)
        << e.what();
    EXPECT_NE(std::string(e.what()).find("pieces 65536"), std::string::npos) << e.what();
  }
}

TEST(StepModel, MemoryIsEstimatedBeforeAllocating) {
  // Block state (tracking) and per-link counters (always) count against the limit.
  ScheduleHeader h;
  h.dims = {64, 64};
  StepModelOptions o;
  o.memory_limit_bytes = 64 << 20;  // 2^24 blocks x 5 bytes = 80 MiB
  const Topology topo({64, 64}, true);
  StepModel tracked(topo, o);
  try {
    tracked.begin(h);
    FAIL() << "no limit";
  } catch (const WatchdogError& e) {
    EXPECT_NE(std::string(e.what()).find("limit: the step model needs 80.1 MiB for this alltoall on the 64x64 torus "
                                         "(16777216 blocks tracked"),
              std::string::npos)
        << e.what();
    EXPECT_NE(std::string(e.what()).find("64.0 MiB is the limit"), std::string::npos) << e.what();
  }
  // Counting only: 2^24 nodes of 32 ports are 2 GiB of link counters.
  const std::vector<int> wide = {2, 2, 2, 2, 2, 2, 2, 2, 4, 4, 4, 4, 4, 4, 4, 4};
  h.dims = wide;
  o.track_blocks = false;
  o.memory_limit_bytes = uint64_t{1} << 30;
  const Topology wide_topo(wide, true);
  StepModel counted(wide_topo, o);
  EXPECT_THROW(counted.begin(h), WatchdogError);
}

TEST(StepModel, DeliveriesBeyond64BitsAreBadInput) {
  const Topology topo({4096, 4096}, true);
  EXPECT_THROW(BlockSpace(Collective::kAllgather, topo, 1 << 30, 0), InputError);
  EXPECT_EQ(BlockSpace(Collective::kAllgather, topo, 1 << 16, 0).expected_deliveries(),
            ((uint64_t{1} << 24) - 1) << 40);
}

TEST(StepModel, CycleSumsBeyond64BitsAreBadInputNamingTheStep) {
  const Topology topo({3}, true);
  const std::string text = header("3 torus") + "step\n0 -> 1 x+ | 0>1..2\nend\n";
  const std::string path = testing::write_temp("overflow.sched", text);
  for (int which = 0; which < 2; ++which) {
    StepModelOptions o;
    o.origin = path;
    if (which == 0) o.cost.ts_cycles = ~uint64_t{0};                 // t_s + flits wraps
    else o.cost.block_bytes = 0xffffffffu, o.cost.flit_bytes = 1;        // fits: 2 x (2^32 - 1) bytes
    StepModel m(topo, o);
    if (which == 1) {
      read_schedule(path, &topo, m);
      EXPECT_EQ(m.result().step_model_cycles, 100u + 2 * 0xffffffffull);
      continue;
    }
    try {
      read_schedule(path, &topo, m);
      FAIL() << "no error";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(path + ":6: step 1: the cycles"), std::string::npos) << e.what();
    }
  }
}

}  // namespace
}  // namespace torx::sw
