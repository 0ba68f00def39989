// SPDX-License-Identifier: Apache-2.0
// The loader: programs a cycle-accurate network from a Schedule and collects the run's figures.
//
// CycleNetwork (kernel-free) does what the host does before a run: it checks the options, writes
// one routing-table image and one barrier image per node (routing_table.hpp, barrier.hpp), compiles
// the node programs (program.hpp), fills the node memories with every node's own blocks
// (node_memory.hpp), builds the Fabric (with the C++ routers, or with the cores a RouterFactory
// makes: the Verilated RTL, lock-step pairs) and checks, by walking every message through the
// tables, that the tables take each message along exactly the links its schedule route names.
//
// run_cycle_model() runs it in the SystemC kernel (sc_run.cpp). The models report figures
// (CycleResult) and the node memories as a DeliveryView; the application layer (sw/app) turns them
// into the result document. Nothing here knows the command line.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

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
  sw::NetworkParams params;
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
};

// Throws sw::InputError for options the cycle model does not offer (names what is wrong).
void validate_cycle_options(const CycleOptions& opt);

// What a cycle-model run reports (the application's result document has one key per field:
// docs/cli.md, "cycle_model").
struct CycleResult {
  uint64_t cycles = 0;                  // until the last block is stored
  uint64_t simulated_cycles = 0;        // cycles the network was clocked
  uint64_t router_cycles = 0;           // routers x simulated cycles
  uint64_t flit_hops = 0;               // flits sent on router-to-router links
  std::vector<std::pair<std::string, int64_t>> params;  // network parameters as run
  uint64_t predicted_cycles = 0;        // contention-free formula of docs/cycle-model.md
  uint64_t barriers = 0;                // barrier episodes executed
  uint64_t barrier_latency = 0;         // cycles from the last node's entry to the release
  std::vector<int64_t> step_start;      // per step: cycle its first send was issued (-1: no messages)
  std::vector<int64_t> step_end;        // per step: cycles until its last block was stored (-1: none)
  std::vector<uint64_t> link_flits;     // per directed network link, in LinkId order (node * ports + port)
  uint64_t blocked_cycles = 0;          // sum over cycles of router VCs holding a flit that could not advance
  uint64_t injection_stall_cycles = 0;  // sum over cycles of injection channels waiting for a credit
  double mean_buffer_flits = 0;         // flits in router input buffers (and the links into them), mean over cycles
  uint32_t max_vc_occupancy = 0;        // fullest VC buffer, in flits
  uint64_t router_evaluations = 0;      // router-cycles actually evaluated (idle routers are skipped)
  int threads = 1;                      // threads that evaluated the network (results do not depend on it)
  uint64_t null_messages = 0;           // null messages sent (--sync local, software)
  uint64_t null_flit_hops = 0;          // their flits' hops between routers
  uint64_t sync_wait_cycles = 0;        // node-cycles spent waiting for a barrier or a signal
  uint64_t software_barriers = 0;       // software barrier episodes (--sync software)
  uint64_t priority_levels = 1;         // levels the routers ran with (1 unless --sync priority)
  uint64_t preemptions = 0;             // output-VC takeovers by a higher level
  uint64_t preempted_cycles = 0;        // worm-cycles spent preempted (on a stack)
  // Hardwired gossip only (docs/gossip.md): packets the interfaces injected (own pieces and the
  // prologue), copies the routers sent on network links, packets delivered to nodes, and the steps
  // of the schedule-driven run the routers' forwarding replaces.
  bool gossip_hw = false;
  uint64_t gossip_host_sends = 0;
  uint64_t gossip_router_copies = 0;
  uint64_t gossip_deliveries = 0;
  uint64_t gossip_steps_equivalent = 0;
  double load_seconds = 0;              // programming the network: tables, programs, memories, elaboration
  double run_seconds = 0;               // simulating it, up to the last block stored
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
  NetworkInterface& ni(sw::NodeId v);
  const NetworkInterface& ni(sw::NodeId v) const;

  // Kernel-free run to completion; throws sw::WatchdogError (with stall_report()) if the run stalls.
  void run();
  // The contention-free cycle count of docs/cycle-model.md for this schedule and these options.
  uint64_t predicted_cycles() const;
  // The figures of the run so far (after run()).
  CycleResult result() const;
  // Why the run stopped, with every stuck worm: where its front and rear flits are and what the
  // front one waits for.
  std::string stall_report(size_t max_worms = 64) const;

 private:
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
CycleResult run_cycle_model(CycleNetwork& net, const CycleOptions& opt);

}  // namespace torx::model
