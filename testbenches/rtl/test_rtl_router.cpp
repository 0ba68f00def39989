// SPDX-License-Identifier: Apache-2.0
// The Verilated router against docs/timing-contract.md, scenario by scenario through RouterCore:
// reset values, pipeline latency P, one hop L + P, credits (D flits per worm without returns, a
// credit spent in the cycle it arrives), a VC held until its tail leaves and free the next cycle,
// dateline classes, ejection channels (one-port and all-port), two VCs interleaving on one link,
// the switch allocator's output stage taking inputs in turn, fair VC allocation, blocked VC-cycles,
// waveforms. Each expectation is a cycle number or a register value the contract fixes, so a router
// off by one cycle fails.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdio>
#include <fstream>

#include "rtl_test_util.hpp"

namespace torx::rtl {
namespace {

using testing::Bench;
using testing::worm;
using S = model::RouterSnapshot;

const sw::Topology& torus4x4() {
  static const sw::Topology t({4, 4}, true);
  return t;
}
// Node (1, 1) of the 4x4 torus: +x leads to node 6 = (2, 1), -x to 4 = (0, 1), +y to 9, -y to 1.
constexpr sw::NodeId kNode = 5;
constexpr int kPx = 0, kMx = 1, kPy = 2, kLocal = 4;

// The class the C++ routing unit gives a head (the reference for every route below).
model::RoutingUnit::Result cpp_route(const sw::Topology& topo, sw::NodeId node, const model::RoutingConfig& rc,
                                     int32_t dest, uint8_t start_dim = 0, uint32_t neg_mask = 0) {
  model::RoutingUnit ru;
  ru.load(model::build_routing_image(topo, node, rc), topo, node);
  model::Flit f;
  f.dest = dest;
  f.start_dim = start_dim;
  f.neg_mask = neg_mask;
  return ru.route(f);
}

TEST(RtlRouter, EveryConfigurationResetsToTheContractsValues) {
  for (const auto& c : rtl_router_configs()) {
    SCOPED_TRACE(c.describe());
    const sw::Topology topo(std::vector<int>(static_cast<size_t>(c.shape.ndims), 4), c.shape.vc_classes % 2 == 0);
    Bench b(c, topo, 1);
    EXPECT_TRUE(b.router().quiescent());
    EXPECT_EQ(b.router().blocked(), 0u);
    const S s = b.snapshot();
    for (size_t f = 0; f < S::kFieldCount; ++f) {
      for (int64_t v : s.fields[f].values) {
        if (f == S::kOvcCredits) EXPECT_EQ(v, c.shape.buffer_depth) << s.fields[f].name;
        else if (f == S::kOvcOwner) EXPECT_EQ(v, -1) << s.fields[f].name;
        else EXPECT_EQ(v, 0) << s.fields[f].name;
      }
    }
    // Cycles without inputs change nothing.
    b.run(5);
    EXPECT_TRUE(b.departures.empty());
    model::Mismatch m;
    EXPECT_TRUE(model::compare_snapshots(b.shape(), s, b.snapshot(), m)) << m.describe("before", "after", {});
  }
}

// Every shape is built on demand; what the SV cannot hold is refused naming the limit (docs/rtl.md,
// "Limits"), before anything is built.
TEST(RtlRouter, ShapeBeyondTheSvsLimitsIsRefusedNamingTheLimit) {
  model::RouterShape s = testing::shape_of(testing::config("r2d"));
  s.vcs_per_class = 40;  // 80 lanes per port
  try {
    make_rtl_router(s, 0, torus4x4(), kNode, model::build_routing_image(torus4x4(), kNode, model::RoutingConfig{}));
    FAIL() << "no exception";
  } catch (const sw::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("80 lanes per port, the SV holds 64"), std::string::npos) << e.what();
  }
  const sw::Topology big({300, 4}, true);
  try {
    make_rtl_router(testing::shape_of(testing::config("r2d")), 0, big, 0,
                    model::build_routing_image(big, 0, model::RoutingConfig{}));
    FAIL() << "no exception";
  } catch (const sw::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("radices up to 256"), std::string::npos) << e.what();
  }
}

// A flit at an input in cycle t leaves in cycle t + P, and its slot's credit goes upstream in the same
// cycle; the body flits follow one per cycle (D = 8 >= L + P + Lc).
TEST(RtlRouter, FlitLeavesPCyclesAfterArrival) {
  for (const char* name : {"r2d", "m2d_p1", "r2d_all"}) {
    SCOPED_TRACE(name);
    const auto& c = testing::config(name);
    const sw::Topology topo({4, 4}, c.shape.vc_classes == 2);
    Bench b(c, topo, kNode);
    b.send(kLocal, worm(6, 4, 7));
    for (int t = 0; t < c.shape.pipeline; ++t) {
      b.step();
      EXPECT_FALSE(b.out(kPx).flit_valid) << "cycle " << t;
      EXPECT_FALSE(b.out(kLocal).credit_valid) << "cycle " << t;
    }
    b.step();  // cycle P: the head leaves and its slot's credit goes upstream
    EXPECT_TRUE(b.out(kPx).flit_valid);
    EXPECT_TRUE(b.out(kLocal).credit_valid);
    EXPECT_EQ(b.out(kLocal).credit_vc, 0);
    b.run(8);
    const auto d = b.departures_at(kPx);
    ASSERT_EQ(d.size(), 4u);
    const auto r = cpp_route(topo, kNode, testing::routing_config(c, topo.wrap()), 6);
    for (int i = 0; i < 4; ++i) {
      EXPECT_EQ(d[static_cast<size_t>(i)].cycle, static_cast<uint64_t>(c.shape.pipeline + i));
      const model::Flit want = testing::flit(6, i == 0, i == 3, 7, static_cast<uint32_t>(i),
                                             static_cast<uint8_t>(r.vc_class * c.shape.vcs_per_class));
      const model::Flit& got = d[static_cast<size_t>(i)].flit;
      EXPECT_EQ(got.vc, want.vc);
      EXPECT_EQ(got.kind, want.kind);
      EXPECT_EQ(got.msg, want.msg);
      EXPECT_EQ(got.seq, want.seq);
      EXPECT_EQ(got.dest, want.dest);
      for (uint32_t w = 0; w < model::kMaxFlitWords; ++w) EXPECT_EQ(got.payload[w], want.payload[w]);
    }
    EXPECT_TRUE(b.router().quiescent());
  }
}

TEST(RtlRouter, ThreeStagePipelineOnARing) {
  const auto& c = testing::config("r1d_v2");
  const sw::Topology ring({4}, true);
  Bench b(c, ring, 1);
  b.send(2, worm(2, 1, 1));
  b.run(6);
  const auto d = b.departures_at(0);
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].cycle, 3u);
  EXPECT_EQ(d[0].flit.vc / c.shape.vcs_per_class, 1);  // class 1: the path does not cross the dateline
}

// Every field of the header and the data (payload, simulation tag) crosses the router untouched
// (the flit layout, rtl_wires.hpp); the priority field exists with levels only (r2d_k4: 2 bits).
TEST(RtlRouter, HeaderAndDataCrossUntouched) {
  for (const auto& [name, level] : {std::pair<const char*, uint8_t>{"r2d", 0}, {"r2d_k4", 3}}) {
    SCOPED_TRACE(name);
    Bench b(name, torus4x4(), kNode);
    model::Flit f = testing::flit(7, true, true, 0xdeadbeef, 0x12345678, 0, 1, 0, level);
    f.payload[3] = ~uint64_t{0};
    b.send(kLocal, {f});
    b.run(4);
    const auto d = b.departures_at(kPx);  // start_dim 1: y first, but y agrees; then +x
    ASSERT_EQ(d.size(), 1u);
    EXPECT_EQ(d[0].flit.msg, 0xdeadbeefu);
    EXPECT_EQ(d[0].flit.seq, 0x12345678u);
    EXPECT_EQ(d[0].flit.priority, level);
    EXPECT_EQ(d[0].flit.start_dim, 1);
    EXPECT_EQ(d[0].flit.dest, 7);
    EXPECT_EQ(d[0].flit.payload[3], ~uint64_t{0});
    EXPECT_EQ(d[0].flit.payload[0], f.payload[0]);
    EXPECT_EQ(d[0].flit.due, 0u);
  }
}

// Two routers and a link of latency L: a flit leaves the second router L + P cycles after it left the
// first; the credit for its slot is back at the first router's counter Lc cycles after the second
// router sent it.
TEST(RtlRouter, OneHopCostsLPlusP) {
  const auto& c = testing::config("r2d");
  for (int L : {1, 3}) {
    SCOPED_TRACE(L);
    const sw::Topology& topo = torus4x4();
    const auto rc = testing::routing_config(c, true);
    auto a = make_rtl_router(testing::shape_of(c), 0, topo, 5, model::build_routing_image(topo, 5, rc));
    auto b = make_rtl_router(testing::shape_of(c), 0, topo, 6, model::build_routing_image(topo, 6, rc));
    const int np = a->shape().ports();
    std::vector<model::PortWires> ain(np), aout(np), bin(np), bout(np);
    std::vector<std::vector<model::PortWires>> a_to_b;  // aout[+x] per cycle
    std::vector<bool> b_credit;                        // bout[-x].credit_valid per cycle
    std::vector<int64_t> credits;                      // A's counter of +x VC 1 after each cycle
    uint64_t a_left = 0, b_left = 0;
    for (uint64_t t = 0; t < 30; ++t) {
      for (auto& w : ain) w = model::PortWires{};
      for (auto& w : bin) w = model::PortWires{};
      if (t == 0) {
        ain[kLocal].flit_valid = true;
        ain[kLocal].flit = testing::flit(6, true, true, 1, 0);
      }
      // A's +x output reaches B's -x input L cycles after A pushed it.
      if (t >= static_cast<uint64_t>(L)) {
        const model::PortWires& pushed = a_to_b[t - static_cast<uint64_t>(L)][kPx];
        bin[kMx].flit_valid = pushed.flit_valid;
        bin[kMx].flit = pushed.flit;
      }
      // B's credit for its -x input reaches A's +x output Lc = 1 cycle after B pushed it.
      if (t >= 1 && b_credit[t - 1]) {
        ain[kPx].credit_valid = true;
        ain[kPx].credit_vc = 1;
      }
      a->cycle(t, ain.data(), aout.data());
      b->cycle(t, bin.data(), bout.data());
      a_to_b.push_back(aout);
      b_credit.push_back(bout[kMx].credit_valid);
      if (aout[kPx].flit_valid) a_left = t;
      if (bout[kLocal].flit_valid) b_left = t;
      model::RouterSnapshot s;
      s.layout(a->shape());
      a->snapshot(s);
      credits.push_back(testing::vc_field(a->shape(), s, S::kOvcCredits, kPx, 1));
    }
    EXPECT_EQ(a_left, 2u);
    EXPECT_EQ(b_left - a_left, static_cast<uint64_t>(L + c.shape.pipeline));
    for (uint64_t t = 0; t < credits.size(); ++t) {
      const int64_t want = t >= a_left && t <= b_left ? c.shape.buffer_depth - 1 : c.shape.buffer_depth;
      EXPECT_EQ(credits[t], want) << "cycle " << t;
    }
  }
}

// Without credits returned, a worm moves exactly D flits; a credit arriving in cycle t is spent in t.
TEST(RtlRouter, CreditsLimitAWormToDFlits) {
  const auto& c = testing::config("r2d");
  Bench b(c, torus4x4(), kNode);
  b.hold_credits[kPx] = true;
  b.send(kLocal, worm(6, 12, 3));
  b.run(40);
  EXPECT_EQ(b.departures_at(kPx).size(), static_cast<size_t>(c.shape.buffer_depth));
  const S s = b.snapshot();
  EXPECT_EQ(testing::vc_field(b.shape(), s, S::kOvcCredits, kPx, 1), 0);
  EXPECT_EQ(testing::vc_field(b.shape(), s, S::kIvcState, kLocal, 0), 2);    // ACTIVE
  EXPECT_EQ(testing::vc_field(b.shape(), s, S::kIvcCount, kLocal, 0), 4);    // the rest of the worm
  EXPECT_EQ(b.router().blocked(), 1u);                                        // its front flit waits
  EXPECT_FALSE(b.router().quiescent());
  const uint64_t release = b.now();
  b.release_credits(kPx);  // the first credit arrives in cycle `release`
  b.run(20);
  const auto d = b.departures_at(kPx);
  ASSERT_EQ(d.size(), 12u);
  EXPECT_EQ(d[static_cast<size_t>(c.shape.buffer_depth)].cycle, release);
  EXPECT_TRUE(b.router().quiescent());
}

// A VC is held from head to tail; the VC a tail leaves through in cycle t is granted again in t + 1.
TEST(RtlRouter, VcHeldUntilTheTailLeavesAndFreeTheNextCycle) {
  Bench b("r2d", torus4x4(), kNode);
  const auto& sh = b.shape();
  const int ivc_west = sh.first_vc(kMx) + 1;     // input -x, VC 1
  const int ivc_inj = sh.first_vc(kLocal);       // injection
  b.send(kMx, worm(6, 2, 1, /*vc=*/1));          // B: from the -x neighbour, on to +x class 1
  b.send(kLocal, worm(6, 3, 2));                 // A: injected, +x class 1
  b.run(2);                                      // cycles 0, 1: in the pipeline
  b.step();                                      // cycle 2: both heads due; B is first from va_rr_q = 0
  S s = b.snapshot();
  EXPECT_EQ(testing::vc_field(sh, s, S::kOvcOwner, kPx, 1), ivc_west);
  EXPECT_EQ(testing::vc_field(sh, s, S::kIvcState, kLocal, 0), 1);   // WAIT_VC
  EXPECT_EQ(testing::vc_field(sh, s, S::kIvcOutPort, kLocal, 0), kPx);
  EXPECT_EQ(testing::vc_field(sh, s, S::kIvcOutClass, kLocal, 0), 1);
  EXPECT_EQ(s.fields[S::kVaRr].values[static_cast<size_t>(kPx * 2 + 1)], ivc_west + 1);
  b.step();                                      // cycle 3: B's tail leaves, the VC is still B's in 3
  s = b.snapshot();
  EXPECT_EQ(testing::vc_field(sh, s, S::kOvcOwner, kPx, 1), -1);
  EXPECT_EQ(testing::vc_field(sh, s, S::kIvcState, kMx, 1), 0);      // IDLE
  EXPECT_EQ(testing::vc_field(sh, s, S::kIvcState, kLocal, 0), 1);   // A still waits
  b.step();                                      // cycle 4: A is granted and its head leaves
  s = b.snapshot();
  EXPECT_EQ(testing::vc_field(sh, s, S::kOvcOwner, kPx, 1), ivc_inj);
  EXPECT_EQ(testing::vc_field(sh, s, S::kIvcState, kLocal, 0), 2);
  EXPECT_EQ(testing::vc_field(sh, s, S::kIvcOutVc, kLocal, 0), 1);
  b.run(5);
  const auto d = b.departures_at(kPx);
  ASSERT_EQ(d.size(), 5u);
  EXPECT_EQ(d[0].flit.msg, 1u);
  EXPECT_EQ(d[1].cycle, 3u);  // B's tail
  EXPECT_EQ(d[2].flit.msg, 2u);
  EXPECT_EQ(d[2].cycle, 4u);  // A's head, the cycle after
  EXPECT_EQ(testing::vc_field(sh, b.snapshot(), S::kOvcOwner, kPx, 1), -1);
}

// The switch allocator's output stage: two inputs whose worms hold different VCs of one output
// take turns, flit by flit (sa_out_rr_q moves to the input port after the winner).
TEST(RtlRouter, OutputStageAlternatesInputs) {
  Bench b("r2d", torus4x4(), kNode);
  const auto& sh = b.shape();
  b.send(kMx, worm(7, 4, 1, 1));     // from -x to x = 3: +x, class 1
  b.send(kLocal, worm(4, 4, 2));     // injected to x = 0: +x, class 0 (wraps)
  b.run(2);
  b.step();  // cycle 2: both granted a VC, input -x (port 1) wins the output first
  S s = b.snapshot();
  EXPECT_EQ(s.fields[S::kSaOutRr].values[static_cast<size_t>(kPx)], kMx + 1);
  b.step();  // cycle 3: the injection port
  s = b.snapshot();
  EXPECT_EQ(s.fields[S::kSaOutRr].values[static_cast<size_t>(kPx)], 0);  // after port 4: wraps to 0
  b.run(10);
  std::vector<uint32_t> order;
  for (const auto& d : b.departures_at(kPx)) order.push_back(d.flit.msg);
  const std::vector<uint32_t> want = {1, 2, 1, 2, 1, 2, 1, 2};
  EXPECT_EQ(order, want);
  EXPECT_EQ(testing::vc_field(sh, b.snapshot(), S::kOvcCredits, kPx, 0), 8);
}

// Dateline classes: class 0 while the rest of the path in the ring crosses the wrap-around link.
TEST(RtlRouter, DatelineClassesPickTheOutputVc) {
  struct Case {
    int32_t dest;
    uint32_t neg;
    int port;
    int vc;
  };
  // From x = 1: to x = 0 going + wraps (class 0), to x = 3 going + does not (1); to x = 2 going -
  // wraps (0), to x = 0 going - does not (1).
  const Case cases[] = {{4, 0, kPx, 0}, {7, 0, kPx, 1}, {6, 1, kMx, 0}, {4, 1, kMx, 1}};
  for (const Case& k : cases) {
    SCOPED_TRACE(k.dest * 10 + static_cast<int>(k.neg));
    Bench b("r2d", torus4x4(), kNode);
    b.send(kLocal, worm(k.dest, 1, 9, 0, 0, k.neg));
    b.run(4);
    const auto d = b.departures_at(k.port);
    ASSERT_EQ(d.size(), 1u);
    EXPECT_EQ(d[0].flit.vc, k.vc);
    EXPECT_EQ(cpp_route(torus4x4(), kNode, model::RoutingConfig{}, k.dest, 0, k.neg).vc_class, k.vc);
  }
}

// Ejection: a one-port router ejects on channel 0; an all-port router on the channel of the input
// direction, and a worm from an injection port on channel 0.
TEST(RtlRouter, EjectionChannels) {
  {
    Bench b("r2d", torus4x4(), kNode);
    b.send(kPy, worm(kNode, 2, 1, 1));
    b.run(5);
    EXPECT_EQ(b.departures_at(kLocal).size(), 2u);
    EXPECT_EQ(b.departures_at(kLocal)[0].flit.vc, 0);
  }
  {
    Bench b("r2d_all", torus4x4(), kNode);
    b.send(kPy, worm(kNode, 1, 1, 0));
    b.send(kMx, worm(kNode, 1, 2, 1));
    b.send(4 + 1, worm(kNode, 1, 3));  // injection channel 1
    b.run(5);
    ASSERT_EQ(b.departures_at(4 + kPy).size(), 1u);
    EXPECT_EQ(b.departures_at(4 + kPy)[0].flit.msg, 1u);
    ASSERT_EQ(b.departures_at(4 + kMx).size(), 1u);
    EXPECT_EQ(b.departures_at(4 + kMx)[0].flit.msg, 2u);
    ASSERT_EQ(b.departures_at(4).size(), 1u);
    EXPECT_EQ(b.departures_at(4)[0].flit.msg, 3u);
  }
}

// Two worms on two VCs of one input link share the output link flit by flit: the switch allocator's
// input stage rotates over the port's VCs. (Ring of 4, node 1, C = 2, V = 2: X and Y arrive from -x on
// VCs 2 and 3, class 1; Z, injected, crosses the dateline in class 0 and takes every other cycle of
// the +x output, so X and Y queue up behind it and both VCs hold flits at once.)
TEST(RtlRouter, TwoVcsInterleaveFlitByFlit) {
  const sw::Topology ring({4}, true);
  Bench b("r1d_v2", ring, 1);
  // The upstream sends X's and Y's flits in runs of three (its credits per VC), not alternating.
  std::vector<model::Flit> xy;
  const auto x = worm(3, 9, 10, 2), y = worm(3, 9, 20, 3);
  for (int run = 0; run < 3; ++run)
    for (const auto* w : {&x, &y})
      for (int i = 0; i < 3; ++i) xy.push_back((*w)[static_cast<size_t>(3 * run + i)]);
  b.send(1, xy);
  b.send(2, worm(0, 30, 30));
  b.run(80);
  std::vector<int> vcs;  // output VC of every X or Y flit, in order
  for (const auto& d : b.departures_at(0))
    if (d.flit.msg != 30) vcs.push_back(d.flit.vc);
  ASSERT_EQ(vcs.size(), 18u);
  // X's first two flits leave before Y's first arrives; from then on, with both VCs holding flits,
  // the VCs alternate, until X is done.
  const std::vector<int> want = {2, 2, 3, 2, 3, 2, 3, 2, 3, 2, 3, 2, 3, 2, 3, 2, 3, 3};
  EXPECT_EQ(vcs, want);
  // X and Y hold different VCs of class 1.
  EXPECT_EQ(std::min(vcs.front(), vcs.back()) / 2, 1);
  // Z's flits use class 0.
  for (const auto& d : b.departures_at(0))
    if (d.flit.msg == 30) {
      EXPECT_LT(d.flit.vc, 2);
    }
}

// Fair VC allocation: a head waiting for (output, class) is served after at most one worm of every
// other input asking for it. Worms stream back to back through input -x; a worm injected one cycle
// later gets the VC right after the first of them (va_rr_q moved past the -x VC).
TEST(RtlRouter, VcAllocationIsFair) {
  Bench b("r2d", torus4x4(), kNode);
  std::vector<model::Flit> stream;
  for (uint32_t k = 0; k < 6; ++k)
    for (const auto& f : worm(6, 2, 100 + k, 1)) stream.push_back(f);
  b.send(kMx, stream);
  b.step();
  b.send(kLocal, worm(6, 2, 7));
  b.run(40);
  const auto d = b.departures_at(kPx);
  ASSERT_EQ(d.size(), 14u);
  std::vector<uint32_t> heads;
  for (const auto& x : d)
    if (x.flit.head()) heads.push_back(x.flit.msg);
  ASSERT_EQ(heads.size(), 7u);
  EXPECT_EQ(heads[0], 100u);
  EXPECT_EQ(heads[1], 7u);  // the injected worm, not the stream's second
  for (const auto& x : d)
    if (x.flit.msg == 7 && x.flit.head()) {
      EXPECT_EQ(x.cycle, 4u);
    }
}

// Three inputs stream worms into one (output, class): grants rotate, nobody is served twice while
// another waits.
TEST(RtlRouter, VcGrantsRotateOverInputs) {
  Bench b("r2d", torus4x4(), kNode);
  for (int port : {kMx, kPy, kLocal}) {
    std::vector<model::Flit> stream;
    for (uint32_t k = 0; k < 4; ++k)
      for (const auto& f : worm(6, 3, static_cast<uint32_t>(port * 100) + k, port == kLocal ? 0 : 1)) stream.push_back(f);
    b.send(port, stream);
  }
  b.run(80);
  std::vector<uint32_t> owners;
  for (const auto& x : b.departures_at(kPx))
    if (x.flit.head()) owners.push_back(x.flit.msg / 100);
  ASSERT_EQ(owners.size(), 12u);
  for (size_t i = 0; i + 2 < owners.size(); ++i) {
    EXPECT_NE(owners[i], owners[i + 1]) << ::testing::PrintToString(owners);
    EXPECT_NE(owners[i], owners[i + 2]) << ::testing::PrintToString(owners);
  }
}

// stat_blocked_o: VCs whose due front flit did not leave, per cycle.
TEST(RtlRouter, BlockedCountsWaitingVcs) {
  Bench b("r2d", torus4x4(), kNode);
  b.send(kMx, worm(6, 4, 1, 1));
  b.send(kLocal, worm(6, 2, 2));
  b.send(kPy, worm(6, 2, 3, 1));
  b.step();
  b.step();
  EXPECT_EQ(b.router().blocked(), 0u);  // nothing due yet
  b.step();                              // cycle 2: three heads due, one leaves
  EXPECT_EQ(b.router().blocked(), 2u);
  b.run(30);
  EXPECT_EQ(b.router().blocked(), 0u);
  EXPECT_TRUE(b.router().quiescent());
}

// A run can write an FST waveform of one router instance.
TEST(RtlRouter, WritesAWaveform) {
  char tmpl[] = "/tmp/torx_rtl_wave_XXXXXX";
  const int fd = mkstemp(tmpl);
  ASSERT_GE(fd, 0);
  close(fd);
  const std::string path = std::string(tmpl) + ".fst";
  {
    Bench b("r2d", torus4x4(), kNode);
    b.router().open_trace(path);
    b.send(kLocal, worm(6, 3, 1));
    b.run(10);
    b.router().close_trace();
  }
  std::ifstream f(path, std::ios::binary | std::ios::ate);
  EXPECT_GT(static_cast<long>(f.tellg()), 100);
  std::remove(path.c_str());
  std::remove(tmpl);
}

// One evaluation per cycle (no waveform: hw/verilated_harness.hpp skips the falling edge's) gives
// the outputs and registers of two (a waveform open), cycle by cycle, under contention: three worms
// from three inputs for one output (the scenario of BlockedCountsWaitingVcs).
TEST(RtlRouter, OneEvaluationPerCycleEqualsTwo) {
  char tmpl[] = "/tmp/torx_rtl_wave_XXXXXX";
  const int fd = mkstemp(tmpl);
  ASSERT_GE(fd, 0);
  close(fd);
  const std::string path = std::string(tmpl) + ".fst";
  Bench one("r2d", torus4x4(), kNode), two("r2d", torus4x4(), kNode);
  two.router().open_trace(path);
  for (Bench* b : {&one, &two}) {
    b->send(kMx, worm(6, 4, 1, 1));
    b->send(kLocal, worm(6, 2, 2));
    b->send(kPy, worm(6, 2, 3, 1));
  }
  uint64_t flits = 0;
  for (int t = 0; t < 60; ++t) {
    one.step();
    two.step();
    model::Mismatch m;
    ASSERT_TRUE(model::compare_outputs(one.shape(), &one.out(0), &two.out(0), m)) << "cycle " << t << ": " << m.field;
    ASSERT_TRUE(model::compare_snapshots(one.shape(), one.snapshot(), two.snapshot(), m)) << "cycle " << t << ": " << m.field;
    ASSERT_EQ(one.router().blocked(), two.router().blocked()) << "cycle " << t;
    for (int p = 0; p < one.shape().ports(); ++p) flits += one.out(p).flit_valid;
  }
  EXPECT_EQ(flits, 8u);  // every flit left, the comparison saw them
  EXPECT_TRUE(one.router().quiescent());
  two.router().close_trace();
  std::remove(path.c_str());
  std::remove(tmpl);
}

// The snapshot comparison names the first difference (models/router_core.cpp).
TEST(RtlRouter, SnapshotComparisonNamesTheFirstDifference) {
  Bench a("r2d", torus4x4(), kNode), b("r2d", torus4x4(), kNode);
  a.send(kLocal, worm(6, 2, 1));
  b.send(kLocal, worm(6, 2, 1));
  a.run(3);
  b.run(3);
  model::Mismatch m;
  EXPECT_TRUE(model::compare_snapshots(a.shape(), a.snapshot(), b.snapshot(), m));
  b.step();
  EXPECT_FALSE(model::compare_snapshots(a.shape(), a.snapshot(), b.snapshot(), m));
  m.cycle = 3;
  m.router = 5;
  EXPECT_EQ(m.describe("model", "rtl", {"+x", "-x", "+y", "-y", "inj0"}),
            "cycle 3, router 5, port inj0, VC 0, field ivc_state_q: model 2, rtl 0");
}

}  // namespace
}  // namespace torx::rtl
