// SPDX-License-Identifier: Apache-2.0
// The Verilated router and barrier unit as the rest of torx sees them: RtlRouter (a RouterCore with
// RTL extras) and RtlBarrier (a BarrierCore), and the parameters of the one Verilated model behind
// an instance. This is what an on-demand model's shared object implements (hw/rtl_factory.cpp.in):
// it includes only this header's small closure, which the kit carries (docs/rtl.md, "Models on
// demand"); hw/rtl_router.hpp adds the factories the networks use.
#pragma once

#include <cstdint>
#include <string>

#include "models/barrier_core.hpp"
#include "models/router_core.hpp"

namespace torx::rtl {

// The parameters of one Verilated torx_router or torx_gossip_router: the router's shape (the one
// home of its hardware parameters, model::router_shape(); -G NumDims, NumLocal, NumClasses,
// VcsPerClass, BufferDepth, PipelineStages, PriorityLevels, PriorityReserve, and PacketFlits =
// shape.gossip_packet_flits, 0 for a plain torx_router) and what only a Verilated model fixes.
// rtl_models.cpp derives it from a network's RouterShape and turns it into the -G list, each by one
// function.
struct RtlRouterConfig {
  const char* name = "";    // the model's name ("r3d_v3_d5_p3", or the catalog's: "r2d")
  model::RouterShape shape; // its payload_words is unused: FlitBytes below sizes the flit
  int mutant = 0;           // Mutant (0: none)
  int max_radix = 64;       // MaxRadix
  int flit_bytes = 32;      // FlitBytes: serves any --flit-bytes up to this
  int max_rules = 0;        // MaxRules of a torx_gossip_router
  std::string describe() const;  // "r2d: 2 dims, 1 local, C=2, V=1, D=8, P=2, MaxRadix 64, 32-byte flits"
};

// One Verilated router top of someone else's (torx run --rtl-router, docs/router-interface.md):
// its model's name and shape as for torx_router (flit_bytes and max_radix size the flit), whether
// the link-protocol checker watches it, and the seed its unreset registers start from (each
// instance adds its node id).
struct RtlForeignConfig {
  RtlRouterConfig router;
  bool check = true;
  uint64_t seed = 1;
};

// One Verilated torx_barrier.
struct RtlBarrierConfig {
  const char* name = "";
  int ndims = 2;
};

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

}  // namespace torx::rtl
