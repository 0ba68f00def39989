// SPDX-License-Identifier: Apache-2.0
// Turns a plain generator's steps (plain_schedule.hpp: explicit block ids, routes with "shortest"
// directions) into compact Steps for a ScheduleSink: routes are resolved against their endpoints,
// block lists are compressed into boxes, priorities follow the phase order.
#pragma once

#include "algorithms/plain_schedule.hpp"
#include "core/schedule.hpp"

namespace torx::sw {

class PlainStepAdapter {
 public:
  // `total_steps` is used for priorities (earlier steps more urgent); -1 if unknown.
  PlainStepAdapter(const Topology& topo, const BlockSpace& space, ScheduleSink& sink, int64_t total_steps);
  void operator()(PlainStep&& plain);
  int64_t steps_emitted() const { return index_; }

 private:
  const Topology& topo_;
  const BlockSpace& space_;
  ScheduleSink& sink_;
  int64_t total_;
  int64_t index_ = 0;
  Step step_;
};

// Resolves a plain route against its endpoints (direction 0 = shortest, ties positive; on a mesh
// the only legal direction).
Route resolve_plain_route(const Topology& topo, NodeId src, NodeId dst, const PlainRoute& r);

PlainTopology plain_topology(const Topology& topo);

}  // namespace torx::sw
