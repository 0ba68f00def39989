// SPDX-License-Identifier: Apache-2.0
#include "models/cosim.hpp"

#include <fmt/format.h>

#include <chrono>

#include "models/port_router.hpp"

namespace torx::model {

namespace {
std::vector<std::string> port_names(const RouterShape& shape) {
  std::vector<std::string> names;
  for (int p = 0; p < shape.ports(); ++p)
    names.push_back(p < shape.network_ports() ? sw::Topology::port_name(p)
                                              : fmt::format("inj/ej{}", p - shape.network_ports()));
  return names;
}
}  // namespace

std::unique_ptr<RouterCore> LockstepFactory::make(sw::NodeId v, const RouterShape& shape, const RoutingImage& image,
                                                  const sw::Topology& topo) const {
  return std::make_unique<LockstepCore>(static_cast<int>(v), port_names(shape), a_.make(v, shape, image, topo),
                                        b_.make(v, shape, image, topo));
}

std::unique_ptr<RouterCore> LockstepFactory::make_gossip(sw::NodeId v, const RouterShape& shape,
                                                         const RoutingImage& image, const GossipImage& gossip,
                                                         const sw::Topology& topo) const {
  return std::make_unique<LockstepCore>(static_cast<int>(v), port_names(shape),
                                        a_.make_gossip(v, shape, image, gossip, topo),
                                        b_.make_gossip(v, shape, image, gossip, topo));
}

RoutingConfig cosim_routing(const sw::Topology& topo, const CosimConfig& cfg) {
  RoutingConfig rc;
  rc.dateline_classes = topo.wrap() && cfg.params.dateline ? 2 : 1;
  rc.order_classes = cfg.params.order_classes > 0 ? cfg.params.order_classes
                     : cfg.traffic.mixed_orders   ? topo.ndims()
                                                  : 1;
  rc.all_port = cfg.ports == sw::PortModel::kAll;
  return rc;
}

LockstepCoverage fabric_coverage(Fabric& f) {
  LockstepCoverage c;
  for (sw::NodeId v = 0; v < f.topology().nodes(); ++v) {
    PortRouter* pr = f.port_router(v);
    if (!pr) continue;
    if (const auto* ls = dynamic_cast<const LockstepCore*>(&pr->core())) c.merge(ls->coverage());
  }
  return c;
}

void fabric_barrier_coverage(Fabric& f, uint64_t& cycles, uint64_t& releases) {
  cycles = releases = 0;
  for (sw::NodeId v = 0; v < f.topology().nodes(); ++v)
    if (const auto* ls = dynamic_cast<const LockstepBarrierCore*>(f.barrier(v).core())) {
      cycles += ls->cycles();
      releases += ls->episodes();
    }
}

// The fabric a co-simulation or a traffic run drives: the network parameters with the routing's order
// classes and the traffic's priority levels, validated, and every node's routing image and the barrier tree.
static FabricSpec cosim_fabric_spec(const sw::Topology& topo, const CosimConfig& cfg) {
  const RoutingConfig rc = cosim_routing(topo, cfg);
  FabricSpec spec;
  spec.params = cfg.params;
  spec.params.order_classes = rc.order_classes;
  spec.params.priority_levels = cfg.traffic.priority_levels;
  sw::validate(spec.params, topo);
  sw::validate_priority(spec.params, topo);
  spec.ports = cfg.ports;
  spec.flit_bytes = cfg.flit_bytes;
  for (sw::NodeId v = 0; v < topo.nodes(); ++v) spec.routing.push_back(build_routing_image(topo, v, rc));
  spec.barrier = build_barrier_tree(topo);
  return spec;
}

CosimResult run_cosim(const sw::Topology& topo, const CosimConfig& cfg, const RouterFactory& a, const RouterFactory& b,
                      const BarrierFactory* ba, const BarrierFactory* bb) {
  const auto t0 = std::chrono::steady_clock::now();
  FabricSpec spec = cosim_fabric_spec(topo, cfg);
  TrafficConfig tc = cfg.traffic;
  tc.flit_bytes = cfg.flit_bytes;
  tc.injection_depth = tc.ejection_depth = cfg.params.buffer_depth;
  tc.priority_reserve = cfg.params.priority_reserve;
  std::vector<TrafficSource*> sources;
  const EndpointFactory endpoints = [&](sw::NodeId v, int channels, NetworkCounters* counters, Scheduler* sched) {
    auto s = std::make_unique<TrafficSource>(topo, v, channels, tc, counters, sched);
    sources.push_back(s.get());
    return s;
  };
  const LockstepFactory pairs(a, b);
  std::unique_ptr<LockstepBarrierFactory> barrier_pairs;
  if (ba && bb) barrier_pairs = std::make_unique<LockstepBarrierFactory>(*ba, *bb);
  Fabric fabric(topo, std::move(spec), endpoints, &pairs, barrier_pairs.get());
  fabric.connect_all();
  fabric.start();
  CosimResult r;
  r.routers = static_cast<int>(topo.nodes());
  try {
    if (fabric.run() != RunStatus::kDone)
      throw sw::WatchdogError(fmt::format("cosim: {}", fabric.stop_reason()));
  } catch (const LockstepMismatch& m) {
    r.mismatches = 1;
    r.first_mismatch = m.mismatch();
    r.first_mismatch_text = m.what();
  }
  r.cycles = fabric.cycle();
  r.router_cycles = r.cycles * static_cast<uint64_t>(topo.nodes());
  r.preemptions = fabric.preemptions();
  r.coverage = fabric_coverage(fabric);
  r.compared = r.coverage.cycles;
  fabric_barrier_coverage(fabric, r.barrier_cycles, r.barrier_releases);
  r.flits = r.coverage.flits;
  for (const TrafficSource* s : sources) {
    const TrafficTotals& t = s->totals();
    r.traffic.worms_offered += t.worms_offered;
    r.traffic.worms_refused += t.worms_refused;
    r.traffic.flits_sent += t.flits_sent;
    r.traffic.worms_delivered += t.worms_delivered;
    r.traffic.flits_delivered += t.flits_delivered;
    r.traffic.barriers += t.barriers;
  }
  r.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return r;
}

TrafficRun run_traffic(const sw::Topology& topo, const CosimConfig& cfg, const RouterFactory& routers,
                       const BarrierFactory* barriers) {
  FabricSpec spec = cosim_fabric_spec(topo, cfg);
  TrafficRun r;
  TrafficConfig tc = cfg.traffic;
  tc.flit_bytes = cfg.flit_bytes;
  tc.injection_depth = tc.ejection_depth = cfg.params.buffer_depth;
  tc.priority_reserve = cfg.params.priority_reserve;
  tc.arrivals = &r.arrivals;
  std::vector<TrafficSource*> sources;
  const EndpointFactory endpoints = [&](sw::NodeId v, int channels, NetworkCounters* counters, Scheduler* sched) {
    auto s = std::make_unique<TrafficSource>(topo, v, channels, tc, counters, sched);
    sources.push_back(s.get());
    return s;
  };
  Fabric fabric(topo, std::move(spec), endpoints, &routers, barriers);
  fabric.connect_all();
  fabric.start();
  if (fabric.run() != RunStatus::kDone) throw sw::WatchdogError(fmt::format("cosim: {}", fabric.stop_reason()));
  r.cycles = fabric.cycle();
  for (const TrafficSource* s : sources) {
    const TrafficTotals& t = s->totals();
    r.traffic.worms_offered += t.worms_offered;
    r.traffic.worms_refused += t.worms_refused;
    r.traffic.flits_sent += t.flits_sent;
    r.traffic.worms_delivered += t.worms_delivered;
    r.traffic.flits_delivered += t.flits_delivered;
    r.traffic.barriers += t.barriers;
  }
  return r;
}

}  // namespace torx::model
