// SPDX-License-Identifier: Apache-2.0
// Partition: which MPI rank simulates which node of the torus (its router, network interface, node
// memory and barrier unit) in a partitioned cycle run (models/partitioned.hpp, docs/distributed.md).
//
// Every partition is a grid of boxes: rank counts r_d per dimension with r_0 x ... x r_{n-1} = R,
// node coordinate c_d in part floor(c_d r_d / k_d), rank = the parts in mixed radix (dimension 0
// fastest). A slab has one r_d = R (the dimension with the largest radix, the first on a tie); a
// block spreads R over the dimensions; auto tries every factorization and keeps the one with the
// fewest routers on the most loaded rank, then the fewest cut links (directed network links whose
// two ends are on different ranks), then the lowest-dimension order. Cut links are counted, not
// estimated, so the choice is exact for any radices and R.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/topology.hpp"

namespace torx::model {

enum class PartitionKind { kAuto, kSlab, kBlock };

struct Partition {
  int ranks = 1;
  std::vector<int> parts;     // r_d per dimension
  std::vector<int> owner;     // rank per node
  uint64_t cut_links = 0;     // directed network links between different ranks
  uint64_t max_routers = 0;   // routers on the most loaded rank
  bool owns(int rank, sw::NodeId v) const { return owner[static_cast<size_t>(v)] == rank; }
  std::string describe() const;  // "2x1 boxes, 32 cut links, at most 8 routers per rank"
};

// The partition of `topo` over `ranks` ranks; throws sw::InputError when it cannot exist (more
// ranks than nodes, a slab of more ranks than the largest radix, ...).
Partition make_partition(const sw::Topology& topo, int ranks, PartitionKind kind);
// The partition with these rank counts per dimension (checked).
Partition grid_partition(const sw::Topology& topo, const std::vector<int>& parts);
PartitionKind partition_kind(const std::string& name);  // "auto" | "slab" | "block"; InputError otherwise

}  // namespace torx::model
