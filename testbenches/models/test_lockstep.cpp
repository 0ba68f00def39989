// The lock-step harness (models/lockstep.hpp, models/cosim.hpp) and the port-level router
// (models/port_router.hpp): the C++ router in port mode runs a network exactly as the fast path does;
// two copies of it in lock step agree for a million router-cycles of random traffic that drives the
// routers through full buffers, waiting heads and arbiter wraps; and the harness catches a copy that
// deviates (a credit returned one cycle late, an arbiter pointer that does not move), naming the
// cycle, router, port and field.
#include <gtest/gtest.h>

#include <deque>

#include "model_test_util.hpp"
#include "models/cosim.hpp"
#include "models/port_router.hpp"

namespace torx::model {
namespace {

using sw::Topology;

// Everything a run reports except its speed (and the evaluations, which the port routers count their
// own way).
struct Figures {
  uint64_t cycles, simulated, blocked, occupancy, buffer_flit_cycles, flit_hops;
  std::vector<uint64_t> link_flits;
  std::vector<int64_t> step_start, step_end;
  bool ok;
  bool operator==(const Figures& o) const {
    return std::tie(cycles, simulated, blocked, occupancy, buffer_flit_cycles, flit_hops, link_flits, step_start,
                    step_end, ok) == std::tie(o.cycles, o.simulated, o.blocked, o.occupancy, o.buffer_flit_cycles,
                                              o.flit_hops, o.link_flits, o.step_start, o.step_end, o.ok);
  }
};

Figures run(const sw::Schedule& s, const Topology& topo, const CycleOptions& o, const RouterFactory* routers) {
  CycleNetwork net(s, topo, o, true, routers);
  net.run();
  const sw::CycleFigures r = net.result();
  return {r.cycles,         r.simulated_cycles, r.blocked_cycles, r.max_vc_occupancy, net.fabric().buffer_flit_cycles(),
          r.flit_hops,      r.link_flits,       r.step_start,     r.step_end,         sw::check_delivery(net.memory()).ok};
}

// torx run --trace-routers asks each router's core for a waveform of its registers
// (RouterCore::open_trace): the Verilated RTL writes one (test_rtl_cli.cpp); the C++ router in port
// mode has none and refuses as bad input, naming the file.
TEST(PortRouter, ACoreWithoutARegisterWaveformRefusesToWriteOne) {
  const Topology topo({4, 4}, true);
  const sw::Schedule s = testing::generate("direct", topo);
  const CppRouterFactory port_mode{RouterConfig{}};
  CycleNetwork net(s, topo, CycleOptions{}, true, &port_mode);
  PortRouter* r = net.fabric().port_router(5);
  ASSERT_NE(r, nullptr);
  try {
    r->core().open_trace("run.router5.fst");
    ADD_FAILURE() << "a waveform of the C++ router's registers";
  } catch (const sw::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("--trace-routers run.router5.fst: the model router has no register waveform"),
              std::string::npos)
        << e.what();
  }
}

TEST(PortRouter, ANetworkOfPortModeRoutersRunsExactlyAsTheFastPath) {
  // Contention without barriers, barriers, all-port interfaces with order classes, a mesh, and
  // non-default stages and buffers.
  struct Case {
    std::string algo;
    Topology topo;
    sw::SyncMode sync;
    std::vector<std::string> params;
  };
  const std::vector<Case> cases = {
      {"direct", Topology({4, 4}, true), sw::SyncMode::kNone, {}},
      {"direct", Topology({5, 3}, true), sw::SyncMode::kNone, {"buffer_depth=3", "router_latency=1"}},
      {"t4", Topology({8, 8}, true), sw::SyncMode::kBarrier, {}},
      {"tsay-wang", Topology({7, 7}, true), sw::SyncMode::kBarrier, {"vcs_per_class=2"}},
      {"suh", Topology({6, 4}, false), sw::SyncMode::kNone, {"router_latency=3", "link_latency=2"}},
      {"ms-hc", Topology({6, 6}, true), sw::SyncMode::kNone, {"buffer_depth=2"}}};
  const CppRouterFactory port_mode{RouterConfig{}};
  for (const Case& c : cases) {
    SCOPED_TRACE(c.algo + " on the " + c.topo.to_string());
    const sw::Schedule s = testing::generate(c.algo, c.topo);
    CycleOptions o;
    o.cost.block_bytes = 96;
    o.cost.ts_cycles = 3;
    o.sync = c.sync;
    for (const std::string& p : c.params) sw::set_param(o.params, p);
    const Figures fast = run(s, c.topo, o, nullptr);
    const Figures ports = run(s, c.topo, o, &port_mode);
    EXPECT_TRUE(fast.ok);
    EXPECT_GT(fast.flit_hops, 0u);
    EXPECT_EQ(fast.cycles, ports.cycles);
    EXPECT_EQ(fast.blocked, ports.blocked);
    EXPECT_EQ(fast.occupancy, ports.occupancy);
    EXPECT_EQ(fast.simulated, ports.simulated);
    EXPECT_EQ(fast.buffer_flit_cycles, ports.buffer_flit_cycles);
    EXPECT_EQ(fast.link_flits, ports.link_flits);
    EXPECT_EQ(fast.step_start, ports.step_start);
    EXPECT_EQ(fast.step_end, ports.step_end);
    EXPECT_TRUE(fast == ports) << "every figure, not only the cycles";
  }
}

// The C++ router in port mode with its credit outputs delayed by one cycle: a credit returned late.
class LateCreditCore final : public RouterCore {
 public:
  explicit LateCreditCore(std::unique_ptr<RouterCore> inner) : inner_(std::move(inner)) {
    held_.resize(static_cast<size_t>(inner_->shape().ports()));
  }
  const char* kind() const override { return "mutant"; }
  const RouterShape& shape() const override { return inner_->shape(); }
  void reset() override { inner_->reset(); }
  void cycle(uint64_t now, const PortWires* in, PortWires* out) override {
    inner_->cycle(now, in, out);
    for (size_t p = 0; p < held_.size(); ++p) {
      const bool now_valid = out[p].credit_valid;
      out[p].credit_valid = held_[p];
      held_[p] = now_valid;
      std::swap(vc_[p], out[p].credit_vc);
    }
  }
  void snapshot(RouterSnapshot& s) const override { inner_->snapshot(s); }
  bool quiescent() const override {
    for (uint8_t h : held_)
      if (h) return false;
    return inner_->quiescent();
  }
  uint32_t blocked() const override { return inner_->blocked(); }

 private:
  std::unique_ptr<RouterCore> inner_;
  std::vector<uint8_t> held_;  // a credit of the previous cycle, to be sent now
  uint8_t vc_[64] = {};
};

class LateCreditFactory final : public RouterFactory {
 public:
  std::unique_ptr<RouterCore> make(sw::NodeId v, const RouterShape& shape, const RoutingImage& image,
                                   const Topology& topo) const override {
    return std::make_unique<LateCreditCore>(CppRouterFactory(RouterConfig{}).make(v, shape, image, topo));
  }
};

CosimConfig traffic(uint64_t cycles, double load) {
  CosimConfig c;
  c.traffic.cycles = cycles;
  c.traffic.load = load;
  c.traffic.max_worm_flits = 12;
  c.traffic.seed = 7;
  c.traffic.barrier_every = 1500;
  c.traffic.mixed_orders = true;
  return c;
}

TEST(Lockstep, CppRouterAgainstItselfAgreesForAMillionRouterCyclesOfRandomTraffic) {
  const CppRouterFactory cpp{RouterConfig{}};
  // 8x8 torus, one-port, mixed dimension orders (4 VC classes), barriers every 1500 cycles.
  const Topology topo({8, 8}, true);
  const CosimResult r = run_cosim(topo, traffic(16000, 0.45), cpp, cpp);
  EXPECT_EQ(r.mismatches, 0u) << r.first_mismatch_text;
  EXPECT_GE(r.compared, 1000000u) << "router-cycles compared";
  EXPECT_EQ(r.traffic.worms_delivered, r.traffic.worms_offered) << "every worm delivered, checked flit by flit";
  EXPECT_GT(r.traffic.worms_offered, 10000u);
  EXPECT_EQ(r.traffic.barriers, 10u * 64) << "every node through every barrier episode";
  // Coverage: the traffic reached the states that make a comparison meaningful.
  const LockstepCoverage& c = r.coverage;
  EXPECT_GT(c.input_vcs_full, 0u) << c.describe();
  EXPECT_GT(c.input_vcs_waited, c.input_vcs / 4) << c.describe();
  EXPECT_GT(c.output_vcs_no_credit, 0u) << c.describe();
  EXPECT_EQ(c.sa_out_wraps, c.output_ports) << c.describe();
  EXPECT_GT(c.va_wraps, c.va_groups / 4) << c.describe();
  for (int cls = 0; cls < 4; ++cls) EXPECT_GT(c.class_vcs_used[cls], 0u) << "class " << cls << ": " << c.describe();
  EXPECT_GT(c.blocked, 0u);
}

TEST(Lockstep, CatchesACreditReturnedOneCycleLate) {
  const CppRouterFactory cpp{RouterConfig{}};
  const LateCreditFactory late;
  const Topology topo({4, 4}, true);
  const CosimResult r = run_cosim(topo, traffic(2000, 0.3), cpp, late);
  ASSERT_EQ(r.mismatches, 1u);
  ASSERT_TRUE(r.first_mismatch.has_value());
  EXPECT_EQ(r.first_mismatch->field, "credit_valid") << r.first_mismatch_text;
  EXPECT_LT(r.first_mismatch->cycle, 100u) << "caught at the first credit";
  EXPECT_NE(r.first_mismatch_text.find("field credit_valid: model 1, mutant 0"), std::string::npos)
      << r.first_mismatch_text;
  EXPECT_NE(r.first_mismatch_text.find("cycle "), std::string::npos);
}

TEST(Lockstep, CatchesAnArbiterPointerThatDoesNotMove) {
  RouterConfig stuck;
  stuck.mutation = RouterMutation::kSaPointerStuck;
  const CppRouterFactory cpp{RouterConfig{}};
  const CppRouterFactory mutant{stuck};
  const Topology topo({4, 4}, true);
  const CosimResult r = run_cosim(topo, traffic(2000, 0.3), cpp, mutant);
  ASSERT_EQ(r.mismatches, 1u);
  EXPECT_EQ(r.first_mismatch->field, "sa_out_rr_q") << r.first_mismatch_text;
  EXPECT_LT(r.first_mismatch->cycle, 100u);
  EXPECT_GE(r.first_mismatch->port, 0);
}

TEST(Lockstep, EveryPatternLoadAndPortModelDeliversInLockStep) {
  const CppRouterFactory cpp{RouterConfig{}};
  for (const TrafficPattern pat : {TrafficPattern::kUniform, TrafficPattern::kHotspot, TrafficPattern::kNeighbour})
    for (const sw::PortModel ports : {sw::PortModel::kOne, sw::PortModel::kAll}) {
      SCOPED_TRACE(std::string(traffic_pattern_name(pat)) + (ports == sw::PortModel::kAll ? " all-port" : " one-port"));
      CosimConfig c = traffic(1500, 0.8);
      c.traffic.pattern = pat;
      c.ports = ports;
      c.params.buffer_depth = 3;
      c.params.vcs_per_class = 2;
      c.flit_bytes = 5;  // payloads of 5 bytes: partial words are checked too
      const CosimResult r = run_cosim(Topology({4, 3}, false), c, cpp, cpp);
      EXPECT_EQ(r.mismatches, 0u) << r.first_mismatch_text;
      EXPECT_EQ(r.traffic.worms_delivered, r.traffic.worms_offered);
      if (ports == sw::PortModel::kOne) {
        EXPECT_GT(r.traffic.worms_refused, 0u) << "load 0.8 saturates one channel";
      }
    }
}

}  // namespace
}  // namespace torx::model
