// SPDX-License-Identifier: Apache-2.0
// Fabric: a whole network without the SystemC kernel: routers, endpoints (network interfaces or
// traffic sources), barrier units, the links between them, and the scheduler that steps them. The
// SystemC model (sc_network.hpp) wraps a Fabric: each block gets an sc_module shell, each link a
// channel, and one clocked process steps the fabric. Tests and benchmarks step a Fabric directly.
//
// Routers come from a factory: without one, every node gets the C++ router on its fast path
// (router.hpp); with one (a RouterFactory making RouterCores: the Verilated RTL router, lock-step
// pairs), every node gets a PortRouter driving that core through its port wires (port_router.hpp).
// Endpoints come from an EndpointFactory (endpoint.hpp). A Fabric holds no global state: two
// fabrics of different shapes can live in one process.
//
// Link latencies, from the cycle a flit is sent to the cycle it reaches the far end's input port
// (docs/timing-contract.md); the receiving router adds its own P stages:
//   router -> router      flits: link_latency      credits: credit_latency
//   endpoint -> router    flits: local_latency     credits: credit_latency
//   router -> endpoint    flits: local_latency     credits: credit_latency
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/schedule.hpp"
#include "core/topology.hpp"
#include "models/arena.hpp"
#include "models/barrier.hpp"
#include "models/barrier_core.hpp"
#include "models/partition.hpp"
#include "models/gossip_table.hpp"
#include "models/endpoint.hpp"
#include "core/network_params.hpp"
#include "models/router_block.hpp"
#include "models/routing_table.hpp"

namespace torx::model {

class Router;
struct RouterConfig;
class PortRouter;

// Everything the host writes into the network before a run, besides the endpoints' programs.
struct FabricSpec {
  sw::NetworkParams params;
  sw::PortModel ports = sw::PortModel::kOne;
  uint32_t flit_bytes = 16;           // link width (payload words carried per flit)
  std::vector<RoutingImage> routing;  // one image per node
  BarrierTree barrier;                // one image per node
  // Hardwired gossip (docs/gossip.md): one forwarding image per node, and the packets' length in
  // flits; empty: the routers route worms by their tables.
  std::vector<GossipImage> gossip;
  uint32_t gossip_packet_flits = 0;
};

enum class RunStatus { kRunning, kDone, kStalled, kLimit };

class Fabric {
 public:
  // Builds every block and link from the images (throws sw::InputError on a malformed image).
  // `barriers`: null for the C++ barrier logic inline; otherwise every unit runs a core it makes.
  Fabric(const sw::Topology& topo, FabricSpec spec, const EndpointFactory& endpoints,
         const RouterFactory* routers = nullptr, const BarrierFactory* barriers = nullptr);
  Fabric(const Fabric&) = delete;
  Fabric& operator=(const Fabric&) = delete;
  ~Fabric();

  // Kernel-free wiring: hands every link to the blocks at its ends. (The SystemC network binds
  // ports to link channels instead, and each shell connects its own block.)
  void connect_all();
  // Starts every endpoint at cycle 0.
  void start();
  // Runs one cycle and updates the status (done, watchdog).
  void step();
  // Kernel-free run: steps until done or stopped, skipping cycles in which nothing is due.
  RunStatus run();
  // Between two steps: skips the cycles in which nothing is due (up to the watchdog's or the cycle
  // limit's cycle when nothing will ever be due) and returns how many. A long startup t_s costs
  // nothing: no block is evaluated in a skipped cycle, and their buffer occupancy is accounted.
  uint64_t skip_idle(uint64_t max_skip = UINT64_MAX);
  // A network that is done gets work again (a host interface was handed a message: the API's open
  // networks, host_interface.hpp): it runs again, and is done again when all is delivered.
  void resume() {
    if (status_ == RunStatus::kDone) status_ = RunStatus::kRunning;
  }
  RunStatus status() const { return status_; }
  uint64_t cycle() const { return sched_.cycle(); }
  // Every endpoint has finished and no flit is in flight.
  bool done() const;

  // --- wiring access (SystemC shells, loaders) -----------------------------------------------------
  const sw::Topology& topology() const { return topo_; }
  const FabricSpec& spec() const { return spec_; }
  int local_ports() const { return local_; }
  RouterBlock& router(sw::NodeId v) { return *routers_[v]; }
  const RouterBlock& router(sw::NodeId v) const { return *routers_[v]; }
  Endpoint& endpoint(sw::NodeId v) { return *endpoints_[v]; }
  const Endpoint& endpoint(sw::NodeId v) const { return *endpoints_[v]; }
  BarrierUnit& barrier(sw::NodeId v) { return *barriers_[v]; }
  // The port-level router of node v when the fabric was built with a router factory, else null.
  PortRouter* port_router(sw::NodeId v);
  // Network link leaving node v on port p (nullptr at a mesh edge).
  Link* network_link(sw::NodeId v, int port) { return net_link_[static_cast<size_t>(v) * topo_.ports() + port]; }
  Link& injection_link(sw::NodeId v, int ch) { return links_[inj_base_ + static_cast<size_t>(v) * local_ + ch]; }
  Link& ejection_link(sw::NodeId v, int ch) { return links_[ej_base_ + static_cast<size_t>(v) * local_ + ch]; }
  size_t link_count() const { return nlinks_; }
  Link& link(size_t i) { return links_[i]; }
  Scheduler& scheduler() { return sched_; }
  // Evaluates with `threads` lanes (0: automatic, see sw::NetworkParams::threads); call before start().
  // Returns the lanes in use. One lane while a flit observer (a trace) is set.
  int set_threads(int threads);
  int threads() const { return sched_.lanes(); }
  void set_observer(FlitObserver* o);

  // --- partitioned runs (models/partitioned.hpp, docs/distributed.md) --------------------------------
  // After connect_all() and before start(): this fabric simulates only the nodes `part` gives
  // `rank`. The other nodes' blocks exist but are never woken (no line of this rank reaches them):
  // a flit sent towards another rank goes into a proxy of the receiver's input buffer, a credit or
  // barrier pulse towards another rank stays in its line, and export_cut() takes them out after
  // each cycle; import_cut() replays on the receiver's rank what other ranks exported. One lane.
  void set_partition(const Partition& part, int rank);
  bool partitioned() const { return !owned_.empty(); }
  bool owns(sw::NodeId v) const { return owned_.empty() || owned_[static_cast<size_t>(v)]; }
  // Fabric::step in two halves: this rank's blocks for one cycle, then the status from the counters
  // of the whole network (`idle`: nothing due on any rank; null: this fabric's scheduler).
  void step_local();
  void judge(uint64_t now, const NetworkCounters& c, const bool* idle);
  // skip_idle in two halves: the cycles to skip given the whole network's next due cycle (cycles
  // from now) and counters, then the skip (this rank's buffer occupancy accounted).
  uint64_t idle_cycles(uint64_t until_due, const NetworkCounters* c) const;
  void skip_cycles(uint64_t n);
  // The earliest cycle by which something waiting on a cut line must reach its rank (a flit: the
  // cycle after it was sent, when the receiver may count it in its buffer; a credit or a pulse: the
  // cycle it becomes visible); UINT64_MAX: nothing waits.
  uint64_t cut_deadline() const;
  // Appends every value waiting on a cut line to out[rank of its receiver] and takes it out.
  void export_cut(std::vector<std::vector<uint8_t>>& out);
  // Replays the values exported by another rank (throws on a malformed record).
  void import_cut(const uint8_t* data, size_t n);
  void set_status(RunStatus s) { status_ = s; }
  // Fabric::start for the owned endpoints only (the status is the caller's, from every rank).
  void start_owned();

  // --- results -------------------------------------------------------------------------------------
  NetworkCounters counters() const;  // summed over the lanes
  uint64_t evaluations() const { return evaluations_; }
  uint64_t router_evaluations() const;
  uint64_t buffer_flit_cycles() const { return occupancy_sum_; }
  uint64_t flit_hops() const;
  uint64_t blocked_vc_cycles() const;
  uint32_t max_vc_occupancy() const;
  // Priority routers (docs/priority.md): output-VC takeovers and worm-cycles preempted (the C++
  // routers count them; port-level cores report them through their registers, not here).
  uint64_t preemptions() const;
  uint64_t preempted_cycles() const;
  // Gossip mode: packet copies the routers sent on network links, and packets they delivered.
  uint64_t gossip_copies() const;
  uint64_t gossip_deliveries() const;
  // Flits carried by each directed network link, indexed by sw::LinkId (node * ports + port).
  std::vector<uint64_t> link_flits() const;
  int barrier_latency() const { return 2 * spec_.barrier.height * spec_.params.barrier_hop_latency + 2; }
  // Why the run stopped ("watchdog: no flit moved for ..."), empty while it runs.
  const std::string& stop_reason() const { return stop_reason_; }
  // Every flit in the routers and on the links into them (stall reports).
  void visit_flits(const FlitVisitor& visit) const;

 private:
  // The constructor's parts, in order.
  RouterConfig router_config(sw::NodeId v) const;
  std::unique_ptr<RouterCore> make_core(const RouterFactory& routers, const RouterConfig& rc) const;
  void make_routers(const RouterFactory* routers);
  void make_endpoints(const EndpointFactory& endpoints);
  void make_barriers(const BarrierFactory* barrier_cores);
  void make_links();

  sw::Topology topo_;
  FabricSpec spec_;
  int local_ = 1;
  Scheduler sched_;
  NetworkCounters counters_[kMaxLanes];  // one per lane (scheduler.hpp)
  Arena arena_;                          // C++ routers and their buffers, in node order (arena.hpp)
  std::vector<RouterBlock*> routers_;    // C++ routers live in arena_ (destroyed by ~Fabric), port routers in port_routers_
  std::vector<Router*> native_;
  std::vector<std::unique_ptr<PortRouter>> port_routers_;
  std::vector<std::unique_ptr<Endpoint>> endpoints_;
  std::vector<std::unique_ptr<BarrierUnit>> barriers_;
  std::unique_ptr<Link[]> links_;  // never moved: blocks keep pointers to links
  size_t nlinks_ = 0;
  std::vector<Link*> net_link_;
  size_t inj_base_ = 0, ej_base_ = 0;
  RunStatus status_ = RunStatus::kRunning;
  bool observed_ = false;
  uint64_t last_move_cycle_ = 0;
  uint64_t last_moves_ = 0;
  uint64_t evaluations_ = 0;
  uint64_t occupancy_sum_ = 0;
  std::string stop_reason_;
  // Partitioned runs: which nodes this rank owns (empty: all), the exporter block the cut lines
  // wake, the proxies of remote input buffers, and the cut lines this rank drains.
  struct Exporter final : Clocked {
    void evaluate(uint64_t, int) override {}
    void update(uint64_t, int) override {}
    bool busy() const override { return false; }
  };
  struct Proxy {
    Link* link = nullptr;
    int rank = 0;
    uint32_t index = 0;  // the link's index in links_ (the same on every rank)
    std::vector<InputVc> regs;
    std::vector<Flit> ram;
  };
  struct CutLine {
    int rank = 0;
    uint32_t index = 0;  // credits: the link's index; pulses: 2 v (gather into v) or 2 v + 1 (release into v)
    Link* link = nullptr;
    TokenWire* wire = nullptr;
  };
  std::vector<char> owned_;
  Exporter exporter_;
  uint64_t exporter_mask_ = 0;
  std::vector<Proxy> proxies_;
  std::vector<CutLine> cut_lines_;
};

}  // namespace torx::model
