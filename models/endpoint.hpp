// SPDX-License-Identifier: Apache-2.0
// Endpoint: what sits at a router's local ports, as the network (Fabric) sees it: a clocked block
// with injection and ejection channels (links) and a barrier connection. Two implementations:
//   NetworkInterface  (network_interface.hpp)  executes a node's part of a schedule
//   TrafficSource     (traffic.hpp)            seeded random worms (torx cosim --traffic random)
//
// An endpoint counts, in its lane's NetworkCounters, the flits it injects and ejects and the moment
// it has finished (nothing left to send, receive or synchronise): the network is done when every
// endpoint has finished and no flit is in flight.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "core/topology.hpp"
#include "models/input_unit.hpp"
#include "models/link.hpp"
#include "models/scheduler.hpp"
#include "models/token_wire.hpp"

namespace torx::model {

class Endpoint : public Clocked {
 public:
  virtual sw::NodeId node() const = 0;
  virtual int channels() const = 0;
  // Wiring: injection channel ch sends on `link`; ejection channel ch's buffer is `link`'s far end.
  virtual void connect_injection(int ch, Link* link) = 0;
  virtual void connect_ejection(int ch, Link* link) = 0;
  // The endpoint as the receiver of injection channel ch's credits (for Link::configure).
  virtual LinkEnd credit_end(int ch) = 0;
  // Barrier wiring: the release wire (latency `latency`) is the endpoint's input; the entry wire is
  // the barrier unit's.
  virtual void configure_barrier(int latency) = 0;
  virtual TokenWire& release_in() = 0;
  virtual void connect_barrier(TokenWire* entry) = 0;
  // Cycle 0 is about to run.
  virtual void start() = 0;
  virtual bool finished() const = 0;
  // What it waits for, in words (stall reports).
  virtual std::string describe() const = 0;
};

// Makes the endpoint of node v with `channels` injection and ejection channels, counting into the
// network's per-lane `counters` and scheduled by `sched`.
using EndpointFactory =
    std::function<std::unique_ptr<Endpoint>(sw::NodeId v, int channels, NetworkCounters* counters, Scheduler* sched)>;

}  // namespace torx::model
