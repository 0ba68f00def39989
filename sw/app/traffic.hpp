// SPDX-License-Identifier: Apache-2.0
// `torx traffic`: synthetic traffic and latency-throughput curves (docs/traffic.md). A request is
// one offered rate, a list of rates, or an automatic search for the saturation point; each rate is
// one run of models/traffic_run.hpp on a fresh network (the cycle model's C++ routers, or the
// Verilated RTL routers), and the whole request is one result document, schema torx.traffic/1
// (docs/cli.md), from which the table on standard output and the CSV are printed, so the three
// never disagree. `torx plot latency` draws documents of this schema.
//
// Where it lives: the words become a request in options.cpp (parse_traffic); this file's
// validate_traffic decides every rule a user can break that needs no model (rates, which options go
// with which pattern and injection, phases, parameters), then asks the model's entry (models.cpp) for
// the rest (a pattern's requirements on the network, the matrix file, the memory estimate);
// traffic_models.cpp runs the model and writes the document.
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
#include "core/traffic_names.hpp"

namespace torx::app {

struct TrafficRequest {
  sw::Topology topology{{8, 8}, true};
  ModelKind model = ModelKind::kCycle;            // cycle or rtl
  // Destination pattern (models/traffic_pattern.hpp): its name, and the hot-spot and matrix options.
  sw::PatternKind pattern = sw::PatternKind::kUniform;
  std::vector<sw::NodeId> hotspots;               // hot-spot: the hot nodes (none given: node 0)
  std::optional<double> hotspot_fraction;         // hot-spot: share of packets sent to them [0.1]
  std::string matrix;                             // matrix: the file
  // Injection process: Bernoulli, or on-off with BookSim's burst_alpha, burst_beta, burst_r1 (two of
  // them; r1 in flits per cycle while on, like the rate).
  sw::InjectionKind injection = sw::InjectionKind::kBernoulli;
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
  sw::TrafficFault fault = sw::TrafficFault::kNone;  // testing the checker
  sw::NetworkParams params;
  uint64_t seed = 1;
  std::string label;                              // names the curve in plots (default: from the settings)
  std::optional<sw::MemoryLimit> memory_limit;
};

// The direction of a half-way ring route (--ties): random as BookSim, or always +.
inline constexpr sw::Named<bool> kRouteTies[] = {{true, "random"}, {false, "plus"}};

// At most this many rates in a sweep.
inline constexpr size_t kMaxRates = 1000;
// Throws sw::InputError "OPTION V: a rate must be in (0, 1] flits per node and cycle" unless it is.
void check_rate(double v, const char* option);

// Whether this build can run synthetic traffic (it needs the cycle model).
bool traffic_available();
// Throws sw::InputError naming the option that is wrong (rates, pattern and its requirements on the
// topology, the matrix file, injection parameters, phases, parameters, model), sw::WatchdogError if
// the run's memory estimate exceeds the limit. Returns the request as run.
TrafficRequest validate_traffic(TrafficRequest r);

// The on-off parameters of one rate: the one not given follows from the rate (BookSim's
// OnOffInjectionProcess: rate = r1 alpha / (alpha + beta)); throws sw::InputError unless each is a
// probability and r1 is in [rate, 1].
struct BurstParams {
  double alpha = 0, beta = 0, r1 = 0;
};
BurstParams burst_for(const TrafficRequest& r, double rate);

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

// Runs every rate of the request (validated) on its model. Throws sw::InputError, sw::WatchdogError
// (a stuck network: exit code 3); a failed check is in the report.
TrafficReport run_traffic(const TrafficRequest& r, const TrafficProgressFn& progress = {});

// The table and the CSV of a torx.traffic/1 document (what run_traffic prints); throws
// sw::InputError if `json` is not one.
std::string traffic_table(const std::string& json, const std::string& origin);
std::string traffic_csv(const std::string& json, const std::string& origin);

}  // namespace torx::app
