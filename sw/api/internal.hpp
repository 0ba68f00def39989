// SPDX-License-Identifier: Apache-2.0
// Inside the library (sw/api): the network both public front ends drive: torx::Network
// (network.cpp) steps it directly, torx::sc::Network (systemc.cpp) from a SystemC process. Not
// installed: the public headers (include/torx/) name none of these types.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include "core/network_params.hpp"
#include "core/topology.hpp"
#include "models/fabric.hpp"
#include "models/host_interface.hpp"
#include "models/router_block.hpp"
#include "torx/network.hpp"

namespace torx::api {

using DeliverFn = std::function<void(model::HostDelivery&&)>;

// A Fabric with a HostInterface at every node (models/host_interface.hpp).
struct Core {
  Core(const NetworkConfig& c, DeliverFn deliver);
  // Validates and queues a message at src; returns its id. Throws sw::InputError.
  uint32_t post(int src, int dst, std::vector<uint8_t> bytes, int priority, const std::optional<Route>& route = {});
  void check_node(const char* what, int v) const;
  // The checks of post(); returns the route the message takes. Throws sw::InputError.
  sw::Route validate(int src, int dst, uint64_t nbytes, int priority, const std::optional<Route>& route) const;
  // Wires and starts the fabric (once).
  void start();
  // One cycle; throws sw::WatchdogError when the fabric stalled or hit its limit.
  void step_one();
  void check_status() const;

  NetworkConfig config;
  sw::Topology topo;
  sw::NetworkParams params;
  model::HostTraffic traffic;
  std::unique_ptr<const model::RouterFactory> routers;  // null: the C++ routers
  std::vector<model::HostInterface*> hosts;
  std::unique_ptr<model::Fabric> fabric;
  uint32_t next_id = 0;
  uint64_t injected = 0, delivered = 0;
  bool started = false;
};

// The routers of `model` ("cycle": null, the C++ routers; "rtl": the Verilated ones). Throws
// sw::InputError when this build has no such model (routers.cpp).
std::unique_ptr<const model::RouterFactory> make_router_factory(const std::string& model);
// Whether the library has model "rtl" (routers.cpp).
bool has_rtl();
// Rethrows the exception in flight as torx::Error (input, stopped, internal).
[[noreturn]] void rethrow();
// The payload of a message injected by size: a pattern of its id and the byte offset.
std::vector<uint8_t> pattern_bytes(uint64_t id, uint64_t n);
Delivery to_delivery(const model::HostDelivery& d);
Figures figures_of(const Core& c);

}  // namespace torx::api
