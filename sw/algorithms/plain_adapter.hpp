// SPDX-License-Identifier: Apache-2.0
// Turns a plain generator's steps (plain_schedule.hpp: explicit block ids, routes with "shortest"
// directions) into compact Steps for a ScheduleSink: routes are resolved against their endpoints,
// block lists are compressed into boxes, priorities follow the phase order.
//
// Also the two helpers every plain generator's registration uses (suh.cpp, tsay_wang.cpp, dimak.cpp,
// meyer_sibeyn.cpp): `preconditions`, which turns a generator's std::invalid_argument into a
// PreconditionError (exit code 2), and `stream_plain`, which streams a generator through the adapter.
#pragma once

#include <fmt/format.h>

#include <stdexcept>
#include <string>
#include <utility>

#include "algorithms/plain_schedule.hpp"
#include "algorithms/registry.hpp"
#include "core/errors.hpp"
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

// Runs `fn`, turning the generators' std::invalid_argument into a PreconditionError named after `id`.
template <class F>
auto preconditions(const std::string& id, F&& fn) -> decltype(fn()) {
  try {
    return fn();
  } catch (const std::invalid_argument& e) {
    throw PreconditionError(fmt::format("{}: {}", id, e.what()));
  }
}

// Streams a plain generator through the adapter into `sink`: `gen(emit)` calls emit(PlainStep&&)
// once per step.
template <class Gen>
void stream_plain(const Algorithm& algo, const Topology& topo, const AlgorithmOptions& opt, int64_t steps,
                  ScheduleSink& sink, Gen&& gen) {
  ScheduleHeader h = make_header(algo, topo, opt, steps);
  sink.begin(h);
  const BlockSpace space(h.collective, topo, h.pieces, h.root);
  PlainStepAdapter adapter(topo, space, sink, steps);
  gen([&](PlainStep&& s) { adapter(std::move(s)); });
  sink.end();
}

}  // namespace torx::sw
