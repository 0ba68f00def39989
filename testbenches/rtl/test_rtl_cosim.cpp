// SPDX-License-Identifier: Apache-2.0
// Lock-step co-simulation of whole networks (label cosim): every router and barrier unit simulated
// as the C++ model and as the Verilated RTL on the same inputs, outputs and registers compared every
// cycle. Short runs of the configuration matrix (scripts/cosim_matrix.sh runs each for a million
// router-cycles and more), the pipelined organizations among them, the RTL mutants caught, and the
// barrier comparison proven on a planted fault.
#include <gtest/gtest.h>

#include <cstdio>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "algorithms/meyer_sibeyn.hpp"
#include "algorithms/registry.hpp"
#include "core/checker.hpp"
#include "core/errors.hpp"
#include "hw/rtl_router.hpp"
#include "models/cosim.hpp"
#include "models/loader.hpp"
#include "models/port_router.hpp"

namespace torx::model {
namespace {

using sw::Topology;

struct MatrixCase {
  const char* rtl;        // the Verilated configuration the shape must select
  std::vector<int> dims;
  bool mesh = false;
  bool all_port = false;
  int vcs = 1, depth = 8, pipeline = 2;
  bool mixed_orders = false;
  TrafficPattern pattern = TrafficPattern::kUniform;
  Pipeline org = Pipeline::kSingle;  // the organization (docs/timing-contract.md, "Router organizations")
};

std::string case_name(const testing::TestParamInfo<MatrixCase>& i) { return i.param.rtl; }
void PrintTo(const MatrixCase& c, std::ostream* os) { *os << c.rtl; }

class Matrix : public testing::TestWithParam<MatrixCase> {};

TEST_P(Matrix, ModelAndRtlAgreeUnderRandomTraffic) {
  const MatrixCase& mc = GetParam();
  CosimConfig c;
  c.params.vcs_per_class = mc.vcs;
  c.params.buffer_depth = mc.depth;
  c.params.router_latency = mc.pipeline;
  c.params.pipeline = static_cast<int>(mc.org);
  c.ports = mc.all_port ? sw::PortModel::kAll : sw::PortModel::kOne;
  c.traffic.cycles = 1500;
  c.traffic.load = 0.5;
  c.traffic.max_worm_flits = 12;
  c.traffic.seed = 11;
  c.traffic.barrier_every = 500;
  c.traffic.mixed_orders = mc.mixed_orders;
  c.traffic.pattern = mc.pattern;
  const Topology topo(mc.dims, !mc.mesh);
  const CppRouterFactory cpp{RouterConfig{}};
  const rtl::RtlRouterFactory rtl;
  const CppBarrierFactory cpp_b;
  const rtl::RtlBarrierFactory rtl_b;
  // The shape selects the intended Verilated configuration.
  RouterShape shape;
  shape.ndims = topo.ndims();
  shape.local_ports = mc.all_port ? topo.ports() : 1;
  const RoutingConfig rc = cosim_routing(topo, c);
  shape.vc_classes = rc.dateline_classes * rc.order_classes;
  shape.vcs_per_class = mc.vcs;
  shape.buffer_depth = mc.depth;
  shape.pipeline = mc.pipeline;
  shape.organization = mc.org;
  shape.payload_words = 2;
  const rtl::RtlRouterConfig* found = rtl::find_rtl_router(shape, 0);
  ASSERT_NE(found, nullptr);
  EXPECT_STREQ(found->name, mc.rtl);

  const CosimResult r = run_cosim(topo, c, cpp, rtl, &cpp_b, &rtl_b);
  EXPECT_EQ(r.mismatches, 0u) << r.first_mismatch_text;
  EXPECT_EQ(r.traffic.worms_delivered, r.traffic.worms_offered);
  EXPECT_GT(r.traffic.worms_offered, 100u);
  // Barrier episodes at cycles 500 and 1000 of the generation period; every unit releases in each.
  EXPECT_EQ(r.barrier_releases, 2u * static_cast<uint64_t>(topo.nodes()));
  // The traffic reached the states that make the comparison meaningful.
  const LockstepCoverage& cov = r.coverage;
  EXPECT_GT(cov.input_vcs_full, 0u) << cov.describe();
  EXPECT_GT(cov.input_vcs_waited, 0u) << cov.describe();
  EXPECT_GT(cov.output_vcs_no_credit, 0u) << cov.describe();
  EXPECT_GT(cov.sa_out_wraps, 0u) << cov.describe();
  EXPECT_GT(cov.va_wraps, 0u) << cov.describe();
  if (!mc.mesh) {
    EXPECT_GT(cov.class_vcs_used[1], 0u) << "dateline crossings: " << cov.describe();
  }
  if (mc.mixed_orders) {
    EXPECT_GT(cov.class_vcs_used[2 * (topo.ndims() - 1)], 0u) << "every order class: " << cov.describe();
  }
  std::printf("%s: %lu router-cycles compared, %s\n", mc.rtl, static_cast<unsigned long>(r.compared),
              cov.describe().c_str());
}

MatrixCase mk(const char* rtl, std::vector<int> dims) {
  MatrixCase m;
  m.rtl = rtl;
  m.dims = std::move(dims);
  return m;
}

std::vector<MatrixCase> matrix() {
  std::vector<MatrixCase> v;
  MatrixCase c = mk("r1d_v2", {8});
  c.vcs = 2, c.depth = 3, c.pipeline = 3;
  v.push_back(c);
  v.push_back(mk("r1d", {12}));
  c = mk("r1d_all", {8});
  c.all_port = true;
  v.push_back(c);
  c = mk("r2d", {6, 6});
  v.push_back(c);
  c = mk("m2d_p1", {5, 4});
  c.mesh = true, c.pipeline = 1;
  v.push_back(c);
  c = mk("m2d", {4, 4});
  c.mesh = true, c.pattern = TrafficPattern::kHotspot;
  v.push_back(c);
  c = mk("r2d_all", {5, 4});
  c.all_port = true;
  v.push_back(c);
  c = mk("r2d_all_o2", {4, 4});
  c.all_port = true, c.mixed_orders = true;
  v.push_back(c);
  c = mk("r3d", {4, 3, 3});
  c.pattern = TrafficPattern::kNeighbour;
  v.push_back(c);
  c = mk("r3d_o3", {4, 4, 3});
  c.mixed_orders = true, c.depth = 4;
  v.push_back(c);
  c = mk("m3d_v2_d2", {3, 3, 3});
  c.mesh = true, c.vcs = 2, c.depth = 2, c.pipeline = 1;
  v.push_back(c);
  c = mk("r3d_all_o3", {3, 3, 3});
  c.all_port = true, c.mixed_orders = true;
  v.push_back(c);
  c = mk("r2d_la", {6, 6});
  c.org = Pipeline::kLookahead;
  v.push_back(c);
  c = mk("r2d_cl", {6, 6});
  c.org = Pipeline::kClassic;
  v.push_back(c);
  return v;
}

INSTANTIATE_TEST_SUITE_P(Configurations, Matrix, testing::ValuesIn(matrix()), case_name);

CosimConfig contended() {
  CosimConfig c;
  c.traffic.cycles = 2000;
  c.traffic.load = 0.4;
  c.traffic.max_worm_flits = 12;
  c.traffic.seed = 7;
  c.traffic.barrier_every = 700;
  return c;
}

// Each build-time RTL mutant (docs/rtl.md, "Mutants") is caught within a bounded number of cycles,
// in the field its bug touches first.
// A mutant is caught by the comparison, or in the same cycle or earlier by one of the properties the
// Verilated models check (hw/props, docs/verification.md): then the run stops with the harness's
// exception and Verilator's message names the property. Returns the property's message, or "" when
// the run ended (with its result in `r`).
std::string run_mutant(const Topology& topo, const CosimConfig& cfg, const RouterFactory& a,
                       const RouterFactory& b, CosimResult& r) {
  ::testing::internal::CaptureStdout();
  ::testing::internal::CaptureStderr();
  std::string error;
  try {
    r = run_cosim(topo, cfg, a, b);
  } catch (const std::logic_error& e) {
    error = e.what();
  }
  const std::string out = ::testing::internal::GetCapturedStdout() + ::testing::internal::GetCapturedStderr();
  if (error.empty()) return "";
  EXPECT_NE(error.find("RTL assertion"), std::string::npos) << error;
  return out.empty() ? error : out;
}

bool names_one_of(const std::string& text, const std::vector<std::string>& names) {
  for (const std::string& n : names) {
    if (text.find(n + ":") != std::string::npos) return true;
  }
  return false;
}

TEST(RtlCosim, EveryRtlMutantIsCaught) {
  const CppRouterFactory cpp{RouterConfig{}};
  const struct {
    int mutant;
    std::vector<std::string> fields;  // where the difference may show first
    std::vector<std::string> props;   // or the properties that may stop it first
  } cases[] = {
      {1, {"credit_valid", "credit_vc"}, {"iu_credit"}},
      {2, {"flit.kind", "flit_valid", "flit.msg", "ovc_owner_q", "ivc_state_q", "ivc_out_vc_q", "va_rr_q"},
       {"ou_grant_free", "rt_owner", "rt_owned", "ou_owner_held", "ou_flit_owner", "ou_worm_order", "iu_active_held"}},
      {3, {"sa_out_rr_q"}, {"sa_fair"}},
      {4, {"flit_valid", "ivc_out_port_q", "flit.msg", "flit.vc", "ivc_state_q"}, {}},
  };
  for (const auto& mc : cases) {
    SCOPED_TRACE("mutant " + std::to_string(mc.mutant));
    const rtl::RtlRouterFactory mutant(mc.mutant);
    CosimResult r;
    const std::string prop = run_mutant(Topology({4, 4}, true), contended(), cpp, mutant, r);
    std::printf("mutant %d: %s\n", mc.mutant, prop.empty() ? r.first_mismatch_text.c_str() : prop.c_str());
    if (!prop.empty()) {
      EXPECT_TRUE(names_one_of(prop, mc.props)) << prop;
      continue;
    }
    ASSERT_EQ(r.mismatches, 1u);
    ASSERT_TRUE(r.first_mismatch.has_value());
    EXPECT_LT(r.first_mismatch->cycle, 200u) << r.first_mismatch_text;
    bool expected = false;
    for (const std::string& f : mc.fields) expected |= r.first_mismatch->field == f;
    EXPECT_TRUE(expected) << r.first_mismatch_text;
    EXPECT_NE(r.first_mismatch_text.find(", rtl "), std::string::npos) << r.first_mismatch_text;
  }
}

// The lookahead router's mutants (docs/rtl.md, "Mutants"): 6, a speculative grant whose VC has no
// credit is not cancelled (the flit leaves its buffer: its credit goes upstream and it enters the
// traversal register in that cycle); 7, the lookahead route read from the neighbour's table entry of the
// other sign (the head's la_port or la_class differs as it leaves, or the route it takes next).
TEST(RtlCosim, LookaheadMutantsAreCaught) {
  const CppRouterFactory cpp{RouterConfig{}};
  const struct {
    int mutant;
    std::vector<std::string> fields;
  } cases[] = {
      {6, {"credit_valid", "credit_vc", "st_valid_q", "st_vc_q", "st_lane_q", "ovc_credits_q", "sa_out_rr_q",
           "sa_in_rr_q"}},
      {7, {"flit.la_port", "flit.la_class"}},
  };
  CosimConfig cfg = contended();
  cfg.params.pipeline = static_cast<int>(Pipeline::kLookahead);
  cfg.traffic.load = 0.6;  // full buffers: speculative heads meet VCs without credits
  for (const auto& mc : cases) {
    SCOPED_TRACE("mutant " + std::to_string(mc.mutant));
    const rtl::RtlRouterFactory mutant(mc.mutant);
    CosimResult r;
    const std::string prop = run_mutant(Topology({4, 4}, true), cfg, cpp, mutant, r);
    std::printf("mutant %d: %s\n", mc.mutant, prop.empty() ? r.first_mismatch_text.c_str() : prop.c_str());
    ASSERT_EQ(prop, "") << "caught by a property, not the comparison";
    ASSERT_EQ(r.mismatches, 1u);
    ASSERT_TRUE(r.first_mismatch.has_value());
    EXPECT_LT(r.first_mismatch->cycle, 2000u) << r.first_mismatch_text;
    bool expected = false;
    for (const std::string& f : mc.fields) expected |= r.first_mismatch->field == f;
    EXPECT_TRUE(expected) << r.first_mismatch_text;
  }
}

// Priority throttle-and-preempt routers (docs/priority.md, "In the RTL"): every worm of the random
// traffic at a random level 0 .. K-1, the routers with K lanes per VC; lanes, owners and the
// preempted owners' stacks compared every cycle. Barrier episodes drain the network now and then
// (the C++ model's own lock-step test of priority routers does the same).
CosimConfig prioritised(int levels) {
  CosimConfig c;
  c.traffic.cycles = 3000;
  c.traffic.load = 0.6;
  c.traffic.max_worm_flits = 16;
  c.traffic.priority_levels = levels;
  c.traffic.seed = 3;
  c.traffic.barrier_every = 1000;
  return c;
}

class Priority : public testing::TestWithParam<int> {};

TEST_P(Priority, ModelAndRtlAgreeUnderPrioritisedRandomTraffic) {
  const int k = GetParam();
  const CosimConfig c = prioritised(k);
  const Topology topo({4, 4}, true);
  RouterShape shape;
  shape.ndims = 2;
  shape.vc_classes = 2;
  shape.payload_words = 2;
  shape.priority_levels = k;
  const rtl::RtlRouterConfig* found = rtl::find_rtl_router(shape, 0);
  ASSERT_NE(found, nullptr);
  EXPECT_EQ(std::string(found->name), "r2d_k" + std::to_string(k));
  const CppRouterFactory cpp{RouterConfig{}};
  const rtl::RtlRouterFactory rtl;
  const CppBarrierFactory cpp_b;
  const rtl::RtlBarrierFactory rtl_b;
  const CosimResult r = run_cosim(topo, c, cpp, rtl, &cpp_b, &rtl_b);
  EXPECT_EQ(r.mismatches, 0u) << r.first_mismatch_text;
  EXPECT_EQ(r.traffic.worms_delivered, r.traffic.worms_offered) << "every worm delivered, checked flit by flit";
  EXPECT_GT(r.traffic.worms_offered, 300u);
  const LockstepCoverage& cov = r.coverage;
  EXPECT_GT(cov.output_vcs_preempted, 8u) << cov.describe();
  EXPECT_GT(r.preemptions, 100u);
  if (k > 2) {
    EXPECT_GT(cov.output_vcs_nested, 0u) << "nested preemption: " << cov.describe();
  }
  EXPECT_GT(cov.input_vcs_full, 0u) << cov.describe();
  EXPECT_GT(cov.sa_out_wraps, 0u) << cov.describe();
  std::printf("%s: %lu router-cycles compared, %lu preemptions, %s\n", found->name,
              static_cast<unsigned long>(r.compared), static_cast<unsigned long>(r.preemptions), cov.describe().c_str());
}

INSTANTIATE_TEST_SUITE_P(Levels, Priority, testing::Values(2, 4),
                         [](const testing::TestParamInfo<int>& i) { return "K" + std::to_string(i.param); });

// Mutant 5 (a tail frees its output VC instead of returning it to the worm it was preempted from)
// is caught at the first return, in the owner register.
TEST(RtlCosim, PriorityMutantIsCaught) {
  const CppRouterFactory cpp{RouterConfig{}};
  const rtl::RtlRouterFactory mutant(5);
  CosimResult r;
  const std::string prop = run_mutant(Topology({4, 4}, true), prioritised(2), cpp, mutant, r);
  if (!prop.empty()) {
    // The VC freed while preempted owners wait on its stack: ou_stack_owner (or, a cycle later, the
    // stranded worm's rt_owner).
    EXPECT_TRUE(names_one_of(prop, {"ou_stack_owner", "ou_resume", "rt_owner"})) << prop;
    std::printf("mutant 5: %s\n", prop.c_str());
    return;
  }
  ASSERT_EQ(r.mismatches, 1u);
  ASSERT_TRUE(r.first_mismatch.has_value());
  EXPECT_LT(r.first_mismatch->cycle, 1000u) << r.first_mismatch_text;
  EXPECT_TRUE(r.first_mismatch->field == "ovc_owner_q" || r.first_mismatch->field == "ovc_depth_q")
      << r.first_mismatch_text;
  std::printf("mutant 5: %s\n", r.first_mismatch_text.c_str());
}

// The barrier comparison catches a unit that releases a cycle late (a planted C++ fault: the RTL
// barrier units have no build-time mutant).
class LateRelease final : public BarrierCore {
 public:
  explicit LateRelease(std::unique_ptr<BarrierCore> inner) : inner_(std::move(inner)) {}
  const char* kind() const override { return "late"; }
  void reset() override { inner_->reset(); }
  void cycle(uint64_t now, const BarrierWiresIn& in, BarrierWiresOut& out) override {
    inner_->cycle(now, in, out);
    const bool r = out.release;
    out.release = pending_;
    pending_ = r;
  }
  uint32_t gathered() const override { return inner_->gathered(); }

 private:
  std::unique_ptr<BarrierCore> inner_;
  bool pending_ = false;
};
class LateReleaseFactory final : public BarrierFactory {
 public:
  std::unique_ptr<BarrierCore> make(sw::NodeId v, const BarrierImage& image, const sw::Topology& topo) const override {
    return std::make_unique<LateRelease>(rtl::make_rtl_barrier(topo, v, image));
  }
};

TEST(RtlCosim, BarrierComparisonCatchesALateRelease) {
  const CppRouterFactory cpp{RouterConfig{}};
  const rtl::RtlRouterFactory rtl;
  const CppBarrierFactory cpp_b;
  const LateReleaseFactory late;
  const CosimResult r = run_cosim(Topology({4, 4}, true), contended(), cpp, rtl, &cpp_b, &late);
  ASSERT_EQ(r.mismatches, 1u);
  EXPECT_EQ(r.first_mismatch->field, "release_o") << r.first_mismatch_text;
  EXPECT_NE(r.first_mismatch_text.find("barrier unit"), std::string::npos) << r.first_mismatch_text;
}

// --- hardwired gossip (docs/gossip.md, "In the RTL") ---------------------------------------------------

struct GossipLockstep {
  uint64_t cycles = 0, compared = 0, mismatches = 0;
  std::optional<Mismatch> first;
  std::string text;
  bool ok = false;
  sw::CycleFigures result;
  std::string rtl;  // the Verilated configuration of router 0
};

// Runs `algo`'s forwarding tables on `topo` in gossip mode with every router a lock-step pair of the
// C++ router and `rtl` (64-byte blocks of 16-byte flits: 4-flit packets, t_s 10).
GossipLockstep gossip_lockstep(const std::string& algo, const Topology& topo, const RouterFactory& rtl,
                               const std::function<void(std::vector<GossipImage>&)>& edit = nullptr) {
  const sw::Algorithm* a = sw::find_algorithm(algo);
  const sw::GossipPlan plan = a->gossip_plan(topo, {});
  sw::Schedule s;
  a->generate(topo, {}, s);
  CycleOptions o;
  o.cost.block_bytes = 64;
  o.cost.ts_cycles = 10;
  o.gossip = &plan.table;
  o.edit_gossip = edit;
  const CppRouterFactory cpp{RouterConfig{}};
  const LockstepFactory pairs(cpp, rtl);
  CycleNetwork net(s, topo, o, true, &pairs);
  GossipLockstep g;
  if (auto* ls = dynamic_cast<LockstepCore*>(&net.fabric().port_router(0)->core()))
    if (auto* r = dynamic_cast<rtl::RtlRouter*>(&ls->second())) g.rtl = r->config().name;
  try {
    net.run();
    g.ok = sw::check_delivery(net.memory()).ok;
    g.result = net.result();
  } catch (const LockstepMismatch& m) {
    g.mismatches = 1;
    g.first = m.mismatch();
    g.text = m.what();
  }
  g.cycles = net.fabric().cycle();
  g.compared = fabric_coverage(net.fabric()).cycles;
  return g;
}

// Both schemes, 2D and 3D: the Verilated gossip router and Router::gossip_cycle agree on every output
// and register in every cycle, and the run delivers every piece (the fast path's figures).
TEST(RtlCosim, GossipRoutersAgreeWithTheModelInLockStep) {
  const rtl::RtlRouterFactory rtl;
  struct Case {
    std::string algo;
    Topology topo;
    const char* config;
  };
  const Case cases[] = {{"ms-hc", Topology({8, 8}, true), "g2d"},
                        {"ms-one", Topology({6, 6}, true), "g2d"},
                        {"ms-hc", Topology({4, 4, 4}, true), "g3d"},
                        {"ms-one", Topology({3, 3, 3}, true), "g3d"}};
  for (const Case& c : cases) {
    SCOPED_TRACE(c.algo + " on the " + c.topo.to_string());
    const GossipLockstep g = gossip_lockstep(c.algo, c.topo, rtl);
    // The gossip router of the run's dimensions: the catalog's (g2d) or, where the run's rules fit a
    // smaller table than the catalog's (3D: 32 rules against g3d's 64), one built on demand
    // (g3d_all_..._rules32; docs/rtl.md, "Models on demand").
    EXPECT_EQ(g.rtl.rfind(c.config, 0), 0u) << g.rtl;
    EXPECT_EQ(g.mismatches, 0u) << g.text;
    EXPECT_TRUE(g.ok);
    EXPECT_GT(g.compared, 1000u);
    const uint64_t n = static_cast<uint64_t>(c.topo.nodes());
    EXPECT_EQ(g.result.gossip_deliveries, g.result.gossip_router_copies);
    EXPECT_GE(g.result.gossip_deliveries, n * (n - 1));
    // The same run on the fast path.
    const sw::GossipPlan plan = sw::find_algorithm(c.algo)->gossip_plan(c.topo, {});
    sw::Schedule s;
    sw::find_algorithm(c.algo)->generate(c.topo, {}, s);
    CycleOptions o;
    o.cost.block_bytes = 64;
    o.cost.ts_cycles = 10;
    o.gossip = &plan.table;
    CycleNetwork fast(s, c.topo, o);
    fast.run();
    EXPECT_EQ(fast.result().cycles, g.result.cycles);
    EXPECT_EQ(fast.result().link_flits, g.result.link_flits);
    std::printf("%s on the %s: %lu cycles, %lu router-cycles compared\n", c.algo.c_str(), c.topo.to_string().c_str(),
                static_cast<unsigned long>(g.cycles), static_cast<unsigned long>(g.compared));
  }
}

// The gossip mutant (a network copy keeps the age it arrived with) is caught at the first forwarded
// head, in the flit's age.
TEST(RtlCosim, GossipMutantIsCaught) {
  const rtl::RtlRouterFactory mutant(1);
  const GossipLockstep g = gossip_lockstep("ms-hc", Topology({8, 8}, true), mutant);
  ASSERT_EQ(g.mismatches, 1u);
  ASSERT_TRUE(g.first.has_value());
  EXPECT_EQ(g.first->field, "flit.dest") << g.text;
  EXPECT_LT(g.first->cycle, 100u) << g.text;
  std::printf("gossip mutant 1: %s\n", g.text.c_str());
}

// A damaged gossip image is refused by the RTL loader, naming the node and the word.
TEST(RtlCosim, DamagedGossipImageIsRefusedByTheRtl) {
  const Topology topo({4, 4}, true);
  const sw::GossipPlan plan = sw::find_algorithm("ms-hc")->gossip_plan(topo, {});
  const std::vector<GossipImage> images = build_gossip_images(plan.table, topo);
  RouterShape shape;
  shape.ndims = 2;
  shape.local_ports = 4;
  shape.vc_classes = 2;
  shape.payload_words = 2;
  shape.gossip_packet_flits = 4;
  ASSERT_NO_THROW(rtl::make_rtl_gossip_router(shape, 0, topo, 5, images[5]));
  struct Damage {
    const char* what;
    std::function<void(GossipImage&)> edit;
    const char* expect;
  };
  const Damage damages[] = {
      {"checksum", [](GossipImage& g) { g.back() ^= 1; }, "checksum mismatch"},
      {"magic", [](GossipImage& g) { g[0] ^= 1; seal_gossip_image(g); }, "word 0: wrong magic"},
      {"node", [](GossipImage& g) { g[3] = 6; seal_gossip_image(g); }, "word 3: the image is for another node"},
      {"window", [](GossipImage& g) { g[6] = 0; seal_gossip_image(g); }, "word 6: an empty or zero age window"},
      {"port", [](GossipImage& g) { g[5] = 7; seal_gossip_image(g); }, "word 5: a rule names a port"},
      {"length", [](GossipImage& g) { g.insert(g.end() - 1, 0); seal_gossip_image(g); }, "wrong number of words"},
  };
  for (const Damage& d : damages) {
    SCOPED_TRACE(d.what);
    GossipImage g = images[5];
    d.edit(g);
    try {
      rtl::make_rtl_gossip_router(shape, 0, topo, 5, g);
      ADD_FAILURE() << "accepted";
    } catch (const sw::InputError& e) {
      const std::string msg = e.what();
      EXPECT_NE(msg.find("gossip image of node 5"), std::string::npos) << msg;
      EXPECT_NE(msg.find(d.expect), std::string::npos) << msg;
      EXPECT_NE(msg.find("refused by the RTL loader"), std::string::npos) << msg;
    }
  }
  // In a network: the C++ side refuses first (the RTL core is built second), naming node and word.
  const rtl::RtlRouterFactory rtl;
  EXPECT_THROW(gossip_lockstep("ms-hc", topo, rtl, [](std::vector<GossipImage>& v) { v[3].back() ^= 1; }),
               sw::InputError);
}

}  // namespace
}  // namespace torx::model
