// SPDX-License-Identifier: Apache-2.0
// `direct`: the baseline complete exchange. In step k = 1..N-1 node i sends its block for node
// (i+k) mod N straight to it along the shortest dimension-order path (ties on a torus go positive).
// One block per message, N-1 startups. On a torus (and a mesh) the paths of one step overlap, so the
// schedule has link conflicts: it is the reference the papers' combining algorithms improve on, and
// the result document reports its conflicts honestly.
#include <fmt/format.h>

#include "algorithms/registry.hpp"

namespace torx::sw {

namespace {

void check_direct(const Topology& topo, const AlgorithmOptions&) {
  if (topo.nodes() < 2) throw PreconditionError("direct: needs at least 2 nodes");
  if (topo.nodes() > 4096)
    throw PreconditionError(fmt::format("direct: {} nodes would need {} steps; the baseline is limited to 4096 nodes",
                                        topo.nodes(), topo.nodes() - 1));
}

void generate_direct(const Algorithm& algo, const Topology& topo, const AlgorithmOptions& opt, ScheduleSink& sink) {
  const NodeId n = topo.nodes();
  sink.begin(make_header(algo, topo, opt, n - 1));
  const BlockSpace space(Collective::kAlltoall, topo, 1, 0);
  Step step;
  for (NodeId k = 1; k < n; ++k) {
    step.clear();
    step.label = fmt::format("k{}", k);
    StepBuilder b(space, step);
    for (NodeId i = 0; i < n; ++i) {
      const NodeId j = (i + k) % n;
      b.message(i, j, topo.shortest_route(i, j), phase_priority(k - 1, n - 1));
      b.add_box(single_block_box(space, space.alltoall_id(i, j)).data());
    }
    sink.step(step);
  }
  sink.end();
}

}  // namespace

void register_direct(std::vector<Algorithm>& out) {
  Algorithm a = make_algorithm(
      "direct", Collective::kAlltoall, PortModel::kOne, Switching::kWormhole, "any torus or mesh, 2 to 4096 nodes",
      "baseline (no seed): step k sends block i->(i+k) mod N on the shortest dimension-order path",
      "every block sent straight to its destination; N-1 steps; link conflicts on tori");
  a.check = check_direct;
  a.generate = [](const Topology& topo, const AlgorithmOptions& opt, ScheduleSink& sink) {
    generate_direct(*find_algorithm("direct"), topo, opt, sink);
  };
  a.formula = [](const Topology& topo, const AlgorithmOptions&) -> std::optional<Bound> {
    Bound b;
    b.steps = topo.nodes() - 1;
    b.transmission_blocks = topo.nodes() - 1;
    b.source = "definition of the baseline: N-1 steps of one block";
    return b;
  };
  a.lower_bound = [](const Topology& topo, const AlgorithmOptions&) -> std::optional<Bound> {
    return alltoall_lower_bound(topo, PortModel::kOne);
  };
  out.push_back(std::move(a));
}

}  // namespace torx::sw
