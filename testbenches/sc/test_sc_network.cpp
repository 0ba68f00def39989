// The SystemC model (models/sc_network.hpp): routers and interfaces are sc_modules bound to link
// channels, one clocked process steps the fabric. It must give exactly the kernel-free fabric's
// cycles, bind every port it should (and no port at a mesh edge), write a VCD in which every flit on
// every network link is visible, stop with a stuck-worm report when the network deadlocks, and fill
// the result document. One test per process (sc_test_main.cpp): SystemC elaborates once.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <sstream>
#include <systemc>

#include "model_test_util.hpp"
#include "models/router.hpp"
#include "models/sc_network.hpp"

namespace torx::model {
namespace {

using sw::Topology;

uint64_t kernel_free_cycles(const sw::Schedule& s, const Topology& topo, const CycleOptions& o, uint64_t* hops) {
  CycleNetwork k(s, topo, o);
  k.run();
  if (hops) *hops = k.fabric().flit_hops();
  return k.stats().last_store;
}

TEST(ScNetwork, ClockedModelMatchesTheKernelFreeFabricCycleForCycle) {
  const Topology topo({4, 4}, true);
  const sw::Schedule s = testing::generate("direct", topo);
  CycleOptions o;
  o.cost.block_bytes = 96;
  uint64_t kf_hops = 0;
  const uint64_t kf = kernel_free_cycles(s, topo, o, &kf_hops);

  CycleNetwork net(s, topo, o, /*connect=*/false);
  sc_core::sc_clock clk("clk", sc_core::sc_time(1, sc_core::SC_NS));
  TorusNetwork top("torx", net.fabric());
  top.clk_i(clk);
  net.fabric().start();
  while (net.fabric().status() == RunStatus::kRunning && !top.error())
    sc_core::sc_start(sc_core::sc_time(500, sc_core::SC_NS));
  ASSERT_FALSE(top.error());
  ASSERT_EQ(net.fabric().status(), RunStatus::kDone);
  EXPECT_EQ(net.stats().last_store, kf);
  EXPECT_EQ(net.fabric().flit_hops(), kf_hops);
  EXPECT_TRUE(sw::check_delivery(net.memory()).ok);
  // One rising edge per cycle from t = 0: the run paused in the cycle that stored the last block,
  // cycle kf - 1 (kf counts the cycles up to and including it).
  EXPECT_EQ(sc_core::sc_time_stamp(), sc_core::sc_time(static_cast<double>(kf - 1), sc_core::SC_NS));
}

TEST(ScNetwork, ModulesAndChannelsAreBoundAsTheTopologySays) {
  const Topology mesh({3, 2}, false);
  const sw::Schedule s = testing::generate("direct", mesh);
  CycleOptions o;
  CycleNetwork net(s, mesh, o, /*connect=*/false);
  sc_core::sc_clock clk("clk", sc_core::sc_time(1, sc_core::SC_NS));
  TorusNetwork top("torx", net.fabric());
  top.clk_i(clk);
  sc_core::sc_start(sc_core::SC_ZERO_TIME);  // completes elaboration: shells connect their blocks

  auto* r0 = dynamic_cast<RouterModule*>(sc_core::sc_find_object("torx.router_0"));
  ASSERT_NE(r0, nullptr);
  EXPECT_STREQ(r0->kind(), "torx_router");
  ASSERT_EQ(r0->in.size(), 5u);  // +x -x +y -y inj
  // Node (0,0) of a mesh: +x and +y have neighbours, -x and -y do not.
  EXPECT_EQ(r0->in[0].size(), 1);
  EXPECT_EQ(r0->in[1].size(), 0);
  EXPECT_EQ(r0->in[2].size(), 1);
  EXPECT_EQ(r0->in[3].size(), 0);
  EXPECT_EQ(r0->in[4].size(), 1);
  EXPECT_EQ(r0->out[1].size(), 0);
  const auto& router0 = dynamic_cast<const Router&>(net.fabric().router(0));
  EXPECT_NE(router0.input_link(0), nullptr) << "bound ports connect the block";
  EXPECT_EQ(router0.input_link(1), nullptr);
  auto* link = sc_core::sc_find_object("torx.link_0_px");
  ASSERT_NE(link, nullptr);
  EXPECT_STREQ(link->kind(), "torx_link");
  EXPECT_EQ(sc_core::sc_find_object("torx.link_0_nx"), nullptr) << "no channel across a mesh edge";
  auto* ni = dynamic_cast<NiModule*>(sc_core::sc_find_object("torx.ni_5"));
  ASSERT_NE(ni, nullptr);
  EXPECT_EQ(ni->inj.size(), 1u);
  EXPECT_EQ(ni->inj[0].size(), 1);
  EXPECT_EQ(ni->ej[0].size(), 1);
  // All shells connected: running it delivers everything.
  net.fabric().start();
  while (net.fabric().status() == RunStatus::kRunning) sc_core::sc_start(sc_core::sc_time(500, sc_core::SC_NS));
  EXPECT_TRUE(sw::check_delivery(net.memory()).ok);
}

// Parses a VCD and returns, per signal name (scope.signal), the number of cycles it was 1.
std::map<std::string, uint64_t> high_cycles(const std::string& path, uint64_t units_per_cycle) {
  std::ifstream in(path);
  std::string line, scope;
  std::map<std::string, std::string> name_of;  // id -> name
  std::map<std::string, int> value;
  std::map<std::string, uint64_t> since, high;
  uint64_t now = 0;
  while (std::getline(in, line)) {
    std::istringstream ls(line);
    std::string tok;
    ls >> tok;
    if (tok == "$scope") {
      std::string kind;
      ls >> kind >> scope;
    } else if (tok == "$var") {
      std::string type, width, id, name;
      ls >> type >> width >> id >> name;
      name_of[id] = scope + "." + name;
    } else if (!tok.empty() && tok[0] == '#') {
      now = std::stoull(tok.substr(1));
    } else if (!tok.empty() && (tok[0] == '0' || tok[0] == '1') && name_of.count(tok.substr(1))) {
      const std::string id = tok.substr(1);
      const int v = tok[0] - '0';
      if (value[id] == 1 && v == 0) high[name_of[id]] += (now - since[id]) / units_per_cycle;
      if (value[id] == 0 && v == 1) since[id] = now;
      value[id] = v;
    }
  }
  return high;
}

TEST(ScNetwork, VcdShowsEveryFlitOnEveryNetworkLink) {
  const Topology topo({3, 3}, true);
  const sw::Schedule s = testing::generate("direct", topo);
  CycleOptions o;
  o.trace = testing::temp_path("direct.vcd");
  CycleNetwork net(s, topo, o, /*connect=*/false);
  const sw::CycleFigures rep = run_cycle_model(net, o);
  ASSERT_TRUE(sw::check_delivery(net.memory()).ok);
  ASSERT_GT(rep.flit_hops, 0u);
  // Time unit 100 ps, one cycle = 1 ns = 10 units.
  const std::map<std::string, uint64_t> high = high_cycles(o.trace, 10);
  uint64_t on_links = 0, signals = 0;
  for (const auto& [name, cycles] : high)
    if (name.rfind("link_", 0) == 0 && name.find(".flit_valid") != std::string::npos) {
      on_links += cycles;
      ++signals;
    }
  EXPECT_GT(signals, 0u);
  EXPECT_EQ(on_links, rep.flit_hops) << "each flit-hop is one cycle of flit_valid on one link";
  std::ifstream in(o.trace);
  std::string head((std::istreambuf_iterator<char>(in)), {});
  EXPECT_NE(head.find("date omitted"), std::string::npos) << "reproducible header";
  EXPECT_NE(head.find("credit_valid"), std::string::npos);
}

TEST(ScNetwork, DeadlockInsideTheKernelStopsWithAStuckWormReport) {
  const Topology ring({8}, true);
  const sw::Schedule s = testing::parse_schedule(testing::ring_all_to_all_plus(8), ring);
  CycleOptions o;
  o.cost.block_bytes = 512;
  o.cost.ts_cycles = 0;
  o.params.dateline = false;
  o.params.vcs_per_class = 2;
  o.params.watchdog_cycles = 200;
  CycleNetwork net(s, ring, o, /*connect=*/false);
  try {
    run_cycle_model(net, o);
    FAIL() << "expected the watchdog";
  } catch (const sw::WatchdogError& e) {
    const std::string r = e.what();
    EXPECT_NE(r.find("watchdog: no flit moved for 200 cycles"), std::string::npos) << r;
    EXPECT_NE(r.find("head: flit"), std::string::npos) << r;
  }
}

TEST(ScNetwork, RunReturnsTheFiguresOfTheRun) {
  const Topology ring({16}, true);
  const sw::Schedule s = testing::generate("ring", ring);
  CycleOptions o;
  const uint64_t kf = kernel_free_cycles(s, ring, o, nullptr);
  uint64_t progress_calls = 0;
  o.progress = [&](const Progress& p) {
    ++progress_calls;
    EXPECT_LE(p.messages_done, p.messages);
  };
  CycleNetwork net(s, ring, o, /*connect=*/false);
  const sw::CycleFigures c = run_cycle_model(net, o);
  EXPECT_EQ(c.cycles, kf);
  EXPECT_TRUE(sw::check_delivery(net.memory()).ok);
  EXPECT_GT(progress_calls, 0u) << "the model reports progress through the callback";
  uint64_t sum = 0;
  for (uint64_t f : c.link_flits) sum += f;
  EXPECT_EQ(sum, c.flit_hops);
  EXPECT_EQ(c.link_flits.size(), static_cast<size_t>(ring.link_count()));
  EXPECT_EQ(c.router_cycles, 16 * c.cycles);
  ASSERT_EQ(c.step_end.size(), s.steps.size());
  EXPECT_EQ(c.step_end.back(), static_cast<int64_t>(c.cycles));
  EXPECT_EQ(c.barrier_latency, 2u * 8 + 2);
  EXPECT_GT(c.run_seconds, 0.0);
}

// The SystemC run leaves no process-wide state behind: the report handler it installs for the run is
// the one installed before it once it returns (an embedding program keeps its own).
TEST(ScNetwork, RunRestoresTheReportHandler) {
  static int calls = 0;
  const auto mine = [](const sc_core::sc_report&, const sc_core::sc_actions&) { ++calls; };
  const sc_core::sc_report_handler_proc before = sc_core::sc_report_handler::set_handler(mine);
  const Topology ring({4}, true);
  const sw::Schedule s = testing::generate("ring", ring);
  CycleOptions o;
  CycleNetwork net(s, ring, o, /*connect=*/false);
  run_cycle_model(net, o);
  EXPECT_EQ(sc_core::sc_report_handler::set_handler(before), static_cast<sc_core::sc_report_handler_proc>(mine));
}

}  // namespace
}  // namespace torx::model
