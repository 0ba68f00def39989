// SPDX-License-Identifier: Apache-2.0
#include "app/cosim.hpp"

#include <fmt/format.h>

#include <chrono>
#include <nlohmann/json.hpp>

#include "algorithms/meyer_sibeyn.hpp"
#include "algorithms/registry.hpp"
#include "core/checker.hpp"
#include "core/errors.hpp"
#include "core/schedule.hpp"

#ifdef TORX_HAVE_RTL
#include "hw/rtl_router.hpp"
#include "models/cosim.hpp"
#include "models/loader.hpp"
#include "models/port_router.hpp"
#endif

namespace torx::app {

namespace {
const char* const kPatterns[] = {"uniform", "hotspot", "neighbour"};
}  // namespace

void validate_cosim(const CosimRequest& r) {
  if (!cosim_available()) throw sw::InputError("cosim: this build has no Verilated RTL (hw/ needs verilator)");
  if (r.traffic != "random" && !sw::find_algorithm(r.traffic)) {
    std::string known;
    for (const sw::Algorithm& a : sw::algorithms()) known += ", " + a.id;
    throw sw::InputError(fmt::format("--traffic {}: random or an algorithm id (known: random{})", r.traffic, known));
  }
  bool pattern_ok = false;
  for (const char* p : kPatterns) pattern_ok |= r.pattern == p;
  if (!pattern_ok) throw sw::InputError(fmt::format("--pattern {}: must be uniform, hotspot or neighbour", r.pattern));
  if (!(r.load > 0 && r.load <= 1)) throw sw::InputError(fmt::format("--load {}: must be in (0, 1]", r.load));
  if (r.max_worm_flits < 1 || r.max_worm_flits > 4096)
    throw sw::InputError(fmt::format("--max-worm-flits {}: must be 1 to 4096", r.max_worm_flits));
  if (r.cycles < 1 || r.cycles > (uint64_t{1} << 32))
    throw sw::InputError(fmt::format("--cycles {}: must be 1 to 2^32", r.cycles));
  if (r.flit_bytes < 1 || r.flit_bytes > 32)
    throw sw::InputError(fmt::format("--flit-bytes {}: the Verilated routers carry 1 to 32 bytes per flit", r.flit_bytes));
  if (r.priority_levels < 1 || r.priority_levels > 16)
    throw sw::InputError(fmt::format("priority levels {}: must be 1 to 16", r.priority_levels));
  if (r.priority_levels > 1 && r.traffic != "random")
    throw sw::InputError("--param priority_levels: random traffic draws the levels (an algorithm's schedule has its own)");
  if (r.mixed_orders && r.traffic != "random")
    throw sw::InputError("--mixed-orders: random traffic only (an algorithm's schedule sets its own routes)");
  if (r.gossip_hw) {
    const sw::Algorithm* a = r.traffic == "random" ? nullptr : sw::find_algorithm(r.traffic);
    if (!a || !a->gossip_plan)
      throw sw::InputError(fmt::format("--gossip-hw: the routers forward by an oblivious gossip's forwarding tables "
                                       "(--traffic ms-hc, ms-hc-steps, ms-hc-hd or ms-one), not {}", r.traffic));
  }
  sw::validate(r.params, r.topology);
}

#ifdef TORX_HAVE_RTL

bool cosim_available() { return true; }

namespace {

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

CosimMismatch mismatch_of(const model::LockstepMismatch& e) {
  const model::Mismatch& m = e.mismatch();
  CosimMismatch x;
  x.cycle = m.cycle;
  x.router = m.router;
  x.unit = std::string(e.what()).find("barrier unit") != std::string::npos ? "barrier" : "router";
  x.port = m.port;
  x.vc = m.vc;
  x.field = m.field;
  x.model = m.a;
  x.rtl = m.b;
  x.text = e.what();
  return x;
}

// The Verilated configurations a fabric of lock-step pairs uses.
void name_configs(model::Fabric& f, CosimReport& rep) {
  if (model::PortRouter* pr = f.port_router(0))
    if (auto* ls = dynamic_cast<model::LockstepCore*>(&pr->core()))
      if (auto* r = dynamic_cast<rtl::RtlRouter*>(&ls->second())) rep.rtl_router = r->config().name;
  for (const rtl::RtlBarrierConfig& c : rtl::rtl_barrier_configs())
    if (c.ndims == f.topology().ndims()) rep.rtl_barrier = c.name;
}

std::string params_json(const sw::NetworkParams& p) {
  nlohmann::ordered_json j = nlohmann::ordered_json::object();
  for (const auto& [name, value] : sw::param_values(p)) j[name] = value;
  return j.dump();
}

}  // namespace

CosimReport run_cosim(const CosimRequest& r) {
  validate_cosim(r);
  const auto t0 = std::chrono::steady_clock::now();
  CosimReport rep;
  rep.topology = r.topology.to_string();
  rep.traffic = r.traffic == "random" ? fmt::format("random {} load {} worms 1..{} flits", r.pattern, r.load,
                                                    r.max_worm_flits)
                                      : r.traffic;
  rep.routers = static_cast<int>(r.topology.nodes());
  const model::CppRouterFactory cpp{model::RouterConfig{}};
  const rtl::RtlRouterFactory rtl(r.mutant);
  const model::CppBarrierFactory cpp_b;
  const rtl::RtlBarrierFactory rtl_b;
  if (r.traffic == "random") {
    model::CosimConfig c;
    c.params = r.params;
    c.ports = r.ports;
    c.flit_bytes = r.flit_bytes;
    c.traffic.pattern = r.pattern == "hotspot"     ? model::TrafficPattern::kHotspot
                        : r.pattern == "neighbour" ? model::TrafficPattern::kNeighbour
                                                   : model::TrafficPattern::kUniform;
    c.traffic.load = r.load;
    c.traffic.max_worm_flits = r.max_worm_flits;
    c.traffic.cycles = r.cycles;
    c.traffic.seed = r.seed;
    c.traffic.barrier_every = r.barrier_every;
    c.traffic.mixed_orders = r.mixed_orders;
    c.traffic.priority_levels = r.priority_levels;
    const model::CosimResult res = model::run_cosim(r.topology, c, cpp, rtl, &cpp_b, &rtl_b);
    rep.cycles = res.cycles;
    rep.router_cycles = res.router_cycles;
    rep.flits = res.flits;
    rep.compared = res.compared;
    rep.mismatches = res.mismatches;
    rep.barrier_cycles = res.barrier_cycles;
    rep.barrier_releases = res.barrier_releases;
    fill_coverage(res.coverage, rep, r.priority_levels);
    if (r.priority_levels > 1) {
      rep.coverage.emplace_back("preemptions", res.preemptions);
      rep.coverage_text += fmt::format("; {} preemptions", res.preemptions);
    }
    if (res.first_mismatch) {
      CosimMismatch x;
      const model::Mismatch& m = *res.first_mismatch;
      x.cycle = m.cycle;
      x.router = m.router;
      x.unit = res.first_mismatch_text.find("barrier unit") != std::string::npos ? "barrier" : "router";
      x.port = m.port;
      x.vc = m.vc;
      x.field = m.field;
      x.model = m.a;
      x.rtl = m.b;
      x.text = res.first_mismatch_text;
      rep.first_mismatch = x;
    }
    rep.traffic_totals = {{"worms_offered", res.traffic.worms_offered},     {"worms_refused", res.traffic.worms_refused},
                          {"worms_delivered", res.traffic.worms_delivered}, {"flits_sent", res.traffic.flits_sent},
                          {"flits_delivered", res.traffic.flits_delivered}, {"barrier_entries", res.traffic.barriers}};
    sw::NetworkParams p = r.params;
    p.order_classes = model::cosim_routing(r.topology, c).order_classes;
    p.priority_levels = c.traffic.priority_levels;  // as run (the parameter's default applies to --sync priority)
    rep.params_json = params_json(p);
    // The configuration names: the shape of this network (as run_cosim built it).
    model::RouterShape shape;
    shape.ndims = r.topology.ndims();
    shape.local_ports = r.ports == sw::PortModel::kAll ? r.topology.ports() : 1;
    const model::RoutingConfig rc = model::cosim_routing(r.topology, c);
    shape.vc_classes = rc.dateline_classes * rc.order_classes;
    shape.vcs_per_class = r.params.vcs_per_class;
    shape.buffer_depth = r.params.buffer_depth;
    shape.pipeline = r.params.router_latency;
    shape.payload_words = (r.flit_bytes + 7) / 8;
    shape.priority_levels = r.priority_levels;
    shape.priority_reserve = r.params.priority_reserve;
    if (const rtl::RtlRouterConfig* rc2 = rtl::find_rtl_router(shape, r.mutant)) rep.rtl_router = rc2->name;
    for (const rtl::RtlBarrierConfig& bc : rtl::rtl_barrier_configs())
      if (bc.ndims == r.topology.ndims()) rep.rtl_barrier = bc.name;
  } else {
    // An algorithm's schedule, run to the end with every router and barrier unit a lock-step pair,
    // then every block checked as torx run does.
    const sw::Algorithm& algo = *sw::find_algorithm(r.traffic);
    sw::AlgorithmOptions aopt;
    aopt.seed = r.seed;
    algo.check(r.topology, aopt);
    sw::Schedule schedule;
    algo.generate(r.topology, aopt, schedule);
    model::CycleOptions o;
    o.params = r.params;
    o.cost = r.cost;
    o.cost.flit_bytes = r.flit_bytes;
    o.sync = r.sync;
    o.seed = r.seed;
    o.ports = r.ports == sw::PortModel::kAll ? std::optional<sw::PortModel>(sw::PortModel::kAll) : std::nullopt;
    std::unique_ptr<sw::GossipPlan> plan;
    if (r.gossip_hw) {
      // As torx run --gossip-hw: the algorithm's own forwarding tables; buffers hold two packets.
      plan = std::make_unique<sw::GossipPlan>(algo.gossip_plan(r.topology, aopt));
      o.gossip = &plan->table;
      const int flits = static_cast<int>((o.cost.block_bytes + o.cost.flit_bytes - 1) / o.cost.flit_bytes);
      if (o.params.buffer_depth < 2 * flits) o.params.buffer_depth = 2 * flits;
      rep.traffic = r.traffic + " --gossip-hw";
    }
    model::validate_cycle_options(o);
    const model::LockstepFactory pairs(cpp, rtl);
    const model::LockstepBarrierFactory barrier_pairs(cpp_b, rtl_b);
    model::CycleNetwork net(schedule, r.topology, o, /*connect=*/true, &pairs, &barrier_pairs);
    model::Fabric& f = net.fabric();
    name_configs(f, rep);
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
      rep.first_mismatch = mismatch_of(e);
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
    p.priority_levels = 1;  // barrier or none: no priority levels
    p.buffer_depth = o.params.buffer_depth;  // as run (--gossip-hw: two packets at least)
    rep.params_json = params_json(p);
  }
  rep.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return rep;
}

#else

bool cosim_available() { return false; }
CosimReport run_cosim(const CosimRequest& r) {
  validate_cosim(r);
  return {};
}

#endif

std::string cosim_json(const CosimReport& r, int indent) {
  nlohmann::ordered_json j;
  j["schema"] = "torx.cosim/1";
  j["topology"] = r.topology;
  j["traffic"] = r.traffic;
  j["rtl_router"] = r.rtl_router;
  j["rtl_barrier"] = r.rtl_barrier;
  j["params"] = r.params_json.empty() ? nlohmann::ordered_json::object() : nlohmann::ordered_json::parse(r.params_json);
  j["cycles"] = r.cycles;
  j["routers"] = r.routers;
  j["router_cycles"] = r.router_cycles;
  j["flits"] = r.flits;
  j["compared"] = r.compared;
  j["registers"] = r.registers;
  j["mismatches"] = r.mismatches;
  if (r.first_mismatch) {
    const CosimMismatch& m = *r.first_mismatch;
    j["first_mismatch"] = {{"cycle", m.cycle}, {"unit", m.unit},   {"router", m.router}, {"port", m.port},
                           {"vc", m.vc},       {"field", m.field}, {"model", m.model},   {"rtl", m.rtl},
                           {"text", m.text}};
  } else {
    j["first_mismatch"] = nullptr;
  }
  j["barrier"] = {{"unit_cycles", r.barrier_cycles}, {"releases", r.barrier_releases}};
  nlohmann::ordered_json cov = nlohmann::ordered_json::object();
  for (const auto& [k, v] : r.coverage) cov[k] = v;
  j["coverage"] = cov;
  nlohmann::ordered_json t = nlohmann::ordered_json::object();
  for (const auto& [k, v] : r.traffic_totals) t[k] = v;
  j["traffic_totals"] = t;
  if (r.check_ok) j["check"] = {{"ok", *r.check_ok}, {"summary", r.check_text}};
  j["wall_seconds"] = r.wall_seconds;
  j["router_cycles_per_second"] = r.wall_seconds > 0 ? static_cast<double>(r.router_cycles) / r.wall_seconds : 0.0;
  return j.dump(indent);
}

std::string cosim_text(const CosimReport& r) {
  std::string s = fmt::format("torx cosim on the {}: {}, C++ model against RTL {} (barrier units {})\n", r.topology,
                              r.traffic, r.rtl_router.empty() ? "?" : r.rtl_router,
                              r.rtl_barrier.empty() ? "?" : r.rtl_barrier);
  s += fmt::format("  cycles               {} ({} routers, {} router-cycles, {} compared)\n", r.cycles, r.routers,
                   r.router_cycles, r.compared);
  s += fmt::format("  compared             {} output flits, {} register values, {} barrier unit-cycles ({} releases)\n",
                   r.flits, r.registers, r.barrier_cycles, r.barrier_releases);
  s += fmt::format("  coverage             {}\n", r.coverage_text);
  if (r.check_ok) s += fmt::format("  check                {}\n", r.check_text);
  s += fmt::format("  speed                {:.3f} s: {:.3f} M router-cycles/s (model and RTL together)\n", r.wall_seconds,
                   r.wall_seconds > 0 ? static_cast<double>(r.router_cycles) / r.wall_seconds / 1e6 : 0.0);
  if (r.first_mismatch) s += fmt::format("  MISMATCH             {}\n", r.first_mismatch->text);
  else s += "  result               no mismatch\n";
  return s;
}

}  // namespace torx::app
