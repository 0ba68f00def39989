// SPDX-License-Identifier: Apache-2.0
// torx cosim's run (app/cosim.hpp): every router and barrier unit a lock-step pair of the C++ model
// and the Verilated RTL, under seeded random traffic or an algorithm's schedule. Built with the RTL
// (models.cpp names it as the rtl model's co-simulation).
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <map>
#include <tuple>
#include <nlohmann/json.hpp>

#include "algorithms/meyer_sibeyn.hpp"
#include "algorithms/registry.hpp"
#include "app/backends.hpp"
#include "core/checker.hpp"
#include "core/errors.hpp"
#include "hw/rtl_foreign.hpp"
#include "hw/rtl_router.hpp"
#include "models/cosim.hpp"
#include "models/loader.hpp"
#include "models/port_router.hpp"

namespace torx::app {

namespace {

// The routers and barrier units of both sides.
struct Pairs {
  explicit Pairs(int mutant) : rtl(mutant) {}
  const model::CppRouterFactory cpp{model::RouterConfig{}};
  const rtl::RtlRouterFactory rtl;
  const model::CppBarrierFactory cpp_b;
  const rtl::RtlBarrierFactory rtl_b;
};

void fill_coverage(const model::LockstepCoverage& c, CosimReport& rep, int priority_levels = 1) {
  rep.coverage_text = c.describe();
  rep.registers = c.registers;
  rep.coverage = {{"router_cycles", c.cycles},
                  {"flits", c.flits},
                  {"blocked_vc_cycles", c.blocked},
                  {"input_vcs", c.input_vcs},
                  {"input_vcs_full", c.input_vcs_full},
                  {"input_vcs_waited", c.input_vcs_waited},
                  {"output_vcs", c.output_vcs},
                  {"output_vcs_used", c.output_vcs_used},
                  {"output_vcs_no_credit", c.output_vcs_no_credit},
                  {"output_ports", c.output_ports},
                  {"sa_out_wraps", c.sa_out_wraps},
                  {"input_ports", c.input_ports},
                  {"sa_in_wraps", c.sa_in_wraps},
                  {"va_groups", c.va_groups},
                  {"va_wraps", c.va_wraps}};
  for (int k = 0; k < 8; ++k)
    if (c.class_vcs_used[k]) rep.coverage.emplace_back(fmt::format("class_{}_vcs_used", k), c.class_vcs_used[k]);
  if (priority_levels > 1) {  // output VCs taken by a higher level at least once; twice at a time
    rep.coverage.emplace_back("output_vcs_preempted", c.output_vcs_preempted);
    rep.coverage.emplace_back("output_vcs_nested", c.output_vcs_nested);
  }
}

CosimMismatch mismatch_of(const model::Mismatch& m, const std::string& text) {
  CosimMismatch x;
  x.cycle = m.cycle;
  x.router = m.router;
  x.unit = text.find("barrier unit") != std::string::npos ? "barrier" : "router";
  x.port = m.port;
  x.vc = m.vc;
  x.field = m.field;
  x.model = m.a;
  x.rtl = m.b;
  x.text = text;
  return x;
}

// The Verilated models a network of routers of `shape` on `topo` is built from (their names: the
// catalog's, or one spelling the parameters; hw/rtl_router.hpp).
void name_configs(const model::RouterShape& shape, int mutant, const sw::Topology& topo, CosimReport& rep) {
  rep.rtl_router = rtl::rtl_model_name(shape, mutant, topo);
  rep.rtl_barrier = rtl::rtl_barrier_spec(topo.ndims()).name;
}

std::string params_json(const sw::NetworkParams& p) {
  nlohmann::ordered_json j = nlohmann::ordered_json::object();
  for (const auto& [name, value] : sw::param_values(p)) j[name] = value;
  return j.dump();
}

model::TrafficPattern traffic_pattern(CosimPattern p) {
  switch (p) {
    case CosimPattern::kHotspot: return model::TrafficPattern::kHotspot;
    case CosimPattern::kNeighbour: return model::TrafficPattern::kNeighbour;
    case CosimPattern::kUniform: break;
  }
  return model::TrafficPattern::kUniform;
}

// Seeded random traffic (models/cosim.hpp) until it is delivered or the first difference.
void random_traffic(const CosimRequest& r, const Pairs& pairs, CosimReport& rep) {
  model::CosimConfig c;
  c.params = r.params;
  c.ports = r.ports.value_or(sw::PortModel::kOne);
  c.flit_bytes = r.cost.flit_bytes;
  c.traffic.pattern = traffic_pattern(r.pattern);
  c.traffic.load = r.load;
  c.traffic.max_worm_flits = r.max_worm_flits;
  c.traffic.cycles = r.cycles;
  c.traffic.seed = r.seed;
  c.traffic.barrier_every = r.barrier_every;
  c.traffic.mixed_orders = r.mixed_orders;
  c.traffic.priority_levels = r.params.priority_levels;  // as run (validate_cosim)
  const model::CosimResult res = model::run_cosim(r.topology, c, pairs.cpp, pairs.rtl, &pairs.cpp_b, &pairs.rtl_b);
  rep.cycles = res.cycles;
  rep.router_cycles = res.router_cycles;
  rep.flits = res.flits;
  rep.compared = res.compared;
  rep.mismatches = res.mismatches;
  rep.barrier_cycles = res.barrier_cycles;
  rep.barrier_releases = res.barrier_releases;
  fill_coverage(res.coverage, rep, r.params.priority_levels);
  if (r.params.priority_levels > 1) {
    rep.coverage.emplace_back("preemptions", res.preemptions);
    rep.coverage_text += fmt::format("; {} preemptions", res.preemptions);
  }
  if (res.first_mismatch) rep.first_mismatch = mismatch_of(*res.first_mismatch, res.first_mismatch_text);
  rep.traffic_totals = {{"worms_offered", res.traffic.worms_offered},     {"worms_refused", res.traffic.worms_refused},
                        {"worms_delivered", res.traffic.worms_delivered}, {"flits_sent", res.traffic.flits_sent},
                        {"flits_delivered", res.traffic.flits_delivered}, {"barrier_entries", res.traffic.barriers}};
  const model::RoutingConfig rc = model::cosim_routing(r.topology, c);
  sw::NetworkParams p = r.params;
  p.order_classes = rc.order_classes;
  rep.params_json = params_json(p);
  // The configuration names: the shape of this network (as run_cosim built it).
  const model::RouterShape shape =
      model::router_shape(r.params, r.topology.ndims(), r.ports == sw::PortModel::kAll ? r.topology.ports() : 1,
                          rc.dateline_classes * rc.order_classes, r.cost.flit_bytes);
  name_configs(shape, r.mutant, r.topology, rep);
}

// An algorithm's schedule, run to the end with every router and barrier unit a lock-step pair, then
// every block checked as torx run does.
void algorithm_traffic(const CosimRequest& r, const Pairs& pairs, CosimReport& rep) {
  const sw::Algorithm& algo = sw::lookup_algorithm(r.traffic);
  sw::AlgorithmOptions aopt;
  aopt.seed = r.seed;
  algo.check(r.topology, aopt);
  sw::Schedule schedule;
  algo.generate(r.topology, aopt, schedule);
  model::CycleOptions o = cycle_options(r);
  // One local port unless all-port: the schedule's own interfaces.
  o.ports = r.ports == sw::PortModel::kAll ? std::optional<sw::PortModel>(sw::PortModel::kAll) : std::nullopt;
  std::unique_ptr<sw::GossipPlan> plan;
  if (r.gossip_hw) {
    // As torx run --gossip-hw: the algorithm's own forwarding tables.
    plan = std::make_unique<sw::GossipPlan>(algo.gossip_plan(r.topology, aopt));
    o.gossip = &plan->table;
    rep.traffic = r.traffic + " --gossip-hw";
  }
  const model::LockstepFactory routers(pairs.cpp, pairs.rtl);
  const model::LockstepBarrierFactory barriers(pairs.cpp_b, pairs.rtl_b);
  model::CycleNetwork net(schedule, r.topology, o, /*connect=*/true, &routers, &barriers);
  model::Fabric& f = net.fabric();
  name_configs(f.router(0).shape(), r.mutant, r.topology, rep);
  f.start();
  try {
    if (f.run() != model::RunStatus::kDone) throw sw::WatchdogError(net.stall_report());
    const sw::CheckResult chk = sw::check_delivery(net.memory());
    rep.check_ok = chk.ok;
    rep.check_text = fmt::format("{}: {} of {} delivered, {} missing, {} duplicated, {} misdelivered, {} corrupted",
                                 chk.ok ? "ok" : "FAILED", chk.delivered, chk.expected, chk.missing, chk.duplicated,
                                 chk.misdelivered, chk.corrupted);
  } catch (const model::LockstepMismatch& e) {
    rep.mismatches = 1;
    rep.first_mismatch = mismatch_of(e.mismatch(), e.what());
  }
  rep.cycles = f.cycle();
  rep.router_cycles = rep.cycles * static_cast<uint64_t>(rep.routers);
  const model::LockstepCoverage cov = model::fabric_coverage(f);
  fill_coverage(cov, rep);
  rep.compared = cov.cycles;
  rep.flits = cov.flits;
  model::fabric_barrier_coverage(f, rep.barrier_cycles, rep.barrier_releases);
  sw::NetworkParams p = r.params;
  p.order_classes = net.routing_config().order_classes;
  rep.params_json = params_json(p);
}

// torx cosim --rtl-router: the same random traffic on the C++ routers and on the user's, every
// delivered message compared: its tail's ejection cycle, and the order of the messages on every
// ejection VC (node, channel, level).
void port_level(const CosimRequest& r, CosimReport& rep) {
  model::CosimConfig c;
  c.params = r.params;
  c.ports = r.ports.value_or(sw::PortModel::kOne);
  c.flit_bytes = r.cost.flit_bytes;
  c.traffic.pattern = traffic_pattern(r.pattern);
  c.traffic.load = r.load;
  c.traffic.max_worm_flits = r.max_worm_flits;
  c.traffic.cycles = r.cycles;
  c.traffic.seed = r.seed;
  c.traffic.barrier_every = r.barrier_every;
  c.traffic.mixed_orders = r.mixed_orders;
  c.traffic.priority_levels = r.params.priority_levels;
  const model::CppRouterFactory cpp{model::RouterConfig{}};
  const rtl::ForeignRouterFactory theirs;
  const rtl::RtlBarrierFactory barriers;
  const model::TrafficRun a = model::run_traffic(r.topology, c, cpp, &barriers);
  const model::TrafficRun b = model::run_traffic(r.topology, c, theirs, &barriers);
  MessageComparison m;
  m.rtl_top = rtl::foreign_router_top();
  m.rtl_hash = rtl::foreign_router_hash();
  m.model_cycles = a.cycles;
  m.rtl_cycles = b.cycles;
  std::map<uint32_t, const model::TrafficArrival*> in_b;
  for (const auto& x : b.arrivals) in_b[x.msg] = &x;
  double sum = 0;
  for (const auto& x : a.arrivals) {
    auto it = in_b.find(x.msg);
    if (it == in_b.end()) {
      ++m.model_only;
      continue;
    }
    ++m.compared;
    const int64_t d = static_cast<int64_t>(it->second->cycle) - static_cast<int64_t>(x.cycle);
    sum += static_cast<double>(d);
    if (d == 0) {
      ++m.same;
    } else if (d > 0) {
      ++m.later;
      m.max_late = std::max(m.max_late, d);
    } else {
      ++m.earlier;
      m.max_early = std::max(m.max_early, -d);
    }
    if (d != 0 && m.first_timing.empty())
      m.first_timing = fmt::format("message {} ({} -> {}, {} flits): the model delivers its tail in cycle {}, {} in "
                                   "cycle {} ({:+} cycles)",
                                   x.msg, r.topology.node_name(static_cast<sw::NodeId>(x.msg % r.topology.nodes())),
                                   r.topology.node_name(x.dst), x.flits, x.cycle, m.rtl_top, it->second->cycle, d);
  }
  m.rtl_only = b.arrivals.size() - (a.arrivals.size() - m.model_only);
  m.mean_difference = m.compared ? sum / static_cast<double>(m.compared) : 0.0;
  // Order per ejection VC.
  using Key = std::tuple<sw::NodeId, uint16_t, uint8_t>;
  std::map<Key, std::vector<uint32_t>> oa, ob;
  for (const auto& x : a.arrivals) oa[Key{x.dst, x.channel, x.level}].push_back(x.msg);
  for (const auto& x : b.arrivals) ob[Key{x.dst, x.channel, x.level}].push_back(x.msg);
  for (const auto& [k, seq] : oa) {
    const std::vector<uint32_t>& other = ob[k];
    if (seq == other) continue;
    ++m.order_differences;
    if (!m.first_order.empty()) continue;
    size_t i = 0;
    while (i < seq.size() && i < other.size() && seq[i] == other[i]) ++i;
    m.first_order = fmt::format("node {} ejection channel {} level {}: message {} is the model's #{}, the rtl's is {}",
                                r.topology.node_name(std::get<0>(k)), std::get<1>(k), std::get<2>(k),
                                i < seq.size() ? fmt::format("{}", seq[i]) : std::string("none"), i + 1,
                                i < other.size() ? fmt::format("{}", other[i]) : std::string("none"));
  }
  rep.cycles = b.cycles;
  rep.router_cycles = b.cycles * static_cast<uint64_t>(rep.routers);
  rep.mismatches = m.later + m.earlier;
  rep.traffic_totals = {{"worms_offered", b.traffic.worms_offered},     {"worms_refused", b.traffic.worms_refused},
                        {"worms_delivered", b.traffic.worms_delivered}, {"flits_sent", b.traffic.flits_sent},
                        {"flits_delivered", b.traffic.flits_delivered}, {"barrier_entries", b.traffic.barriers}};
  rep.rtl_router = m.rtl_top;
  rep.rtl_barrier = rtl::rtl_barrier_spec(r.topology.ndims()).name;
  rep.params_json = params_json(r.params);
  rep.messages = std::move(m);
}

}  // namespace

CosimReport run_rtl_cosim(const CosimRequest& r) {
  const auto t0 = std::chrono::steady_clock::now();
  CosimReport rep;
  rep.topology = r.topology.to_string();
  rep.traffic = r.traffic == "random" ? fmt::format("random {} load {} worms 1..{} flits",
                                                    sw::name_of(kCosimPatterns, r.pattern), r.load, r.max_worm_flits)
                                      : r.traffic;
  rep.routers = static_cast<int>(r.topology.nodes());
  if (!r.rtl_router.empty()) {
    if (r.traffic != "random")
      throw sw::InputError(fmt::format("--rtl-router with --traffic {}: torx cosim compares your router on random "
                                       "traffic; run the algorithm with torx run --model rtl --rtl-router",
                                       r.traffic));
    port_level(r, rep);
    rep.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return rep;
  }
  const Pairs pairs(r.mutant);
  if (r.traffic == "random") random_traffic(r, pairs, rep);
  else algorithm_traffic(r, pairs, rep);
  rep.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return rep;
}

}  // namespace torx::app
