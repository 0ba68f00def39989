// SPDX-License-Identifier: Apache-2.0
// Router: an input-queued virtual-channel wormhole router with credit flow control and table-driven
// routing (its RTL twin, hw/, is a later issue and must keep docs/timing-contract.md). Composition, one class per block as in Garnet:
//   InputUnit  x inputs    VC FIFOs and per-VC worm state           (input_unit.hpp)
//   RoutingUnit            the host-written table                    (routing_table.hpp)
//   VcAllocator            output VC per worm                        (allocators.hpp)
//   SwitchAllocator        separable input-first, round robin: one flit per input and per
//                          output a cycle (allocators.hpp)
//   OutputUnit x outputs   per-output credit mirrors and VC owners   (output_unit.hpp)
// The crossbar is the copy of the winning flit from its input FIFO into the output link.
//
// Ports: network ports 0 .. 2D-1 in Topology::port order (+x, -x, +y, ...) on both sides; then
// local ports: input 2D+i is injection channel i of the network interface, output 2D+i ejection
// channel i. One-port nodes have one of each; all-port nodes one per network direction, and a worm
// ejects on the channel of the direction it arrived from. Network ports carry
// vc_classes * vcs_per_class VCs, local ports one VC.
//
// Timing (docs/timing-contract.md): a flit is visible at the front of its VC FIFO P cycles after
// it reached the router's input (the link writes it into the FIFO stamped with that cycle: the
// P - 1 non-stalling stages, buffer write and route computation, are part of the link's latency);
// in that cycle it can leave through route computation (head flits), VC allocation (head flits),
// switch allocation and traversal. The credit for the freed slot is pushed upstream in the cycle
// the flit leaves.
//
// Evaluate/update contract. evaluate(t) runs the router's phases in BookSim's order (read credits,
// allocate, traverse), so that every decision is taken from the state at the start of cycle t:
//   1. credits arriving in t are added to the per-output credit mirrors (usable in t);
//   2. route computation and VC allocation for heads, then the switch allocator's input and output
//      stages, reading the VC registers, the FIFO fronts that are due, the credit counters and the
//      arbiter pointers;
//   3. traversal of the winners: only now are their FIFOs popped, credits spent, the VCs of
//      departing tails released and the arbiter pointers moved, and the flits and upstream credits
//      pushed onto the links.
// Phase 3 writes only registers that phase 2 has finished reading, which gives exactly the results
// of staging every register in a *_d copy and committing it at the clock edge, without the copies
// (the RTL twin has the registers), so update(t) has nothing left to commit: evaluate(t) itself asks
// the scheduler for cycle t + 1 when the router's state changed.
// Upstream links write into this router's FIFOs during their own evaluation, but only behind the
// entries and with a due cycle after t, so the order in which routers are evaluated is irrelevant
// (the tests shuffle it).
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "core/topology.hpp"
#include "models/allocators.hpp"
#include "models/arena.hpp"
#include "models/input_unit.hpp"
#include "models/link.hpp"
#include "models/output_unit.hpp"
#include "models/routing_table.hpp"
#include "models/scheduler.hpp"

namespace torx::model {


struct RouterStats {
  uint64_t evaluations = 0;         // cycles in which the router was evaluated (not idle)
  uint64_t flit_hops = 0;           // flits sent on network (router-to-router) links
  uint64_t flits_ejected = 0;       // flits sent to the network interface
  uint64_t blocked_vc_cycles = 0;   // sum over cycles of VCs holding a flit that could not advance
};

struct RouterConfig {
  sw::NodeId node = 0;
  int ndims = 1;
  int local_ports = 1;      // 1 (one-port) or 2 * ndims (all-port)
  int vcs_per_class = 1;
  int buffer_depth = 8;     // of this router's input VCs (and, by symmetry, of its downstream ones)
  uint32_t payload_words = kMaxFlitWords;  // ceil(flit_bytes / 8)
};

class Router : public Clocked {
 public:
  // The router's registers and buffers are carved out of `arena` (next to each other and to the
  // router's neighbours in node order); the arena must outlive the router.
  Router(const RouterConfig& cfg, const RoutingImage& table, const sw::Topology& topo, NetworkCounters* counters,
         Arena& arena, Scheduler* sched);
  Router(const Router&) = delete;
  Router& operator=(const Router&) = delete;

  // Wiring (the fabric or the SystemC shell calls these once, before the first cycle): an input
  // link writes into input `port`'s buffers; an output link returns credits to output `port`.
  void connect_input(int port, Link* link) {
    port_[port].in_link = link;
    link->attach(in_[port].sink(clock_id(), counters_));
  }
  void connect_output(int port, Link* link) { port_[port].out_link = link; }
  // The router as the receiver of output `port`'s credits (for Link::configure).
  LinkEnd credit_end(int port) { return LinkEnd{clock_id(), &credit_mask_, uint64_t{1} << port}; }

  void evaluate(uint64_t cycle) override;
  // Nothing to commit (see the contract above); the router wakes itself for the next cycle at the
  // end of evaluate() when its state changed, so the scheduler skips update() and busy().
  void update(uint64_t) override {}
  // Awake while its state changes; a router whose evaluation changed nothing sleeps until a flit or
  // a credit reaches it (scheduler.hpp).
  bool busy() const override { return awake_; }
  void prefetch(int stage) const override;

  // --- inspection (tests, stuck-worm reports, traces) ----------------------------------------------
  sw::NodeId node() const { return cfg_.node; }
  int inputs() const { return nports_; }
  int outputs() const { return nports_; }
  int network_ports() const { return 2 * cfg_.ndims; }
  const InputUnit& input(int p) const { return in_[p]; }
  const OutputUnit& output(int o) const { return out_[o]; }
  const Link* input_link(int p) const { return port_[p].in_link; }
  const Link* output_link(int o) const { return port_[o].out_link; }
  const RouterStats& stats() const { return stats_; }
  const RoutingUnit& routing() const { return routing_; }
  // Blocked VC-cycles up to cycle `now`, including the cycles the router slept while blocked.
  uint64_t blocked_vc_cycles(uint64_t now) const { return stats_.blocked_vc_cycles + slept_blocked(now); }
  // Fullest any of this router's VC buffers has been (entries, including flits still in the link).
  uint32_t max_vc_occupancy() const {
    return max_occupancy_;
  }
  // Why the flit at the head of (port, vc) does not move, in words.
  std::string wait_reason(int port, int vc) const;
  std::string port_name(int port, bool input) const;

 private:
  void route_head(int port, InputVc& r, const Flit& head);
  // VC-cycles blocked while the router slept between its last evaluation and cycle `now` (the VCs
  // blocked then stayed blocked).
  uint64_t slept_blocked(uint64_t now) const {
    return now > last_eval_ + 1 ? uint64_t{blocked_last_} * (now - last_eval_ - 1) : 0;
  }
  [[noreturn]] [[gnu::cold]] [[gnu::noinline]] void fail_order(int port, const Flit& f, uint32_t worm) const;

  // --- hot state: what every evaluation touches, in the first cache lines ------------------------
  uint64_t credit_mask_ = 0;     // output ports with credits on their link (set by the links)
  uint64_t last_eval_ = 0;       // last cycle evaluated
  uint32_t blocked_last_ = 0;    // VCs blocked in that cycle (they stay blocked while the router sleeps)
  int nports_ = 0;
  int depth_ = 0;                // flits per VC buffer
  bool changed_ = false;         // the router's state changed in this cycle
  bool awake_ = false;           // evaluate again in the next cycle
  RouterPort* port_ = nullptr;   // per port: links, allocator registers (allocators.hpp)
  InputVc* in_vc_ = nullptr;     // registers of every input VC, port by port
  Flit* in_ram_ = nullptr;       // buffer RAM of every input VC (depth_ flits each)
  OutputVc* out_vc_ = nullptr;   // registers of every output VC, port by port
  NetworkCounters* counters_;
  Scheduler* sched_;
  RouterStats stats_;
  uint32_t max_occupancy_ = 0;   // fullest VC buffer seen at a departure (entries incl. in flight)
  SwitchAllocator sw_alloc_;
  VcAllocator vc_alloc_;
  // --- cold state ----------------------------------------------------------------------------------
  RouterConfig cfg_;
  int vc_classes_ = 1;
  InputUnit* in_ = nullptr;      // per input port: its view of in_vc_ / in_ram_ (links, inspection)
  OutputUnit* out_ = nullptr;    // per output port: its view of out_vc_ (inspection)
  RoutingUnit routing_;
};

}  // namespace torx::model
