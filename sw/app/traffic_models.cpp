// SPDX-License-Identifier: Apache-2.0
// torx traffic on the cycle-accurate network (compiled when the models are built): the request's
// model-side checks (a pattern's requirements, the matrix file, the memory estimate) and its runs,
// one models/traffic_run.hpp network per rate with the C++ routers or the factory's (the Verilated
// RTL), written as one torx.traffic/1 document (docs/cli.md). models.cpp hands these to the table of
// models; app/traffic.cpp decides the rules that need no model.
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <nlohmann/json.hpp>

#include "app/backends.hpp"
#include "core/errors.hpp"
#include "models/traffic_run.hpp"

namespace torx::app {

namespace {

using json = nlohmann::ordered_json;

struct Prepared {
  model::PatternSpec spec;
  model::TrafficRunConfig cfg;
};

Prepared prepare(const TrafficRequest& r) {
  Prepared p;
  p.spec.kind = r.pattern;
  if (r.pattern == sw::PatternKind::kHotSpot) {
    if (!r.hotspots.empty()) p.spec.hotspots = r.hotspots;
    if (r.hotspot_fraction) p.spec.hotspot_fraction = *r.hotspot_fraction;
  }
  if (r.pattern == sw::PatternKind::kMatrix) p.spec.matrix = model::read_traffic_matrix(r.matrix, r.topology);
  model::TrafficRunConfig& c = p.cfg;
  c.params = r.params;
  c.flit_bytes = r.flit_bytes;
  c.warmup = r.warmup;
  c.measure = r.measure;
  c.drain_limit = r.drain;
  c.saturation_ratio = r.saturation_ratio;
  c.memory_limit = r.memory_limit;
  model::SyntheticConfig& s = c.source;
  s.seed = r.seed;
  s.random_ties = r.random_ties;
  s.queue_limit = r.queue_limit;
  s.sizes.clear();
  s.size_weights.clear();
  for (const auto& [f, w] : r.packet_sizes) {
    s.sizes.push_back(f);
    s.size_weights.push_back(w);
  }
  s.injection.kind = r.injection;
  s.fault = r.fault;
  return p;
}

// The injection process of one rate (the on-off parameters from burst_for).
model::InjectionSpec injection_for(const TrafficRequest& r, double rate) {
  model::InjectionSpec in;
  in.kind = r.injection;
  if (r.injection != sw::InjectionKind::kOnOff) return in;
  const BurstParams b = burst_for(r, rate);
  in.alpha = b.alpha;
  in.beta = b.beta;
  in.r1 = b.r1;
  return in;
}

json latency_json(const model::LatencyFigures& f) {
  return json{{"count", f.count},
              {"mean", f.mean},
              {"min", f.min},
              {"p50", f.p50},
              {"p99", f.p99},
              {"max", f.max},
              {"histogram", {{"bin_width", f.bin_width}, {"counts", f.histogram}}}};
}

json run_json(const model::TrafficRunResult& x, const sw::Topology& topo, const model::InjectionSpec& in) {
  json j;
  j["rate"] = x.rate;
  if (in.kind == model::InjectionKind::kOnOff)
    j["burst"] = {{"burst_alpha", in.alpha}, {"burst_beta", in.beta}, {"burst_r1", in.r1}};
  j["offered"] = x.offered;
  j["injected"] = x.injected;
  j["accepted"] = x.accepted;
  j["saturated"] = x.saturated;
  j["saturation_reason"] = x.saturation_reason;
  j["packet_latency"] = latency_json(x.packet_latency);
  j["network_latency"] = latency_json(x.network_latency);
  j["latency_complete"] = x.latency_complete;
  j["hops_mean"] = x.hops_mean;
  j["packets"] = {{"created", x.packets_created},       {"tagged", x.packets_tagged},
                  {"tagged_delivered", x.tagged_delivered}, {"delivered", x.packets_delivered},
                  {"refused", x.packets_refused},       {"never_injected", x.never_injected}};
  j["links"] = {{"utilization_mean", x.link_utilization_mean},
                {"utilization_max", x.link_utilization_max},
                {"busiest", x.busiest_link >= 0 ? topo.link_name(x.busiest_link) : std::string()},
                {"flits", x.link_flits}};
  j["cycles"] = {{"total", x.cycles}, {"drain", x.drain_cycles}, {"flush", x.flush_cycles}};
  j["check"] = {{"ok", x.check_ok()},
                {"flits", x.check.flits},
                {"lost", x.lost},
                {"corrupted", x.check.corrupted},
                {"misdelivered", x.check.misdelivered},
                {"duplicated", x.check.duplicated},
                {"out_of_order", x.check.out_of_order},
                {"unknown", x.check.unknown},
                {"summary", x.check_summary()}};
  j["sim"] = {{"router_cycles", x.router_cycles}, {"flit_hops", x.flit_hops}, {"wall_seconds", x.wall_seconds}};
  return j;
}

}  // namespace

void check_synthetic(const TrafficRequest& r) {
  const Prepared p = prepare(r);
  const model::DestinationPattern pattern(p.spec, r.topology);
  model::validate_traffic_run(r.topology, p.cfg);
}

TrafficReport run_synthetic(const TrafficRequest& r, const model::RouterFactory* routers,
                            const TrafficProgressFn& progress) {
  const auto t0 = std::chrono::steady_clock::now();
  const Prepared p = prepare(r);
  const model::DestinationPattern pattern(p.spec, r.topology);
  std::vector<std::pair<double, json>> runs;
  TrafficReport rep;
  auto run_one = [&](double rate) -> const model::TrafficRunResult {
    model::TrafficRunConfig c = p.cfg;
    c.source.rate = rate;
    c.source.injection = injection_for(r, rate);
    const model::TrafficRunResult x = model::run_traffic(r.topology, c, pattern, routers);
    runs.emplace_back(rate, run_json(x, r.topology, c.source.injection));
    if (!x.check_ok()) {
      rep.check_ok = false;
      rep.check_failures += fmt::format("rate {}: {}\n", rate, x.check_summary());
    }
    if (progress) progress(TrafficPointProgress{runs.size(), rate, x.saturated, x.wall_seconds});
    return x;
  };
  json saturation = nullptr;
  for (double rate : r.rates) run_one(rate);
  if (r.search) {
    // Bisection on the offered rate between an unsaturated and a saturated one (the stated
    // criterion), from (0, 1], until they are within the tolerance.
    double lo = 0, hi = 1, lo_accepted = 0;
    const model::TrafficRunResult top = run_one(1.0);
    if (!top.saturated) {
      lo = 1.0;
      lo_accepted = top.accepted;
    } else {
      while (hi - lo > r.search_tolerance) {
        const double mid = (lo + hi) / 2;
        const model::TrafficRunResult x = run_one(mid);
        if (x.saturated) {
          hi = mid;
        } else {
          lo = mid;
          lo_accepted = x.accepted;
        }
      }
    }
    saturation = {{"method", "bisection on the offered rate with the saturation criterion"},
                  {"tolerance", r.search_tolerance},
                  {"highest_unsaturated", lo},
                  {"lowest_saturated", top.saturated ? json(hi) : json(nullptr)},
                  {"throughput", lo_accepted}};
  }
  std::stable_sort(runs.begin(), runs.end(), [](const auto& a, const auto& b) { return a.first < b.first; });

  json doc;
  doc["schema"] = "torx.traffic/1";
  doc["label"] = r.label;
  doc["topology"] = {{"dims", r.topology.radices()}, {"wrap", r.topology.wrap()}, {"nodes", r.topology.nodes()}};
  doc["model"] = std::string(model_name(r.model));
  json pat = {{"name", std::string(sw::name_of(sw::kTrafficPatterns, r.pattern))}, {"description", pattern.describe(r.topology)}};
  if (p.spec.kind == model::PatternKind::kHotSpot) {
    json hs = json::array();
    for (sw::NodeId h : p.spec.hotspots) hs.push_back(r.topology.node_name(h));
    pat["hotspots"] = hs;
    pat["hotspot_fraction"] = p.spec.hotspot_fraction;
  }
  if (p.spec.kind == model::PatternKind::kMatrix) {
    pat["matrix"] = r.matrix;
    pat["entries"] = p.spec.matrix.entries;
  }
  doc["pattern"] = pat;
  json inj = {{"process", std::string(sw::name_of(sw::kInjectionKinds, r.injection))}};
  if (r.burst_alpha) inj["burst_alpha"] = *r.burst_alpha;
  if (r.burst_beta) inj["burst_beta"] = *r.burst_beta;
  if (r.burst_r1) inj["burst_r1"] = *r.burst_r1;
  doc["injection"] = inj;
  json sizes = json::array();
  for (const auto& [f, w] : r.packet_sizes) sizes.push_back({{"flits", f}, {"weight", w}});
  doc["packet_sizes"] = sizes;
  doc["mean_packet_flits"] = p.cfg.source.mean_size();
  doc["flit_bytes"] = r.flit_bytes;
  doc["routes"] = fmt::format("dimension order from x, the shorter way round each ring, ties {}",
                              r.random_ties ? "random" : "+");
  doc["phases"] = {{"warmup", r.warmup}, {"measure", r.measure}, {"drain_limit", r.drain}};
  doc["saturation_criterion"] = {
      {"ratio", r.saturation_ratio},
      {"queue_limit", r.queue_limit},
      {"text", fmt::format("saturated if accepted < {:g} x offered in the window, a source queue reached {} packets, "
                           "or a measured packet had not arrived {} cycles after the window",
                           r.saturation_ratio, r.queue_limit, r.drain)}};
  doc["seed"] = r.seed;
  sw::NetworkParams params = r.params;
  params.order_classes = 1;
  params.priority_levels = 1;
  json pj = json::object();
  for (const auto& [name, value] : sw::param_values(params)) pj[name] = value;
  doc["params"] = pj;
  if (r.fault != sw::TrafficFault::kNone) doc["fault"] = std::string(sw::name_of(sw::kTrafficFaults, r.fault));
  doc["sweep"] = r.search ? "search" : r.rates.size() > 1 ? "list" : "single";
  json arr = json::array();
  for (auto& [rate, j] : runs) arr.push_back(std::move(j));
  doc["runs"] = arr;
  doc["saturation"] = saturation;
  doc["check"] = {{"ok", rep.check_ok}};
  doc["wall_seconds"] = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  rep.json = doc.dump(2) + "\n";
  rep.table = traffic_table(rep.json, "the run");
  rep.csv = traffic_csv(rep.json, "the run");
  return rep;
}

}  // namespace torx::app
