// SPDX-License-Identifier: Apache-2.0
// Table-driven routing: the memory image the host writes into each router, the builder that makes
// it from the topology, and the RoutingUnit that reads it. The image is a plain array of 32-bit
// words; docs/routing-tables.md defines every bit so that the RTL router can load the same file.
//
// The table is per dimension: entry (d, c, s) says what a worm does in dimension d when its
// destination coordinate in d is c and the route class asks for direction s (+ or -): leave on a
// network port with a VC class, or skip the dimension (the worm is already at coordinate c). The
// router walks the dimensions in the route class's cyclic order (start dimension first) and takes
// the first entry that is not a skip; if every dimension skips, the worm has arrived and ejects.
// The image therefore has 2 * (sum of radices) entries: 256 words on a 64x64 torus.
//
// Deadlock freedom (docs/routing-tables.md, "Dateline"): on a torus ring a worm whose remaining
// path in the ring still crosses the wrap-around link travels in VC class 0, otherwise in class 1.
// Class-0 channels then only lead towards the wrap link and class-1 channels never use it, so
// neither class has a cyclic dependency. With mixed starting dimensions (cyclic dimension order),
// the class is further split by the position of the dimension in the worm's order.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/topology.hpp"
#include "models/flit.hpp"

namespace torx::model {

inline constexpr uint32_t kRouteMagic = 0x54585254u;  // "TRXT"
inline constexpr uint32_t kRouteVersion = 1;
inline constexpr uint8_t kRouteSkip = 0xFE;     // already at the destination coordinate: next dimension
inline constexpr uint8_t kRouteInvalid = 0xFF;  // no route (a mesh edge): a worm reaching it is a table bug

struct RoutingConfig {
  int dateline_classes = 2;  // 2 on a torus with dateline, else 1
  int order_classes = 1;     // 1, or ndims when worms start in different dimensions
  bool all_port = false;     // ejection channel per input direction (all-port nodes)
};

using RoutingImage = std::vector<uint32_t>;

// The standard table of `node`: dimension-order hops with the dateline classes above.
RoutingImage build_routing_image(const sw::Topology& topo, sw::NodeId node, const RoutingConfig& cfg);

// Encodes one entry word.
inline uint32_t route_entry(uint8_t port, uint8_t vc_class) { return port | (uint32_t{vc_class} << 8); }
// Word index of entry (dim, coord, negative) in an image for `topo`.
size_t route_entry_index(const sw::Topology& topo, int dim, int coord, bool negative);
// Words of one node's image on `topo`.
size_t routing_image_words(const sw::Topology& topo);
// Lookahead routing (docs/timing-contract.md, "Lookahead routing"): what a router of the lookahead
// organization loads. Its own image (the routes of heads entering from its injection ports), then
// the image of the neighbour across each network port in port order, ports at a mesh edge skipped
// (the routes it writes into the heads it sends there). (1 + neighbours) images back to back, each
// checked as one image of its node.
RoutingImage lookahead_image(const std::vector<RoutingImage>& images, const sw::Topology& topo, sw::NodeId node);
// Recomputes the checksum word after an image has been edited by hand (tests, tools).
void seal_routing_image(RoutingImage& image);

// The routing unit of one router: decodes a head flit's destination and route class against the
// loaded table. Combinational (no state of its own): evaluate() of the router calls route().
class RoutingUnit {
 public:
  struct Result {
    uint8_t port = 0;      // network output port (if !eject)
    uint8_t vc_class = 0;  // VC class on that port, order position included
    bool eject = false;    // every dimension skipped: the worm has arrived
    bool invalid = false;  // the table has no route (kRouteInvalid)
  };

  // Loads an image; throws sw::InputError naming the word that is wrong (magic, version, shape,
  // checksum, an entry out of range).
  void load(const RoutingImage& image, const sw::Topology& topo, sw::NodeId node);
  Result route(const Flit& head) const;

  const RoutingConfig& config() const { return cfg_; }
  int vc_classes() const { return cfg_.dateline_classes * cfg_.order_classes; }

 private:
  RoutingConfig cfg_;
  int ndims_ = 0;
  int32_t radix_[sw::kMaxDims] = {};
  int32_t stride_[sw::kMaxDims] = {};
  uint32_t base_[sw::kMaxDims] = {};
  std::vector<uint16_t> entries_;  // port | class << 8
};

}  // namespace torx::model
