// SPDX-License-Identifier: Apache-2.0
#include "models/partition.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <functional>

#include "core/errors.hpp"

namespace torx::model {

std::string Partition::describe() const {
  std::string g;
  for (size_t d = 0; d < parts.size(); ++d) g += (d ? "x" : "") + std::to_string(parts[d]);
  return fmt::format("{} ranks as {} boxes, {} cut links, at most {} routers per rank", ranks, g, cut_links, max_routers);
}

PartitionKind partition_kind(const std::string& name) {
  if (name == "auto") return PartitionKind::kAuto;
  if (name == "slab") return PartitionKind::kSlab;
  if (name == "block") return PartitionKind::kBlock;
  throw sw::InputError(fmt::format("--partition {}: give slab, block or auto", name));
}

Partition grid_partition(const sw::Topology& topo, const std::vector<int>& parts) {
  TORX_CHECK(static_cast<int>(parts.size()) == topo.ndims(), "one rank count per dimension");
  Partition p;
  p.parts = parts;
  p.ranks = 1;
  for (int d = 0; d < topo.ndims(); ++d) {
    TORX_CHECK(parts[d] >= 1 && parts[d] <= topo.radix(d), "rank count per dimension out of range");
    p.ranks *= parts[d];
  }
  const sw::NodeId n = topo.nodes();
  p.owner.resize(static_cast<size_t>(n));
  std::vector<uint64_t> load(static_cast<size_t>(p.ranks), 0);
  for (sw::NodeId v = 0; v < n; ++v) {
    int r = 0;
    for (int d = topo.ndims() - 1; d >= 0; --d)
      r = r * parts[d] + static_cast<int>(static_cast<int64_t>(topo.coord_of(v, d)) * parts[d] / topo.radix(d));
    p.owner[static_cast<size_t>(v)] = r;
    ++load[static_cast<size_t>(r)];
  }
  p.max_routers = *std::max_element(load.begin(), load.end());
  const int np = topo.ports();
  for (sw::NodeId v = 0; v < n; ++v)
    for (int q = 0; q < np; ++q) {
      const sw::NodeId u = topo.neighbor(v, sw::Topology::port_dim(q), sw::Topology::port_dir(q));
      if (u >= 0 && p.owner[static_cast<size_t>(u)] != p.owner[static_cast<size_t>(v)]) ++p.cut_links;
    }
  return p;
}

Partition make_partition(const sw::Topology& topo, int ranks, PartitionKind kind) {
  if (ranks < 1) throw sw::InputError(fmt::format("{} ranks: a partition needs at least one", ranks));
  if (static_cast<int64_t>(ranks) > topo.nodes())
    throw sw::InputError(fmt::format("{} ranks for the {} nodes of the {}: at most one rank per node", ranks, topo.nodes(),
                                     topo.to_string()));
  const int nd = topo.ndims();
  if (kind == PartitionKind::kSlab) {
    int dim = 0;
    for (int d = 1; d < nd; ++d)
      if (topo.radix(d) > topo.radix(dim)) dim = d;
    if (ranks > topo.radix(dim))
      throw sw::InputError(fmt::format("--partition slab: {} ranks, but the {} has only {} layers along its longest "
                                       "dimension (--partition block or auto)",
                                       ranks, topo.to_string(), topo.radix(dim)));
    std::vector<int> parts(static_cast<size_t>(nd), 1);
    parts[static_cast<size_t>(dim)] = ranks;
    return grid_partition(topo, parts);
  }
  // Every factorization of `ranks` over the dimensions (r_d <= k_d); block wants more than one
  // dimension cut when it can have it.
  std::vector<int> parts(static_cast<size_t>(nd), 1);
  Partition best;
  bool found = false, best_multi = false;
  std::function<void(int, int)> walk = [&](int d, int left) {
    if (d == nd) {
      if (left != 1) return;
      Partition p = grid_partition(topo, parts);
      const bool multi = std::count_if(parts.begin(), parts.end(), [](int r) { return r > 1; }) > 1;
      auto better = [&] {
        if (!found) return true;
        if (kind == PartitionKind::kBlock && multi != best_multi) return multi;
        if (p.max_routers != best.max_routers) return p.max_routers < best.max_routers;
        return p.cut_links < best.cut_links;
      };
      if (better()) {
        best = std::move(p);
        best_multi = multi;
        found = true;
      }
      return;
    }
    for (int r = 1; r <= std::min(left, topo.radix(d)); ++r)
      if (left % r == 0) {
        parts[static_cast<size_t>(d)] = r;
        walk(d + 1, left / r);
      }
    parts[static_cast<size_t>(d)] = 1;
  };
  walk(0, ranks);
  if (!found)
    throw sw::InputError(fmt::format("{} ranks do not factor over the {} (each dimension takes at most its radix)", ranks,
                                     topo.to_string()));
  return best;
}

}  // namespace torx::model
