// SPDX-License-Identifier: Apache-2.0
// Synthetic-traffic runs (models/traffic_run.hpp): zero-load latency is the timing contract's, runs
// are deterministic per seed, throughput and saturation follow the stated criterion, routes split
// half-way ties as BookSim does, the injection processes offer what they are asked, and the
// checker catches every planted fault: a corrupted payload (at the source and inside a router), a
// misdelivered, a dropped and a duplicated packet.
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "core/errors.hpp"
#include "models/port_router.hpp"
#include "models/traffic_run.hpp"

namespace torx::model {
namespace {

using sw::Topology;

DestinationPattern pattern(PatternKind k, const Topology& t) {
  PatternSpec s;
  s.kind = k;
  return DestinationPattern(s, t);
}

TrafficRunConfig config(double rate, uint64_t warmup = 500, uint64_t measure = 3000) {
  TrafficRunConfig c;
  c.source.rate = rate;
  c.warmup = warmup;
  c.measure = measure;
  return c;
}

// Every figure of two runs, but the wall-clock time.
void expect_same(const TrafficRunResult& a, const TrafficRunResult& b) {
  EXPECT_EQ(a.offered, b.offered);
  EXPECT_EQ(a.injected, b.injected);
  EXPECT_EQ(a.accepted, b.accepted);
  EXPECT_EQ(a.packets_created, b.packets_created);
  EXPECT_EQ(a.packets_delivered, b.packets_delivered);
  EXPECT_EQ(a.packet_latency.mean, b.packet_latency.mean);
  EXPECT_EQ(a.packet_latency.histogram, b.packet_latency.histogram);
  EXPECT_EQ(a.network_latency.histogram, b.network_latency.histogram);
  EXPECT_EQ(a.link_flits, b.link_flits);
  EXPECT_EQ(a.cycles, b.cycles);
  EXPECT_EQ(a.flit_hops, b.flit_hops);
  EXPECT_EQ(a.saturated, b.saturated);
}

TEST(TrafficRun, ZeroLoadLatencyIsTheTimingContracts) {
  // neighbor on a torus: every packet 2 hops. An uncontended packet of F flits takes
  // 2 Lloc + P + h (L + P) + F - 1 cycles from the cycle its head is pushed to the cycle its tail is
  // stored (docs/timing-contract.md, "One message"), and is created in the cycle it is pushed.
  const Topology t({8, 8}, true);
  for (auto [p, l, lloc, f] : {std::tuple{2, 1, 1, 4}, std::tuple{3, 2, 1, 1}, std::tuple{1, 1, 2, 6}}) {
    TrafficRunConfig c = config(0.002, 200, 10000);
    c.params.router_latency = p;
    c.params.link_latency = l;
    c.params.local_latency = lloc;
    c.source.sizes = {static_cast<uint32_t>(f)};
    const TrafficRunResult r = run_traffic(t, c, pattern(PatternKind::kNeighbor, t));
    const uint64_t want = 2 * lloc + p + 2 * (l + p) + f - 1;
    ASSERT_GT(r.packet_latency.count, 150u);
    EXPECT_EQ(r.network_latency.min, want) << "P " << p << " L " << l << " Lloc " << lloc << " F " << f;
    EXPECT_EQ(r.network_latency.p50, want);
    EXPECT_EQ(r.packet_latency.min, want);
    EXPECT_DOUBLE_EQ(r.hops_mean, 2.0);
    EXPECT_TRUE(r.check_ok()) << r.check_summary();
    EXPECT_FALSE(r.saturated);
  }
}

TEST(TrafficRun, SameSeedSameFiguresAnotherSeedOthers) {
  const Topology t({4, 4}, true);
  const DestinationPattern u = pattern(PatternKind::kUniform, t);
  TrafficRunConfig c = config(0.3);
  const TrafficRunResult a = run_traffic(t, c, u), b = run_traffic(t, c, u);
  expect_same(a, b);
  c.source.seed = 2;
  const TrafficRunResult d = run_traffic(t, c, u);
  EXPECT_NE(a.packet_latency.histogram, d.packet_latency.histogram);
  EXPECT_TRUE(a.check_ok() && d.check_ok());
}

TEST(TrafficRun, AcceptedFollowsOfferedBelowSaturationAndNotAbove) {
  const Topology t({8, 8}, true);
  const DestinationPattern u = pattern(PatternKind::kUniform, t);
  const TrafficRunResult low = run_traffic(t, config(0.2, 1000, 5000), u);
  EXPECT_FALSE(low.saturated) << low.saturation_reason;
  EXPECT_NEAR(low.offered, 0.2, 0.01);
  EXPECT_NEAR(low.accepted, low.offered, 0.005);
  EXPECT_TRUE(low.latency_complete);
  EXPECT_EQ(low.tagged_delivered, low.packets_tagged);
  const TrafficRunResult high = run_traffic(t, config(0.9, 1000, 5000), u);
  EXPECT_TRUE(high.saturated);
  EXPECT_NE(high.saturation_reason.find("(a)"), std::string::npos) << high.saturation_reason;
  EXPECT_LT(high.accepted, 0.7);
  EXPECT_FALSE(high.latency_complete);
  EXPECT_TRUE(high.check_ok()) << high.check_summary();
  // (b): a source queue at its limit; (c): measured packets still out when the drain ends.
  TrafficRunConfig q = config(0.9, 1000, 5000);
  q.source.queue_limit = 8;
  const TrafficRunResult full = run_traffic(t, q, u);
  EXPECT_NE(full.saturation_reason.find("(b)"), std::string::npos) << full.saturation_reason;
  EXPECT_GT(full.packets_refused, 0u);
  TrafficRunConfig d = config(0.2, 1000, 5000);
  d.drain_limit = 0;
  const TrafficRunResult undrained = run_traffic(t, d, u);
  EXPECT_NE(undrained.saturation_reason.find("(c)"), std::string::npos) << undrained.saturation_reason;
}

TEST(TrafficRun, LinksCarryWhatThePatternRoutes) {
  // neighbor goes +x then +y: every flit crosses one +x and one +y link, no - link.
  const Topology t({4, 4}, true);
  const TrafficRunResult r = run_traffic(t, config(0.4, 500, 4000), pattern(PatternKind::kNeighbor, t));
  uint64_t plus = 0, minus = 0;
  for (sw::LinkId l = 0; l < t.link_count(); ++l) (sw::Topology::port_dir(t.link_port(l)) > 0 ? plus : minus) += r.link_flits[l];
  EXPECT_EQ(minus, 0u);
  const double accepted_flits = r.accepted * 16 * 4000;
  EXPECT_NEAR(static_cast<double>(plus), 2 * accepted_flits, 0.01 * accepted_flits);
  // Half the links carry each source's 0.4 flits per cycle.
  EXPECT_NEAR(r.link_utilization_mean, static_cast<double>(plus) / (t.link_count() * 4000.0), 1e-12);
  EXPECT_NEAR(r.link_utilization_mean, 0.2, 0.01);
  EXPECT_GT(r.link_utilization_max, 0.4);
  EXPECT_LT(r.link_utilization_max, 0.5);
}

TEST(TrafficRun, HalfWayTiesSplitAtRandomAsBookSimOrGoPlus) {
  // Uniform on an 8-ring: 1 in 8 packets is 4 hops away either way. Drawn at random, + and -
  // links carry the same; sent + , the + links carry (1+2+3+4)/(1+2+3) = 5/3 of the - links.
  const Topology t({8}, true);
  const DestinationPattern u = pattern(PatternKind::kUniform, t);
  for (bool random : {true, false}) {
    TrafficRunConfig c = config(0.2, 500, 200000);
    c.source.random_ties = random;
    const TrafficRunResult r = run_traffic(t, c, u);
    double plus = 0, minus = 0;
    for (sw::LinkId l = 0; l < t.link_count(); ++l) (t.link_port(l) == 0 ? plus : minus) += r.link_flits[l];
    EXPECT_NEAR(plus / minus, random ? 1.0 : 5.0 / 3.0, 0.05) << (random ? "random ties" : "ties +");
  }
}

TEST(TrafficRun, InjectionProcessesAndPacketLengthsOfferTheRate) {
  const Topology t({4, 4}, true);
  const DestinationPattern u = pattern(PatternKind::kUniform, t);
  TrafficRunConfig c = config(0.2, 500, 40000);
  c.source.sizes = {1, 8};
  c.source.size_weights = {1, 1};
  const TrafficRunResult mixed = run_traffic(t, c, u);
  EXPECT_NEAR(mixed.offered, 0.2, 0.006);
  // Half the packets 1 flit, half 8: 4.5 flits per packet offered.
  EXPECT_NEAR(mixed.offered * 16 * 40000 / static_cast<double>(mixed.packets_tagged), 4.5, 0.1);
  // On-off (BookSim's process) with alpha 0.05 and beta 0.15: on a quarter of the time, at
  // r1 = 0.8 flits per cycle.
  c.source.sizes = {4};
  c.source.size_weights = {1};
  c.source.injection = {InjectionKind::kOnOff, 0.05, 0.15, 0.8};
  const TrafficRunResult bursty = run_traffic(t, c, u);
  EXPECT_NEAR(bursty.offered, 0.2, 0.01);
  c.source.injection = {};
  const TrafficRunResult smooth = run_traffic(t, c, u);
  // Bursts queue at the source: the same rate waits longer there (the network part barely changes).
  EXPECT_GT(bursty.packet_latency.mean - bursty.network_latency.mean,
            2 * (smooth.packet_latency.mean - smooth.network_latency.mean));
  EXPECT_TRUE(bursty.check_ok() && smooth.check_ok());
}

TEST(TrafficRun, SelfAddressedPacketsTurnAroundInTheSourceRouter) {
  // transpose keeps the diagonal: those packets go in and out of their own router (0 hops).
  const Topology t({4, 4}, true);
  TrafficRunConfig c = config(0.01, 100, 4000);
  c.source.sizes = {2};
  const TrafficRunResult r = run_traffic(t, c, pattern(PatternKind::kTranspose, t));
  EXPECT_TRUE(r.check_ok()) << r.check_summary();
  // 2 Lloc + P + F - 1 for a packet that never leaves its router.
  EXPECT_EQ(r.network_latency.min, 2u + 2u + 1u);
  EXPECT_GT(r.packets_delivered, 100u);
}

TEST(TrafficRun, PlantedFaultsAtTheSourceAreCaught) {
  const Topology t({4, 4}, true);
  const DestinationPattern u = pattern(PatternKind::kUniform, t);
  struct Case {
    TrafficFault fault;
    uint64_t PacketTable::Check::*field;
    bool lost;
  };
  for (const Case& k : {Case{TrafficFault::kCorrupt, &PacketTable::Check::corrupted, false},
                        Case{TrafficFault::kMisdeliver, &PacketTable::Check::misdelivered, false},
                        Case{TrafficFault::kDuplicate, &PacketTable::Check::duplicated, false},
                        Case{TrafficFault::kDrop, nullptr, true}}) {
    TrafficRunConfig c = config(0.2, 200, 1000);
    c.source.fault = k.fault;
    const TrafficRunResult r = run_traffic(t, c, u);
    EXPECT_FALSE(r.check_ok()) << r.check_summary();
    if (k.field) {
      EXPECT_EQ(r.check.*(k.field), 1u) << r.check_summary();
    }
    EXPECT_EQ(r.lost, k.lost ? 1u : 0u) << r.check_summary();
    const uint64_t others = r.check.corrupted + r.check.misdelivered + r.check.duplicated + r.check.out_of_order +
                            r.check.unknown + r.lost;
    EXPECT_EQ(others, 1u) << "exactly the planted fault: " << r.check_summary();
  }
}

// A router that flips one payload bit of the n-th flit it sends on a network port: corruption
// inside the network, which only the destination's check can see.
class CorruptingCore final : public RouterCore {
 public:
  CorruptingCore(std::unique_ptr<RouterCore> inner, uint64_t nth) : inner_(std::move(inner)), nth_(nth) {}
  const char* kind() const override { return "corrupting"; }
  const RouterShape& shape() const override { return inner_->shape(); }
  void reset() override { inner_->reset(); }
  void cycle(uint64_t now, const PortWires* in, PortWires* out) override {
    inner_->cycle(now, in, out);
    for (int p = 0; p < shape().network_ports(); ++p)
      if (out[p].flit_valid && ++sent_ == nth_) out[p].flit.payload[1] ^= uint64_t{1} << 17;
  }
  void snapshot(RouterSnapshot& s) const override { inner_->snapshot(s); }
  bool quiescent() const override { return inner_->quiescent(); }
  uint32_t blocked() const override { return inner_->blocked(); }

 private:
  std::unique_ptr<RouterCore> inner_;
  uint64_t nth_, sent_ = 0;
};

class CorruptingFactory final : public RouterFactory {
 public:
  std::unique_ptr<RouterCore> make(sw::NodeId v, const RouterShape& shape, const RoutingImage& image,
                                   const Topology& topo) const override {
    auto core = cpp_.make(v, shape, image, topo);
    return v == 5 ? std::make_unique<CorruptingCore>(std::move(core), 300) : std::move(core);
  }

 private:
  CppRouterFactory cpp_{RouterConfig{}};
};

TEST(TrafficRun, CorruptionInsideARouterIsCaughtAtTheDestination) {
  const Topology t({4, 4}, true);
  const DestinationPattern u = pattern(PatternKind::kUniform, t);
  const TrafficRunConfig c = config(0.3, 200, 2000);
  const CppRouterFactory cpp{RouterConfig{}};
  const TrafficRunResult clean = run_traffic(t, c, u, &cpp);
  EXPECT_TRUE(clean.check_ok()) << clean.check_summary();
  // The port-level C++ routers give the fast path's figures.
  expect_same(clean, run_traffic(t, c, u));
  const CorruptingFactory bad;
  const TrafficRunResult r = run_traffic(t, c, u, &bad);
  EXPECT_FALSE(r.check_ok());
  EXPECT_EQ(r.check.corrupted, 1u) << r.check_summary();
  EXPECT_EQ(r.lost + r.check.misdelivered + r.check.duplicated + r.check.out_of_order, 0u) << r.check_summary();
}

TEST(TrafficRun, TwoLanesGiveOneLanesFigures) {
  // The sources share the packet table; they all run in one lane (fabric.hpp), so a second thread
  // for the routers changes nothing.
  const Topology t({8, 8}, true);
  const DestinationPattern u = pattern(PatternKind::kUniform, t);
  TrafficRunConfig c = config(0.35, 300, 2000);
  const TrafficRunResult one = run_traffic(t, c, u);
  c.params.threads = 2;
  expect_same(one, run_traffic(t, c, u));
}

TEST(TrafficRun, ADeadlockStopsWithTheStuckPackets) {
  // Without the dateline, long worms round a ring deadlock: the watchdog names where each head waits.
  const Topology t({8}, true);
  TrafficRunConfig c = config(0.9, 100, 2000);
  c.params.dateline = false;
  c.params.watchdog_cycles = 300;
  c.source.sizes = {16};
  try {
    run_traffic(t, c, pattern(PatternKind::kTornado, t));
    FAIL() << "no deadlock";
  } catch (const sw::WatchdogError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("watchdog: no flit moved for 300 cycles"), std::string::npos) << what;
    EXPECT_NE(what.find("head at router"), std::string::npos) << what;
    EXPECT_NE(what.find("waiting for"), std::string::npos) << what;
  }
}

TEST(TrafficRun, BadConfigurationsAreInputErrors) {
  const Topology t({4, 4}, true);
  const DestinationPattern u = pattern(PatternKind::kUniform, t);
  TrafficRunConfig c = config(0.1);
  c.flit_bytes = 33;
  EXPECT_THROW(run_traffic(t, c, u), sw::InputError);
  c = config(0.1);
  c.source.queue_limit = 0;
  EXPECT_THROW(run_traffic(t, c, u), sw::InputError);
  c = config(0.1);
  c.params.buffer_depth = 0;
  EXPECT_THROW(run_traffic(t, c, u), sw::InputError);
  c = config(0.1);
  c.memory_limit = sw::MemoryLimit{1 << 20, true, "--max-memory 1 MiB"};
  EXPECT_THROW(run_traffic(t, c, u), sw::WatchdogError);
}

}  // namespace
}  // namespace torx::model
