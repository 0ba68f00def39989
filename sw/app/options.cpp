// SPDX-License-Identifier: Apache-2.0
#include "app/options.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <optional>

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

// A real number ("0.25", "1e-3"), or InputError "OPTION 'TEXT': not a number".
double parse_real(const char* option, const std::string& text) {
  char* end = nullptr;
  errno = 0;
  const double v = std::strtod(text.c_str(), &end);
  if (text.empty() || *end || errno || !std::isfinite(v))
    throw sw::InputError(fmt::format("{} '{}': not a number", option, text));
  return v;
}

std::optional<double> parse_optional_real(const char* option, const std::string& text) {
  if (text.empty()) return std::nullopt;
  return parse_real(option, text);
}

// --param NAME=VALUE words into `params`, naming the word in errors; a parameter given twice is
// refused rather than the last one silently kept (issue 33). Returns the names, in order.
std::vector<std::string> set_params(const std::vector<std::string>& words, sw::NetworkParams& params) {
  std::vector<std::string> names;
  for (size_t i = 0; i < words.size(); ++i) {
    const std::string& p = words[i];
    try {
      sw::set_param(params, p);
    } catch (const sw::InputError& e) {
      throw sw::InputError(fmt::format("--param {}: {}", p, e.what()));
    }
    const std::string name = p.substr(0, p.find('='));
    for (size_t k = 0; k < i; ++k)
      if (words[k].compare(0, words[k].find('='), name) == 0)
        throw sw::InputError(fmt::format("--param {}: given twice ({}, then {}); give each parameter once", name,
                                         words[k], p));
    names.push_back(name);
  }
  return names;
}

// --watchdog N (empty: not given) into `params`, refused beside --param watchdog_cycles.
void set_watchdog(const std::string& word, const std::vector<std::string>& named, sw::NetworkParams& params) {
  if (word.empty()) return;
  if (std::find(named.begin(), named.end(), "watchdog_cycles") != named.end())
    throw sw::InputError("--watchdog and --param watchdog_cycles set the same parameter; give one of them");
  params.watchdog_cycles = parse_count(kWatchdogOption, word);
}

// `s` cut at every `sep` (empty fields kept).
std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  size_t p = 0;
  while (true) {
    const size_t q = s.find(sep, p);
    out.push_back(s.substr(p, q == std::string::npos ? std::string::npos : q - p));
    if (q == std::string::npos) break;
    p = q + 1;
  }
  return out;
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
  for (const std::string& name : set_params(w.params, r.params)) r.params_named.push_back(name);
  set_watchdog(w.watchdog, r.params_named, r.params);
  if (!w.watchdog.empty()) r.params_named.emplace_back("watchdog_cycles");
  r.rtl_router = w.rtl_router;
  r.rtl_top = w.rtl_top;
  r.rtl_params = w.rtl_params;
  r.rtl_check = !w.rtl_no_check;
  if (r.rtl_router.empty() && (!w.rtl_top.empty() || !w.rtl_params.empty() || w.rtl_no_check))
    throw sw::InputError(fmt::format("{}: it names a top or a parameter of --rtl-router FILE.sv, which is not given",
                                     !w.rtl_top.empty() ? "--rtl-top" : !w.rtl_params.empty() ? "--rtl-param" : "--rtl-no-check"));
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
  r.partition = w.partition;
  for (const std::string& v : w.trace_routers)
    r.trace_routers.push_back(static_cast<sw::NodeId>(parse_count(kTraceRoutersOption, v)));
  r.count_only = count_only;
  if (!w.max_memory.empty()) r.memory_limit = sw::memory_limit_from_option(w.max_memory);
  if (!r.rtl_router.empty() && r.model != ModelKind::kRtl)
    throw sw::InputError(fmt::format("--rtl-router: a router RTL runs in the rtl model (--model rtl), not the {} model",
                                     model_name(r.model)));
  if (!r.rtl_router.empty()) configure_rtl_router(r);
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
  if (!r.rtl_router.empty()) {
    if (r.mutant != 0) throw sw::InputError("--mutant with --rtl-router: mutants are torx_router's");
    configure_rtl_router(r);
  }
  return validate_cosim(std::move(r));
}

std::vector<double> parse_rates(const std::string& text, const char* option) {
  std::vector<double> rates;
  if (text.find(':') != std::string::npos) {
    const std::vector<std::string> f = split(text, ':');
    if (f.size() != 3) throw sw::InputError(fmt::format("{} {}: a range is FROM:TO:STEP (0.05:0.5:0.05)", option, text));
    const double a = parse_real(option, f[0]), b = parse_real(option, f[1]), s = parse_real(option, f[2]);
    check_rate(a, option);
    check_rate(b, option);
    if (!(s > 0) || b < a) throw sw::InputError(fmt::format("{} {}: needs FROM <= TO and a positive STEP", option, text));
    const double n = std::floor((b - a) / s + 1e-9) + 1;
    if (n > kMaxRates) throw sw::InputError(fmt::format("{} {}: more than {} rates", option, text, kMaxRates));
    for (int k = 0; k < static_cast<int>(n); ++k) rates.push_back(std::round((a + k * s) * 1e9) / 1e9);
  } else {
    for (const std::string& w : split(text, ',')) {
      const double v = parse_real(option, w);
      check_rate(v, option);
      rates.push_back(v);
    }
    if (rates.size() > kMaxRates) throw sw::InputError(fmt::format("{}: more than {} rates", option, kMaxRates));
  }
  std::sort(rates.begin(), rates.end());
  rates.erase(std::unique(rates.begin(), rates.end()), rates.end());
  return rates;
}

std::vector<std::pair<uint32_t, double>> parse_packet_sizes(const std::string& text, const char* option) {
  std::vector<std::pair<uint32_t, double>> out;
  for (const std::string& item : split(text, ',')) {
    const size_t colon = item.find(':');
    const std::string sz = item.substr(0, colon);
    char* end = nullptr;
    errno = 0;
    const unsigned long long f = std::strtoull(sz.c_str(), &end, 10);
    if (sz.empty() || *end || errno || sz[0] == '-' || f < 1 || f > 4096)
      throw sw::InputError(fmt::format("{} {}: '{}' is not a packet length of 1 to 4096 flits", option, text, sz));
    double w = 1;
    if (colon != std::string::npos) {
      w = parse_real(option, item.substr(colon + 1));
      if (!(w > 0) || w > 1e12) throw sw::InputError(fmt::format("{} {}: weights must be positive", option, text));
    }
    out.emplace_back(static_cast<uint32_t>(f), w);
  }
  if (out.size() > 64) throw sw::InputError(fmt::format("{} {}: at most 64 packet lengths", option, text));
  return out;
}

TrafficRequest parse_traffic(const TrafficWords& w) {
  TrafficRequest r;
  if (w.topo.empty()) throw sw::InputError("--topo is required (e.g. --topo 8x8)");
  r.topology = sw::Topology::parse(w.topo, w.mesh);
  r.model = parse_name("--model", kModelNames, w.model);
  r.pattern = parse_name("--pattern", sw::kTrafficPatterns, w.pattern);
  for (const std::string& h : w.hotspots) {
    try {
      r.hotspots.push_back(sw::parse_node_or_id(r.topology, h));
    } catch (const sw::InputError& e) {
      throw sw::InputError(fmt::format("--hotspot {}: {}", h, e.what()));
    }
  }
  r.hotspot_fraction = parse_optional_real("--hotspot-fraction", w.hotspot_fraction);
  r.matrix = w.matrix;
  r.injection = parse_name("--injection", sw::kInjectionKinds, w.injection);
  r.burst_alpha = parse_optional_real("--burst-alpha", w.burst_alpha);
  r.burst_beta = parse_optional_real("--burst-beta", w.burst_beta);
  r.burst_r1 = parse_optional_real("--burst-r1", w.burst_r1);
  if (!w.packet_flits.empty() && !w.packet_dist.empty())
    throw sw::InputError("--packet-flits F or --packet-dist F:W,...: one of them");
  if (!w.packet_flits.empty()) r.packet_sizes = {{static_cast<uint32_t>(parse_count(kPacketFlitsOption, w.packet_flits)), 1.0}};
  if (!w.packet_dist.empty()) r.packet_sizes = parse_packet_sizes(w.packet_dist, "--packet-dist");
  r.flit_bytes = static_cast<uint32_t>(parse_count(kTrafficFlitBytesOption, w.flit_bytes));
  if (!w.rate.empty() && !w.sweep.empty()) throw sw::InputError("--rate R or --sweep RATES|auto: one of them");
  if (!w.rate.empty()) r.rates = {parse_real("--rate", w.rate)};
  else if (w.sweep == "auto") r.search = true;
  else if (!w.sweep.empty()) r.rates = parse_rates(w.sweep, "--sweep");
  else throw sw::InputError("give --rate R, or --sweep RATES (0.1,0.2 or 0.05:0.5:0.05) or --sweep auto");
  r.search_tolerance = parse_real("--sweep-tolerance", w.sweep_tolerance);
  r.warmup = parse_count(kWarmupOption, w.warmup);
  r.measure = parse_count(kMeasureOption, w.measure);
  r.drain = parse_count(kDrainOption, w.drain);
  r.saturation_ratio = parse_real("--saturation-ratio", w.saturation_ratio);
  r.random_ties = parse_name("--ties", kRouteTies, w.ties);
  r.queue_limit = static_cast<uint32_t>(parse_count(kQueueLimitOption, w.queue_limit));
  set_watchdog(w.watchdog, set_params(w.params, r.params), r.params);
  r.seed = parse_count(kSeedOption, w.seed);
  r.label = w.label;
  if (!w.fault.empty()) r.fault = parse_name("--fault", sw::kTrafficFaults, w.fault);
  if (!w.max_memory.empty()) r.memory_limit = sw::memory_limit_from_option(w.max_memory);
  return validate_traffic(std::move(r));
}

}  // namespace torx::app
