// SPDX-License-Identifier: Apache-2.0
// The loader: programs a cycle-accurate network from a Schedule and collects the run's figures.
//
// CycleNetwork (kernel-free) does what the host does before a run: it writes
// one routing-table image and one barrier image per node (routing_table.hpp, barrier.hpp), compiles
// the node programs (program.hpp), fills the node memories with every node's own blocks
// (node_memory.hpp), builds the Fabric (with the C++ routers, or with the cores a RouterFactory
// makes: the Verilated RTL, lock-step pairs) and checks, by walking every message through the
// tables, that the tables take each message along exactly the links its schedule route names.
//
// run_cycle_model() runs it in the SystemC kernel (sc_run.cpp). The models report figures
// (sw::CycleFigures, core/cycle_figures.hpp) and the node memories as a DeliveryView; the application
// layer (sw/app) serializes them into the result document. Nothing here knows the command line.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/cycle_figures.hpp"
#include "core/memory_limit.hpp"
#include "core/run_config.hpp"
#include "core/schedule.hpp"
#include "models/fabric.hpp"
#include "models/gossip_interface.hpp"
#include "models/network_interface.hpp"
#include "models/node_memory.hpp"
#include "core/network_params.hpp"
#include "models/program.hpp"
#include "models/run_stats.hpp"

namespace torx::model {

// Called now and then during a run (the application renders it).
struct Progress {
  uint64_t cycle = 0;
  uint64_t messages_done = 0;
  uint64_t messages = 0;
};
using ProgressFn = std::function<void(const Progress&)>;

struct CycleOptions {
  // The network as run: the model takes every value as it is (the application settles them from the
  // command line once: app::validate_request). The routers have priority lanes only with sync
  // kPriority, so the default is the plain router with one level (NetworkParams' default of 4 is
  // --sync priority's); more than one level under another sync mode is refused.
  sw::NetworkParams params = [] {
    sw::NetworkParams p;
    p.priority_levels = 1;
    return p;
  }();
  sw::CostModel cost;
  sw::SyncMode sync = sw::SyncMode::kBarrier;
  uint64_t seed = 1;
  std::optional<sw::PortModel> ports;     // network interface channels; default: the schedule's
  std::string trace;                      // VCD file (SystemC runs only); empty: none
  ProgressFn progress;                    // may be empty
  // Fault injection: edits the routing images the host wrote before the routers load them (a cyclic
  // table for the watchdog's stuck-worm report, a damaged one for the loaders' refusal). When set,
  // the check that the tables follow every message's route is skipped.
  std::function<void(std::vector<RoutingImage>&)> edit_routing;
  // The most memory the run may take (--max-memory); none: the default limit (8 GiB, or what this
  // machine has available if less: core/memory_limit.hpp). The network estimates its bytes (memory_estimate.hpp) and refuses
  // more with sw::WatchdogError before it allocates anything.
  std::optional<sw::MemoryLimit> memory_limit;
  // Hardwired gossip (--gossip-hw; docs/gossip.md, "Hardwired forwarding"): the routers forward the
  // pieces by these forwarding tables; the interfaces only inject their own pieces (and the
  // prologue) and store what arrives. The schedule still gives the collective (its header) and the
  // step figures beside; it is not executed. `edit_gossip` damages the images in tests.
  const sw::ForwardingTable* gossip = nullptr;
  std::function<void(std::vector<GossipImage>&)> edit_gossip;
  // A partitioned run (partitioned.hpp): the network is built whole, but the node memories hold only
  // what the nodes `partition` gives `rank` may ever hold (node_memory.hpp), and the memory estimate
  // is that rank's.
  const Partition* partition = nullptr;
  int rank = 0;
};

class CycleNetwork {
 public:
  // `connect`: wire the blocks directly (kernel-free runs); false when SystemC shells will bind.
  // `routers`: null for the C++ routers on their fast path.
  // `barriers`: null for the C++ barrier logic inline.
  CycleNetwork(const sw::Schedule& schedule, const sw::Topology& topo, const CycleOptions& opt, bool connect = true,
               const RouterFactory* routers = nullptr, const BarrierFactory* barriers = nullptr);

  Fabric& fabric() { return *fabric_; }
  const Fabric& fabric() const { return *fabric_; }
  NodeMemory& memory() { return *memory_; }
  const NodeMemory& memory() const { return *memory_; }
  const Program& program() const { return *program_; }
  const sw::BlockSpace& space() const { return *space_; }
  const RoutingConfig& routing_config() const { return routing_; }
  bool gossip_hw() const { return opt_.gossip != nullptr; }
  const RunStats& stats() const { return stats_; }
  // Partitioned runs (partitioned.hpp) combine the ranks' statistics in place.
  RunStats& stats_mut() { return stats_; }
  GossipTotals& gossip_totals_mut() { return gossip_totals_; }
  NetworkInterface& ni(sw::NodeId v);
  const NetworkInterface& ni(sw::NodeId v) const;

  // Kernel-free run to completion; throws sw::WatchdogError (with stall_report()) if the run stalls.
  void run();
  // The contention-free cycle count of docs/cycle-model.md for this schedule and these options.
  uint64_t predicted_cycles() const;
  // The figures of the run so far (after run()).
  sw::CycleFigures result() const;
  // Why the run stopped, with every stuck worm: where its front and rear flits are and what the
  // front one waits for.
  std::string stall_report(size_t max_worms = 64) const;

 private:
  void check_options() const;
  void derive_routing(sw::PortModel ports);
  void check_memory(sw::PortModel ports, bool systemc, uint64_t part_slots = 0) const;
  BlockSubset needed_blocks(const std::vector<uint8_t>& owned) const;
  void load_program(sw::PortModel ports);
  FabricSpec fabric_spec(sw::PortModel ports) const;
  EndpointFactory gossip_endpoints(const FabricSpec& spec);
  EndpointFactory endpoints();
  void check_routes(const std::vector<RoutingImage>& images) const;

  const sw::Schedule& schedule_;
  sw::Topology topo_;
  CycleOptions opt_;
  RoutingConfig routing_;
  std::unique_ptr<sw::BlockSpace> space_;
  std::unique_ptr<Program> program_;
  std::unique_ptr<NodeMemory> memory_;
  RunStats stats_;
  GossipTotals gossip_totals_;
  std::unique_ptr<Fabric> fabric_;
};

// Runs `net` (built with connect = false) in the SystemC kernel (sc_network.hpp), one SystemC
// elaboration per process, and returns its figures (run_seconds included); the node memories are
// net.memory(). Throws sw::WatchdogError if the network stops making progress. The SystemC report
// handler it installs for the run (reports to standard error, errors as exceptions) is restored when
// it returns.
sw::CycleFigures run_cycle_model(CycleNetwork& net, const CycleOptions& opt);

}  // namespace torx::model
