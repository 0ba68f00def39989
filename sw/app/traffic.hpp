// SPDX-License-Identifier: Apache-2.0
// `torx traffic`: synthetic traffic and latency-throughput curves (docs/traffic.md). A request is
// one offered rate, a list of rates, or an automatic search for the saturation point; each rate is
// one run of models/traffic_run.hpp on a fresh network (the cycle model's C++ routers, or the
// Verilated RTL routers), and the whole request is one result document, schema torx.traffic/1
// (docs/cli.md), from which the table on standard output and the CSV are printed, so the three
// never disagree. `torx plot latency` draws documents of this schema.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "app/run.hpp"
#include "core/memory_limit.hpp"
#include "core/network_params.hpp"
#include "core/topology.hpp"

namespace torx::app {

struct TrafficRequest {
  sw::Topology topology{{8, 8}, true};
  ModelKind model = ModelKind::kCycle;            // cycle or rtl
  // Destination pattern (models/traffic_pattern.hpp): its name, and the hot-spot and matrix options.
  std::string pattern = "uniform";
  std::vector<sw::NodeId> hotspots;               // hot-spot: the hot nodes (none given: node 0)
  std::optional<double> hotspot_fraction;         // hot-spot: share of packets sent to them [0.1]
  std::string matrix;                             // matrix: the file
  // Injection process: "bernoulli" or "on_off" with BookSim's burst_alpha, burst_beta, burst_r1
  // (two of them; r1 in flits per cycle while on, like the rate).
  std::string injection = "bernoulli";
  std::optional<double> burst_alpha, burst_beta, burst_r1;
  std::vector<std::pair<uint32_t, double>> packet_sizes{{4, 1.0}};  // flits, relative weight
  uint32_t flit_bytes = 16;
  // Offered rates, flits per node and cycle: one, or a sweep; or a search for the saturation point.
  std::vector<double> rates;
  bool search = false;
  double search_tolerance = 0.01;
  uint64_t warmup = 3000, measure = 10000, drain = 10000;
  double saturation_ratio = 0.99;
  bool random_ties = true;
  uint32_t queue_limit = 1024;
  std::string fault;                              // testing the checker: corrupt|misdeliver|drop|duplicate
  sw::NetworkParams params;
  uint64_t seed = 1;
  std::string label;                              // names the curve in plots (default: from the settings)
  std::optional<sw::MemoryLimit> memory_limit;
};

// "0.1", "0.1,0.2,0.4" or "0.05:0.5:0.05" (from, to inclusive, step): the rates; throws
// sw::InputError naming `option` for anything else (a rate outside (0, 1], more than 1000 rates).
std::vector<double> parse_rates(const std::string& text, const char* option);
// "4" or "1:1,8:1" (flits:weight, ...); throws sw::InputError naming `option`.
std::vector<std::pair<uint32_t, double>> parse_packet_sizes(const std::string& text, const char* option);

// Whether this build can run synthetic traffic (it needs the cycle model).
bool traffic_available();
// The pattern names, "uniform|transpose|...".
std::string traffic_patterns();
// Throws sw::InputError naming the option that is wrong (rates, pattern and its requirements on the
// topology, the matrix file, injection parameters, phases, parameters, model), sw::WatchdogError if
// the run's memory estimate exceeds the limit.
void validate_traffic(const TrafficRequest& r);

struct TrafficPointProgress {
  size_t index = 0;         // runs done so far (this one included)
  double rate = 0;
  bool saturated = false;
  double seconds = 0;
};
using TrafficProgressFn = std::function<void(const TrafficPointProgress&)>;

struct TrafficReport {
  std::string json;        // the torx.traffic/1 document
  std::string table;       // the same figures for people
  std::string csv;         // one line per rate, with a header
  bool check_ok = true;    // every run delivered every packet intact where it was sent
  std::string check_failures;  // the failed runs' check summaries
};

// Runs every rate of the request (after validate_traffic). Throws sw::InputError, sw::WatchdogError
// (a stuck network: exit code 3); a failed check is in the report.
TrafficReport run_traffic(const TrafficRequest& r, const TrafficProgressFn& progress = {});

// The table and the CSV of a torx.traffic/1 document (what run_traffic prints); throws
// sw::InputError if `json` is not one.
std::string traffic_table(const std::string& json, const std::string& origin);
std::string traffic_csv(const std::string& json, const std::string& origin);

}  // namespace torx::app
