// SPDX-License-Identifier: Apache-2.0
#include "app/options.hpp"

#include <fmt/format.h>

#include <cerrno>
#include <charconv>
#include <cstdlib>

#include "core/errors.hpp"
#include "core/memory_limit.hpp"

namespace torx::app {

namespace {

// `text` names one of `table`'s values, or InputError "OPTION TEXT: must be a, b or c".
template <class E, size_t N>
E parse_name(const char* option, const sw::Named<E> (&table)[N], const std::string& text) {
  if (const std::optional<E> v = sw::value_named(table, text)) return *v;
  throw sw::InputError(fmt::format("{} {}: must be {}", option, text, sw::join_names(table, ", ", " or ")));
}

// The options torx run and cosim share, into `r`.
void parse_network(const NetworkWords& w, NetworkRequest& r) {
  r.topology = sw::Topology::parse(w.topo, w.mesh);
  if (!w.ports.empty()) r.ports = sw::parse_port_model(w.ports);
  r.cost.block_bytes = static_cast<uint32_t>(parse_count(kBlockBytesOption, w.block_bytes));
  r.cost.flit_bytes = static_cast<uint32_t>(parse_count(kFlitBytesOption, w.flit_bytes));
  r.cost.ts_cycles = parse_count(kTsOption, w.ts);
  r.sync = parse_name("--sync", sw::kSyncModes, w.sync);
  r.seed = parse_count(kSeedOption, w.seed);
  r.gossip_hw = w.gossip_hw;
  for (const std::string& p : w.params) {
    try {
      sw::set_param(r.params, p);
    } catch (const sw::InputError& e) {
      throw sw::InputError(fmt::format("--param {}: {}", p, e.what()));
    }
    r.params_named.push_back(p.substr(0, p.find('=')));
  }
  if (!w.watchdog.empty()) {
    r.params.watchdog_cycles = parse_count(kWatchdogOption, w.watchdog);
    r.params_named.emplace_back("watchdog_cycles");
  }
}

}  // namespace

uint64_t parse_count(const CountOption& o, const std::string& text) {
  uint64_t v = 0;
  const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (text.empty() || ec == std::errc::invalid_argument || ptr != text.data() + text.size())
    throw sw::InputError(fmt::format("{} '{}': not a whole number (expected {} to {})", o.name, text, o.lo, o.hi));
  if (ec == std::errc::result_out_of_range || v < o.lo || v > o.hi)
    throw sw::InputError(fmt::format("{} {}: out of range (expected {} to {})", o.name, text, o.lo, o.hi));
  return v;
}

void check_count(const CountOption& o, uint64_t v) {
  if (v < o.lo || v > o.hi)
    throw sw::InputError(fmt::format("{} {}: out of range (expected {} to {})", o.name, v, o.lo, o.hi));
}

sw::NodeId parse_root(const sw::Topology& topo, const std::string& text) {
  if (text.find(',') == std::string::npos && topo.ndims() > 1) {
    // A plain node id.
    char* end = nullptr;
    const long long v = std::strtoll(text.c_str(), &end, 10);
    if (text.empty() || *end || v < 0 || v >= topo.nodes())
      throw sw::InputError(fmt::format("--root {}: not a node of the {} (an id 0..{} or coordinates like 1,2)", text,
                                       topo.to_string(), topo.nodes() - 1));
    return static_cast<sw::NodeId>(v);
  }
  try {
    return sw::parse_node(topo, text);
  } catch (const sw::InputError& e) {
    throw sw::InputError(std::string("--root: ") + e.what());
  }
}

RunRequest parse_run(const RunWords& w, bool count_only) {
  RunRequest r;
  r.algorithm = w.algo;
  r.schedule = w.schedule;
  parse_network(w, r);
  r.model = parse_name("--model", kModelNames, w.model);
  r.root = parse_root(r.topology, w.root);
  r.gossip_tables = w.gossip_tables;
  r.trace = w.trace;
  for (const std::string& v : w.trace_routers)
    r.trace_routers.push_back(static_cast<sw::NodeId>(parse_count(kTraceRoutersOption, v)));
  r.count_only = count_only;
  if (!w.max_memory.empty()) r.memory_limit = sw::memory_limit_from_option(w.max_memory);
  return validate_request(std::move(r));
}

CosimRequest parse_cosim(const CosimWords& w) {
  CosimRequest r;
  parse_network(w, r);
  r.traffic = w.traffic;
  r.mutant = static_cast<int>(parse_count(kMutantOption, w.mutant));
  r.pattern = parse_name("--pattern", kCosimPatterns, w.pattern);
  char* end = nullptr;
  errno = 0;
  r.load = std::strtod(w.load.c_str(), &end);
  if (w.load.empty() || *end || errno) throw sw::InputError(fmt::format("--load '{}': not a number", w.load));
  r.cycles = parse_count(kCyclesOption, w.cycles);
  r.max_worm_flits = static_cast<int>(parse_count(kMaxWormFlitsOption, w.max_worm_flits));
  r.barrier_every = parse_count(kBarrierEveryOption, w.barrier_every);
  r.mixed_orders = w.mixed_orders;
  return validate_cosim(std::move(r));
}

}  // namespace torx::app
