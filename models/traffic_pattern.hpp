// SPDX-License-Identifier: Apache-2.0
// Synthetic traffic patterns: the destination function of `torx traffic` (docs/traffic.md,
// "Patterns"). Each source node draws the destination of every new packet from its pattern. The
// definitions are BookSim 2's (traffic.cpp) and Dally and Towles' (Principles and Practices of
// Interconnection Networks, table 9.1), so that a curve of torx and one of BookSim mean the same
// traffic; where BookSim assumes one radix k for every dimension, torx takes each dimension's own.
// Node ids are torx's (x fastest), which are BookSim's for a k-ary n-cube.
//
//   uniform         every node equally likely, the source itself included (BookSim's uniform)
//   transpose       digit rotation by half the dimensions: (x, y) -> (y, x) in 2D. Needs an even
//                   number of dimensions of one radix (BookSim: the node count an even power of
//                   two, the bit rotation, which is the same map on a 2^b x 2^b network)
//   bit-complement  d = ~s over log2 N bits (N a power of two)
//   bit-reverse     d = s with its log2 N bits reversed (N a power of two)
//   shuffle         d = s rotated left by one bit over log2 N bits (N a power of two)
//   tornado         every dimension i: d_i = s_i + ceil(k_i / 2) - 1 (mod k_i)
//   neighbor        every dimension i: d_i = s_i + 1 (mod k_i) (BookSim's neighbor)
//   hot-spot        with probability `hotspot_fraction` one of the hot-spot nodes (equally likely),
//                   otherwise uniform
//   matrix          a user's traffic matrix (read_traffic_matrix): per source, destinations with
//                   relative weights; a source without an entry injects nothing
//
// The permutations (transpose .. neighbor) map some nodes to themselves (transpose's diagonal);
// such packets go through the source's router and back out of its ejection port, as in BookSim.
// Requirements are checked once (make_pattern), with a message naming the pattern, the requirement
// and the network (sw::InputError, exit code 2).
#pragma once

#include <cstdint>
#include <istream>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "core/topology.hpp"
#include "core/traffic_names.hpp"

namespace torx::model {

using sw::PatternKind;

// The names of the command line and the result document are sw::kTrafficPatterns
// (core/traffic_names.hpp).

// A traffic matrix: for every source node, its destinations with cumulative weights (ascending; the
// last is the row's total). An empty row: the source injects nothing.
struct TrafficMatrix {
  struct Entry {
    sw::NodeId dst = 0;
    double cumulative = 0;
  };
  std::vector<std::vector<Entry>> rows;  // one per node
  uint64_t entries = 0;
};

// Limits of a matrix file: longer lines or larger files are refused (hostile input).
inline constexpr size_t kMatrixMaxLine = 1024;
inline constexpr uint64_t kMatrixMaxBytes = uint64_t{64} << 20;

// Reads a traffic matrix (docs/traffic.md, "Matrix files"): one entry per line,
//   SOURCE DESTINATION WEIGHT
// with nodes as coordinates ("3,5") or ids ("#53", or a plain number on any network), the weight
// a finite decimal >= 0; '#' at the start of a line, or after the fields, begins a comment. Throws
// sw::InputError naming the file, the line and what is wrong (unreadable, too large, a line too
// long, a field missing or extra, a node outside the network, a bad weight, a pair given twice, no
// positive weight at all).
TrafficMatrix read_traffic_matrix(const std::string& path, const sw::Topology& topo);
TrafficMatrix parse_traffic_matrix(std::istream& in, const std::string& origin, const sw::Topology& topo);

struct PatternSpec {
  PatternKind kind = PatternKind::kUniform;
  std::vector<sw::NodeId> hotspots{0};  // hot-spot: the hot nodes
  double hotspot_fraction = 0.1;        // hot-spot: share of packets sent to them, [0, 1]
  TrafficMatrix matrix;                 // matrix
};

// A validated pattern on one network. dest() is deterministic given the generator's state: it draws
// from `rng` only for the random patterns (uniform, hot-spot, matrix).
class DestinationPattern {
 public:
  DestinationPattern() = default;
  // Throws sw::InputError naming the pattern and its requirement when the network does not meet it.
  DestinationPattern(const PatternSpec& spec, const sw::Topology& topo);

  PatternKind kind() const { return spec_.kind; }
  const PatternSpec& spec() const { return spec_; }
  // Whether node `src` sends at all (matrix rows without weight do not).
  bool sends(sw::NodeId src) const;
  // The destination of a new packet from `src`.
  sw::NodeId dest(sw::NodeId src, std::mt19937_64& rng) const;
  // For the permutations: the fixed destination of `src` (no randomness); -1 for random patterns.
  sw::NodeId fixed_dest(sw::NodeId src) const;
  // Words for reports: "uniform", "hot-spot 10 % to 0,0", "matrix of 12 entries".
  std::string describe(const sw::Topology& topo) const;

 private:
  PatternSpec spec_;
  sw::Topology topo_{{2}, true};
  int bits_ = 0;  // log2 N for the bit permutations
};

}  // namespace torx::model
