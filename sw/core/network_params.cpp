// SPDX-License-Identifier: Apache-2.0
#include "core/network_params.hpp"

#include <fmt/format.h>

#include <charconv>
#include <stdexcept>
#include <string>

#include "core/errors.hpp"

namespace torx::sw {

namespace {
#define TORX_PARAM(field, lo, hi, text)                                                             \
  ParamInfo {                                                                                       \
    #field, text, [](const NetworkParams& p) -> int64_t { return static_cast<int64_t>(p.field); }, \
        [](NetworkParams& p, int64_t v) { p.field = static_cast<decltype(p.field)>(v); }, lo, hi    \
  }
}  // namespace

const std::vector<ParamInfo>& param_table() {
  static const std::vector<ParamInfo> kTable = {
      TORX_PARAM(vcs_per_class, 1, 8, "VCs per VC class on each network port"),
      TORX_PARAM(buffer_depth, 1, 1024, "flits per input VC buffer"),
      TORX_PARAM(router_latency, 1, 64, "router pipeline stages (cycles from input to output link)"),
      TORX_PARAM(pipeline, 0, 2, "router organization: single (0), lookahead (1) or classic (2)"),
      TORX_PARAM(link_latency, 1, 64, "cycles on a router-to-router link"),
      TORX_PARAM(credit_latency, 1, 64, "cycles until a freed buffer slot is seen upstream"),
      TORX_PARAM(local_latency, 1, 64, "cycles on the injection and ejection links"),
      TORX_PARAM(dateline, 0, 1, "dateline VC classes on torus rings (0 only to demonstrate deadlock)"),
      TORX_PARAM(order_classes, 0, 16, "VC order classes (0 = automatic)"),
      TORX_PARAM(barrier_hop_latency, 1, 1024, "cycles per barrier tree hop"),
      TORX_PARAM(null_ts, -1, 1000000000, "startup of a null message, local and software sync (-1 = --ts)"),
      TORX_PARAM(priority_levels, 1, 16, "priority levels of --sync priority: lanes per VC buffer"),
      TORX_PARAM(priority_reserve, 1, 64, "buffer slots per higher priority level kept by the throttle"),
      TORX_PARAM(watchdog_cycles, 1, int64_t{1} << 40, "cycles without flit movement before the watchdog stops"),
      TORX_PARAM(max_cycles, 0, int64_t{1} << 50, "limit on simulated cycles (0 = none)"),
      TORX_PARAM(threads, 0, 2, "threads evaluating the network (0 = automatic: 2 from 1024 routers on 2 idle cores)"),
  };
  return kTable;
}

void set_param(NetworkParams& p, std::string_view assignment) {
  const size_t eq = assignment.find('=');
  if (eq == std::string_view::npos)
    throw InputError(fmt::format("network parameter '{}': expected NAME=VALUE (torx run --help-params lists them)",
                                 assignment));
  const std::string_view name = assignment.substr(0, eq);
  const std::string_view value = assignment.substr(eq + 1);
  for (const ParamInfo& info : param_table()) {
    if (name != info.name) continue;
    int64_t v = 0;
    if (name == "pipeline") {
      bool named = false;
      for (int k = 0; k < 3; ++k)
        if (value == kPipelineNames[k]) {
          v = k;
          named = true;
        }
      if (named) {
        info.set(p, v);
        return;
      }
      if (value.empty() || value[0] < '0' || value[0] > '9')
        throw InputError(fmt::format("network parameter pipeline: '{}' is not an organization (single, lookahead, "
                                     "classic)",
                                     value));
    }
    const auto [ptr, ec] = std::from_chars(value.data(), value.data() + value.size(), v);
    if (ec != std::errc() || ptr != value.data() + value.size())
      throw InputError(fmt::format("network parameter {}: '{}' is not an integer", name, value));
    if (v < info.min || v > info.max)
      throw InputError(fmt::format("network parameter {}: {} is outside {}..{}", name, v, info.min, info.max));
    info.set(p, v);
    return;
  }
  std::string known;
  for (const ParamInfo& info : param_table()) known += (known.empty() ? "" : ", ") + std::string(info.name);
  throw InputError(fmt::format("unknown network parameter '{}' (known: {})", name, known));
}

void validate(const NetworkParams& p, const Topology& topo) {
  for (const ParamInfo& info : param_table()) {
    const int64_t v = info.get(p);
    if (v < info.min || v > info.max)
      throw InputError(fmt::format("network parameter {} = {} is outside {}..{}", info.name, v, info.min, info.max));
  }
  if (p.order_classes > topo.ndims())
    throw InputError(fmt::format("network parameter order_classes = {} exceeds the {} dimensions of the {}",
                                     p.order_classes, topo.ndims(), topo.to_string()));
  // VCs per network port = dateline classes * order classes * vcs_per_class; the router keeps the
  // VC index of a flit in 8 bits and one request mask per port in 64 bits.
  const int classes = (topo.wrap() && p.dateline ? 2 : 1) * std::max(1, p.order_classes);
  if (classes * p.vcs_per_class > 64)
    throw InputError(fmt::format("network parameters give {} VCs per port (at most 64)", classes * p.vcs_per_class));
}

void validate_priority(const NetworkParams& p, const Topology& topo) {
  const int classes = (topo.wrap() && p.dateline ? 2 : 1) * std::max(1, p.order_classes);
  if (classes * p.vcs_per_class * p.priority_levels > 64)
    throw InputError(fmt::format("network parameters give {} VCs x {} priority levels = {} lanes per port (at most 64)",
                                 classes * p.vcs_per_class, p.priority_levels,
                                 classes * p.vcs_per_class * p.priority_levels));
  if (p.pipeline != 0 && p.priority_levels > 1)
    throw InputError(fmt::format("--param pipeline={}: priority lanes run with the single organization only (the "
                                 "pipelined organizations are not designed for throttle-and-preempt; "
                                 "docs/timing-contract.md, \"Router organizations\")",
                                 pipeline_name(p.pipeline)));
  if (p.buffer_depth <= (p.priority_levels - 1) * p.priority_reserve)
    throw InputError(fmt::format("buffer_depth = {} leaves the lowest of {} priority levels no slot: it must exceed "
                                 "(priority_levels - 1) x priority_reserve = {}",
                                 p.buffer_depth, p.priority_levels, (p.priority_levels - 1) * p.priority_reserve));
}

std::vector<std::pair<std::string, int64_t>> param_values(const NetworkParams& p) {
  std::vector<std::pair<std::string, int64_t>> out;
  for (const ParamInfo& info : param_table()) out.emplace_back(info.name, info.get(p));
  return out;
}

std::string param_help() {
  const NetworkParams defaults;
  std::string s;
  for (const ParamInfo& info : param_table())
    s += fmt::format("  {:<20} {} [default {}; {}..{}]\n", info.name, info.description, info.get(defaults), info.min,
                     info.max);
  return s;
}

}  // namespace torx::sw
