// SPDX-License-Identifier: Apache-2.0
// The Verilated RTL router and barrier unit behind the project's boundaries (models/router_core.hpp,
// models/barrier_core.hpp): what the RTL tests, and the lock-step co-simulation, construct.
//
// Every configuration of torx_router that the build Verilates (hw/CMakeLists.txt,
// torx_rtl_router(...)) is one RtlRouterConfig; make_rtl_router() picks the one that matches a
// RouterShape and a mutant number, or says which exist. A Verilated model has fixed parameters,
// so a shape nobody built cannot be simulated: add its one line to hw/CMakeLists.txt.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/topology.hpp"
#include "models/barrier_core.hpp"
#include "models/router_block.hpp"
#include "models/router_core.hpp"
#include "models/routing_table.hpp"

namespace torx::rtl {

// One Verilated torx_router: its name (the CMake NAME) and its parameters.
struct RtlRouterConfig {
  const char* name = "";
  int ndims = 2;            // NumDims
  int local_ports = 1;      // NumLocal
  int vc_classes = 2;       // NumClasses
  int vcs_per_class = 1;    // VcsPerClass
  int buffer_depth = 8;     // BufferDepth
  int pipeline = 2;         // PipelineStages
  int mutant = 0;           // Mutant (0: none)
  int max_radix = 64;       // MaxRadix
  int flit_bytes = 32;      // FlitBytes: serves any --flit-bytes up to this
  int priority_levels = 1;  // PriorityLevels: lanes per VC (docs/priority.md); 1: no priorities
  int priority_reserve = 1; // PriorityReserve: the throttle's slots per level above
  // A torx_gossip_router (hardwired gossip, docs/gossip.md; hw/CMakeLists.txt torx_rtl_gossip_router):
  // PacketFlits, the packet length it serves (0: a plain torx_router), and MaxRules.
  int packet_flits = 0;
  int max_rules = 0;
  // Whether this configuration simulates routers of shape `s` with mutant `m`.
  bool serves(const model::RouterShape& s, int m) const;
  std::string describe() const;  // "r2d: 2 dims, 1 local, C=2, V=1, D=8, P=2, MaxRadix 64, 32-byte flits"
};

// One Verilated torx_barrier.
struct RtlBarrierConfig {
  const char* name = "";
  int ndims = 2;
};

const std::vector<RtlRouterConfig>& rtl_router_configs();         // torx_router
const std::vector<RtlRouterConfig>& rtl_gossip_router_configs();  // torx_gossip_router
const std::vector<RtlBarrierConfig>& rtl_barrier_configs();
// The configuration for (shape, mutant), or null (a gossip one for a gossip shape).
const RtlRouterConfig* find_rtl_router(const model::RouterShape& shape, int mutant);

// A Verilated router: a RouterCore with RTL extras.
class RtlRouter : public model::RouterCore {
 public:
  const char* kind() const override { return "rtl"; }
  virtual const RtlRouterConfig& config() const = 0;
  // Writes an FST waveform of this instance from the next cycle on (one file per instance; open it
  // with `gtkwave FILE`); close_trace() flushes and closes it (the destructor does too).
  virtual void open_trace(const std::string& path) = 0;
  virtual void close_trace() = 0;
  // route_error_o: a head met an invalid table entry (the C++ router throws there).
  virtual bool route_error() const = 0;
  // Clock cycles the model has run, reset and image loads included.
  virtual uint64_t model_cycles() const = 0;
};

// Builds the Verilated router for `shape` and `mutant`, resets it and loads `image` (the routing
// image of `node` on `topo`) through its configuration port. Throws sw::InputError when no
// configuration was built for the shape (naming those that were), when the topology does not fit
// it (dimensions, a radix above MaxRadix), or when the RTL refuses the image (naming the node, the
// word and the reason, as RoutingUnit::load does).
std::unique_ptr<RtlRouter> make_rtl_router(const model::RouterShape& shape, int mutant, const sw::Topology& topo,
                                           sw::NodeId node, const model::RoutingImage& image);

// Builds the Verilated gossip-mode router (torx_gossip_router) for `shape` (shape.gossip_packet_flits
// set) and `mutant`, resets it and loads `gossip` (node's gossip image, models/gossip_table.hpp)
// through its configuration port. Throws sw::InputError as make_rtl_router does; a refused image
// names the node, the word and the reason.
std::unique_ptr<RtlRouter> make_rtl_gossip_router(const model::RouterShape& shape, int mutant, const sw::Topology& topo,
                                                  sw::NodeId node, const model::GossipImage& gossip);

// Makes Verilated routers for a network (the fabric's, the lock-step harness's other side): every
// node's router is make_rtl_router(shape, mutant, ...), in gossip mode make_rtl_gossip_router.
class RtlRouterFactory final : public model::RouterFactory {
 public:
  explicit RtlRouterFactory(int mutant = 0) : mutant_(mutant) {}
  std::unique_ptr<model::RouterCore> make(sw::NodeId v, const model::RouterShape& shape,
                                          const model::RoutingImage& image, const sw::Topology& topo) const override {
    return make_rtl_router(shape, mutant_, topo, v, image);
  }
  std::unique_ptr<model::RouterCore> make_gossip(sw::NodeId v, const model::RouterShape& shape,
                                                 const model::RoutingImage&, const model::GossipImage& gossip,
                                                 const sw::Topology& topo) const override {
    return make_rtl_gossip_router(shape, mutant_, topo, v, gossip);
  }

 private:
  int mutant_;
};

// A Verilated barrier unit.
class RtlBarrier : public model::BarrierCore {
 public:
  const char* kind() const override { return "rtl"; }
  // The decoded image (the unit's child_mask_o, parent_port_o, pad_o).
  virtual uint32_t child_mask() const = 0;
  virtual int parent_port() const = 0;  // -1 at the root
  virtual int pad() const = 0;
  virtual void open_trace(const std::string& path) = 0;
  virtual void close_trace() = 0;
};

// Builds the Verilated barrier unit of `node` and loads `image`; throws sw::InputError when no
// configuration has the topology's dimensions or the RTL refuses the image.
std::unique_ptr<RtlBarrier> make_rtl_barrier(const sw::Topology& topo, sw::NodeId node, const model::BarrierImage& image);

// Makes Verilated barrier units for a network.
class RtlBarrierFactory final : public model::BarrierFactory {
 public:
  std::unique_ptr<model::BarrierCore> make(sw::NodeId v, const model::BarrierImage& image,
                                           const sw::Topology& topo) const override {
    return make_rtl_barrier(topo, v, image);
  }
};

}  // namespace torx::rtl
