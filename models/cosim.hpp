// SPDX-License-Identifier: Apache-2.0
// Co-simulation: a whole network of lock-step router pairs (lockstep.hpp) under seeded random
// traffic (traffic.hpp), every router simulated twice on the same inputs each cycle and compared
// every cycle. torx cosim runs the C++ router against the Verilated RTL router with it; the tests
// run the C++ router against itself and against a mutated copy. (--traffic ALGO runs a schedule
// through CycleNetwork with a LockstepFactory instead: the application layer does that.)
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "core/network_params.hpp"
#include "core/schedule.hpp"
#include "core/topology.hpp"
#include "models/fabric.hpp"
#include "models/lockstep.hpp"
#include "models/traffic.hpp"

namespace torx::model {

// Every node gets a LockstepCore of a router from `a` and one from `b` (a's outputs drive the
// network).
class LockstepFactory final : public RouterFactory {
 public:
  LockstepFactory(const RouterFactory& a, const RouterFactory& b) : a_(a), b_(b) {}
  std::unique_ptr<RouterCore> make(sw::NodeId v, const RouterShape& shape, const RoutingImage& image,
                                   const sw::Topology& topo) const override;
  std::unique_ptr<RouterCore> make_gossip(sw::NodeId v, const RouterShape& shape, const RoutingImage& image,
                                          const GossipImage& gossip, const sw::Topology& topo) const override;

 private:
  const RouterFactory& a_;
  const RouterFactory& b_;
};

struct CosimConfig {
  sw::NetworkParams params;
  sw::PortModel ports = sw::PortModel::kOne;
  uint32_t flit_bytes = 16;
  TrafficConfig traffic;
};

struct CosimResult {
  uint64_t cycles = 0;          // cycles simulated
  int routers = 0;
  uint64_t router_cycles = 0;   // routers x cycles
  uint64_t flits = 0;           // flits the routers sent (outputs compared)
  uint64_t compared = 0;        // router-cycles whose outputs and registers were compared
  uint64_t mismatches = 0;      // 0, or 1: the run stops at the first
  std::optional<Mismatch> first_mismatch;
  std::string first_mismatch_text;  // "cycle N, router R, port P, field F: model A, rtl B"
  LockstepCoverage coverage;
  uint64_t barrier_cycles = 0;    // barrier unit-cycles compared (units run when a pulse arrives)
  uint64_t barrier_releases = 0;  // releases the compared units issued
  uint64_t preemptions = 0;       // output-VC takeovers (priority levels; the first core's count)
  TrafficTotals traffic;
  double wall_seconds = 0;
};

// The network shape random traffic needs on `topo`: dateline classes on a torus, one order class
// per dimension when the traffic mixes first dimensions.
RoutingConfig cosim_routing(const sw::Topology& topo, const CosimConfig& cfg);

// Runs random traffic on `topo` with every router a lock-step pair of `a` and `b` until the traffic
// is delivered or the first mismatch. Throws sw::WatchdogError if the network stops making progress
// (the same in both, or it would have been a mismatch), sw::InputError for a configuration the
// network cannot have.
// `ba`, `bb`: if both are given, every barrier unit is a lock-step pair of theirs too.
CosimResult run_cosim(const sw::Topology& topo, const CosimConfig& cfg, const RouterFactory& a, const RouterFactory& b,
                      const BarrierFactory* ba = nullptr, const BarrierFactory* bb = nullptr);

// Random traffic on `topo` with the routers of one factory (and its barrier units), every delivered
// worm recorded: torx cosim --rtl-router runs it on the C++ routers and on the user's and compares
// the arrivals message by message. Throws sw::WatchdogError if the network stops making progress.
struct TrafficRun {
  uint64_t cycles = 0;
  TrafficTotals traffic;
  std::vector<TrafficArrival> arrivals;  // in delivery order (cycle, then node)
};
TrafficRun run_traffic(const sw::Topology& topo, const CosimConfig& cfg, const RouterFactory& routers,
                       const BarrierFactory* barriers = nullptr);

// Sums what the lock-step barrier pairs of a fabric compared.
void fabric_barrier_coverage(Fabric& f, uint64_t& cycles, uint64_t& releases);

// Sums the coverage of every lock-step pair of a fabric built with a LockstepFactory.
LockstepCoverage fabric_coverage(Fabric& f);

}  // namespace torx::model
