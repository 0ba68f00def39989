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

#include "app/run.hpp"
#include "core/names.hpp"
#include "core/network_params.hpp"
#include "core/run_config.hpp"
#include "core/schedule.hpp"
#include "core/topology.hpp"

namespace torx::app {

// Random traffic's destinations (--pattern): parsing, help and errors read this table.
enum class CosimPattern : uint8_t { kUniform, kHotspot, kNeighbour };
inline constexpr sw::Named<CosimPattern> kCosimPatterns[] = {
    {CosimPattern::kUniform, "uniform"}, {CosimPattern::kHotspot, "hotspot"}, {CosimPattern::kNeighbour, "neighbour"}};

// `ports` (none: one local port per router), `params` (as given, then as run: validate_cosim),
// `cost` (the flit size for both traffics; an algorithm's block size and startup), `sync` (an
// algorithm's: barrier or none), `gossip_hw` (the algorithm's forwarding tables in the routers' gossip
// mode, torx_gossip_router against Router::gossip_cycle, instead of its schedule). Random traffic
// with an explicit priority_levels = K (`params_named`) gives every worm a random level 0 .. K-1 and
// the routers K lanes per VC (docs/priority.md); without it, and for an algorithm, one level.
struct CosimRequest : NetworkRequest {
  std::string traffic = "random";        // "random" or an algorithm id
  int mutant = 0;                        // compare against a build-time RTL mutant (docs/rtl.md)
  // random traffic
  CosimPattern pattern = CosimPattern::kUniform;
  double load = 0.3;                     // offered flits per node and cycle, (0, 1]
  int max_worm_flits = 16;
  uint64_t cycles = 10000;               // cycles of traffic generation
  uint64_t barrier_every = 2000;         // barrier episodes (0: none)
  bool mixed_orders = false;             // random first dimension (order classes)
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

// torx cosim --rtl-router (port level): the C++ model's network and the user's under the same
// random traffic, compared per delivered message (its tail's ejection cycle) and per ejection
// VC (the order messages arrive in).
struct MessageComparison {
  std::string rtl_top;                  // the user's top and its sources' hash
  std::string rtl_hash;
  uint64_t model_cycles = 0, rtl_cycles = 0;  // each network's last cycle
  uint64_t compared = 0;                // messages delivered in both
  uint64_t same = 0, later = 0, earlier = 0;  // the user's router against the model
  int64_t max_late = 0, max_early = 0;  // cycles
  double mean_difference = 0;           // cycles, user's minus model's
  uint64_t model_only = 0, rtl_only = 0;  // delivered by one network only (sources refuse differently)
  uint64_t order_differences = 0;       // ejection VCs whose message order differs
  std::string first_timing;             // the first message (model's delivery order) whose cycle differs
  std::string first_order;              // the first ejection VC whose order differs
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
  std::optional<MessageComparison> messages;  // --rtl-router: the port-level comparison
};

// Throws sw::InputError naming the option that is wrong; returns the request as run (its network
// parameters settled as torx run settles them: app::params_as_run).
CosimRequest validate_cosim(CosimRequest r);
// Runs the co-simulation of a request as validate_cosim returned it; a mismatch is a result
// (mismatches 1, first_mismatch), not an exception. Throws sw::InputError (no Verilated
// configuration for the shape, bad input), sw::WatchdogError.
CosimReport run_cosim(const CosimRequest& r);
// Whether this build has the Verilated RTL (models.cpp decides).
bool cosim_available();

std::string cosim_json(const CosimReport& r, int indent = 2);
std::string cosim_text(const CosimReport& r);

}  // namespace torx::app
