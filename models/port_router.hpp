// SPDX-License-Identifier: Apache-2.0
// Port-level routers in a network.
//
// RouterPortCore: the C++ Router (router.hpp) in port mode, as a RouterCore (router_core.hpp): one
// cycle from wires, the contract's registers as a snapshot. It is what the RTL is compared with.
//
// PortRouter: a RouterBlock (router_block.hpp) that drives any RouterCore from the network's links,
// one cycle at a time, so that a network of Verilated routers (or of lock-step pairs, torx cosim)
// runs the same schedules, through the same links and network interfaces, as the fast C++ fabric:
//  - its input links write into small staging FIFOs (a FlitSink with no pipeline delay: the core
//    has its own stages); in each cycle the flit that reaches input p (due in that cycle) is taken
//    out and becomes the core's input wire p;
//  - credits arriving on its output links' credit lines become the core's credit wires;
//  - the core's output wires are pushed onto the output links (with the sender's mirror of the
//    downstream write pointer, as the C++ router keeps) and the input links' credit lines.
// It keeps, per input VC, the ids of the flits inside the core (a shadow of its buffers: every flit
// enters through an input wire and leaves with a credit on that input), which gives stuck-worm
// reports and the occupancy figure without reading the core's RAM. It is evaluated in every cycle in
// which the core holds a flit, and sleeps like the C++ router otherwise (an idle core with no input
// changes nothing), so it reports exactly the C++ router's figures: flit hops, ejections, blocked
// VC-cycles (from the core's own count), buffer occupancy.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "models/arena.hpp"
#include "models/router.hpp"
#include "models/router_block.hpp"
#include "models/router_core.hpp"

namespace torx::model {

class RouterPortCore final : public RouterCore {
 public:
  RouterPortCore(const RouterConfig& cfg, const RoutingImage& image, const sw::Topology& topo);
  const char* kind() const override { return "model"; }
  const RouterShape& shape() const override { return router_->shape(); }
  void reset() override { router_->reset(); }
  void cycle(uint64_t now, const PortWires* in, PortWires* out) override {
    const uint64_t before = router_->preemptions();
    router_->port_cycle(now, in, out);
    preempted_last_ = static_cast<uint32_t>(router_->preemptions() - before);
    last_ = now;
  }
  void snapshot(RouterSnapshot& s) const override { router_->snapshot(s, last_); }
  bool quiescent() const override { return router_->quiescent(); }
  uint32_t blocked() const override { return router_->blocked_last(); }
  uint32_t preempted_last() const override { return preempted_last_; }
  uint32_t stacked() const override { return router_->stacked(); }
  uint32_t traversing() const override { return router_->traversing(); }
  const Router& router() const { return *router_; }

 private:
  Arena arena_;
  std::optional<Router> router_;
  uint64_t last_ = 0;
  uint32_t preempted_last_ = 0;
};

// The C++ router in port mode for every node (the reference side of torx cosim, and the C++-against-
// C++ lock-step test).
class CppRouterFactory final : public RouterFactory {
 public:
  explicit CppRouterFactory(RouterConfig base) : base_(base) {}
  std::unique_ptr<RouterCore> make(sw::NodeId v, const RouterShape& shape, const RoutingImage& image,
                                   const sw::Topology& topo) const override;
  std::unique_ptr<RouterCore> make_gossip(sw::NodeId v, const RouterShape& shape, const RoutingImage& image,
                                          const GossipImage& gossip, const sw::Topology& topo) const override;

 private:
  RouterConfig config(sw::NodeId v, const RouterShape& shape) const;
  RouterConfig base_;
};

class PortRouter final : public RouterBlock {
 public:
  PortRouter(sw::NodeId node, const std::string& name, std::unique_ptr<RouterCore> core, NetworkCounters* counters,
             Scheduler* sched);

  void connect_input(int port, Link* link) override;
  void connect_output(int port, Link* link) override;
  LinkEnd credit_end(int port) override { return LinkEnd{clock_id(), &credit_mask_, uint64_t{1} << port}; }
  void evaluate(uint64_t cycle, int lane) override;
  void update(uint64_t, int) override {}
  bool busy() const override { return awake_; }
  sw::NodeId node() const override { return node_; }
  const RouterShape& shape() const override { return core_->shape(); }
  const RouterStats& stats() const override { return stats_; }
  uint64_t blocked_vc_cycles(uint64_t) const override { return stats_.blocked_vc_cycles; }
  uint32_t max_vc_occupancy() const override { return max_occupancy_; }
  // From the core's counts, accounted as the C++ router does (router.hpp): the worms stacked while
  // the router sleeps stay stacked.
  uint64_t preemptions() const override { return preemptions_; }
  uint64_t preempted_cycles(uint64_t now) const override {
    return preempted_cycles_ + (now > last_eval_ + 1 ? uint64_t{stacked_} * (now - last_eval_ - 1) : 0);
  }
  void visit_flits(uint64_t now, const FlitVisitor& visit) const override;
  RouterCore& core() { return *core_; }
  // Tails the core sent on network links and on ejection channels (gossip mode: packet copies and
  // deliveries, as Router::gossip_copies() / gossip_deliveries() count them).
  uint64_t tails_forwarded() const { return tails_forwarded_; }
  uint64_t tails_ejected() const { return tails_ejected_; }

 private:
  // Ids of the flits inside the core, per input VC, oldest first.
  struct Shadow {
    std::vector<uint64_t> ids;  // msg << 32 | seq
    uint32_t head = 0, count = 0;
  };
  std::string wait_reason(const RouterSnapshot& s, int port, int vc) const;

  sw::NodeId node_;
  std::unique_ptr<RouterCore> core_;
  NetworkCounters* counters_;
  Scheduler* sched_;
  RouterShape shape_;
  uint64_t credit_mask_ = 0;
  bool awake_ = false;
  std::vector<Link*> in_link_, out_link_;
  // Staging FIFOs (the input links' far ends).
  std::vector<InputVc> stage_regs_;
  std::vector<Flit> stage_ram_;
  std::vector<InputUnit> stage_;
  std::vector<uint16_t> out_tail_;  // per output VC: mirror of the downstream FIFO's write pointer
  std::vector<Shadow> shadow_;      // per input VC
  std::vector<PortWires> in_, out_;
  RouterStats stats_;
  uint32_t max_occupancy_ = 0;
  uint64_t last_eval_ = 0;       // last cycle evaluated
  uint32_t stacked_ = 0;         // worms on a stack after it
  uint32_t st_network_ = 0;      // flits in the core's traversal registers for network outputs (RouterCore::traversing)
  uint64_t preemptions_ = 0, preempted_cycles_ = 0;
  uint64_t tails_forwarded_ = 0, tails_ejected_ = 0;
};

}  // namespace torx::model
