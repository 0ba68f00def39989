// SPDX-License-Identifier: Apache-2.0
// k-ary n-cube topology: any number of dimensions, any radix >= 2 per dimension, with (torus) or
// without (mesh) wraparound links. Node ids linearise coordinates with x fastest:
//   id = c[0] + r[0] * (c[1] + r[1] * (c[2] + ...)).
// Port numbering (defined here once; every other module uses Topology::port and its inverses):
// every node has two network ports per dimension, port = 2*dim + (dir < 0): "+x" is port 0, "-x"
// port 1, "+y" port 2, ...; the local (injection and ejection) port of a router is 2*ndims. A packet
// that leaves through port p enters its receiver through opposite_port(p) = p ^ 1 (the side facing
// the sender). A directed link is named by the node it leaves and its port. On a torus
// of radix 2 the "+" and "-" links of a dimension join the same pair of nodes and are distinct
// channels (as in BookSim's k = 2 torus); on a mesh of radix 2 there is one link each way.
//
// Routes are dimension order over a cyclic rotation of the dimensions (seed 001's cyclic dimension
// order; plain dimension order is the rotation that starts at x), with one direction per dimension.
// A route is resolved against its endpoints: dimensions in which they agree are skipped.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/errors.hpp"

namespace torx::sw {

using NodeId = int32_t;
using LinkId = int64_t;

inline constexpr int kMaxDims = 16;
using Coord = std::array<int32_t, kMaxDims>;

// A resolved route: start dimension and one direction per dimension (bit d of neg_mask set means the
// message travels in the negative direction of dimension d).
struct Route {
  uint8_t start_dim = 0;
  uint32_t neg_mask = 0;

  bool negative(int dim) const { return (neg_mask >> dim) & 1u; }
  int dir(int dim) const { return negative(dim) ? -1 : +1; }
  bool operator==(const Route& o) const { return start_dim == o.start_dim && neg_mask == o.neg_mask; }
  bool operator!=(const Route& o) const { return !(*this == o); }
};

class Topology {
 public:
  // Throws InputError if a radix is < 2, there are no or too many dimensions, or the network is too
  // large for 32-bit node ids.
  Topology(std::vector<int> radix, bool wrap);

  // Parses "16", "16x16", "8x8x8", "10x6" (x first). `mesh` removes the wraparound links.
  static Topology parse(std::string_view dims, bool mesh);

  int ndims() const { return static_cast<int>(radix_.size()); }
  int radix(int dim) const { return radix_[dim]; }
  const std::vector<int>& radices() const { return radix_; }
  bool wrap() const { return wrap_; }
  NodeId nodes() const { return nodes_; }
  NodeId stride(int dim) const { return stride_[dim]; }
  int ports() const { return 2 * ndims(); }
  LinkId link_count() const { return static_cast<LinkId>(nodes_) * ports(); }
  int max_radix() const;

  // "16x16" and "16x16 torus" / "8x8 mesh".
  std::string dims_string() const;
  std::string to_string() const;

  Coord coord(NodeId node) const;
  int coord_of(NodeId node, int dim) const { return (node / stride_[dim]) % radix_[dim]; }
  NodeId node(const Coord& c) const;
  bool valid(NodeId node) const { return node >= 0 && node < nodes_; }
  // "5" on a ring, "3,5" in 2D, "1,2,3" in 3D.
  std::string node_name(NodeId node) const;

  static int port(int dim, int dir) { return 2 * dim + (dir < 0 ? 1 : 0); }
  static int port_dim(int port) { return port / 2; }
  static int port_dir(int port) { return (port & 1) ? -1 : +1; }
  // The port a packet sent out of `port` arrives through at the neighbour.
  static int opposite_port(int port) { return port ^ 1; }
  // The router's local port (after the 2*ndims network ports).
  static int local_port(int ndims) { return 2 * ndims; }
  // "+x", "-y", "+d4" ...
  static std::string port_name(int port);
  static std::string dim_name(int dim);

  // The neighbour across the link leaving `node` in (dim, dir), or -1 if there is none (mesh edge).
  NodeId neighbor(NodeId node, int dim, int dir) const;
  NodeId neighbor(NodeId node, int port) const { return neighbor(node, port_dim(port), port_dir(port)); }
  // The port of `from` whose link leads to `to`, or -1 if they are not neighbours. On a torus of
  // radix 2 both ports of that dimension lead to the same node; the "+" port is returned.
  int port_to(NodeId from, NodeId to) const;
  LinkId link_id(NodeId from, int dim, int dir) const {
    return static_cast<LinkId>(from) * ports() + port(dim, dir);
  }
  NodeId link_source(LinkId link) const { return static_cast<NodeId>(link / ports()); }
  int link_port(LinkId link) const { return static_cast<int>(link % ports()); }
  std::string link_name(LinkId link) const;  // "3,5+x"

  // Hops needed in `dim` from coordinate a to b travelling in `dir`; -1 if the mesh forbids it.
  int offset(int a, int b, int dim, int dir) const;
  // Shortest number of hops between two nodes (the sum over dimensions).
  int distance(NodeId a, NodeId b) const;

  // The shortest route from a to b in plain dimension order (start at x); ties on a torus go positive.
  Route shortest_route(NodeId a, NodeId b, int start_dim = 0) const;
  // Number of links the route uses, or -1 if it is illegal on this network (needs a missing link).
  int route_hops(NodeId src, NodeId dst, const Route& r) const;
  // Calls f(LinkId) for every directed link of the route, in order. The route must be legal.
  template <class F>
  void for_each_link(NodeId src, NodeId dst, const Route& r, F&& f) const {
    NodeId cur = src;
    const int nd = ndims();
    for (int k = 0; k < nd; ++k) {
      const int dim = (r.start_dim + k) % nd;
      const int a = coord_of(cur, dim);
      const int b = coord_of(dst, dim);
      if (a == b) continue;
      const int dir = r.dir(dim);
      const int hops = offset(a, b, dim, dir);
      for (int h = 0; h < hops; ++h) {
        f(link_id(cur, dim, dir));
        cur = neighbor(cur, dim, dir);
      }
    }
  }

  // "x+y-" (dimensions in travel order with their directions), over all dimensions.
  std::string route_string(const Route& r) const;
  // Parses route_string()'s form; throws InputError naming what is wrong.
  Route parse_route(std::string_view text) const;

  bool operator==(const Topology& o) const { return radix_ == o.radix_ && wrap_ == o.wrap_; }
  bool operator!=(const Topology& o) const { return !(*this == o); }

 private:
  std::vector<int> radix_;
  std::vector<NodeId> stride_;
  bool wrap_ = true;
  NodeId nodes_ = 0;
};

// Parses a node written as coordinates ("3,5") or, on any network, as a plain id with a leading '#'
// ("#53"). Throws InputError naming the field.
NodeId parse_node(const Topology& topo, std::string_view text);
// As parse_node, and also a plain id without the '#' ("53") where the text has no comma (torx
// traffic's --hotspot and matrix files).
NodeId parse_node_or_id(const Topology& topo, std::string_view text);

}  // namespace torx::sw
