// SPDX-License-Identifier: Apache-2.0
#include "algorithms/registry.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "core/errors.hpp"
#include "core/int_math.hpp"

namespace torx::sw {

const std::vector<Algorithm>& algorithms() {
  static const std::vector<Algorithm> kAll = [] {
    std::vector<Algorithm> v;
    register_direct(v);
    register_ring(v);
    register_suh(v);
    register_tsay_wang(v);
    register_dimak(v);
    register_meyer_sibeyn(v);
    return v;
  }();
  return kAll;
}

const Algorithm* find_algorithm(const std::string& id) {
  for (const Algorithm& a : algorithms())
    if (a.id == id) return &a;
  return nullptr;
}

Algorithm make_algorithm(std::string id, Collective collective, PortModel ports, Switching switching,
                         std::string preconditions, std::string paper, std::string summary) {
  Algorithm a;
  a.id = std::move(id);
  a.collective = collective;
  a.ports = ports;
  a.switching = switching;
  a.preconditions = std::move(preconditions);
  a.paper = std::move(paper);
  a.summary = std::move(summary);
  return a;
}

const Algorithm& lookup_algorithm(const std::string& id) {
  if (const Algorithm* a = find_algorithm(id)) return *a;
  throw InputError(fmt::format("unknown algorithm '{}' (known: {})", id, algorithm_ids(", ")));
}

std::string algorithm_ids(std::string_view sep, bool gossip_only, std::string_view last) {
  std::vector<const std::string*> ids;
  for (const Algorithm& a : algorithms())
    if (!gossip_only || a.gossip_plan) ids.push_back(&a.id);
  std::string out;
  for (size_t i = 0; i < ids.size(); ++i)
    out += (i == 0 ? std::string() : std::string(i + 1 == ids.size() && !last.empty() ? last : sep)) + *ids[i];
  return out;
}

ScheduleHeader make_header(const Algorithm& algo, const Topology& topo, const AlgorithmOptions& opt, int64_t steps) {
  ScheduleHeader h;
  h.algorithm = algo.id;
  h.collective = algo.collective;
  h.dims = topo.radices();
  h.wrap = topo.wrap();
  h.ports = algo.ports;
  h.switching = algo.switching;
  h.pieces = algo.pieces ? algo.pieces(topo, opt) : 1;
  h.root = opt.root;
  h.steps = steps;
  h.source = algo.paper;
  return h;
}

uint8_t phase_priority(int64_t k, int64_t total) {
  const int64_t p = total - 1 - k;
  return static_cast<uint8_t>(std::clamp<int64_t>(p, 0, 255));
}

std::vector<AxisRange> single_block_box(const BlockSpace& space, BlockId b) {
  const Topology& topo = space.topology();
  const int nd = topo.ndims();
  std::vector<AxisRange> box;
  switch (space.collective()) {
    case Collective::kAlltoall: {
      const NodeId s = space.source(b), t = space.destination(b);
      for (int d = 0; d < nd; ++d) box.push_back({static_cast<uint32_t>(topo.coord_of(s, d)), 1, 1});
      for (int d = 0; d < nd; ++d) box.push_back({static_cast<uint32_t>(topo.coord_of(t, d)), 1, 1});
      break;
    }
    case Collective::kBroadcast: box.push_back({static_cast<uint32_t>(b), 1, 1}); break;
    case Collective::kAllgather: {
      const NodeId s = space.source(b);
      for (int d = 0; d < nd; ++d) box.push_back({static_cast<uint32_t>(topo.coord_of(s, d)), 1, 1});
      box.push_back({static_cast<uint32_t>(b % static_cast<uint64_t>(space.pieces())), 1, 1});
      break;
    }
  }
  return box;
}

Bound alltoall_lower_bound(const Topology& topo, PortModel ports) {
  Bound b;
  const int64_t n = topo.nodes();
  b.steps = ports == PortModel::kOne ? ceil_log(2, n) : ceil_log(2 * topo.ndims() + 1, n);
  // Bisection: cut the largest dimension (radix r) into halves of floor(r/2) and ceil(r/2) slices.
  // (N/r)^2 * floor(r/2) * ceil(r/2) blocks cross in each direction; (N/r) links cross the cut per
  // direction on a mesh and twice that on a torus (radix 2 torus: the + and - channels).
  int dim = 0;
  for (int d = 1; d < topo.ndims(); ++d)
    if (topo.radix(d) > topo.radix(dim)) dim = d;
  const int64_t r = topo.radix(dim);
  const int64_t slice = n / r;
  const int64_t crossing = slice * slice * (r / 2) * ((r + 1) / 2);
  const int64_t links = slice * (topo.wrap() ? 2 : 1);
  int64_t tx = ceil_div(crossing, links);
  if (ports == PortModel::kOne) tx = std::max<int64_t>(tx, n - 1);
  b.transmission_blocks = tx;
  b.source = ports == PortModel::kOne
                 ? "seed 000 Lemma 8 generalised (conflict-free steps): startups ceil(lg N); transmission max(bisection, N-1)"
                 : "seed 000 Lemma 8 generalised to all-port: startups ceil(log_{2D+1} N); transmission from the bisection";
  return b;
}

}  // namespace torx::sw
