// SPDX-License-Identifier: Apache-2.0
// RouterBlock: a router as the network (Fabric, the SystemC shell) sees it: a clocked block wired to
// links, with statistics and a description of the flits it holds. Two implementations:
//   Router      (router.hpp)       the C++ router on the fast path: its links write straight into its
//                                  buffers, and it is evaluated only when it has work;
//   PortRouter  (port_router.hpp)  any RouterCore (router_core.hpp) driven one cycle at a time
//                                  through its port wires: the Verilated RTL router, the lock-step
//                                  pair of torx cosim, the C++ router in port mode.
// A RouterFactory chooses one per node; the network's hot path never calls through this interface
// except the scheduler's evaluate().
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "core/topology.hpp"
#include "core/errors.hpp"
#include "models/flit.hpp"
#include "models/gossip_table.hpp"
#include "models/input_unit.hpp"
#include "models/link.hpp"
#include "models/router_core.hpp"
#include "models/routing_table.hpp"
#include "models/scheduler.hpp"

namespace torx::model {

struct RouterStats {
  uint64_t evaluations = 0;         // cycles in which the router was evaluated (not idle)
  uint64_t flit_hops = 0;           // flits sent on network (router-to-router) links
  uint64_t flits_ejected = 0;       // flits sent to the network interface
  uint64_t blocked_vc_cycles = 0;   // sum over cycles of VCs holding a flit that could not advance
};

// Called for every flit a router holds (stall reports): the flit, where it is, why it waits.
using FlitVisitor = std::function<void(const Flit& f, const std::string& place, const std::string& reason)>;

class RouterBlock : public Clocked {
 public:
  // Wiring (the fabric or the SystemC shell calls these once, before the first cycle): an input
  // link writes into input `port`'s buffer; an output link returns credits to output `port`.
  virtual void connect_input(int port, Link* link) = 0;
  virtual void connect_output(int port, Link* link) = 0;
  // The router as the receiver of output `port`'s credits (for Link::configure).
  virtual LinkEnd credit_end(int port) = 0;

  virtual sw::NodeId node() const = 0;
  virtual const RouterShape& shape() const = 0;
  virtual const RouterStats& stats() const = 0;
  // Blocked VC-cycles up to cycle `now` (docs/timing-contract.md).
  virtual uint64_t blocked_vc_cycles(uint64_t now) const = 0;
  // Fullest any of its network-port VC buffers has been (entries, counting flits still on the link).
  virtual uint32_t max_vc_occupancy() const = 0;
  // Priority figures (docs/priority.md): output-VC takeovers, and worm-cycles spent on a stack up to
  // cycle `now`. Routers without priority levels have none.
  virtual uint64_t preemptions() const { return 0; }
  virtual uint64_t preempted_cycles(uint64_t /*now*/) const { return 0; }
  // Every flit the router holds or that is on a link into it, in cycle `now`.
  virtual void visit_flits(uint64_t now, const FlitVisitor& visit) const = 0;
  // "+x", "-y", "inj0", "ej1".
  std::string port_name(int port, bool input) const;
  // The node's name in reports ("3,5").
  const std::string& name() const { return name_; }

 protected:
  void set_name(std::string name) { name_ = std::move(name); }

 private:
  std::string name_;
};

// Makes the router of node `v` (its shape, its routing image) when a network is built.
class RouterFactory {
 public:
  virtual ~RouterFactory() = default;
  virtual std::unique_ptr<RouterCore> make(sw::NodeId v, const RouterShape& shape, const RoutingImage& image,
                                           const sw::Topology& topo) const = 0;
  // A router in gossip mode (docs/gossip.md, "Hardwired forwarding"; shape.gossip_packet_flits set)
  // that forwards by `gossip`, node v's gossip image. Cores without the mode refuse.
  virtual std::unique_ptr<RouterCore> make_gossip(sw::NodeId, const RouterShape&, const RoutingImage&,
                                                  const GossipImage&, const sw::Topology&) const {
    throw sw::InputError("hardwired gossip: these routers have no gossip mode");
  }
};

}  // namespace torx::model
