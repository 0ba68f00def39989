// `torx run --model cycle` as users run it: every registered algorithm checks ok at a small size;
// the cycle formula holds through the CLI on contention-free schedules with barriers; the result
// document carries the cycle model's figures; the same inputs give the same cycles and the same
// byte-identical VCD; a deadlock exits 3 with every stuck worm on standard error; corruption exits 1;
// options the cycle model does not offer exit 2 with a message naming them.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <chrono>
#include <fmt/format.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>

#include "app/report.hpp"
#include "cli_runner.hpp"
#include "model_test_util.hpp"

namespace torx::model {
namespace {

using nlohmann::json;
using sw::Topology;

using testing::Cli;

Cli torx(const std::string& args, int timeout_s = 300) { return testing::run_torx(args, timeout_s); }

std::optional<std::pair<std::string, bool>> small_topology(const sw::Algorithm& a) {
  const std::vector<std::pair<std::string, bool>> candidates = {
      {"8", false}, {"9", false}, {"4x4", false}, {"8x8", false}, {"5x5", false}, {"4x4", true},
      {"4x4x4", false}, {"8x8x8", false}, {"2x2x2x2", false}};
  for (const auto& [dims, mesh] : candidates) {
    try {
      sw::AlgorithmOptions o;
      a.check(Topology::parse(dims, mesh), o);
      return std::pair{dims, mesh};
    } catch (const sw::PreconditionError&) {
    }
  }
  return std::nullopt;
}

std::vector<std::string> algorithm_ids() {
  std::vector<std::string> ids;
  for (const sw::Algorithm& a : sw::algorithms()) ids.push_back(a.id);
  return ids;
}

class EveryAlgorithm : public ::testing::TestWithParam<std::string> {};

TEST_P(EveryAlgorithm, ChecksOkInTheCycleModel) {
  const sw::Algorithm& a = *sw::find_algorithm(GetParam());
  const auto topo = small_topology(a);
  ASSERT_TRUE(topo) << a.id << ": no small topology meets its preconditions";
  // Large instances (c64 needs 512 nodes) run with one-flit blocks to stay quick.
  const Topology t = Topology::parse(topo->first, topo->second);
  const std::string blocks = t.nodes() > 64 ? " --block-bytes 16" : "";
  const Cli r = torx("run " + a.id + " --topo " + topo->first + (topo->second ? " --mesh" : "") + blocks +
                     " --model cycle --json -");
  ASSERT_EQ(r.code, 0) << r.err << r.out.substr(0, 2000);
  const json j = json::parse(r.out);
  EXPECT_EQ(j["model"], "cycle");
  EXPECT_TRUE(j["check"]["ok"].get<bool>());
  EXPECT_GE(j["cycles"].get<uint64_t>(), j["timing"]["step_model_cycles"].get<uint64_t>());
  EXPECT_GT(j["sim"]["flit_hops"].get<uint64_t>(), 0u);
  EXPECT_EQ(j["sim"]["router_cycles"].get<uint64_t>() % static_cast<uint64_t>(t.nodes()), 0u);
  EXPECT_EQ(j["cycle_model"]["link_flits"].size(), static_cast<size_t>(t.link_count()));
}

INSTANTIATE_TEST_SUITE_P(Registry, EveryAlgorithm, ::testing::ValuesIn(algorithm_ids()),
                         [](const ::testing::TestParamInfo<std::string>& i) {
                           std::string n = i.param;
                           for (char& c : n)
                             if (!isalnum(static_cast<unsigned char>(c))) c = '_';
                           return n;
                         });

// The contention-free cycle formula of docs/cycle-model.md, computed here from the schedule.
uint64_t formula(const sw::Schedule& s, const Topology& topo, uint64_t ts, uint32_t block_bytes) {
  const sw::NetworkParams p;
  const sw::BlockSpace space(s.header.collective, topo, s.header.pieces, s.header.root);
  uint64_t total = 0;
  for (const sw::Step& st : s.steps) {
    uint64_t worst = 0;
    for (const sw::Message& m : st.messages) {
      const uint64_t flits = std::max<uint64_t>(1, (sw::message_blocks(space, st, m) * block_bytes + 15) / 16);
      worst = std::max(worst, flits + topo.route_hops(m.src, m.dst, m.route) * uint64_t(p.link_latency + p.router_latency));
    }
    total += st.messages.empty() ? 1 : ts + worst + 2 * p.local_latency + p.router_latency;
  }
  const uint64_t B = 2 * build_barrier_tree(topo).height * p.barrier_hop_latency + 2;
  return total + (s.steps.size() - 1) * (B - 1);
}

TEST(CycleCli, FormulaHoldsOnRingAndT4WithBarriersEverywhere) {
  for (const auto& [algo, dims] : {std::pair{"ring", "16"}, std::pair{"t4", "8x8"}, std::pair{"t1", "4x6"}}) {
    if (!sw::find_algorithm(algo)) continue;
    const Topology topo = Topology::parse(dims, false);
    sw::Schedule s = testing::generate(algo, topo);
    for (sw::Step& st : s.steps) st.sync = sw::SyncMark::kBarrier;
    // Write the schedule with a barrier at every boundary and run the file through the CLI.
    const std::string path = testing::temp_path(std::string(algo) + ".sched");
    {
      sw::ScheduleWriter w(path);
      s.replay(w);
    }
    const Cli r = torx("run --schedule " + path + " --topo " + dims + " --model cycle --json -");
    ASSERT_EQ(r.code, 0) << r.err;
    const json j = json::parse(r.out);
    ASSERT_EQ(j["link_conflicts"].get<int>(), 0) << algo << " must be contention-free";
    const uint64_t want = formula(s, topo, 100, 64);
    EXPECT_EQ(j["cycles"].get<uint64_t>(), want) << algo << " on " << dims;
    EXPECT_EQ(j["cycle_model"]["predicted_cycles"].get<uint64_t>(), want);
    EXPECT_EQ(j["cycle_model"]["blocked_cycles"].get<uint64_t>(), 0u);
    EXPECT_EQ(j["cycle_model"]["barriers"].get<size_t>(), s.steps.size() - 1);
  }
}

TEST(CycleCli, DoneWhenCommandsCheckOk) {
  for (const char* args : {"t4 --topo 16x16", "ring --topo 64", "direct --topo 16x16"}) {
    const std::string a = args;
    if (!sw::find_algorithm(a.substr(0, a.find(' ')))) continue;
    const Cli r = torx(std::string("run ") + args + " --model cycle --json -");
    ASSERT_EQ(r.code, 0) << args << "\n" << r.err;
    const json j = json::parse(r.out);
    EXPECT_TRUE(j["check"]["ok"].get<bool>()) << args;
    EXPECT_EQ(j["schema"], "torx.result/1");
    for (const char* key : {"params", "predicted_cycles", "barriers", "barrier_latency", "step_start", "step_end",
                            "link_flits", "blocked_cycles", "injection_stall_cycles", "mean_buffer_flits",
                            "max_vc_occupancy", "router_evaluations", "load_seconds", "run_seconds"})
      EXPECT_TRUE(j["cycle_model"].contains(key)) << key;
  }
}

TEST(CycleCli, SameInputsSameCyclesAndByteIdenticalTrace) {
  const std::string a = testing::temp_path("a.vcd"), b = testing::temp_path("b.vcd");
  const Cli r1 = torx("run direct --topo 4x3 --model cycle --seed 7 --json - --trace " + a);
  const Cli r2 = torx("run direct --topo 4x3 --model cycle --seed 7 --json - --trace " + b);
  ASSERT_EQ(r1.code, 0) << r1.err;
  ASSERT_EQ(r2.code, 0) << r2.err;
  const json j1 = json::parse(r1.out), j2 = json::parse(r2.out);
  EXPECT_EQ(j1["cycles"], j2["cycles"]);
  EXPECT_EQ(j1["cycle_model"]["link_flits"], j2["cycle_model"]["link_flits"]);
  EXPECT_EQ(j1["cycle_model"]["step_end"], j2["cycle_model"]["step_end"]);
  std::ifstream fa(a, std::ios::binary), fb(b, std::ios::binary);
  const std::string va((std::istreambuf_iterator<char>(fa)), {}), vb((std::istreambuf_iterator<char>(fb)), {});
  EXPECT_GT(va.size(), 1000u);
  EXPECT_TRUE(va == vb) << "the VCD differs between two runs of the same inputs";
  const Cli r3 = torx("run direct --topo 4x3 --model cycle --seed 8 --json -");
  EXPECT_EQ(json::parse(r3.out)["cycles"], j1["cycles"]) << "content does not change timing";
}

TEST(CycleCli, DeadlockExitsThreeWithEveryStuckWorm) {
  const std::string path = testing::temp_path("deadlock.sched");
  std::ofstream(path) << testing::ring_all_to_all_plus(8);
  const Cli r = torx("run --schedule " + path +
                     " --topo 8 --model cycle --block-bytes 512 --ts 0 --param dateline=0 --param vcs_per_class=2 "
                     "--watchdog 300");
  EXPECT_EQ(r.code, 3) << r.err;
  EXPECT_NE(r.err.find("stopped: watchdog: no flit moved for 300 cycles"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("head: flit"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("waiting for a free VC"), std::string::npos) << r.err;
  // The same schedule with the dateline completes.
  const Cli ok = torx("run --schedule " + path + " --topo 8 --model cycle --block-bytes 512 --ts 0 --json -");
  EXPECT_NE(ok.code, 3) << ok.err;
  EXPECT_EQ(json::parse(ok.out)["check"]["missing"].get<int>(), 0);
}

TEST(CycleCli, CorruptionExitsOne) {
  const std::string path = testing::temp_path("corrupt.sched");
  std::ofstream(path) << testing::header("3") << "step\n0 -> 1 x+ fault=corrupt | 0>1\n1 -> 2 x+ | 1>2\n2 -> 0 x+ | 2>0\n"
                      << "step\n0 -> 2 x- | 0>2\n1 -> 0 x- | 1>0\n2 -> 1 x- | 2>1\nend\n";
  const Cli r = torx("run --schedule " + path + " --topo 3 --model cycle --json -");
  EXPECT_EQ(r.code, 1) << r.err;
  EXPECT_EQ(json::parse(r.out)["check"]["corrupted"].get<int>(), 1);
}

TEST(CycleCli, OptionsTheCycleModelDoesNotOfferExitTwo) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"run direct --topo 4 --model cycle --sync bogus", "--sync bogus: must be"},
      {"run direct --topo 4 --model cycle --trace-routers 0", "--trace-routers"},
#ifdef TORX_HAVE_RTL
      // Any shape is built on demand; a radix above the SV's routing table is not (docs/rtl.md, "Limits").
      {"run direct --topo 300 --model rtl", "the RTL router's routing table holds radices up to 256"},
#else
      // A build configured with -DTORX_BUILD_RTL=OFF has no rtl model at all: it says so (exit 2).
      {"run direct --topo 4 --model rtl", "--model rtl: this build has no Verilated RTL model"},
#endif
      {"run direct --topo 4 --trace x.vcd", "--trace"},
      {"run direct --topo 4 --watchdog 10", "--watchdog"},
      {"run direct --topo 4 --model cycle --param bogus=1", "--param bogus=1: unknown network parameter 'bogus'"},
      {"run direct --topo 4 --model cycle --param buffer_depth=0", "buffer_depth"},
      // Issue 33 item 7: a parameter given twice is refused, not the last value silently kept.
      {"run direct --topo 4 --model cycle --param buffer_depth=4 --param buffer_depth=6",
       "--param buffer_depth: given twice (buffer_depth=4, then buffer_depth=6)"},
      {"run direct --topo 4 --model cycle --watchdog 10 --param watchdog_cycles=20",
       "--watchdog and --param watchdog_cycles set the same parameter"},
      {"run direct --topo 4 --model cycle --flit-bytes 33", "--flit-bytes 33"},
      {"run direct --topo 4 --model cycle --gossip-hw", "--gossip-hw"},
      {"run ms-hc --topo 4x4 --gossip-hw", "the step model has no routers"},
      {"run ms-hc --topo 4x4 --model cycle --gossip-hw --sync local", "--sync does not apply"},
      {"run ms-hc --topo 4x4 --model cycle --gossip-hw --ports one", "all-port allgather"},
      {"run ms-hc --topo 4x4 --model cycle --gossip-tables x", "only with --gossip-hw"},
      {"run ms-hc --topo 4x4 --model cycle --gossip-hw --gossip-tables /", "is a directory"},
      {"run ms-hc --topo 4x4 --model cycle --gossip-hw --param buffer_depth=7", "below two packets of 4 flits"},
  };
  // A build without the Verilated RTL (-DTORX_BUILD_RTL=OFF) refuses --model rtl as a whole.
  const bool have_rtl = torx("cosim --help").code == 0;
  for (const auto& [args, needle] : cases) {
    const Cli r = torx(args);
    EXPECT_EQ(r.code, 2) << args << "\n" << r.err;
    const bool rtl = args.find("--model rtl") != std::string::npos;
    const std::string want = rtl && !have_rtl ? "this build has no Verilated RTL model" : needle;
    EXPECT_NE(r.err.find(want), std::string::npos) << args << "\n" << r.err;
  }
}

// Hardwired gossip through the CLI (docs/gossip.md, "Hardwired forwarding"): the routers forward
// ms-hc and ms-one by themselves and deliver what the schedule-driven run delivers; the document's
// gossip_hw counts add up; the tables torx tables writes load into the routers and give the same
// run; damaged or foreign tables are refused with exit 2 before anything runs.
TEST(CycleCli, GossipHwDeliversTheScheduleDrivenPiecesWithOneStartup) {
  for (const std::string algo : {"ms-hc", "ms-one"}) {
    SCOPED_TRACE(algo);
    const Cli driven = torx("run " + algo + " --topo 8x8 --model cycle --json -");
    const Cli hw = torx("run " + algo + " --topo 8x8 --model cycle --gossip-hw --json -");
    ASSERT_EQ(driven.code, 0) << driven.err;
    ASSERT_EQ(hw.code, 0) << hw.err;
    const json d = json::parse(driven.out), h = json::parse(hw.out);
    EXPECT_FALSE(d.contains("gossip_hw"));
    EXPECT_TRUE(h["check"]["ok"].get<bool>());
    EXPECT_EQ(h["check"]["delivered"], d["check"]["delivered"]);
    EXPECT_EQ(h["check"]["expected"], d["check"]["expected"]);
    const json& g = h["gossip_hw"];
    const uint64_t pieces = h["pieces"].get<uint64_t>();
    EXPECT_EQ(g["deliveries"].get<uint64_t>(), 64u * 63u * pieces);
    EXPECT_EQ(g["router_copies"].get<uint64_t>(), g["deliveries"].get<uint64_t>());
    EXPECT_GE(g["host_sends"].get<uint64_t>(), 64u);
    EXPECT_LE(g["host_sends"].get<uint64_t>(), 64u * pieces * 2);
    EXPECT_EQ(g["steps_equivalent"].get<uint64_t>(), d["steps"].get<uint64_t>());
    // One startup of 100 cycles instead of one per step.
    EXPECT_LT(h["cycles"].get<uint64_t>() * 4, d["cycles"].get<uint64_t>());
  }
}

// Gossip routers store two whole packets per input buffer; with room for one, a ring of full
// buffers deadlocked (found by scripts/gossip_hw_study.py: 12-flit packets in 12-flit buffers). The
// default depth grows to two packets; an explicit smaller one is refused (above).
TEST(CycleCli, GossipHwBuffersHoldTwoPacketsOfAnySize) {
  for (const std::string ts : {"0", "1000"}) {
    const Cli r = torx("run ms-one --topo 8x8 --model cycle --gossip-hw --block-bytes 1024 --ts " + ts + " --json -");
    ASSERT_EQ(r.code, 0) << r.err;
    const json j = json::parse(r.out);
    EXPECT_TRUE(j["check"]["ok"].get<bool>());
    EXPECT_EQ(j["cycle_model"]["params"]["buffer_depth"].get<int>(), 128);
  }
  const Cli explicit_depth =
      torx("run ms-hc --topo 8x8 --model cycle --gossip-hw --block-bytes 192 --param buffer_depth=24 --json -");
  ASSERT_EQ(explicit_depth.code, 0) << explicit_depth.err;
  EXPECT_TRUE(json::parse(explicit_depth.out)["check"]["ok"].get<bool>());
}

TEST(CycleCli, GossipTablesFromAFileLoadIntoTheRoutersOrAreRefused) {
  const std::string tables = testing::temp_path("ms-hc-6x6.tables");
  ASSERT_EQ(torx("tables ms-hc --topo 6x6 -o " + tables).code, 0);
  const Cli own = torx("run ms-hc --topo 6x6 --model cycle --gossip-hw --json -");
  const Cli file = torx("run ms-hc --topo 6x6 --model cycle --gossip-hw --gossip-tables " + tables + " --json -");
  ASSERT_EQ(own.code, 0) << own.err;
  ASSERT_EQ(file.code, 0) << file.err;
  EXPECT_EQ(json::parse(own.out)["cycles"], json::parse(file.out)["cycles"]);
  EXPECT_EQ(json::parse(own.out)["gossip_hw"], json::parse(file.out)["gossip_hw"]);

  std::ifstream in(tables);
  std::stringstream ss;
  ss << in.rdbuf();
  const std::string text = ss.str();
  // The first forwarding rule of node 0: "R 0 in out first last".
  const size_t r = text.find("\nR 0 ");
  ASSERT_NE(r, std::string::npos);
  const size_t eol = text.find('\n', r + 1);
  std::istringstream rule(text.substr(r + 1, eol - r - 1));
  std::string tag;
  int node, in_port, out_port;
  long first, last;
  rule >> tag >> node >> in_port >> out_port >> first >> last;
  const auto with_rule = [&](const std::string& name, const std::string& line) {
    const std::string path = testing::temp_path(name);
    std::ofstream(path) << text.substr(0, r + 1) << line << text.substr(eol);
    return path;
  };
  const std::vector<std::pair<std::string, std::string>> bad = {
      // A window cut short: pieces stop travelling, the check of the tables finds them missing.
      {with_rule("short.tables", fmt::format("R 0 {} {} {} {}", in_port, out_port, first, first)),
       "do not deliver every piece exactly once"},
      // An output port the torus does not have.
      {with_rule("port.tables", fmt::format("R 0 {} 9 {} {}", in_port, first, last)), "not a network port"},
      // The line is not a rule.
      {with_rule("garbled.tables", "R 0 x"), "line"},
  };
  for (const auto& [path, needle] : bad) {
    const Cli c = torx("run ms-hc --topo 6x6 --model cycle --gossip-hw --gossip-tables " + path);
    EXPECT_EQ(c.code, 2) << path << "\n" << c.err;
    EXPECT_NE(c.err.find(needle), std::string::npos) << path << "\n" << c.err;
  }
  // Tables of another torus or another algorithm's piece count.
  const std::string other = testing::temp_path("ms-one-6x6.tables");
  ASSERT_EQ(torx("tables ms-one --topo 6x6 -o " + other).code, 0);
  const Cli pieces = torx("run ms-hc --topo 6x6 --model cycle --gossip-hw --gossip-tables " + other);
  EXPECT_EQ(pieces.code, 2);
  EXPECT_NE(pieces.err.find("pieces per node"), std::string::npos) << pieces.err;
  const Cli torus = torx("run ms-hc --topo 6x8 --model cycle --gossip-hw --gossip-tables " + tables);
  EXPECT_EQ(torus.code, 2);
  EXPECT_NE(torus.err.find("the tables are for the 6x6 torus"), std::string::npos) << torus.err;
}

TEST(CycleCli, AllPortInterfacesOverrideTheScheduleModel) {
  // direct is a one-port schedule; --ports all gives every node one injection and one ejection
  // channel per direction: the same blocks arrive, no later than through one channel.
  const Cli one = torx("run direct --topo 4x4 --model cycle --json -");
  const Cli all = torx("run direct --topo 4x4 --model cycle --ports all --json -");
  ASSERT_EQ(one.code, 0) << one.err;
  ASSERT_EQ(all.code, 0) << all.err;
  const json j1 = json::parse(one.out), ja = json::parse(all.out);
  EXPECT_EQ(ja["ports"], "all");
  EXPECT_TRUE(ja["check"]["ok"].get<bool>());
  EXPECT_LE(ja["cycles"].get<uint64_t>(), j1["cycles"].get<uint64_t>());
}

TEST(CycleCli, SyncNoneRunsWithoutBarriers) {
  const Cli r = torx("run direct --topo 4x4 --model cycle --sync none --json -");
  ASSERT_EQ(r.code, 0) << r.err;
  const json j = json::parse(r.out);
  EXPECT_EQ(j["sync"], "none");
  EXPECT_EQ(j["cycle_model"]["barriers"].get<int>(), 0);
  EXPECT_TRUE(j["check"]["ok"].get<bool>());
}

// Issue 33 item 1: when the priority throttle leaves the lowest level fewer slots than a packet
// (4-flit buffers, 4 levels: one slot for 4-flit packets; t4 16x16 then takes 1.71 x the barrier's
// cycles), the run warns on stderr and in the document, naming what to raise; with a packet's worth
// (the default 8-flit buffers, or 7) and in other modes it says nothing and "warnings" is empty.
TEST(CycleCli, PriorityThrottleStarvingTheLowestLevelWarns) {
  const Cli r = torx("run t4 --topo 4x4 --model cycle --sync priority --param buffer_depth=4 --json -");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.err.find("torx: warning: --sync priority: the throttle leaves the lowest of 4 priority levels 1 of "
                       "the 4 slots"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("fewer than a packet of 4 flits"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("--param buffer_depth=7 or more"), std::string::npos) << r.err;
  const json j = json::parse(r.out);
  ASSERT_EQ(j["warnings"].size(), 1u);
  EXPECT_NE(j["warnings"][0].get<std::string>().find("buffer_depth=7"), std::string::npos);
  EXPECT_TRUE(j["check"]["ok"].get<bool>());

  // Larger blocks make the packet longer: 128-byte blocks are 8 flits, the default buffer keeps 5.
  const Cli big = torx("run t4 --topo 4x4 --model cycle --sync priority --block-bytes 128 --json -");
  ASSERT_EQ(big.code, 0) << big.err;
  EXPECT_NE(big.err.find("fewer than a packet of 8 flits"), std::string::npos) << big.err;
  EXPECT_NE(big.err.find("--param buffer_depth=11 or more"), std::string::npos) << big.err;
  // Fewer levels or a smaller reserve are offered when they would do.
  const Cli lv = torx("run t4 --topo 4x4 --model cycle --sync priority --param buffer_depth=8 --param priority_reserve=3 "
                      "--param priority_levels=3 --json -");
  ASSERT_EQ(lv.code, 0) << lv.err;
  EXPECT_NE(lv.err.find("--param buffer_depth=10 or more, or priority_levels=2 or fewer, or priority_reserve=2 or less"),
            std::string::npos)
      << lv.err;

  for (const char* quiet : {"--sync priority --param buffer_depth=7", "--sync priority", "--sync barrier --param buffer_depth=4"}) {
    const Cli q = torx(fmt::format("run t4 --topo 4x4 --model cycle {} --json -", quiet));
    ASSERT_EQ(q.code, 0) << quiet << ": " << q.err;
    EXPECT_EQ(q.err.find("warning"), std::string::npos) << quiet << ": " << q.err;
    EXPECT_TRUE(json::parse(q.out)["warnings"].empty()) << quiet;
  }
}

// Issue 33 item 6: rates only for runs long enough to measure (a run of 0.000 s reported 127.49 M
// router-cycles/s). The summary's line follows the document's run_seconds: below 0.01 s the time and
// the words, from it the rates.
TEST(CycleCli, RatesOnlyAboveAMeasurableTime) {
  EXPECT_EQ(app::rate_text(0.0, 1000, 2000), " (too short for a rate: rates from 0.010 s)");
  EXPECT_EQ(app::rate_text(0.009, 1000, 2000), " (too short for a rate: rates from 0.010 s)");
  EXPECT_EQ(app::rate_text(0.5, 2000000, 1000000), ": 4.00 M router-cycles/s, 2.00 M flit-hops/s");
  EXPECT_EQ(app::rate_text(0.5, 2000000, std::nullopt), ": 4.00 M router-cycles/s");
  for (const char* run : {"ring --topo 4", "t4 --topo 16x16"}) {
    const std::string doc = testing::temp_path("rates.json");
    const Cli r = torx(fmt::format("run {} --model cycle --json {}", run, doc));
    ASSERT_EQ(r.code, 0) << r.err;
    std::ifstream in(doc);
    const double secs = json::parse(in)["cycle_model"]["run_seconds"].get<double>();
    const bool rated = r.out.find("M router-cycles/s") != std::string::npos;
    EXPECT_EQ(rated, secs >= app::kMinRateSeconds) << run << ": " << secs << " s\n" << r.out;
    EXPECT_EQ(r.out.find("too short for a rate") != std::string::npos, !rated) << r.out;
  }
}

// Issue 17 item 3: the cycle model skips the cycles in which nothing is due, so a startup of 10^9
// cycles costs nothing (it used to clock every idle cycle: 9 minutes for this run). With barriers
// between steps, each of the ring's 4 steps pays t_s once more: the cycles grow by exactly 4 x the
// difference in t_s.
TEST(CycleCli, HugeStartupIsSkippedNotClocked) {
  const Cli small = torx("run ring --topo 8 --model cycle --ts 1000 --json -");
  const Cli huge = torx("run ring --topo 8 --model cycle --ts 1000000000 --json -", 60);
  ASSERT_EQ(small.code, 0) << small.err;
  ASSERT_EQ(huge.code, 0) << huge.err;
  const json a = json::parse(small.out), b = json::parse(huge.out);
  EXPECT_EQ(b["cycles"].get<uint64_t>(), a["cycles"].get<uint64_t>() + 4 * (1000000000ull - 1000));
  EXPECT_EQ(b["cycle_model"]["router_evaluations"], a["cycle_model"]["router_evaluations"]);
  EXPECT_TRUE(b["check"]["ok"].get<bool>());
}

// Without a trace the network is self-timed (it waits in simulated time for the next cycle anything
// is due in); with one it is clocked on every edge. Every result is the same.
TEST(CycleCli, SelfTimedAndClockedRunsAgree) {
  const std::string trace = testing::temp_path("clocked.vcd");
  const Cli self = torx("run t4 --topo 4x4 --model cycle --ts 300 --json -");
  const Cli clocked = torx("run t4 --topo 4x4 --model cycle --ts 300 --json - --trace " + trace);
  ASSERT_EQ(self.code, 0) << self.err;
  ASSERT_EQ(clocked.code, 0) << clocked.err;
  json a = json::parse(self.out), b = json::parse(clocked.out);
  for (json* j : {&a, &b}) {
    (*j)["cycle_model"].erase("load_seconds");
    (*j)["cycle_model"].erase("run_seconds");
    j->erase("sim");
    j->erase("trace");
  }
  EXPECT_EQ(a, b);
}

// Issue 17, item 13: one thread unless asked (on a loaded 2-core machine two were 1.6 to 5 times
// slower); --param threads=2 asks for two, and the figures are the same.
TEST(CycleCli, OneThreadUnlessAsked) {
  const Cli one = torx("run t4 --topo 8x8 --model cycle --json -");
  const Cli two = torx("run t4 --topo 8x8 --model cycle --param threads=2 --json -");
  ASSERT_EQ(one.code, 0) << one.err;
  ASSERT_EQ(two.code, 0) << two.err;
  json a = json::parse(one.out), b = json::parse(two.out);
  EXPECT_EQ(a["cycle_model"]["threads"], 1);
  EXPECT_EQ(a["cycle_model"]["params"]["threads"], 1);
  EXPECT_EQ(b["cycle_model"]["threads"], 2);
  EXPECT_EQ(a["cycles"], b["cycles"]);
  EXPECT_EQ(a["cycle_model"]["link_flits"], b["cycle_model"]["link_flits"]);
  const Cli help = torx("run --help-params");
  EXPECT_NE(help.out.find("2 idle cores) [default 1; 0..2]"), std::string::npos) << help.out;
}

// Progress off a terminal (a log file, mpirun's forwarding): whole lines every TORX_PROGRESS seconds,
// the document unchanged; a value that is not a number of seconds is exit 2 naming the variable.
TEST(CycleCli, ProgressLinesOffATerminalOnlyWhenAsked) {
  const Cli plain = torx("run t4 --topo 8x8 --model cycle --json -");
  const Cli lines = testing::run_torx("run t4 --topo 8x8 --model cycle --json -", 120, "TORX_PROGRESS=1", "progress");
  ASSERT_EQ(plain.code, 0) << plain.err;
  ASSERT_EQ(lines.code, 0) << lines.err;
  EXPECT_EQ(plain.err.find("[torx]"), std::string::npos) << plain.err;
  EXPECT_EQ(lines.err.rfind("[torx] step 1/", 0), 0u) << lines.err;
  const size_t cycle = lines.err.find("[torx] cycle ");
  ASSERT_NE(cycle, std::string::npos) << lines.err;
  EXPECT_NE(lines.err.find(" messages delivered\n", cycle), std::string::npos) << lines.err;
  EXPECT_EQ(lines.err.find('\r'), std::string::npos) << lines.err;
  EXPECT_EQ(testing::figures(json::parse(plain.out)), testing::figures(json::parse(lines.out)));
  for (const char* bad : {"0", "abc", "5s", "1e9"}) {
    const Cli r = testing::run_torx("run t4 --topo 8x8 --model cycle", 60, std::string("TORX_PROGRESS=") + bad, "progress_bad");
    EXPECT_EQ(r.code, 2) << bad;
    EXPECT_NE(r.err.find("TORX_PROGRESS='" + std::string(bad) + "'"), std::string::npos) << r.err;
  }
}

// Issue 17, item 8: the waveform is written beside the target and renamed over it, so only a
// regular file (or a new name in a directory that exists) is taken: a device or a directory is
// refused and left as it was, a missing directory is exit 2 with the operating system's reason.
// (Issue 31: the temporary file is .NAME.torx-XXXXXX.vcd, so FILE.vcd is no longer touched.)
TEST(CycleCli, TraceTargetsThatAreNotFilesAreRefused) {
  struct stat before {};
  ASSERT_EQ(::stat("/dev/null", &before), 0);
  const std::string dir = testing::temp_path("trace_dir");
  ASSERT_EQ(std::system(("mkdir -p " + dir).c_str()), 0);
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"/dev/null", "--trace /dev/null: not a regular file (a device)"},
      {dir, "not a regular file (a directory)"},
      {"/nonexistent/run.vcd", "--trace /nonexistent/run.vcd: cannot create it: No such file or directory"},
  };
  for (const auto& [target, needle] : cases) {
    const Cli r = torx("run ring --topo 8 --model cycle --trace " + target);
    EXPECT_EQ(r.code, 2) << target << "\n" << r.err;
    EXPECT_NE(r.err.find(needle), std::string::npos) << target << "\n" << r.err;
  }
  struct stat after {};
  ASSERT_EQ(::stat("/dev/null", &after), 0);
  EXPECT_TRUE(S_ISCHR(after.st_mode));
  EXPECT_EQ(before.st_rdev, after.st_rdev);
  // A plain name without .vcd is written and renamed to exactly that name.
  const std::string plain = testing::temp_path("plain_trace");
  const Cli ok = torx("run ring --topo 8 --model cycle --trace " + plain);
  ASSERT_EQ(ok.code, 0) << ok.err;
  struct stat st {};
  EXPECT_EQ(::stat(plain.c_str(), &st), 0);
  EXPECT_TRUE(S_ISREG(st.st_mode));
  EXPECT_NE(::stat((plain + ".vcd").c_str(), &st), 0);
}

// Issue 17, item 18: torx plot on a cycle-model run: every link of the torus, every step with its
// part beyond the step model's cost, the barriers between the steps.
TEST(CycleCli, PlotDrawsTheRunsLinksAndSteps) {
  const std::string doc = testing::temp_path("plot.json");
  ASSERT_EQ(torx("run t4 --topo 4x4 --model cycle --json " + doc).code, 0);
  const Cli links = torx("plot links " + doc + " -o -");
  ASSERT_EQ(links.code, 0) << links.err;
  auto count = [](const std::string& text, const std::string& what) {
    size_t n = 0;
    for (size_t p = text.find(what); p != std::string::npos; p = text.find(what, p + 1)) ++n;
    return n;
  };
  EXPECT_EQ(count(links.out, "class=\"link\""), 64u);
  std::ifstream in(doc);
  const json j = json::parse(in);
  uint64_t busiest = 0;
  for (const json& f : j["cycle_model"]["link_flits"]) busiest = std::max(busiest, f.get<uint64_t>());
  EXPECT_NE(links.out.find("busiest " + std::to_string(busiest) + ","), std::string::npos);
  const Cli steps = torx("plot steps " + doc + " -o -");
  ASSERT_EQ(steps.code, 0) << steps.err;
  EXPECT_EQ(count(steps.out, "class=\"step\""), j["steps"].get<size_t>());
  EXPECT_EQ(count(steps.out, "class=\"barrier\""), j["cycle_model"]["barriers"].get<size_t>());
  EXPECT_NE(steps.out.find(std::to_string(j["cycle_model"]["blocked_cycles"].get<uint64_t>()) + " VC-cycles blocked"),
            std::string::npos);
  const Cli c3 = torx("run c1 --topo 4x4x4 --model cycle --json " + doc);
  ASSERT_EQ(c3.code, 0) << c3.err;
  const Cli cube = torx("plot links " + doc + " -o -");
  ASSERT_EQ(cube.code, 0) << cube.err;
  EXPECT_EQ(count(cube.out, "class=\"link\""), 384u);
  EXPECT_EQ(count(cube.out, ">z = "), 4u);
  // Issue 33 item 5: the caption says what synchronized the steps in the mode that ran (it said
  // "0 barriers of 34 cycles" under --sync priority).
  const std::vector<std::pair<std::string, std::string>> captions = {
      {"barrier", "barriers of "}, {"priority", "; no barriers: 4 priority levels, "},
      {"local", "; no barriers: "}, {"software", " software barriers"}, {"none", "; no synchronization (--sync none)"}};
  for (const auto& [sync, words] : captions) {
    ASSERT_EQ(torx("run t4 --topo 4x4 --model cycle --sync " + sync + " --json " + doc).code, 0) << sync;
    const Cli p = torx("plot steps " + doc + " -o -");
    ASSERT_EQ(p.code, 0) << p.err;
    const std::string caption = p.out.substr(p.out.find("<text x=\"10\" y=\"38\">"), 200);
    EXPECT_NE(caption.find(words), std::string::npos) << sync << ": " << caption;
    if (sync != "barrier") {
      EXPECT_EQ(caption.find("barriers of"), std::string::npos) << sync << ": " << caption;
    }
  }
}

// Issue 17, item 4: the cycle model estimates its bytes before it allocates. A broadcast on the
// 1024x1024 torus (about 64 GiB) stops at once with exit 3 and names the limit, under the default
// limit and under an address-space limit of 1 GiB (nothing large was allocated first).
TEST(MemoryLimit, HugeNetworkStopsBeforeAllocating) {
  const auto t0 = std::chrono::steady_clock::now();
  const Cli r = torx("run tsay-wang --topo 1024x1024 --model cycle", 60);
  EXPECT_EQ(r.code, 3) << r.err;
  EXPECT_NE(r.err.find("limit: the cycle model of the 1024x1024 torus needs about"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("--max-memory SIZE"), std::string::npos) << r.err;
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), 20.0);
  const std::string err = testing::temp_path("huge.err");
  const int st = std::system(("bash -c 'ulimit -v 1048576; timeout 60 " + std::string(TORX_BIN) +
                              " run tsay-wang --topo 1024x1024 --model cycle 2>" + err + "'").c_str());
  ASSERT_TRUE(WIFEXITED(st));
  EXPECT_EQ(WEXITSTATUS(st), 3);
  std::ifstream e(err);
  std::stringstream se;
  se << e.rdbuf();
  EXPECT_NE(se.str().find("the address-space limit leaves (ulimit -v 1048576)"), std::string::npos) << se.str();
}

// The estimate follows what a run really takes: each run passes under a limit 30% above its peak
// resident set and stops (exit 3, before it runs) under one at half of it.
TEST(MemoryLimit, EstimateFollowsThePeakResidentSet) {
  for (const std::string args : {"t4 --topo 16x16 --model cycle", "direct --topo 12x12 --model cycle --ports all",
                                 "ms-hc --topo 16x16 --model cycle", "tsay-wang --topo 32x32 --model cycle --block-bytes 16"}) {
    const Cli free_run = torx("run " + args + " --json -");
    ASSERT_EQ(free_run.code, 0) << args << ": " << free_run.err;
    const uint64_t peak = json::parse(free_run.out)["sim"]["peak_rss_bytes"].get<uint64_t>();
    const Cli above = torx("run " + args + " --max-memory " + std::to_string(peak * 13 / 10));
    EXPECT_EQ(above.code, 0) << args << " (peak " << peak << "): " << above.err;
    const Cli below = torx("run " + args + " --max-memory " + std::to_string(peak / 2));
    EXPECT_EQ(below.code, 3) << args << " (peak " << peak << "): " << below.err;
    EXPECT_NE(below.err.find("(--max-memory)"), std::string::npos) << below.err;
  }
}

// Issue 31, item 6: a waveform that cannot be written whole is exit 2 with the reason, and no file.
// Runs a shell script with TORX set; returns the exit code, standard error in `err`.
int sh_torx(const std::string& script, std::string& err) {
  const std::string file = testing::temp_path("trace.sh"), e = testing::temp_path("trace.sh.err");
  std::ofstream(file) << "TORX=" << TORX_BIN << "\n" << script << "\n";
  const int st = std::system(("bash " + file + " >/dev/null 2>" + e).c_str());
  std::ifstream in(e);
  std::stringstream ss;
  ss << in.rdbuf();
  err = ss.str();
  return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

TEST(CycleCli, TraceThatCannotBeWrittenWholeIsExitTwo) {
  const std::string dir = testing::temp_path("trace_full");
  ASSERT_EQ(std::system(("rm -rf " + dir + "; mkdir -p " + dir).c_str()), 0);
  std::string err;
  // A file-size limit (as a full disk: every write after it fails): SystemC's writer says nothing,
  // the check of the finished file does. Before issue 31: exit 0 and a cut-off VCD.
  EXPECT_EQ(sh_torx("ulimit -f 64; $TORX run ring --topo 64 --model cycle --trace " + dir + "/t.vcd", err), 2) << err;
  EXPECT_NE(err.find("--trace " + dir + "/t.vcd: write error: File too large"), std::string::npos) << err;
  // A full file system, where one can be mounted (a 64 KiB tmpfs; needs root).
  const std::string mnt = dir + "/tiny";
  if (std::system(("mkdir -p " + mnt + " && mount -t tmpfs -o size=64k tmpfs " + mnt + " 2>/dev/null").c_str()) == 0) {
    EXPECT_EQ(sh_torx("$TORX run ring --topo 64 --model cycle --trace " + mnt + "/t.vcd", err), 2) << err;
    EXPECT_NE(err.find("write error: No space left on device"), std::string::npos) << err;
    EXPECT_EQ(sh_torx("ls -A " + mnt + " | grep . && exit 1; exit 0", err), 0) << "files left on the full disk";
    EXPECT_EQ(std::system(("umount " + mnt).c_str()), 0);
  }
  // /proc/version is a regular file that cannot be replaced: exit 2 before the run (was exit 4,
  // "internal error: SystemC: ...").
  EXPECT_EQ(sh_torx("$TORX run ring --topo 8 --model cycle --trace /proc/version", err), 2) << err;
  EXPECT_NE(err.find("--trace /proc/version: cannot create it"), std::string::npos) << err;
  struct stat st {};
  EXPECT_NE(::stat((dir + "/t.vcd").c_str(), &st), 0);
  EXPECT_EQ(sh_torx("ls -A " + dir + " | grep torx- && exit 1; exit 0", err), 0) << "temporary files left";
}

TEST(CycleCli, InterruptedTraceLeavesNoFile) {
  // A traced run of some seconds, stopped by SIGINT: no VCD, no temporary file (issue 31, item 5:
  // 34-48 MB partial VCDs were left).
  const std::string dir = testing::temp_path("trace_killed");
  ASSERT_EQ(std::system(("rm -rf " + dir + "; mkdir -p " + dir).c_str()), 0);
  std::string err;
  const int code = sh_torx("set -m; $TORX run direct --topo 16x16 --model cycle --trace " + dir + "/t.vcd & pid=$!; "
                           "for i in $(seq 300); do sleep 0.1; ls -A " + dir + " | grep -q torx- && break; done; "
                           "sleep 1; kill -INT $pid; wait $pid; exit $?", err);
  EXPECT_EQ(code, 128 + 2) << err;
  EXPECT_EQ(sh_torx("ls -A " + dir + " | grep . && exit 1; exit 0", err), 0) << "files left";
}

}  // namespace
}  // namespace torx::model
