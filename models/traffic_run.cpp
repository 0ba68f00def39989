// SPDX-License-Identifier: Apache-2.0
#include "models/traffic_run.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <map>

#include "core/errors.hpp"
#include "models/barrier.hpp"
#include "models/fabric.hpp"
#include "models/routing_table.hpp"

namespace torx::model {

namespace {

LatencyFigures figures_of(const LatencyHistogram& h) {
  LatencyFigures f;
  f.count = h.count();
  if (!f.count) return f;
  f.mean = static_cast<double>(h.sum()) / static_cast<double>(f.count);
  f.min = h.min();
  f.p50 = h.quantile(0.50);
  f.p99 = h.quantile(0.99);
  f.max = h.max();
  // At most 64 bins of a round width (1, 2 or 5 times a power of ten) from 0 to the maximum.
  uint64_t w = 1;
  for (uint64_t p = 1, k = 0; (f.max + w) / w > 64; ++k) {
    w = p * (k % 3 == 0 ? 2 : k % 3 == 1 ? 5 : 10);
    if (k % 3 == 2) p *= 10;
  }
  f.bin_width = w;
  f.histogram.assign((f.max + w) / w, 0);
  const std::vector<uint64_t>& bins = h.bins();
  // (The last exact bin holds every latency beyond it: they are counted at the maximum.)
  for (size_t b = 0; b < bins.size(); ++b)
    if (bins[b]) f.histogram[(b + 1 == LatencyHistogram::kMaxBins ? f.max : b) / w] += bins[b];
  return f;
}

// Where the packets still in the network are (a watchdog report).
std::string stall_report(const Fabric& f, const sw::Topology& topo, size_t max_packets = 20) {
  std::string s = f.stop_reason().empty() ? std::string("stopped") : f.stop_reason();
  size_t shown = 0, heads = 0;
  f.visit_flits([&](const Flit& fl, const std::string& place, const std::string& reason) {
    if (!fl.head()) return;
    ++heads;
    if (shown >= max_packets) return;
    ++shown;
    s += fmt::format("\n  packet {} of node {} for node {}: head at {}: {}", fl.msg / static_cast<uint32_t>(topo.nodes()),
                     topo.node_name(static_cast<sw::NodeId>(fl.msg % static_cast<uint32_t>(topo.nodes()))),
                     topo.node_name(fl.dest), place, reason);
  });
  if (heads > shown) s += fmt::format("\n  ... and {} more packets", heads - shown);
  return s;
}

}  // namespace

std::string TrafficRunResult::check_summary() const {
  return fmt::format("{}: {} packets delivered ({} flits checked), {} lost, {} corrupted flits, {} misdelivered, "
                     "{} duplicated, {} out of order, {} unknown",
                     check_ok() ? "ok" : "FAILED", packets_delivered, check.flits, lost, check.corrupted,
                     check.misdelivered, check.duplicated, check.out_of_order, check.unknown);
}

MemoryEstimate estimate_traffic_run(const sw::Topology& topo, const TrafficRunConfig& cfg) {
  const int classes = topo.wrap() && cfg.params.dateline ? 2 : 1;
  MemoryEstimate e = estimate_network(topo, cfg.params, sw::PortModel::kOne, cfg.flit_bytes, classes, /*systemc=*/false);
  // The packet table and histograms; the per-link counts of the window (three copies).
  e.program = PacketTable::bytes_bound(topo, cfg.source.queue_limit) +
              3 * static_cast<uint64_t>(topo.link_count()) * sizeof(uint64_t);
  return e;
}

void validate_traffic_run(const sw::Topology& topo, const TrafficRunConfig& cfg) {
  sw::validate(cfg.params, topo);
  if (cfg.flit_bytes < 1 || cfg.flit_bytes > kMaxFlitBytes)
    throw sw::InputError(fmt::format("--flit-bytes {}: the cycle model carries 1 to {} bytes per flit", cfg.flit_bytes,
                                     kMaxFlitBytes));
  const uint64_t span = (uint64_t{1} << 32) / static_cast<uint64_t>(topo.nodes());
  if (cfg.source.queue_limit < 1 || uint64_t{cfg.source.queue_limit} * 2 > span)
    throw sw::InputError(fmt::format("--queue-limit {}: must be 1 to {} on the {}", cfg.source.queue_limit, span / 2,
                                     topo.to_string()));
  const MemoryEstimate e = estimate_traffic_run(topo, cfg);
  sw::require_memory(cfg.memory_limit ? *cfg.memory_limit : sw::default_memory_limit(), e.total(),
                     fmt::format("synthetic traffic on the {}", topo.to_string()), e.parts());
}

TrafficRunResult run_traffic(const sw::Topology& topo, const TrafficRunConfig& cfg, const DestinationPattern& pattern,
                             const RouterFactory* routers) {
  const auto t0 = std::chrono::steady_clock::now();
  validate_traffic_run(topo, cfg);
  const uint64_t w0 = cfg.warmup, w1 = cfg.warmup + cfg.measure;
  RoutingConfig rc;
  rc.dateline_classes = topo.wrap() && cfg.params.dateline ? 2 : 1;
  rc.order_classes = 1;
  FabricSpec spec;
  spec.params = cfg.params;
  spec.params.order_classes = 1;
  spec.params.priority_levels = 1;
  spec.flit_bytes = cfg.flit_bytes;
  for (sw::NodeId v = 0; v < topo.nodes(); ++v) spec.routing.push_back(build_routing_image(topo, v, rc));
  spec.barrier = build_barrier_tree(topo);
  PacketTable table(topo, cfg.source.queue_limit, w0, w1);
  SyntheticConfig sc = cfg.source;
  sc.flit_bytes = cfg.flit_bytes;
  sc.injection_depth = sc.ejection_depth = cfg.params.buffer_depth;
  std::vector<SyntheticSource*> sources;
  const EndpointFactory endpoints = [&](sw::NodeId v, int channels, NetworkCounters* counters, Scheduler* sched) {
    TORX_CHECK(channels == 1, "synthetic traffic drives one-port nodes");
    auto s = std::make_unique<SyntheticSource>(topo, v, sc, pattern, &table, counters, sched);
    sources.push_back(s.get());
    return s;
  };
  Fabric fabric(topo, std::move(spec), endpoints, routers);
  fabric.connect_all();
  fabric.start();

  TrafficRunResult r;
  r.rate = cfg.source.rate;
  auto run_until = [&](uint64_t until, auto&& stop) {
    while (fabric.status() == RunStatus::kRunning && fabric.cycle() < until && !stop()) fabric.step();
    if (fabric.status() == RunStatus::kStalled || fabric.status() == RunStatus::kLimit)
      throw sw::WatchdogError(stall_report(fabric, topo));
  };
  const auto never = [] { return false; };
  run_until(w0, never);
  const std::vector<uint64_t> links0 = fabric.link_flits();
  run_until(w1, never);
  const std::vector<uint64_t> links1 = fabric.link_flits();
  const PacketTable::Totals& t = table.totals();
  const double node_cycles = static_cast<double>(topo.nodes()) * static_cast<double>(cfg.measure);
  r.offered = static_cast<double>(t.flits_offered) / node_cycles;
  r.injected = static_cast<double>(t.flits_injected) / node_cycles;
  r.accepted = static_cast<double>(t.flits_accepted) / node_cycles;
  if (t.refused) {
    r.saturated = true;
    r.saturation_reason = fmt::format("(b) a source queue reached its limit of {} packets ({} packets refused)",
                                      cfg.source.queue_limit, t.refused);
  } else if (r.accepted < cfg.saturation_ratio * r.offered) {
    r.saturated = true;
    r.saturation_reason = fmt::format("(a) accepted {:.4f} < {:g} x offered {:.4f} flits/node/cycle", r.accepted,
                                      cfg.saturation_ratio, r.offered);
  } else {
    const uint64_t d0 = fabric.cycle();
    run_until(w1 + cfg.drain_limit, [&] { return table.tagged_outstanding() == 0; });
    r.drain_cycles = fabric.cycle() - d0;
    if (table.tagged_outstanding()) {
      r.saturated = true;
      r.saturation_reason = fmt::format("(c) {} of {} measured packets had not arrived {} cycles after the window",
                                        table.tagged_outstanding(), t.tagged, cfg.drain_limit);
    }
  }
  r.latency_complete = table.tagged_outstanding() == 0;
  // Flush: no new packets; what is in the network is delivered and checked.
  for (SyntheticSource* s : sources) s->stop();
  const uint64_t f0 = fabric.cycle();
  if (fabric.run() != RunStatus::kDone) {
    // Stalled with nothing left anywhere in the network: flits vanished (the check counts the
    // packets as lost); anything else is a stuck network.
    size_t flits = 0;
    fabric.visit_flits([&](const Flit&, const std::string&, const std::string&) { ++flits; });
    if (flits || fabric.status() == RunStatus::kLimit) throw sw::WatchdogError(stall_report(fabric, topo));
  }
  r.flush_cycles = fabric.cycle() - f0;
  r.cycles = fabric.cycle();

  r.packets_created = t.created;
  r.packets_tagged = t.tagged;
  r.tagged_delivered = t.tagged_delivered;
  r.packets_delivered = t.delivered;
  r.packets_refused = t.refused;
  r.never_injected = table.never_injected();
  r.packet_latency = figures_of(table.packet_latency());
  r.network_latency = figures_of(table.network_latency());
  r.hops_mean = t.tagged_delivered ? static_cast<double>(t.hops_tagged) / static_cast<double>(t.tagged_delivered) : 0;
  r.link_flits.assign(links1.size(), 0);
  uint64_t sum = 0, top = 0, used = 0;
  for (size_t l = 0; l < links1.size(); ++l) {
    const sw::NodeId v = topo.link_source(static_cast<sw::LinkId>(l));
    if (topo.neighbor(v, topo.link_port(static_cast<sw::LinkId>(l))) < 0) continue;  // a mesh edge: no link
    r.link_flits[l] = links1[l] - links0[l];
    sum += r.link_flits[l];
    ++used;
    if (r.link_flits[l] > top || r.busiest_link < 0) {
      top = r.link_flits[l];
      r.busiest_link = static_cast<int64_t>(l);
    }
  }
  r.link_utilization_mean = used ? static_cast<double>(sum) / static_cast<double>(used) / static_cast<double>(cfg.measure) : 0;
  r.link_utilization_max = static_cast<double>(top) / static_cast<double>(cfg.measure);
  r.check = table.check();
  r.lost = table.lost();
  r.router_cycles = fabric.cycle() * static_cast<uint64_t>(topo.nodes());
  r.flit_hops = fabric.flit_hops();
  r.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return r;
}

}  // namespace torx::model
