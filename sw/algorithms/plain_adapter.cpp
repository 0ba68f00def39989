// SPDX-License-Identifier: Apache-2.0
#include "algorithms/plain_adapter.hpp"

#include "algorithms/registry.hpp"

namespace torx::sw {

PlainStepAdapter::PlainStepAdapter(const Topology& topo, const BlockSpace& space, ScheduleSink& sink, int64_t total_steps)
    : topo_(topo), space_(space), sink_(sink), total_(total_steps) {}

Route resolve_plain_route(const Topology& topo, NodeId src, NodeId dst, const PlainRoute& r) {
  Route out = topo.shortest_route(src, dst, r.start_dim);
  for (size_t d = 0; d < r.dir.size() && d < static_cast<size_t>(topo.ndims()); ++d) {
    if (r.dir[d] > 0) out.neg_mask &= ~(1u << d);
    if (r.dir[d] < 0) out.neg_mask |= 1u << d;
  }
  return out;
}

void PlainStepAdapter::operator()(PlainStep&& plain) {
  step_.clear();
  step_.label = plain.label;
  StepBuilder b(space_, step_);
  const uint8_t prio = phase_priority(index_, total_ > 0 ? total_ : index_ + 1);
  for (PlainMessage& m : plain.messages) {
    b.message(static_cast<NodeId>(m.src), static_cast<NodeId>(m.dst),
              resolve_plain_route(topo_, static_cast<NodeId>(m.src), static_cast<NodeId>(m.dst), m.route), prio);
    if (m.blocks.size() == 1) {
      // Store-and-forward generators send one block per message: skip the compressor.
      b.add_box(single_block_box(space_, m.blocks[0]).data());
    } else {
      b.add_blocks(std::move(m.blocks));
    }
  }
  ++index_;
  sink_.step(step_);
}

PlainTopology plain_topology(const Topology& topo) {
  PlainTopology p;
  p.dims = topo.radices();
  p.wrap = topo.wrap();
  return p;
}

}  // namespace torx::sw
