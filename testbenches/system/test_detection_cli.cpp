// Second, system-level detections of faults that one unit test each used to catch alone (issue 34):
// a whole run, through the torx command or a whole cycle-model network, whose result changes when
// the fault is there. A one-port receive conflict is counted in the result document. In the step and
// the cycle model's documents: a piece sent back to its source is a duplicate, a block left at the
// wrong node is misdelivered, corruption on the first hop of a relay reaches the destination,
// corruption on both hops stays corruption. A block forwarded in the step it arrives is refused with
// exit 2 naming the line. Two words swapped in a block that a network run delivered make the checker
// report it corrupted (block content depends on the word index, so a packetizer that misplaced
// words would be seen).
#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "cli_runner.hpp"
#include "model_test_util.hpp"

namespace torx::model {
namespace {

using nlohmann::json;
using testing::Cli;

Cli torx(const std::string& args) { return testing::run_torx(args, 120); }

std::string write(const std::string& name, const std::string& text) {
  const std::string path = testing::temp_path(name);
  std::ofstream(path) << text;
  return path;
}

const std::string kBroadcast4 =
    "torx-schedule 1\ncollective broadcast\ntopology 4 torus\nports all\nswitching wormhole\npieces 1\nroot 0\n";

TEST(DetectionCli, APieceSentBackToItsSourceIsADuplicateInEveryModel) {
  const std::string path = write("back.sched", kBroadcast4 + "step\n0 -> 1 x+ | #0\n0 -> 3 x- | #0\n"
                                                             "step\n1 -> 2 x+ | #0\n3 -> 0 x+ | #0\nend\n");
  for (const char* model : {"step", "cycle"}) {
    SCOPED_TRACE(model);
    const Cli r = torx("run --schedule " + path + " --topo 4 --model " + model + " --json -");
    EXPECT_EQ(r.code, 1) << r.err;
    const json j = json::parse(r.out);
    EXPECT_FALSE(j["check"]["ok"].get<bool>());
    EXPECT_EQ(j["check"]["duplicated"], 1);
    EXPECT_EQ(j["check"]["delivered"], 3);
    EXPECT_EQ(j["check"]["missing"], 0);
    EXPECT_NE(j["check"]["examples"][0].get<std::string>().find("node 0 received piece 0"), std::string::npos) << r.out;
  }
}

// Node 0 sends its block for node 1 to node 2 with the one for node 2 (a complete exchange on a
// ring of three): misdelivered, and so missing at node 1.
TEST(DetectionCli, ABlockLeftAtTheWrongNodeIsMisdeliveredInEveryModel) {
  const std::string path =
      write("mis.sched", testing::header("3") + "step\n1 -> 2 x+ | 1>2\n2 -> 0 x+ | 2>0\n"
                                                "step\n0 -> 2 x- | 0>1..2\n1 -> 0 x- | 1>0\n2 -> 1 x- | 2>1\nend\n");
  for (const char* model : {"step", "cycle"}) {
    SCOPED_TRACE(model);
    const Cli r = torx("run --schedule " + path + " --topo 3 --model " + model + " --json -");
    EXPECT_EQ(r.code, 1) << r.err;
    const json j = json::parse(r.out);
    EXPECT_EQ(j["check"]["misdelivered"], 1) << r.out;
    EXPECT_EQ(j["check"]["missing"], 1) << r.out;
    EXPECT_EQ(j["check"]["delivered"], 5) << r.out;
    EXPECT_NE(j["check"]["examples"][0].get<std::string>().find("block (0)->(1) ended at node 2"), std::string::npos);
  }
}

// Two messages into one node in one step: a port conflict on one-port nodes, none on all-port ones
// (each arrives on its own link). The result document counts it and names the node.
TEST(DetectionCli, TwoReceivesInOneStepAreAOnePortConflict) {
  const std::string path = write("recv.sched", testing::header("4") + "step\n0 -> 1 x+ | 0>1\n2 -> 1 x- | 2>1\nend\n");
  const Cli one = torx("run --schedule " + path + " --topo 4 --json -");
  const json j = json::parse(one.out);
  EXPECT_EQ(j["port_conflicts"], 1) << one.out;
  EXPECT_EQ(j["link_conflicts"], 0);
  EXPECT_EQ(j["conflict_examples"][0], "step 1: node 1 receives 2 messages (one-port allows one)");
  const Cli all = torx("run --schedule " + path + " --topo 4 --ports all --json -");
  EXPECT_EQ(json::parse(all.out)["port_conflicts"], 0) << all.out;
}

TEST(DetectionCli, CorruptionOnTheFirstHopOfARelayIsCaughtAtTheDestination) {
  const std::string head = testing::header("4");
  for (const bool copies : {false, true}) {
    SCOPED_TRACE(copies ? "broadcast" : "all-to-all");
    const std::string text = copies ? kBroadcast4 + "step\n0 -> 1 x+ fault=corrupt | #0\n0 -> 3 x- | #0\n"
                                                    "step\n1 -> 2 x+ | #0\nend\n"
                                    : head + "step\n0 -> 1 x+ fault=corrupt | 0>2\nstep\n1 -> 2 x+ | 0>2\nend\n";
    const std::string path = write("relay.sched", text);
    for (const char* model : {"step", "cycle"}) {
      SCOPED_TRACE(model);
      const Cli r = torx("run --schedule " + path + " --topo 4 --model " + model + " --json -");
      EXPECT_EQ(r.code, 1) << r.err;
      const json j = json::parse(r.out);
      // The relayed copy at node 2 is corrupted (and, for the broadcast, node 1's own copy).
      EXPECT_EQ(j["check"]["corrupted"], copies ? 2 : 1) << r.out;
    }
  }
}

// Corrupted on both hops of the relay: still one corrupted block (corruption is sticky: the second
// fault sets bit 0 to the wrong value again rather than flipping it back).
TEST(DetectionCli, ABlockCorruptedOnTwoHopsStaysCorrupted) {
  const std::string path = write("twice.sched", testing::header("4") + "step\n0 -> 1 x+ fault=corrupt | 0>2\n"
                                                                      "step\n1 -> 2 x+ fault=corrupt | 0>2\nend\n");
  for (const char* model : {"step", "cycle"}) {
    SCOPED_TRACE(model);
    const Cli r = torx("run --schedule " + path + " --topo 4 --model " + model + " --json -");
    EXPECT_EQ(r.code, 1) << r.err;
    EXPECT_EQ(json::parse(r.out)["check"]["corrupted"], 1) << r.out;
  }
}

TEST(DetectionCli, ABlockForwardedInTheStepItArrivesIsRefused) {
  const std::string moved = write("same.sched", testing::header("4") + "step\n0 -> 1 x+ | 0>2\n1 -> 2 x+ | 0>2\nend\n");
  const std::string copied = write("bsame.sched", kBroadcast4 + "step\n0 -> 1 x+ | #0\n1 -> 2 x+ | #0\nend\n");
  for (const char* model : {"step", "cycle"}) {
    SCOPED_TRACE(model);
    const Cli a = torx("run --schedule " + moved + " --topo 4 --model " + model);
    EXPECT_EQ(a.code, 2) << a.out << a.err;
    EXPECT_NE(a.err.find("same.sched:8: node 1 sends block (0)->(2) which it receives only in this step"),
              std::string::npos)
        << a.err;
    const Cli b = torx("run --schedule " + copied + " --topo 4 --model " + model);
    EXPECT_EQ(b.code, 2) << b.out << b.err;
    EXPECT_NE(b.err.find("bsame.sched:10: node 1 sends piece 0 which it does not hold at the start of step"),
              std::string::npos)
        << b.err;
  }
}

// A cycle-model run of direct on a 4x4 torus delivers every block; then two 8-byte words of one
// delivered block are swapped in its destination's memory, as a packetizer that put a flit's words
// in the wrong place would leave them. The checker judges content, word by word.
TEST(DetectionCli, WordsSwappedInADeliveredBlockAreCorruption) {
  const sw::Topology topo({4, 4}, true);
  const sw::Schedule s = testing::generate("direct", topo);
  for (const uint32_t words : {2u, 8u}) {
    SCOPED_TRACE(std::to_string(words) + " words per block");
    CycleOptions o;
    o.cost.block_bytes = 8 * words;
    o.cost.ts_cycles = 5;
    CycleNetwork net(s, topo, o);
    net.run();
    ASSERT_TRUE(sw::check_delivery(net.memory()).ok);
    const sw::BlockSpace& space = net.space();
    const sw::BlockId b = 5;  // node 0's block for node 5
    ASSERT_TRUE(space.exists(b));
    uint8_t* p = net.memory().slot(b, space.destination(b));
    uint8_t w0[8], w1[8];
    std::memcpy(w0, p + 8 * (words - 2), 8);
    std::memcpy(w1, p + 8 * (words - 1), 8);
    ASSERT_NE(std::memcmp(w0, w1, 8), 0) << "two words of a block differ";
    std::memcpy(p + 8 * (words - 2), w1, 8);
    std::memcpy(p + 8 * (words - 1), w0, 8);
    const sw::CheckResult c = sw::check_delivery(net.memory());
    EXPECT_FALSE(c.ok);
    EXPECT_EQ(c.corrupted, 1u);
    EXPECT_EQ(c.delivered, c.expected);
  }
}

}  // namespace
}  // namespace torx::model
