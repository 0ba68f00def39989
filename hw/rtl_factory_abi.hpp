// SPDX-License-Identifier: Apache-2.0
// The C entry points of an on-demand model's shared object (generated from rtl_factory.cpp.in, built
// by rtl_cache.cpp, loaded by rtl_models.cpp) and their types. Both sides are compiled from the same
// headers with the same compiler (the cache key says so); kRtlFactoryAbi guards the rest: a change
// of these signatures or of the objects they pass raises it.
#pragma once

#include "hw/rtl_core.hpp"
#include "models/gossip_table.hpp"

namespace torx::rtl {

inline constexpr int kRtlFactoryAbi = 2;  // 2: RtlRouterConfig holds a model::RouterShape

extern "C" {
// Every model: the ABI it was built for.
using RtlAbiFn = int (*)();
// torx_router: the harness of one router of `node` on `topo`, its image loaded.
using RtlMakeRouterFn = RtlRouter* (*)(const RtlRouterConfig*, const model::RouterShape*, const sw::Topology*,
                                       sw::NodeId, const model::RoutingImage*);
// torx_gossip_router: the same with the node's gossip image.
using RtlMakeGossipRouterFn = RtlRouter* (*)(const RtlRouterConfig*, const model::RouterShape*, const sw::Topology*,
                                             sw::NodeId, const model::GossipImage*);
// A foreign router top (docs/router-interface.md): the harness of one router of `node`, its image
// loaded when the top has the configuration port.
using RtlMakeForeignRouterFn = RtlRouter* (*)(const RtlForeignConfig*, const model::RouterShape*, const sw::Topology*,
                                              sw::NodeId, const model::RoutingImage*);
// torx_barrier: the barrier unit of `node`.
using RtlMakeBarrierFn = RtlBarrier* (*)(const RtlBarrierConfig*, sw::NodeId, const model::BarrierImage*);
}

inline constexpr const char* kRtlAbiSymbol = "torx_rtl_factory_abi";
inline constexpr const char* kRtlMakeRouterSymbol = "torx_rtl_make_router";
inline constexpr const char* kRtlMakeGossipRouterSymbol = "torx_rtl_make_gossip_router";
inline constexpr const char* kRtlMakeForeignRouterSymbol = "torx_rtl_make_foreign_router";
inline constexpr const char* kRtlMakeBarrierSymbol = "torx_rtl_make_barrier";

}  // namespace torx::rtl
