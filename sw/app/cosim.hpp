// SPDX-License-Identifier: Apache-2.0
// torx cosim: lock-step co-simulation of a whole network, every router (and barrier unit) simulated
// as the C++ model and as the Verilated RTL on the same inputs each cycle, outputs and named
// registers compared every cycle (docs/cosim.md). Traffic is seeded random (uniform, hot-spot or
// neighbour patterns, worms of random lengths at an offered load) or an algorithm's schedule, run
// and checked block by block like `torx run --model rtl`.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/network_params.hpp"
#include "core/run_config.hpp"
#include "core/schedule.hpp"
#include "core/topology.hpp"

namespace torx::app {

struct CosimRequest {
  sw::Topology topology{{4, 4}, true};
  std::string traffic = "random";        // "random" or an algorithm id
  sw::PortModel ports = sw::PortModel::kOne;
  sw::NetworkParams params;
  uint32_t flit_bytes = 16;
  uint64_t seed = 1;
  int mutant = 0;                        // compare against a build-time RTL mutant (docs/rtl.md)
  // random traffic
  std::string pattern = "uniform";       // uniform, hotspot, neighbour
  double load = 0.3;                     // offered flits per node and cycle, (0, 1]
  int max_worm_flits = 16;
  uint64_t cycles = 10000;               // cycles of traffic generation
  uint64_t barrier_every = 2000;         // barrier episodes (0: none)
  bool mixed_orders = false;             // random first dimension (order classes)
  int priority_levels = 1;               // K: every worm gets a random level 0 .. K-1, the routers K lanes
                                         // per VC (docs/priority.md); the CLI sets it from an explicit
                                         // --param priority_levels=K
  // an algorithm's traffic
  sw::CostModel cost;
  sw::SyncMode sync = sw::SyncMode::kBarrier;
  // Hardwired gossip (docs/gossip.md): the algorithm's forwarding tables in the routers' gossip mode
  // (torx_gossip_router against Router::gossip_cycle) instead of its schedule.
  bool gossip_hw = false;
};

struct CosimMismatch {
  uint64_t cycle = 0;
  int router = 0;       // or barrier unit
  std::string unit;     // "router" or "barrier"
  int port = -1, vc = -1;
  std::string field;
  int64_t model = 0, rtl = 0;
  std::string text;     // "cycle N, router R, port P, field F: model A, rtl B"
};

struct CosimReport {
  std::string topology;
  std::string traffic;
  std::string rtl_router;               // the Verilated configuration used
  std::string rtl_barrier;
  uint64_t cycles = 0;
  int routers = 0;
  uint64_t router_cycles = 0;
  uint64_t flits = 0;                   // router output flits compared
  uint64_t compared = 0;                // router-cycles compared (quiescent routers are not clocked)
  uint64_t registers = 0;               // register values compared
  uint64_t mismatches = 0;
  std::optional<CosimMismatch> first_mismatch;
  uint64_t barrier_cycles = 0, barrier_releases = 0;
  std::string coverage_text;
  std::vector<std::pair<std::string, uint64_t>> coverage;  // "input_vcs_full" -> n, ...
  // random traffic: worms offered, refused, delivered; an algorithm: blocks checked
  std::vector<std::pair<std::string, uint64_t>> traffic_totals;
  std::optional<bool> check_ok;         // an algorithm's blocks, all delivered intact
  std::string check_text;
  double wall_seconds = 0;
  std::string params_json;              // the network parameters, as the run document has them
};

// Throws sw::InputError naming the option that is wrong.
void validate_cosim(const CosimRequest& r);
// Runs the co-simulation; a mismatch is a result (mismatches 1, first_mismatch), not an exception.
// Throws sw::InputError (no Verilated configuration for the shape, bad input), sw::WatchdogError.
CosimReport run_cosim(const CosimRequest& r);
bool cosim_available();

std::string cosim_json(const CosimReport& r, int indent = 2);
std::string cosim_text(const CosimReport& r);

}  // namespace torx::app
