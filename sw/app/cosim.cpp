// SPDX-License-Identifier: Apache-2.0
#include "app/cosim.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "algorithms/registry.hpp"
#include "app/backends.hpp"
#include "app/options.hpp"
#include "app/report.hpp"
#include "core/errors.hpp"

namespace torx::app {

CosimRequest validate_cosim(CosimRequest r) {
  if (!cosim_available()) throw sw::InputError("cosim: this build has no Verilated RTL (hw/ needs verilator)");
  const bool random = r.traffic == "random";
  if (!random && !sw::find_algorithm(r.traffic))
    throw sw::InputError(fmt::format("--traffic {}: random or an algorithm id (known: random, {})", r.traffic,
                                     sw::algorithm_ids(", ")));
  check_count(kCyclesOption, r.cycles);
  check_count(kMaxWormFlitsOption, static_cast<uint64_t>(r.max_worm_flits));
  check_count(kBarrierEveryOption, r.barrier_every);
  check_count(kMutantOption, static_cast<uint64_t>(r.mutant));
  check_count(kBlockBytesOption, r.cost.block_bytes);
  check_count(kFlitBytesOption, r.cost.flit_bytes);
  check_count(kTsOption, r.cost.ts_cycles);
  if (!(r.load > 0 && r.load <= 1)) throw sw::InputError(fmt::format("--load {}: must be in (0, 1]", r.load));
  model_entry(ModelKind::kRtl).check_sizes("rtl", r.cost);
  if (r.sync != sw::SyncMode::kBarrier && r.sync != sw::SyncMode::kNone)
    throw sw::InputError(fmt::format("--sync {}: cosim runs an algorithm with barrier or none", sw::sync_mode_name(r.sync)));
  if (r.mixed_orders && !random)
    throw sw::InputError("--mixed-orders: random traffic only (an algorithm's schedule sets its own routes)");
  if (r.gossip_hw) {
    const sw::Algorithm* a = random ? nullptr : sw::find_algorithm(r.traffic);
    if (!a || !a->gossip_plan)
      throw sw::InputError(fmt::format("--gossip-hw: the routers forward by an oblivious gossip's forwarding tables "
                                       "(--traffic {}), not {}",
                                       sw::algorithm_ids(", ", true, " or "), r.traffic));
  }
  const bool levels_named = std::find(r.params_named.begin(), r.params_named.end(), "priority_levels") != r.params_named.end();
  if (random) {
    // Random traffic draws every worm's level from 0 .. K-1 with an explicit priority_levels = K.
    if (!levels_named) r.params.priority_levels = 1;
  } else {
    r.params = params_as_run(r.params, r.params_named, r.sync, r.gossip_hw, r.cost);
  }
  sw::validate(r.params, r.topology);
  if (r.params.priority_levels > 1) sw::validate_priority(r.params, r.topology);
  return r;
}

bool cosim_available() { return model_entry(ModelKind::kRtl).cosim != nullptr; }

CosimReport run_cosim(const CosimRequest& r) {
  const ModelEntry& rtl = model_entry(ModelKind::kRtl);
  if (!rtl.cosim) throw sw::InputError("cosim: this build has no Verilated RTL (hw/ needs verilator)");
  return rtl.cosim(r);
}

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
  if (r.messages) {
    const MessageComparison& m = *r.messages;
    j["messages"] = {{"rtl_top", m.rtl_top},
                     {"rtl_hash", m.rtl_hash},
                     {"model_cycles", m.model_cycles},
                     {"rtl_cycles", m.rtl_cycles},
                     {"compared", m.compared},
                     {"same", m.same},
                     {"later", m.later},
                     {"earlier", m.earlier},
                     {"max_late", m.max_late},
                     {"max_early", m.max_early},
                     {"mean_difference", m.mean_difference},
                     {"model_only", m.model_only},
                     {"rtl_only", m.rtl_only},
                     {"order_differences", m.order_differences},
                     {"first_timing", m.first_timing.empty() ? nlohmann::ordered_json() : nlohmann::ordered_json(m.first_timing)},
                     {"first_order", m.first_order.empty() ? nlohmann::ordered_json() : nlohmann::ordered_json(m.first_order)}};
  }
  j["wall_seconds"] = r.wall_seconds;
  j["router_cycles_per_second"] = r.wall_seconds > 0 ? static_cast<double>(r.router_cycles) / r.wall_seconds : 0.0;
  return j.dump(indent);
}

std::string cosim_text(const CosimReport& r) {
  if (r.messages) {
    const MessageComparison& m = *r.messages;
    std::string s = fmt::format("torx cosim on the {}: {}, C++ model against router RTL {} (hash {}), per message\n",
                                r.topology, r.traffic, m.rtl_top, m.rtl_hash);
    s += fmt::format("  cycles               model {}, rtl {}\n", m.model_cycles, m.rtl_cycles);
    s += fmt::format("  messages             {} compared: {} same cycle, {} later (at most {}), {} earlier (at most {}); "
                     "mean {:+.2f} cycles\n",
                     m.compared, m.same, m.later, m.max_late, m.earlier, m.max_early, m.mean_difference);
    if (m.model_only || m.rtl_only)
      s += fmt::format("  unmatched            {} delivered by the model only, {} by the rtl only (sources refused "
                       "worms at other times)\n",
                       m.model_only, m.rtl_only);
    s += fmt::format("  order                {} ejection VCs with another message order{}\n", m.order_differences,
                     m.first_order.empty() ? "" : ": first " + m.first_order);
    s += fmt::format("  speed                {:.3f} s (both networks)\n", r.wall_seconds);
    if (!m.first_timing.empty()) s += fmt::format("  FIRST DIFFERENCE     {}\n", m.first_timing);
    else s += "  result               every message arrives in the same cycle\n";
    return s;
  }
  std::string s = fmt::format("torx cosim on the {}: {}, C++ model against RTL {} (barrier units {})\n", r.topology,
                              r.traffic, r.rtl_router.empty() ? "?" : r.rtl_router,
                              r.rtl_barrier.empty() ? "?" : r.rtl_barrier);
  s += fmt::format("  cycles               {} ({} routers, {} router-cycles, {} compared)\n", r.cycles, r.routers,
                   r.router_cycles, r.compared);
  s += fmt::format("  compared             {} output flits, {} register values, {} barrier unit-cycles ({} releases)\n",
                   r.flits, r.registers, r.barrier_cycles, r.barrier_releases);
  s += fmt::format("  coverage             {}\n", r.coverage_text);
  if (r.check_ok) s += fmt::format("  check                {}\n", r.check_text);
  s += fmt::format("  speed                {:.3f} s{} (model and RTL together)\n", r.wall_seconds,
                   rate_text(r.wall_seconds, r.router_cycles, std::nullopt));
  if (r.first_mismatch) s += fmt::format("  MISMATCH             {}\n", r.first_mismatch->text);
  else s += "  result               no mismatch\n";
  return s;
}

}  // namespace torx::app
