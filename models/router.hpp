// SPDX-License-Identifier: Apache-2.0
// Router: the C++ input-queued virtual-channel wormhole router with credit flow control and
// table-driven routing. Its RTL twin is hw/torx_router.sv; both keep docs/timing-contract.md, which
// states every stage and arbiter exactly, and torx cosim compares them cycle for cycle.
//
// One class per hardware block, as in Garnet; the router's cycle is a short sequence of their calls
// over one set of registers (cycle() below):
//   InputUnit  x inputs    VC FIFOs with the input pipeline, per-VC worm state   (input_unit.hpp)
//   RoutingUnit            the host-written table                                (routing_table.hpp)
//   VcAllocator            fair output-VC allocation per (output, class)         (allocators.hpp)
//   SwitchAllocator        separable input-first round robin                     (allocators.hpp)
//   OutputUnit x outputs   credit counters and VC owners                         (output_unit.hpp)
// The crossbar is the copy of the winning flit from its input FIFO onto the output.
//
// Ports (docs/timing-contract.md, "The router boundary"): network ports 0 .. 2N-1 in Topology::port
// order (+x, -x, +y, ...) on both sides; then local ports: input 2N+k is injection channel k of the
// network interface, output 2N+k ejection channel k. Network ports carry C x V VCs, local ports one.
//
// Two ways to clock it, one behaviour (cycle() is a template over the I/O, instantiated twice):
//  - the fast path (evaluate(), through the scheduler): the input links write flits straight into
//    the input FIFOs, stamped with the cycle they reach stage P (link.hpp; the router's FlitSink
//    says P), credits arrive through the output links' credit lines, and the router pushes flits and
//    credits onto its links. A router whose state did not change sleeps until a flit becomes due or a
//    credit arrives (scheduler.hpp), so idle and blocked routers cost nothing.
//  - port mode (port_cycle(), RouterPortCore in router_port_core.hpp): the flits and credits of one
//    cycle come in as wires and go out as wires (router_core.hpp); the lock-step harness drives this
//    mode against the RTL, and snapshot() gives the contract's named registers.
//
// Evaluate/update contract. cycle(t) reads every register before it writes any (credit intake adds
// credits first, as the contract says), and the traversal writes only registers the allocation has
// finished reading, which gives exactly the results of staging every register in a *_d copy and
// committing it at the clock edge (the RTL twin has the copies). So update(t) has nothing to commit,
// and evaluate(t) itself asks the scheduler for cycle t + 1 when the router's state changed.
// Upstream links write into this router's FIFOs during their own evaluation, but only behind the
// entries and with a due cycle after t, so the order in which routers are evaluated is irrelevant
// (the tests shuffle it).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/topology.hpp"
#include "models/allocators.hpp"
#include "models/gossip_table.hpp"
#include "models/arena.hpp"
#include "models/input_unit.hpp"
#include "models/link.hpp"
#include "models/output_unit.hpp"
#include "models/router_block.hpp"
#include "models/router_core.hpp"
#include "models/routing_table.hpp"
#include "models/scheduler.hpp"

namespace torx::model {

// Deliberate faults of the port-mode router, for proving that the lock-step harness catches a
// router that deviates (testbenches/models/test_lockstep.cpp). Never used by the fast path.
enum class RouterMutation : uint8_t {
  kNone,
  kSaPointerStuck,  // the switch allocator's output-stage pointer never moves
  // Lookahead organization (docs/timing-contract.md, "Lookahead"):
  kSpecNotCancelled,   // a speculative switch grant stands although its new output VC has no credit
  kLookaheadOwnTable,  // the route written into a leaving head is read from this router's table,
                       // not from the entries of the neighbour it goes to
  kTraversalBypass,    // lookahead, classic: a flit that wins the switch leaves in the same cycle (no
                       // switch-traversal register)
  kClassicRcVaMerged,  // classic: a head routed in RC asks for a VC in the same cycle
};

struct RouterConfig {
  sw::NodeId node = 0;
  // The hardware parameters (router_shape(), router_core.hpp): N, local ports, V, D (of this router's
  // input VCs and, by symmetry, of its downstream ones), P, payload words, K and r, the gossip packet
  // length. The VC classes come from the routing image (the router takes them from there).
  RouterShape shape;
  // Hardwired gossip (docs/gossip.md, "Hardwired forwarding"): the router forwards gossip packets by
  // itself from this image, store-and-forward, replicating each to every output the image names;
  // shape.gossip_packet_flits is the packet length (one block).
  const GossipImage* gossip = nullptr;
  RouterMutation mutation = RouterMutation::kNone;
};

class Router final : public RouterBlock {
 public:
  // The router's registers and buffers are carved out of `arena` (next to each other and to the
  // router's neighbours in node order); the arena must outlive the router. `sched` is null for a
  // router that is only clocked in port mode.
  Router(const RouterConfig& cfg, const RoutingImage& table, const sw::Topology& topo, NetworkCounters* counters,
         Arena& arena, Scheduler* sched);
  Router(const Router&) = delete;
  Router& operator=(const Router&) = delete;

  // --- RouterBlock (fast path) -------------------------------------------------------------------
  void connect_input(int port, Link* link) override {
    port_[port].in_link = link;
    link->attach(in_[port].sink(clock_id(), counters_, &occupied_, uint64_t{1} << port));
  }
  void connect_output(int port, Link* link) override { port_[port].out_link = link; }
  LinkEnd credit_end(int port) override { return LinkEnd{clock_id(), &credit_mask_, uint64_t{1} << port}; }
  void evaluate(uint64_t cycle, int lane) override;
  void update(uint64_t, int) override {}
  bool busy() const override { return awake_; }
  void prefetch(int stage) const override;
  sw::NodeId node() const override { return cfg_.node; }
  const RouterShape& shape() const override { return shape_; }
  const RouterStats& stats() const override { return stats_; }
  uint64_t blocked_vc_cycles(uint64_t now) const override { return stats_.blocked_vc_cycles + slept_blocked(now); }
  uint32_t max_vc_occupancy() const override { return max_occupancy_; }
  void visit_flits(uint64_t now, const FlitVisitor& visit) const override;

  // --- port mode (router_core.hpp) ---------------------------------------------------------------
  // One cycle from wires: in[p] holds the flit arriving at input p and the credit arriving at output
  // p; out[p] gets the flit pushed onto output p and the credit pushed upstream from input p.
  void port_cycle(uint64_t now, const PortWires* in, PortWires* out);
  // The contract's named registers as they are after cycle `now` (RTL view: buffer counts leave
  // out the flits still in the input pipeline).
  void snapshot(RouterSnapshot& s, uint64_t now) const;
  // Every register to its reset value, every buffer empty; the routing table stays.
  void reset();
  // No flit in any input FIFO (the pipeline included).
  bool quiescent() const;
  // Input lanes blocked in the last cycle evaluated.
  uint32_t blocked_last() const { return blocked_last_; }
  // Gossip figures: packet copies sent on network links, and packets handed to the node.
  uint64_t gossip_copies() const { return gossip_copies_; }
  uint64_t gossip_deliveries() const { return gossip_deliveries_; }
  // Priority figures (docs/priority.md): output-VC takeovers, and worm-cycles spent on a stack (up to
  // cycle `now`, the cycles slept included).
  uint64_t preemptions() const override { return preemptions_; }
  // Worms on a stack now (the sum of the output VCs' depths).
  uint32_t stacked() const { return preempted_now_; }
  // Port mode, pipelined: flits in the traversal registers bound for network outputs.
  uint32_t traversing() const {
    return static_cast<uint32_t>(__builtin_popcountll(st_valid_ & ((uint64_t{1} << network_ports()) - 1)));
  }
  uint64_t preempted_cycles(uint64_t now) const override {
    return preempted_cycles_ + (now > last_eval_ + 1 ? uint64_t{preempted_now_} * (now - last_eval_ - 1) : 0);
  }

  // --- inspection (tests, stuck-worm reports) ----------------------------------------------------
  int inputs() const { return nports_; }
  int outputs() const { return nports_; }
  int network_ports() const { return 2 * cfg_.shape.ndims; }
  const InputUnit& input(int p) const { return in_[p]; }
  const OutputUnit& output(int o) const { return out_[o]; }
  const Link* input_link(int p) const { return port_[p].in_link; }
  const Link* output_link(int o) const { return port_[o].out_link; }
  const RoutingUnit& routing() const { return routing_; }
  // Why the flit at the front of (port, vc) does not move, in words.
  std::string wait_reason(int port, int vc) const;

 private:
  template <int St, bool Multi>
  struct LinkIo;
  struct PortIo;
  struct Fronts;
  struct GossipClaims;
  // The router's cycle (stage P of docs/timing-contract.md) as a sequence of its stages, below.
  // Org: the organization (docs/timing-contract.md, "Router organizations"); single is stage P.
  // Multi: priority levels K > 1 (single only); false compiles the lane arithmetic for K = 1.
  template <class Io, Pipeline Org, bool Multi>
  bool cycle(uint64_t now, Io& io, uint32_t& due);
  // The cycle of a router in gossip mode: whole packets replicated to the outputs the gossip image
  // names (docs/gossip.md, "Hardwired forwarding").
  template <class Io>
  bool gossip_cycle(uint64_t now, Io& io, uint32_t& due);
  // --- the stages (router.cpp; each inlined into the cycles) ---
  // 1. Credit intake: credits arriving in this cycle can be spent in it.
  template <class Io>
  bool take_credits(Io& io);
  // 2. Route computation and readiness at the input fronts; the VC requests, and the switch offers of
  // ports that asked for no VC.
  template <Pipeline Org, bool Multi>
  void scan_fronts(uint64_t now, Fronts& f, uint32_t& due);
  // 3. VC allocation, then (single) the switch offers of the ports that asked for a VC.
  template <Pipeline Org, bool Multi>
  bool allocate_vcs(Fronts& f);
  // Lookahead: the speculative request output `o` grants, if its VC allocation succeeded and the new
  // output VC has a credit; -1 when the grant is cancelled.
  template <class Io>
  int speculative_grant(const Fronts& f, int o);
  // 5. Switch allocation, output stage: the input output `o` grants (both arbiters move).
  template <class Io>
  int allocate_switch(int o);
  // 6. Traversal: input p's offered flit leaves on output o and its credit goes upstream (np: the
  // network ports).
  template <class Io, Pipeline Org, bool Multi>
  void traverse(uint64_t now, Io& io, int p, int o, int np);
  // Gossip mode: whole packets at the fronts with their targets; their claims; the streaming.
  void gossip_fronts(uint64_t now, GossipClaims& c, uint32_t& due);
  bool gossip_claim(GossipClaims& c);
  template <class Io>
  uint32_t gossip_stream(uint64_t now, Io& io);
  // The front flit of input lane `r` (of port p) leaves its buffer; the port stops being visited
  // when it empties. Count: the I/O counts the move here (gossip copies); the traversal's
  // Io::forward counts it itself.
  template <class Io, bool Count = true>
  void pop(Io& io, int p, InputVc& r);
  // The cycle's end: `blocked` due fronts did not leave.
  void end_cycle(uint32_t blocked);
  // Route computation for the head at the front of an IDLE VC: state WAIT_VC with its output port
  // and class.
  void route_head(int port, InputVc& r, const Flit& head);
  // Lookahead: the same from the route the head carries (an injected head: this router's table).
  void la_route_head(int port, InputVc& r, const Flit& head);
  // Lookahead: the route at the router across output `o`, written into a head leaving on it.
  void la_write(Flit& head, int o) const;
  // VC-cycles blocked while the router slept between its last evaluation and cycle `now` (the VCs
  // blocked then stayed blocked).
  uint64_t slept_blocked(uint64_t now) const {
    return now > last_eval_ + 1 ? uint64_t{blocked_last_} * (now - last_eval_ - 1) : 0;
  }
  int reserve(int level) const { return reserve_[level]; }
  // Lanes per VC as the hot path sees it: a constant 1 unless the cycle was compiled for K > 1.
  template <bool Multi>
  int lanes_per_vc() const { return Multi ? levels_ : 1; }
  [[noreturn]] [[gnu::cold]] [[gnu::noinline]] void fail_order(int port, const Flit& f, uint32_t worm) const;

  // --- hot state: what every evaluation touches, in the first cache lines ------------------------
  uint64_t credit_mask_ = 0;     // output ports with credits on their link (set by the links)
  uint64_t occupied_ = 0;        // input ports holding flits (set by the links, cleared when a port empties)
  uint64_t last_eval_ = 0;       // last cycle evaluated
  uint32_t blocked_last_ = 0;    // VCs blocked in that cycle (they stay blocked while the router sleeps)
  int nports_ = 0;
  int depth_ = 0;                // flits per VC buffer
  bool awake_ = false;           // evaluate again in the next cycle
  RouterPort* port_ = nullptr;   // per port: links, switch allocator registers (allocators.hpp)
  InputVc* in_vc_ = nullptr;     // registers of every input lane, port by port (input-lane index order)
  Flit* in_ram_ = nullptr;       // buffer RAM of every input lane (depth_ flits each)
  OutputVc* out_vc_ = nullptr;   // registers of every output VC, port by port
  InputUnit* in_ = nullptr;      // per input port: its unit (a view of in_vc_ / in_ram_)
  OutputUnit* out_ = nullptr;    // per output port: its unit (a view of out_vc_)
  NetworkCounters* counters_;
  Scheduler* sched_;
  RouterStats stats_;
  uint32_t max_occupancy_ = 0;   // fullest VC buffer seen at a departure (entries incl. in flight)
  int levels_ = 1;               // priority levels K: lanes per VC
  int reserve_[16] = {};         // throttle: credits a flit of each level must leave (docs/priority.md)
  uint16_t* out_tail_ = nullptr; // per output VC and level: the downstream lane's write pointer mirror
  uint16_t* stack_ = nullptr;    // per output VC: K - 1 preempted owners
  uint32_t preempted_now_ = 0;   // worms on a stack now
  uint64_t preemptions_ = 0;
  uint64_t preempted_cycles_ = 0;
  Pipeline org_ = Pipeline::kSingle;
  uint64_t st_valid_ = 0;         // port mode, pipelined: output ports whose traversal register holds a flit
  Flit* st_flit_ = nullptr;       // ... per output port: the flit (its VC field the output VC)
  uint16_t* st_lane_ = nullptr;   // ... and the input lane it left
  bool gossip_mode_ = false;
  uint32_t gossip_flits_ = 4;
  uint64_t* gossip_targets_ = nullptr;  // per input lane in gossip mode: the outputs its packet is copied to
  uint16_t gossip_rr_q_ = 0;            // the input lane that claims first among equal ages
  uint64_t gossip_copies_ = 0, gossip_deliveries_ = 0;
  GossipUnit gossip_;
  SwitchAllocator sw_alloc_;
  VcAllocator vc_alloc_;
  VaRequest* va_req_ = nullptr;  // scratch: the VC requests of one cycle (one per input lane at most)
  // --- cold state ----------------------------------------------------------------------------------
  RouterConfig cfg_;
  RouterShape shape_;
  VaPointers* va_ptr_ = nullptr;
  RoutingUnit routing_;
  std::vector<RoutingUnit> la_routing_;  // lookahead: per network port, the neighbour's table
};

}  // namespace torx::model
