// SPDX-License-Identifier: Apache-2.0
#include "app/report.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>

namespace torx::app {

using namespace torx::sw;

namespace {

nlohmann::ordered_json bound_json(const std::optional<Bound>& b) {
  if (!b) return nullptr;
  nlohmann::ordered_json j;
  j["steps"] = b->steps ? nlohmann::ordered_json(*b->steps) : nlohmann::ordered_json(nullptr);
  j["transmission_blocks"] = b->transmission_blocks ? nlohmann::ordered_json(*b->transmission_blocks) : nlohmann::ordered_json(nullptr);
  j["source"] = b->source;
  return j;
}

// The "cycle_model" object (docs/cli.md): one key per figure, in the documented order.
nlohmann::ordered_json cycle_model_json(const CycleFigures& c) {
  using json = nlohmann::ordered_json;
  auto steps = [](const std::vector<int64_t>& v) {
    json a = json::array();
    for (int64_t x : v) a.push_back(x < 0 ? json(nullptr) : json(x));
    return a;
  };
  json params = json::object();
  for (const auto& [k, v] : c.params) params[k] = v;
  return {{"params", params},
          {"predicted_cycles", c.predicted_cycles},
          {"barriers", c.barriers},
          {"barrier_latency", c.barrier_latency},
          {"step_start", steps(c.step_start)},
          {"step_end", steps(c.step_end)},
          {"link_flits", c.link_flits},
          {"blocked_cycles", c.blocked_cycles},
          {"injection_stall_cycles", c.injection_stall_cycles},
          {"mean_buffer_flits", c.mean_buffer_flits},
          {"max_vc_occupancy", c.max_vc_occupancy},
          {"router_evaluations", c.router_evaluations},
          {"threads", c.threads},
          {"null_messages", c.null_messages},
          {"null_flit_hops", c.null_flit_hops},
          {"sync_wait_cycles", c.sync_wait_cycles},
          {"software_barriers", c.software_barriers},
          {"priority_levels", c.priority_levels},
          {"preemptions", c.preemptions},
          {"preempted_cycles", c.preempted_cycles},
          {"load_seconds", c.load_seconds},
          {"run_seconds", c.run_seconds}};
}

// A fact's key as the summary prints it: the known ones in words, any other with spaces.
std::string fact_label(const std::string& key) {
  if (key == "largest_message_pieces") return "largest message (pieces)";
  if (key == "injection_step") return "injection step";
  if (key.size() > 6 && key.compare(key.size() - 6, 6, "_paper") == 0) return fact_label(key.substr(0, key.size() - 6)) + " (paper)";
  std::string s = key;
  std::replace(s.begin(), s.end(), '_', ' ');
  return s;
}

std::string opt_str(const std::optional<int64_t>& v) { return v ? std::to_string(*v) : std::string("-"); }

}  // namespace

uint64_t peak_rss_bytes() {
  std::ifstream in("/proc/self/status");
  std::string line;
  while (std::getline(in, line))
    if (line.rfind("VmHWM:", 0) == 0) return std::stoull(line.substr(6)) * 1024;
  return 0;
}

std::string report_json(const RunReport& r, int indent) {
  using json = nlohmann::ordered_json;
  const Topology topo(r.header.dims, r.header.wrap);
  json j;
  j["schema"] = "torx.result/1";
  j["algorithm"] = r.algorithm;
  j["collective"] = std::string(collective_name(r.header.collective));
  j["topology"] = {{"dims", r.header.dims}, {"wrap", r.header.wrap}, {"nodes", topo.nodes()}};
  j["ports"] = std::string(port_model_name(r.ports));
  j["switching"] = std::string(switching_name(r.header.switching));
  j["model"] = r.model;
  if (r.rtl_router)
    j["rtl_router"] = {{"top", r.rtl_router->top}, {"sources", r.rtl_router->sources}, {"hash", r.rtl_router->hash}};
  j["sync"] = std::string(sync_mode_name(r.sync));
  j["block_bytes"] = r.cost.block_bytes;
  if (r.header.collective != Collective::kAlltoall) j["pieces"] = r.header.pieces;
  if (r.header.collective == Collective::kBroadcast) j["root"] = topo.node_name(r.header.root);
  j["schedule"] = r.origin;
  j["seed"] = r.seed;
  j["warnings"] = r.warnings;
  j["steps"] = r.steps.steps;
  json per_max = json::array(), labels = json::array(), cyc = json::array(), msgs = json::array();
  for (const StepRecord& s : r.steps.per_step) {
    per_max.push_back(s.max_blocks);
    labels.push_back(s.label);
    cyc.push_back(s.cycles);
    msgs.push_back(s.messages);
  }
  j["step_max_blocks"] = per_max;
  j["step_labels"] = labels;
  j["step_messages"] = msgs;
  j["transmission_blocks"] = r.steps.transmission_blocks;
  j["block_transfers"] = r.steps.block_transfers;
  j["port_conflicts"] = r.steps.port_conflicts;
  j["link_conflicts"] = r.steps.link_conflicts;
  j["conflict_examples"] = r.steps.conflict_examples;
  if (r.local_sync) {
    const LocalSyncFigures& l = *r.local_sync;
    j["local_sync"] = {{"boundaries", l.boundaries}, {"pairs", l.pairs},           {"signals", l.signals},
                       {"local_waits", l.local_waits}, {"needed", l.needed},       {"implied", l.implied},
                       {"data_orderings", l.data_orderings}};
  }
  if (r.checked) {
    j["check"] = {{"ok", r.check.ok},
                  {"expected", r.check.expected},
                  {"delivered", r.check.delivered},
                  {"missing", r.check.missing},
                  {"duplicated", r.check.duplicated},
                  {"misdelivered", r.check.misdelivered},
                  {"corrupted", r.check.corrupted},
                  {"examples", r.check.examples}};
  } else {
    j["check"] = nullptr;
  }
  j["formula"] = bound_json(r.formula);
  j["lower_bound"] = bound_json(r.lower_bound);
  for (const NamedBound& e : r.extras) j[e.key] = bound_json(e.bound);
  if (!r.facts.empty()) {
    json f = json::object();
    for (const auto& [k, v] : r.facts) f[k] = v;
    j["facts"] = f;
  }
  j["timing"] = {{"ts_cycles", r.cost.ts_cycles},
                 {"flit_bytes", r.cost.flit_bytes},
                 {"step_model_cycles", r.steps.step_model_cycles},
                 {"step_cycles", cyc}};
  const CycleFigures* c = r.cycle_model ? &*r.cycle_model : nullptr;
  j["cycles"] = c ? json(c->cycles) : json(nullptr);
  j["sim"] = {{"wall_seconds", r.sim.wall_seconds},
              {"router_cycles", c ? json(c->router_cycles) : json(nullptr)},
              {"flit_hops", c ? json(c->flit_hops) : json(nullptr)},
              {"peak_rss_bytes", r.sim.peak_rss_bytes}};
  if (c) j["cycle_model"] = cycle_model_json(*c);
  if (c && c->gossip_hw)
    j["gossip_hw"] = {{"host_sends", c->gossip_host_sends},
                      {"router_copies", c->gossip_router_copies},
                      {"deliveries", c->gossip_deliveries},
                      {"steps_equivalent", c->gossip_steps_equivalent}};
  return j.dump(indent) + "\n";
}

std::string rate_text(double seconds, uint64_t router_cycles, std::optional<uint64_t> flit_hops) {
  if (seconds < kMinRateSeconds) return fmt::format(" (too short for a rate: rates from {:.3f} s)", kMinRateSeconds);
  std::string s = fmt::format(": {:.2f} M router-cycles/s", router_cycles / seconds / 1e6);
  if (flit_hops) s += fmt::format(", {:.2f} M flit-hops/s", *flit_hops / seconds / 1e6);
  return s;
}

std::string report_text(const RunReport& r) {
  const Topology topo(r.header.dims, r.header.wrap);
  std::string s;
  const std::string where = topo.ndims() > 1 ? fmt::format("the {} ({} nodes)", topo.to_string(), topo.nodes())
                            : fmt::format("a {} of {} nodes", topo.wrap() ? "ring" : "linear array", topo.nodes());
  s += fmt::format("torx {} on {}: {}, {}-port, {}, {} model\n", r.algorithm, where,
                   collective_name(r.header.collective), port_model_name(r.ports),
                   switching_name(r.header.switching), r.model);
  auto row = [&](const char* name, const std::string& ours, const std::optional<int64_t>& f,
                 const std::optional<int64_t>& lb) {
    s += fmt::format("  {:<20} {:>14}   formula {:>12}   lower bound {:>12}\n", name, ours, opt_str(f), opt_str(lb));
  };
  row("steps", std::to_string(r.steps.steps), r.formula ? r.formula->steps : std::nullopt,
      r.lower_bound ? r.lower_bound->steps : std::nullopt);
  row("transmission blocks", std::to_string(r.steps.transmission_blocks),
      r.formula ? r.formula->transmission_blocks : std::nullopt,
      r.lower_bound ? r.lower_bound->transmission_blocks : std::nullopt);
  if (r.formula) s += fmt::format("  {:<20} {}\n", "formula source", r.formula->source);
  if (r.lower_bound) s += fmt::format("  {:<20} {}\n", "bound source", r.lower_bound->source);
  for (const NamedBound& e : r.extras)
    s += fmt::format("  {:<20} steps {} transmission blocks {} ({})\n", e.key, opt_str(e.bound.steps),
                     opt_str(e.bound.transmission_blocks), e.bound.source);
  // Facts in words: the document's keys (largest_message_pieces) are for programs.
  for (const auto& [k, v] : r.facts) s += fmt::format("  {:<20} {}\n", fact_label(k), v);
  s += fmt::format("  {:<20} {} port, {} link\n", "conflicts", r.steps.port_conflicts, r.steps.link_conflicts);
  for (const std::string& ex : r.steps.conflict_examples) s += fmt::format("  {:<20} e.g. {}\n", "", ex);
  if (r.local_sync) {
    const LocalSyncFigures& l = *r.local_sync;
    s += fmt::format("  {:<20} {} boundaries, {} colliding pairs: {} signals and {} local waits\n", "local sync",
                     l.boundaries, l.pairs, l.signals, l.local_waits);
    s += fmt::format("  {:<20} {} signals needed, {} implied by the others, program order and the data "
                     "({} data orderings)\n",
                     "", l.needed, l.implied, l.data_orderings);
  }
  s += fmt::format("  {:<20} {} cycles (t_s {} cycles, {}-byte flits, {}-byte blocks)\n", "step model",
                   r.steps.step_model_cycles, r.cost.ts_cycles, r.cost.flit_bytes, r.cost.block_bytes);
  if (r.cycle_model) {
    const CycleFigures& c = *r.cycle_model;
    s += fmt::format("  {:<20} {} cycles\n", r.model + " model", c.cycles);
    if (r.rtl_router)
      s += fmt::format("  {:<20} {} ({} source{}, hash {})\n", "router RTL", r.rtl_router->top,
                       r.rtl_router->sources.size(), r.rtl_router->sources.size() == 1 ? "" : "s", r.rtl_router->hash);
    uint64_t busiest = 0;
    for (uint64_t f : c.link_flits) busiest = std::max(busiest, f);
    if (c.gossip_hw)
      s += fmt::format("  {:<20} routers forwarded: {} host sends, {} router copies, {} deliveries; the schedule "
                       "takes {} steps\n",
                       "gossip in hardware", c.gossip_host_sends, c.gossip_router_copies, c.gossip_deliveries,
                       c.gossip_steps_equivalent);
    else if (r.sync == SyncMode::kPriority)
      s += fmt::format("  {:<20} {} priority levels, {} preemptions, {} worm-cycles preempted\n", "", c.priority_levels,
                       c.preemptions, c.preempted_cycles);
    else if (r.sync == SyncMode::kBarrier || r.sync == SyncMode::kNone)
      s += fmt::format("  {:<20} {} cycles if contention-free; {} barriers of {} cycles\n", "", c.predicted_cycles,
                       c.barriers, c.barrier_latency);
    else
      s += fmt::format("  {:<20} {} null messages ({} flit-hops){}\n", "", c.null_messages, c.null_flit_hops,
                       c.software_barriers ? fmt::format(" in {} software barriers", c.software_barriers) : "");
    if (r.sync != SyncMode::kNone && !c.gossip_hw)
      s += fmt::format("  {:<20} {} node-cycles waiting for synchronization\n", "", c.sync_wait_cycles);
    s += fmt::format("  {:<20} {} VC-cycles blocked, {:.2f} flits buffered on average, busiest link {} flits\n", "",
                     c.blocked_cycles, c.mean_buffer_flits, busiest);
    if (c.run_seconds > 0)
      s += fmt::format("  {:<20} load {:.3f} s, run {:.3f} s{}{}\n", "simulation", c.load_seconds, c.run_seconds,
                       c.threads > 1 ? fmt::format(" on {} threads", c.threads) : "",
                       rate_text(c.run_seconds, c.router_cycles, c.flit_hops));
  }
  const CheckResult& c = r.check;
  if (!r.checked) {
    s += fmt::format("  {:<20} not run: `torx stats` counts without tracking blocks\n", "check");
    return s;
  }
  s += fmt::format("  {:<20} {}: {} of {} delivered, {} missing, {} duplicated, {} misdelivered, {} corrupted\n", "check",
                   c.ok ? "ok" : "FAILED", c.delivered, c.expected, c.missing, c.duplicated, c.misdelivered, c.corrupted);
  for (const std::string& ex : c.examples) s += fmt::format("  {:<20} e.g. {}\n", "", ex);
  return s;
}

}  // namespace torx::app
