// SPDX-License-Identifier: Apache-2.0
// `torx run --model rtl` and `torx cosim` as users run them (label rtl): every registered algorithm
// on a network of Verilated routers and barrier units gives the cycle model's figures, figure for
// figure, and the same link waveform byte for byte; a deadlock on the RTL stops with exit 3 naming
// the stuck worms; --trace-routers writes the routers' register waveforms; torx cosim's exit codes
// and result document; torx traffic --model rtl gives the cycle model's document.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "algorithms/registry.hpp"
#include "cli_runner.hpp"
#include "model_test_util.hpp"

namespace torx::model {
namespace {

using nlohmann::json;

using testing::Cli;

Cli torx(const std::string& args, int timeout_s = 580) { return testing::run_torx(args, timeout_s); }

using testing::figures;

struct Case {
  const char* algo;
  const char* args;  // topology and options
};

// One small size per registered algorithm (the test below fails if one is missing).
const Case kCases[] = {
    {"direct", "--topo 4x4"},
    {"ring", "--topo 8"},
    {"t1", "--topo 4x4"},
    {"c1", "--topo 4x4x4"},
    {"tseng-dd", "--topo 4x3x2"},
    {"t4", "--topo 4x4"},
    {"c64", "--topo 8x8x8 --block-bytes 16 --ts 20"},
    {"suh", "--topo 4x4 --mesh"},
    {"tsay-wang", "--topo 4x4"},
    {"dimak-a2", "--topo 4x6"},
    {"dimak-a3", "--topo 4x4"},
    {"ms-hc", "--topo 4x4"},
    {"ms-hc-steps", "--topo 5x4"},
    {"ms-hc-hd", "--topo 4x4"},
    {"ms-one", "--topo 4x4"},
};

TEST(RtlCli, EveryRegisteredAlgorithmHasAnIdentityCase) {
  std::set<std::string> covered;
  for (const Case& c : kCases) covered.insert(c.algo);
  for (const sw::Algorithm& a : sw::algorithms()) EXPECT_TRUE(covered.count(a.id)) << a.id << " has no RTL identity case";
}

// A GoogleTest name from an algorithm id: '-' is not allowed there.
std::string test_name(std::string n) {
  for (char& ch : n)
    if (ch == '-') ch = '_';
  return n;
}

class Identity : public ::testing::TestWithParam<Case> {};

TEST_P(Identity, RtlNetworkGivesTheCycleModelsFigures) {
  const Case& c = GetParam();
  const std::string base = std::string("run ") + c.algo + " " + c.args + " --json - ";
  const Cli cyc = torx(base + "--model cycle");
  const Cli rtl = torx(base + "--model rtl");
  ASSERT_EQ(cyc.code, 0) << cyc.err;
  ASSERT_EQ(rtl.code, 0) << rtl.err;
  const json a = json::parse(cyc.out), b = json::parse(rtl.out);
  EXPECT_EQ(b["model"], "rtl");
  EXPECT_TRUE(b["check"]["ok"].get<bool>());
  EXPECT_EQ(figures(a), figures(b)) << "cycles " << a["cycles"] << " vs " << b["cycles"];
}

INSTANTIATE_TEST_SUITE_P(Registry, Identity, ::testing::ValuesIn(kCases),
                         [](const ::testing::TestParamInfo<Case>& i) { return test_name(i.param.algo); });

// The synchronization modes of docs/sync-study.md on the RTL: null messages (local signals, the
// software barrier) are one-flit worms on the same routers, so the figures, the null messages and
// the waiting cycles must be the cycle model's.
const Case kSyncCases[] = {
    {"t4", "--topo 8x8 --sync local"},
    {"t4", "--topo 8x8 --sync software"},
    {"ring", "--topo 32 --sync local --param null_ts=10"},
    {"c1", "--topo 4x4x4 --sync software --ts 20"},
    {"tsay-wang", "--topo 5x5 --sync local"},
    {"direct", "--topo 4x4 --sync none"},
};

INSTANTIATE_TEST_SUITE_P(SyncModes, Identity, ::testing::ValuesIn(kSyncCases),
                         [](const ::testing::TestParamInfo<Case>& i) {
                           return test_name(std::string(i.param.algo) + "_" + std::to_string(i.index));
                         });

// --sync priority (docs/priority.md): the Verilated priority router (K = 4, the parameter's default;
// r2d_k4) gives the cycle model's figures, preemptions included (direct: 16), on one-port 2D tori.
const Case kPriorityCases[] = {
    {"t4", "--topo 4x4 --ts 10"},
    {"t1", "--topo 4x4 --ts 10"},
    {"direct", "--topo 4x4 --ts 10 --block-bytes 256"},
    {"dimak-a2", "--topo 4x6 --ts 10"},
};

class PriorityIdentity : public ::testing::TestWithParam<Case> {};

TEST_P(PriorityIdentity, RtlNetworkGivesTheCycleModelsFigures) {
  const Case& c = GetParam();
  const std::string base = std::string("run ") + c.algo + " " + c.args + " --sync priority --json - ";
  const Cli cyc = torx(base + "--model cycle");
  const Cli rtl = torx(base + "--model rtl");
  ASSERT_EQ(cyc.code, 0) << cyc.err;
  ASSERT_EQ(rtl.code, 0) << rtl.err;
  const json a = json::parse(cyc.out), b = json::parse(rtl.out);
  EXPECT_EQ(b["model"], "rtl");
  EXPECT_TRUE(b["check"]["ok"].get<bool>());
  EXPECT_EQ(a["cycle_model"]["priority_levels"], 4);
  if (std::string(c.algo) == "direct") {
    EXPECT_GT(a["cycle_model"]["preemptions"].get<uint64_t>(), 0u);
  }
  EXPECT_EQ(figures(a), figures(b)) << "cycles " << a["cycles"] << " vs " << b["cycles"] << ", preemptions "
                                    << a["cycle_model"]["preemptions"] << " vs " << b["cycle_model"]["preemptions"];
  std::printf("%s: %s cycles, %s preemptions\n", c.algo, a["cycles"].dump().c_str(),
              a["cycle_model"]["preemptions"].dump().c_str());
}

INSTANTIATE_TEST_SUITE_P(SyncPriority, PriorityIdentity, ::testing::ValuesIn(kPriorityCases),
                         [](const ::testing::TestParamInfo<Case>& i) { return test_name(i.param.algo); });

// Hardwired gossip on Verilated gossip routers (torx_gossip_router): the cycle model's figures,
// figure for figure (cycles, gossip_hw counts, link flits, check), in 2D and 3D.
TEST(RtlCli, GossipHwOnTheRtlGivesTheCycleModelsFigures) {
  for (const char* c : {"ms-hc --topo 8x8", "ms-one --topo 6x6", "ms-hc --topo 4x4x4 --ts 10"}) {
    SCOPED_TRACE(c);
    const std::string base = std::string("run ") + c + " --gossip-hw --json - ";
    const Cli cyc = torx(base + "--model cycle");
    const Cli rtl = torx(base + "--model rtl");
    ASSERT_EQ(cyc.code, 0) << cyc.err;
    ASSERT_EQ(rtl.code, 0) << rtl.err;
    const json a = json::parse(cyc.out), b = json::parse(rtl.out);
    EXPECT_EQ(b["model"], "rtl");
    EXPECT_TRUE(b["check"]["ok"].get<bool>());
    ASSERT_TRUE(b.contains("gossip_hw"));
    EXPECT_EQ(a["gossip_hw"], b["gossip_hw"]);
    EXPECT_EQ(figures(a), figures(b)) << "cycles " << a["cycles"] << " vs " << b["cycles"];
  }
  // Other packet lengths are built on demand (test_rtl_on_demand); a ring of 300 is beyond the SV.
  const Cli wide = torx("run ms-hc --topo 300x3 --gossip-hw --model rtl");
  EXPECT_EQ(wide.code, 2) << wide.err;
  EXPECT_NE(wide.err.find("radices up to 256"), std::string::npos) << wide.err;
}

// torx traffic --model rtl: the same document as the cycle model's but for the model's name and the
// wall times; a shape beyond the SV's limits is exit 2.
TEST(RtlCli, TrafficOnTheRtlGivesTheCycleModelsFigures) {
  const std::string base = "traffic --topo 4x4 --sweep 0.2,0.9 --warmup 200 --measure 1500 --pattern tornado --json - ";
  const Cli cyc = torx(base + "--model cycle");
  const Cli rtl = torx(base + "--model rtl");
  ASSERT_EQ(cyc.code, 0) << cyc.err;
  ASSERT_EQ(rtl.code, 0) << rtl.err;
  json a = json::parse(cyc.out), b = json::parse(rtl.out);
  EXPECT_EQ(b["model"], "rtl");
  for (json* d : {&a, &b}) {
    d->erase("model");
    d->erase("wall_seconds");
    for (json& x : (*d)["runs"]) x["sim"].erase("wall_seconds");
  }
  EXPECT_EQ(a, b);
  const Cli wide = torx("traffic --topo 300 --rate 0.1 --model rtl");
  EXPECT_EQ(wide.code, 2) << wide.err;
  EXPECT_NE(wide.err.find("radices up to 256"), std::string::npos) << wide.err;
}

// torx cosim --gossip-hw: the gossip routers in lock step with the model, 0 mismatches; the gossip
// mutant is caught in the flit's age.
TEST(RtlCli, CosimGossipHw) {
  const Cli ok = torx("cosim --topo 6x6 --traffic ms-hc --gossip-hw --json -");
  ASSERT_EQ(ok.code, 0) << ok.err;
  const json j = json::parse(ok.out);
  EXPECT_EQ(j["mismatches"], 0);
  EXPECT_EQ(j["rtl_router"], "g2d");
  EXPECT_EQ(j["traffic"], "ms-hc --gossip-hw");
  EXPECT_TRUE(j["check"]["ok"].get<bool>());
  EXPECT_GT(j["compared"].get<uint64_t>(), 1000u);
  const Cli bad = torx("cosim --topo 6x6 --traffic ms-hc --gossip-hw --mutant 1 --json -");
  ASSERT_EQ(bad.code, 1) << bad.err;
  EXPECT_EQ(json::parse(bad.out)["first_mismatch"]["field"], "flit.dest");
  const Cli random = torx("cosim --topo 4x4 --gossip-hw");
  EXPECT_EQ(random.code, 2) << random.err;
  // Buffers of two packets, as torx run settles them (app::params_as_run): a default depth grows, an
  // explicit smaller one is refused, naming it (torx cosim grew it silently before issue 21).
  const Cli small = torx("cosim --topo 6x6 --traffic ms-hc --gossip-hw --block-bytes 128 --param buffer_depth=12");
  EXPECT_EQ(small.code, 2) << small.err;
  EXPECT_NE(small.err.find("--gossip-hw: buffer_depth 12 is below two packets of 8 flits"), std::string::npos)
      << small.err;
}

TEST(RtlCli, LinkWaveformIsByteIdenticalToTheCycleModelsAndRouterWaveformsAreWritten) {
  const std::string c = testing::temp_path("cyc.vcd"), r = testing::temp_path("rtl.vcd");
  ASSERT_EQ(torx("run t4 --topo 4x4 --model cycle --trace " + c).code, 0);
  const Cli rr = torx("run t4 --topo 4x4 --model rtl --trace " + r + " --trace-routers 0,5");
  ASSERT_EQ(rr.code, 0) << rr.err;
  std::ifstream fc(c, std::ios::binary), fr(r, std::ios::binary);
  std::stringstream sc, sr;
  sc << fc.rdbuf();
  sr << fr.rdbuf();
  EXPECT_GT(sc.str().size(), 1000u);
  EXPECT_EQ(sc.str(), sr.str());
  for (const char* v : {"0", "5"}) {
    const std::string fst = r.substr(0, r.size() - 4) + ".router" + v + ".fst";
    struct stat st {};
    ASSERT_EQ(::stat(fst.c_str(), &st), 0) << fst;
    EXPECT_GT(st.st_size, 1000) << fst;
  }
  const std::string none = r.substr(0, r.size() - 4) + ".router1.fst";
  struct stat st {};
  EXPECT_NE(::stat(none.c_str(), &st), 0) << "only the routers asked for";
  EXPECT_EQ(torx("run t4 --topo 4x4 --model rtl --trace-routers 0").code, 2) << "needs --trace";
  EXPECT_EQ(torx("run t4 --topo 4x4 --model rtl --trace " + r + " --trace-routers 16").code, 2) << "no router 16";
}

TEST(RtlCli, DeadlockOnTheRtlExitsThreeWithEveryStuckWorm) {
  const std::string path = testing::temp_path("deadlock.sched");
  std::ofstream(path) << testing::ring_all_to_all_plus(8);
  const Cli r = torx("run --schedule " + path +
                     " --topo 8 --model rtl --block-bytes 512 --ts 0 --param dateline=0 --param vcs_per_class=2 "
                     "--watchdog 300");
  EXPECT_EQ(r.code, 3) << r.err;
  EXPECT_NE(r.err.find("stopped: watchdog: no flit moved for 300 cycles"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("head: flit"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("waiting for a free VC"), std::string::npos) << r.err;
  // The cycle model stops in the same cycle with the same report.
  const Cli c = torx("run --schedule " + path +
                     " --topo 8 --model cycle --block-bytes 512 --ts 0 --param dateline=0 --param vcs_per_class=2 "
                     "--watchdog 300");
  EXPECT_EQ(c.code, 3);
  EXPECT_EQ(c.err, r.err);
}

TEST(RtlCli, CosimExitCodesAndDocument) {
  const Cli ok = torx("cosim --topo 4x4 --cycles 1500 --load 0.4 --json -");
  ASSERT_EQ(ok.code, 0) << ok.err;
  const json j = json::parse(ok.out);
  EXPECT_EQ(j["schema"], "torx.cosim/1");
  for (const char* k : {"cycles", "routers", "router_cycles", "flits", "compared", "mismatches", "first_mismatch",
                        "wall_seconds"})
    EXPECT_TRUE(j.contains(k)) << k;
  EXPECT_EQ(j["mismatches"], 0);
  EXPECT_TRUE(j["first_mismatch"].is_null());
  EXPECT_EQ(j["routers"], 16);
  EXPECT_EQ(j["rtl_router"], "r2d");
  EXPECT_GT(j["compared"].get<uint64_t>(), 10000u);
  EXPECT_GT(j["coverage"]["input_vcs_full"].get<uint64_t>(), 0u);

  const Cli bad = torx("cosim --topo 4x4 --cycles 1500 --load 0.4 --mutant 3 --json -");
  ASSERT_EQ(bad.code, 1) << bad.err;
  const json m = json::parse(bad.out);
  EXPECT_EQ(m["mismatches"], 1);
  EXPECT_EQ(m["first_mismatch"]["field"], "sa_out_rr_q");
  EXPECT_NE(m["first_mismatch"]["text"].get<std::string>().find("field sa_out_rr_q: model "), std::string::npos);
  const Cli text = torx("cosim --topo 4x4 --cycles 1500 --load 0.4 --mutant 1");
  EXPECT_EQ(text.code, 1);
  EXPECT_NE(text.out.find("MISMATCH             cycle "), std::string::npos) << text.out;

  const Cli algo = torx("cosim --topo 4x4 --traffic t4 --json -");
  ASSERT_EQ(algo.code, 0) << algo.err;
  const json a = json::parse(algo.out);
  EXPECT_TRUE(a["check"]["ok"].get<bool>());
  EXPECT_GT(a["barrier"]["releases"].get<uint64_t>(), 0u);

  // Random traffic at four priority levels: the Verilated priority router, preemptions seen.
  const Cli prio = torx("cosim --topo 4x4 --cycles 2000 --load 0.6 --barrier-every 1000 --param priority_levels=4 "
                        "--json -");
  ASSERT_EQ(prio.code, 0) << prio.err;
  const json p = json::parse(prio.out);
  EXPECT_EQ(p["mismatches"], 0);
  EXPECT_EQ(p["rtl_router"], "r2d_k4");
  EXPECT_EQ(p["params"]["priority_levels"], 4);
  EXPECT_GT(p["coverage"]["output_vcs_preempted"].get<uint64_t>(), 0u) << prio.out;
  EXPECT_GT(p["coverage"]["preemptions"].get<uint64_t>(), 0u) << prio.out;

  for (const char* args : {"cosim --topo 4x4 --pattern bogus", "cosim --topo 4x4 --load 1.5",
                                  "cosim --topo 4x4 --traffic bogus", "cosim --topo 260 --cycles 10",
                                  "cosim --topo 4x4 --flit-bytes 40", "cosim --topo 4x4 --mixed-orders --traffic t4"}) {
    const Cli r = torx(args);
    EXPECT_EQ(r.code, 2) << args << "\n" << r.err;
    EXPECT_NE(r.err.find("error"), std::string::npos) << args;
  }
}

}  // namespace
}  // namespace torx::model
