// SPDX-License-Identifier: Apache-2.0
// One synthetic-traffic experiment on a cycle-accurate network (`torx traffic`, docs/traffic.md):
// a Fabric of routers (the C++ router, or any RouterFactory's cores: the Verilated RTL) with a
// SyntheticSource at every node, run through BookSim's phases so that its figures mean what
// BookSim's do:
//
//   warm-up   cycles [0, W): packets created, not measured
//   measure   cycles [W, W + M): packets created are tagged; the flits offered, injected and
//             ejected in these cycles give offered, injected and accepted throughput; the flits
//             each network link carries give its utilization
//   drain     from W + M, sources keep creating (untagged) packets, so that the tagged ones see the
//             same load to the end, until every tagged packet has arrived, or the drain limit
//   flush     sources stop creating and injecting (a packet begun is finished); the network empties
//             and every packet injected is accounted for: delivered once, intact, where it was sent
//
// Saturation (the stated criterion, docs/traffic.md): a run is saturated if
//   (a) accepted throughput < saturation_ratio x offered throughput over the measurement window
//       (what was offered and not accepted piled up in the source queues and the network), or
//   (b) a source queue reached its limit (queue_limit packets outstanding) before the end of the
//       measurement, or
//   (c) not every tagged packet arrived within the drain limit.
// A run saturated by (a) or (b) skips the drain (its latencies would only measure how long the
// window was); its latency figures cover the tagged packets delivered by then and say so
// (latency_complete false).
//
// The network runs kernel-free (Fabric::step): a sweep builds one network per rate in one process,
// which the SystemC kernel could elaborate only once. Results are a function of the configuration
// and the seed; the RTL routers give the C++ router's figures exactly (both obey
// docs/timing-contract.md cycle for cycle).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/memory_limit.hpp"
#include "core/network_params.hpp"
#include "core/topology.hpp"
#include "models/memory_estimate.hpp"
#include "models/router_block.hpp"
#include "models/synthetic_source.hpp"
#include "models/traffic_pattern.hpp"

namespace torx::model {

struct TrafficRunConfig {
  sw::NetworkParams params;
  uint32_t flit_bytes = 16;
  SyntheticConfig source;              // rate, injection process, sizes, seed, ties, queue limit, fault
  uint64_t warmup = 3000;
  uint64_t measure = 10000;
  uint64_t drain_limit = 10000;
  double saturation_ratio = 0.99;
  std::optional<sw::MemoryLimit> memory_limit;  // none: the default limit
};

struct LatencyFigures {
  uint64_t count = 0;
  double mean = 0;
  uint64_t min = 0, p50 = 0, p99 = 0, max = 0;
  uint64_t bin_width = 1;          // histogram: counts[i] packets with latency in [i w, (i + 1) w)
  std::vector<uint64_t> histogram;
};

struct TrafficRunResult {
  double rate = 0;                 // offered rate asked for (flits per node and cycle)
  double offered = 0;              // measured in the window, flits per node and cycle
  double injected = 0;
  double accepted = 0;
  uint64_t packets_created = 0, packets_tagged = 0, tagged_delivered = 0, packets_delivered = 0;
  uint64_t packets_refused = 0;    // not created: the source queue was full
  uint64_t never_injected = 0;     // left in the source queues at the end
  LatencyFigures packet_latency;   // plat: creation to tail ejected
  LatencyFigures network_latency;  // nlat: head injected to tail ejected
  double hops_mean = 0;            // of the tagged packets delivered
  bool latency_complete = true;    // every tagged packet arrived (else the figures cover those that did)
  std::vector<uint64_t> link_flits;  // per directed network link (sw::LinkId), in the window
  double link_utilization_mean = 0, link_utilization_max = 0;
  int64_t busiest_link = -1;
  bool saturated = false;
  std::string saturation_reason;   // which criterion, with its figures
  uint64_t drain_cycles = 0, flush_cycles = 0, cycles = 0;
  // Checking: every flit's payload, every packet's destination, order and uniqueness; at the end
  // every injected packet delivered.
  PacketTable::Check check;
  uint64_t lost = 0;
  bool check_ok() const {
    return check.corrupted == 0 && check.misdelivered == 0 && check.duplicated == 0 && check.out_of_order == 0 &&
           check.unknown == 0 && lost == 0;
  }
  std::string check_summary() const;
  uint64_t router_cycles = 0;
  uint64_t flit_hops = 0;
  double wall_seconds = 0;
};

// Throws sw::InputError for a configuration the network cannot have (parameters, flit width, the
// pattern's requirements are checked by DestinationPattern), sw::WatchdogError when the memory
// estimate exceeds the limit.
void validate_traffic_run(const sw::Topology& topo, const TrafficRunConfig& cfg);
// The bytes a run will allocate at most (network, packet table, histograms).
MemoryEstimate estimate_traffic_run(const sw::Topology& topo, const TrafficRunConfig& cfg);

// Runs one rate. `routers`: null for the C++ router's fast path, else a factory of cores (the RTL).
// Throws sw::WatchdogError when the network stops moving (a report of the stuck packets) or hits
// max_cycles; a failed check is a result (check_ok() false), not an exception.
TrafficRunResult run_traffic(const sw::Topology& topo, const TrafficRunConfig& cfg, const DestinationPattern& pattern,
                             const RouterFactory* routers = nullptr);

}  // namespace torx::model
