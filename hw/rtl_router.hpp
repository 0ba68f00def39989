// SPDX-License-Identifier: Apache-2.0
// The Verilated RTL router and barrier unit behind the project's boundaries (models/router_core.hpp,
// models/barrier_core.hpp): what --model rtl, the lock-step co-simulation and the RTL tests
// construct. Every shape the cycle model runs has its RTL model: the first use of a shape Verilates
// it and caches it (docs/rtl.md, "Models on demand"; rtl_cache.hpp), later uses load it.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/topology.hpp"
#include "hw/rtl_cache.hpp"
#include "hw/rtl_core.hpp"
#include "models/gossip_table.hpp"
#include "models/router_block.hpp"
#include "models/routing_table.hpp"

namespace torx::rtl {

// Limits of the SV (docs/rtl.md, "Limits"): beyond them a network is refused with sw::InputError.
inline constexpr int kRtlMaxDims = 15;     // torx_router's NumDims range (1 .. 15)
inline constexpr int kRtlMaxRadix = 256;   // torx_routing_unit's MaxRadix
inline constexpr int kRtlMaxRules = 256;   // torx_gossip_unit's MaxRules an on-demand model gets

// The process's RTL models: where their cache is and how it reports (--rtl-cache, progress). Call
// before the first model is made; later calls apply to models not loaded yet.
void configure_rtl_models(const RtlCacheOptions& options);
RtlCache& rtl_cache();

// Throws sw::InputError naming the limit when the SV cannot serve routers of `shape` on `topo`.
void check_rtl_shape(const model::RouterShape& shape, const sw::Topology& topo);
// The Verilated model of routers of `shape` (gossip shapes: with `max_rules` rule registers) on `topo`
// with mutant `mutant`: top, parameters, name; and of the barrier unit of `ndims` dimensions.
RtlModelSpec rtl_router_spec(const model::RouterShape& shape, int mutant, const sw::Topology& topo, int max_rules = 32);
RtlModelSpec rtl_barrier_spec(int ndims);
// The model of a catalog configuration (its name, top, -G list).
RtlModelSpec rtl_config_spec(const RtlRouterConfig& config);
// The model's name ("r3d_v3_d5_p3", or the catalog's name of it: "r2d"), for reports.
std::string rtl_model_name(const model::RouterShape& shape, int mutant, const sw::Topology& topo);

// The catalog (docs/rtl.md, "Configurations"): named shapes the tests build by name and lint checks
// with their parameters; reports use these names for these shapes. Every other shape is served too.
const std::vector<RtlRouterConfig>& rtl_router_configs();         // torx_router
const std::vector<RtlRouterConfig>& rtl_gossip_router_configs();  // torx_gossip_router
const std::vector<RtlBarrierConfig>& rtl_barrier_configs();
// The catalog's configuration for (shape, mutant) at MaxRadix 64, or null.
const RtlRouterConfig* find_rtl_router(const model::RouterShape& shape, int mutant);

// Builds the Verilated router for `shape` and `mutant` (its model built or loaded on first use), resets
// it and loads `image` (the routing image of `node` on `topo`) through its configuration port. Throws
// sw::InputError when the SV cannot serve the shape (check_rtl_shape), when a tool an on-demand build
// needs is missing, or when the RTL refuses the image (naming the node, the word and the reason, as
// RoutingUnit::load does).
std::unique_ptr<RtlRouter> make_rtl_router(const model::RouterShape& shape, int mutant, const sw::Topology& topo,
                                           sw::NodeId node, const model::RoutingImage& image);

// Builds the Verilated gossip-mode router (torx_gossip_router) for `shape` (shape.gossip_packet_flits
// set) and `mutant`, resets it and loads `gossip` (node's gossip image, models/gossip_table.hpp)
// through its configuration port. Throws sw::InputError as make_rtl_router does.
std::unique_ptr<RtlRouter> make_rtl_gossip_router(const model::RouterShape& shape, int mutant, const sw::Topology& topo,
                                                  sw::NodeId node, const model::GossipImage& gossip);

// Builds the Verilated barrier unit of `node` and loads `image`; throws sw::InputError when the RTL
// refuses the image.
std::unique_ptr<RtlBarrier> make_rtl_barrier(const sw::Topology& topo, sw::NodeId node, const model::BarrierImage& image);

// The entry point `symbol` of the model of `spec` (hw/rtl_factory_abi.hpp), the model built first if
// the cache does not hold it and loaded once per process (the foreign routers of rtl_foreign.hpp).
void* rtl_model_symbol(const RtlModelSpec& spec, const char* symbol);

// Build-only mode (torx rtl build): the factories below build and load the model each router and
// barrier unit needs, then hand out the C++ core instead, so a run prepares the cache at the
// cycle model's cost. Plan mode (torx rtl params): they only note the model each would need
// (rtl_planned_models()), check the SV's limits, and hand out the C++ core.
enum class RtlFactoryMode { kSimulate, kBuildOnly, kPlan };
void set_rtl_factory_mode(RtlFactoryMode mode);
// The models noted in plan mode, each once, in order.
std::vector<RtlModelSpec> rtl_planned_models();
// The models this process loaded, in order: name, whether this process built it, its file.
struct RtlLoadedModel {
  std::string name;
  bool built = false;
  std::string path;
};
std::vector<RtlLoadedModel> rtl_loaded_models();

// Makes Verilated routers for a network (the fabric's, the lock-step harness's other side): every
// node's router is make_rtl_router(shape, mutant, ...), in gossip mode make_rtl_gossip_router.
class RtlRouterFactory final : public model::RouterFactory {
 public:
  explicit RtlRouterFactory(int mutant = 0) : mutant_(mutant) {}
  std::unique_ptr<model::RouterCore> make(sw::NodeId v, const model::RouterShape& shape,
                                          const model::RoutingImage& image, const sw::Topology& topo) const override;
  std::unique_ptr<model::RouterCore> make_gossip(sw::NodeId v, const model::RouterShape& shape,
                                                 const model::RoutingImage& image, const model::GossipImage& gossip,
                                                 const sw::Topology& topo) const override;

 private:
  int mutant_;
};

// Makes Verilated barrier units for a network.
class RtlBarrierFactory final : public model::BarrierFactory {
 public:
  std::unique_ptr<model::BarrierCore> make(sw::NodeId v, const model::BarrierImage& image,
                                           const sw::Topology& topo) const override;
};

}  // namespace torx::rtl
