// SPDX-License-Identifier: Apache-2.0
// Hardwired gossip (--gossip-hw; docs/gossip.md, "Hardwired forwarding"), kernel-free: the routers
// forward every oblivious gossip by its forwarding images and deliver exactly what the
// schedule-driven run delivers (every piece at every node once); the counts of the result add up;
// the same inputs give the same run with one thread or two; a damaged image is refused when it is
// loaded, and an image that drops a rule leaves the run stalled with a report of what is missing.
#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "algorithms/meyer_sibeyn.hpp"
#include "core/errors.hpp"
#include "model_test_util.hpp"
#include "models/cosim.hpp"
#include "models/port_router.hpp"

namespace torx::model {
namespace {

using sw::Topology;
using testing::generate;

struct Case {
  std::string algo;
  Topology topo;
};

// Every algorithm with forwarding tables, in 2D and 3D, on the small sizes its theorem accepts.
std::vector<Case> cases() {
  const std::vector<Topology> candidates = {Topology({4, 4}, true), Topology({6, 4}, true), Topology({5, 7}, true),
                                            Topology({8, 6}, true), Topology({4, 4, 4}, true),
                                            Topology({3, 3, 3}, true), Topology({6, 6, 6}, true)};
  std::vector<Case> out;
  for (const sw::Algorithm& a : sw::algorithms()) {
    if (!a.gossip_plan) continue;
    int twod = 0, threed = 0;
    for (const Topology& t : candidates) {
      try {
        a.check(t, {});
      } catch (const sw::InputError&) {
        continue;
      }
      int& n = t.ndims() == 2 ? twod : threed;
      if (n >= 2) continue;
      ++n;
      out.push_back({a.id, t});
    }
    EXPECT_GE(twod, 1) << a.id << ": no 2D size among the candidates";
    EXPECT_GE(threed, 1) << a.id << ": no 3D size among the candidates";
  }
  return out;
}

CycleOptions options(const sw::ForwardingTable* table, int threads = 1) {
  CycleOptions o;
  o.cost.block_bytes = 64;  // 4-flit packets
  o.cost.ts_cycles = 10;
  o.params.threads = threads;
  o.gossip = table;
  return o;
}

struct Figures {
  uint64_t cycles, flit_hops, host_sends, copies, deliveries;
  std::vector<uint64_t> link_flits;
  bool operator==(const Figures& o) const {
    return cycles == o.cycles && flit_hops == o.flit_hops && host_sends == o.host_sends && copies == o.copies &&
           deliveries == o.deliveries && link_flits == o.link_flits;
  }
};

Figures figures(const CycleNetwork& net) {
  const sw::CycleFigures r = net.result();
  return {r.cycles, r.flit_hops, r.gossip_host_sends, r.gossip_router_copies, r.gossip_deliveries, r.link_flits};
}

TEST(GossipHw, EveryOwnSchemeDeliversExactlyTheScheduleDrivenPieces) {
  int ran = 0;
  for (const Case& c : cases()) {
    SCOPED_TRACE(c.algo + " on the " + c.topo.to_string());
    const sw::Algorithm* a = sw::find_algorithm(c.algo);
    const sw::GossipPlan plan = a->gossip_plan(c.topo, {});
    const sw::Schedule s = generate(c.algo, c.topo);

    CycleNetwork driven(s, c.topo, options(nullptr));
    driven.run();
    const sw::CheckResult dc = sw::check_delivery(driven.memory());
    ASSERT_TRUE(dc.ok);

    CycleNetwork hw(s, c.topo, options(&plan.table));
    ASSERT_TRUE(hw.gossip_hw());
    hw.run();
    const sw::CheckResult hc = sw::check_delivery(hw.memory());
    EXPECT_TRUE(hc.ok) << (hc.examples.empty() ? "" : hc.examples[0]);
    EXPECT_EQ(hc.expected, dc.expected);
    EXPECT_EQ(hc.delivered, dc.delivered);
    EXPECT_EQ(hc.duplicated, 0u);

    const sw::CycleFigures r = hw.result();
    const uint64_t n = static_cast<uint64_t>(c.topo.nodes());
    const uint64_t pieces = static_cast<uint64_t>(s.header.pieces);
    EXPECT_TRUE(r.gossip_hw);
    EXPECT_EQ(r.gossip_deliveries, n * (n - 1) * pieces) << "every foreign piece at every node, once";
    // The interfaces inject their injection lists and the prologue's blocks; nothing else.
    uint64_t sends = 0;
    for (const auto& inj : plan.table.inject) sends += inj.size();
    for (const sw::PrologueMessage& p : plan.table.prologue) sends += p.blocks.size();
    EXPECT_EQ(r.gossip_host_sends, sends);
    // Every copy a router sends on a link (host sends leave through their own router too) arrives at
    // a neighbour and is delivered there exactly once: oblivious gossip sends nothing twice.
    EXPECT_EQ(r.gossip_router_copies, r.gossip_deliveries);
    EXPECT_EQ(r.gossip_steps_equivalent, static_cast<uint64_t>(plan.table.steps));
    // Flits on links: every packet that crossed a link, packet_flits each.
    uint64_t link_sum = 0;
    for (uint64_t f : r.link_flits) link_sum += f;
    EXPECT_EQ(link_sum, r.gossip_router_copies * 4) << "4-flit packets";
    // The forwarding costs one startup at the start, not one per step.
    EXPECT_LT(r.cycles, driven.stats().last_store);
    EXPECT_GE(r.cycles, 10u + 4u);
    ++ran;
  }
  EXPECT_GE(ran, 8);
}

TEST(GossipHw, SameInputsSameRunWithOneThreadOrTwo) {
  const Topology topo({6, 6}, true);
  const sw::GossipPlan plan = sw::find_algorithm("ms-hc")->gossip_plan(topo, {});
  const sw::Schedule s = generate("ms-hc", topo);
  CycleNetwork a(s, topo, options(&plan.table));
  a.run();
  CycleNetwork b(s, topo, options(&plan.table));
  b.run();
  EXPECT_TRUE(figures(a) == figures(b));
  CycleNetwork two(s, topo, options(&plan.table, 2));
  two.fabric().scheduler().set_lanes(2, 18, 18, 18);
  two.run();
  EXPECT_TRUE(sw::check_delivery(two.memory()).ok);
  EXPECT_TRUE(figures(a) == figures(two)) << "cycles " << figures(a).cycles << " vs " << figures(two).cycles;
}

// Gossip mode through the port-level boundary (the RTL's, torx cosim's): a network of C++ routers in
// port mode runs exactly as the fast path, and a lock-step pair of them agrees on every output and
// register (gossip_targets_q and gossip_rr_q included) in every cycle.
TEST(GossipHw, PortLevelRoutersRunExactlyAsTheFastPathAndAgreeInLockStep) {
  const CppRouterFactory cpp{RouterConfig{}};
  const LockstepFactory pairs(cpp, cpp);
  for (const auto& [algo, topo] : {std::pair<std::string, Topology>{"ms-hc", Topology({6, 6}, true)},
                                   {"ms-one", Topology({4, 4}, true)},
                                   {"ms-hc", Topology({3, 3, 3}, true)}}) {
    SCOPED_TRACE(algo + " on the " + topo.to_string());
    const sw::GossipPlan plan = sw::find_algorithm(algo)->gossip_plan(topo, {});
    const sw::Schedule s = generate(algo, topo);
    CycleNetwork fast(s, topo, options(&plan.table));
    fast.run();
    CycleNetwork ports(s, topo, options(&plan.table), true, &cpp);
    ports.run();
    EXPECT_TRUE(sw::check_delivery(ports.memory()).ok);
    EXPECT_TRUE(figures(fast) == figures(ports)) << "cycles " << figures(fast).cycles << " vs " << figures(ports).cycles;
    CycleNetwork lock(s, topo, options(&plan.table), true, &pairs);
    lock.run();  // a difference would throw LockstepMismatch
    EXPECT_TRUE(figures(fast) == figures(lock));
    const LockstepCoverage cov = fabric_coverage(lock.fabric());
    EXPECT_GT(cov.cycles, 0u);
  }
}

TEST(GossipHw, ADamagedImageIsRefusedWhenLoaded) {
  const Topology topo({4, 4}, true);
  const sw::GossipPlan plan = sw::find_algorithm("ms-hc")->gossip_plan(topo, {});
  const sw::Schedule s = generate("ms-hc", topo);
  struct Damage {
    const char* what;
    std::function<void(std::vector<GossipImage>&)> edit;
    const char* message;
  };
  const std::vector<Damage> damages = {
      {"a flipped bit", [](std::vector<GossipImage>& im) { im[5][6] ^= 0x100; }, "checksum"},
      {"another node's image", [](std::vector<GossipImage>& im) { std::swap(im[2], im[3]); }, "is for node"},
      {"a port out of range, resealed",
       [](std::vector<GossipImage>& im) {
         im[1][5] = (im[1][5] & ~0xff00u) | (7u << 8);
         seal_gossip_image(im[1]);  // rewrites the checksum word
       },
       "port"},
      {"a truncated image", [](std::vector<GossipImage>& im) { im[0].resize(3); }, "shorter"},
  };
  for (const Damage& d : damages) {
    SCOPED_TRACE(d.what);
    CycleOptions o = options(&plan.table);
    o.edit_gossip = d.edit;
    try {
      CycleNetwork net(s, topo, o);
      ADD_FAILURE() << "loaded";
    } catch (const sw::InputError& e) {
      EXPECT_NE(std::string(e.what()).find(d.message), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("gossip image of node"), std::string::npos) << e.what();
    }
  }
}

TEST(GossipHw, ADroppedRuleStallsTheRunAndTheReportSaysWhatIsMissing) {
  const Topology topo({4, 4}, true);
  const sw::GossipPlan plan = sw::find_algorithm("ms-hc")->gossip_plan(topo, {});
  const sw::Schedule s = generate("ms-hc", topo);
  CycleOptions o = options(&plan.table);
  o.params.watchdog_cycles = 200;
  o.edit_gossip = [](std::vector<GossipImage>& im) {
    // Node 5 forgets its first rule (a consistent, sealed image that forwards too little).
    const uint32_t rules = im[5][2] >> 8;
    ASSERT_GT(rules, 1u);
    im[5].erase(im[5].begin() + 5, im[5].begin() + 7);
    im[5][2] = (im[5][2] & 0xffu) | ((rules - 1) << 8);
    seal_gossip_image(im[5]);
  };
  CycleNetwork net(s, topo, o);
  EXPECT_THROW(net.run(), sw::WatchdogError);
  const std::string report = net.stall_report();
  EXPECT_NE(report.find("packets stored"), std::string::npos) << report;
  const sw::CheckResult c = sw::check_delivery(net.memory());
  EXPECT_FALSE(c.ok);
  EXPECT_GT(c.missing, 0u);
  EXPECT_EQ(c.duplicated, 0u);
}

}  // namespace
}  // namespace torx::model
