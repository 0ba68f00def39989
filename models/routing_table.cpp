// SPDX-License-Identifier: Apache-2.0
#include "models/routing_table.hpp"

#include <fmt/format.h>

#include "core/errors.hpp"

namespace torx::model {

namespace {
// Header: magic, version, shape word, node id, one radix word per dimension; then the entries;
// then the checksum (two's-complement sum of every previous word).
constexpr size_t kHeaderWords = 4;

size_t entries_begin(const sw::Topology& topo) { return kHeaderWords + static_cast<size_t>(topo.ndims()); }
}  // namespace

size_t route_entry_index(const sw::Topology& topo, int dim, int coord, bool negative) {
  size_t idx = entries_begin(topo);
  for (int d = 0; d < dim; ++d) idx += 2 * static_cast<size_t>(topo.radix(d));
  return idx + 2 * static_cast<size_t>(coord) + (negative ? 1 : 0);
}

size_t routing_image_words(const sw::Topology& topo) {
  size_t n = entries_begin(topo) + 1;
  for (int d = 0; d < topo.ndims(); ++d) n += 2 * static_cast<size_t>(topo.radix(d));
  return n;
}

RoutingImage lookahead_image(const std::vector<RoutingImage>& images, const sw::Topology& topo, sw::NodeId node) {
  TORX_CHECK(images.size() == static_cast<size_t>(topo.nodes()), "one routing image per node");
  RoutingImage out = images[static_cast<size_t>(node)];
  for (int p = 0; p < topo.ports(); ++p) {
    const sw::NodeId n = topo.neighbor(node, p);
    if (n < 0) continue;
    const RoutingImage& img = images[static_cast<size_t>(n)];
    out.insert(out.end(), img.begin(), img.end());
  }
  return out;
}

void seal_routing_image(RoutingImage& image) {
  TORX_CHECK(!image.empty(), "empty routing image");
  uint32_t sum = 0;
  for (size_t i = 0; i + 1 < image.size(); ++i) sum += image[i];
  image.back() = 0u - sum;
}

RoutingImage build_routing_image(const sw::Topology& topo, sw::NodeId node, const RoutingConfig& cfg) {
  const int nd = topo.ndims();
  RoutingImage img;
  img.push_back(kRouteMagic);
  img.push_back(kRouteVersion);
  img.push_back(static_cast<uint32_t>(nd) | (static_cast<uint32_t>(cfg.dateline_classes) << 8) |
                (static_cast<uint32_t>(cfg.order_classes) << 16) | (cfg.all_port ? 1u << 24 : 0u));
  img.push_back(static_cast<uint32_t>(node));
  for (int d = 0; d < nd; ++d) img.push_back(static_cast<uint32_t>(topo.radix(d)));
  for (int d = 0; d < nd; ++d) {
    const int a = topo.coord_of(node, d);
    const int r = topo.radix(d);
    for (int c = 0; c < r; ++c) {
      for (int neg = 0; neg < 2; ++neg) {
        if (c == a) {
          img.push_back(route_entry(kRouteSkip, 0));
          continue;
        }
        const int dir = neg ? -1 : +1;
        if (!topo.wrap()) {
          const bool ok = dir > 0 ? a < c : a > c;
          img.push_back(ok ? route_entry(static_cast<uint8_t>(sw::Topology::port(d, dir)), 0)
                           : route_entry(kRouteInvalid, 0));
          continue;
        }
        // Dateline: class 0 while the rest of the path in this ring still crosses the wrap link
        // (r-1 -> 0 going +, 0 -> r-1 going -), class 1 once it no longer does.
        const bool crosses = dir > 0 ? a > c : a < c;
        const uint8_t cls = cfg.dateline_classes == 2 ? (crosses ? 0 : 1) : 0;
        img.push_back(route_entry(static_cast<uint8_t>(sw::Topology::port(d, dir)), cls));
      }
    }
  }
  img.push_back(0);
  seal_routing_image(img);
  return img;
}

void RoutingUnit::load(const RoutingImage& image, const sw::Topology& topo, sw::NodeId node) {
  auto bad = [&](size_t word, const std::string& what) {
    return sw::InputError(fmt::format("routing table of node {}: word {}: {}", topo.node_name(node), word, what));
  };
  const int nd = topo.ndims();
  size_t expect = entries_begin(topo) + 1;
  for (int d = 0; d < nd; ++d) expect += 2 * static_cast<size_t>(topo.radix(d));
  if (image.size() != expect)
    throw bad(image.size(), fmt::format("the image has {} words, the {} needs {}", image.size(), topo.to_string(), expect));
  if (image[0] != kRouteMagic) throw bad(0, fmt::format("magic {:#010x} is not {:#010x}", image[0], kRouteMagic));
  if (image[1] != kRouteVersion) throw bad(1, fmt::format("version {} is not supported ({})", image[1], kRouteVersion));
  uint32_t sum = 0;
  for (uint32_t w : image) sum += w;
  if (sum != 0) throw bad(image.size() - 1, "checksum mismatch (the image is damaged)");
  const uint32_t shape = image[2];
  if (static_cast<int>(shape & 0xff) != nd) throw bad(2, fmt::format("{} dimensions, the network has {}", shape & 0xff, nd));
  cfg_.dateline_classes = static_cast<int>((shape >> 8) & 0xff);
  cfg_.order_classes = static_cast<int>((shape >> 16) & 0xff);
  cfg_.all_port = (shape >> 24) & 1;
  if (cfg_.dateline_classes < 1 || cfg_.dateline_classes > 2) throw bad(2, "dateline classes must be 1 or 2");
  if (cfg_.order_classes < 1 || cfg_.order_classes > nd) throw bad(2, "order classes must be 1..dimensions");
  if (image[3] != static_cast<uint32_t>(node)) throw bad(3, fmt::format("the image is for node {}", image[3]));
  ndims_ = nd;
  uint32_t base = 0;
  for (int d = 0; d < nd; ++d) {
    if (image[kHeaderWords + d] != static_cast<uint32_t>(topo.radix(d)))
      throw bad(kHeaderWords + d, fmt::format("radix {} in dimension {}, the network has {}", image[kHeaderWords + d],
                                              sw::Topology::dim_name(d), topo.radix(d)));
    radix_[d] = topo.radix(d);
    stride_[d] = topo.stride(d);
    base_[d] = base;
    base += 2 * static_cast<uint32_t>(topo.radix(d));
  }
  entries_.resize(base);
  const size_t first = entries_begin(topo);
  for (uint32_t i = 0; i < base; ++i) {
    const uint32_t w = image[first + i];
    const uint32_t port = w & 0xff, cls = (w >> 8) & 0xff;
    if (w >> 16) throw bad(first + i, "reserved bits 31:16 must be zero");
    if (port != kRouteSkip && port != kRouteInvalid && static_cast<int>(port) >= 2 * nd)
      throw bad(first + i, fmt::format("port {} does not exist (network ports 0..{})", port, 2 * nd - 1));
    if (static_cast<int>(cls) >= cfg_.dateline_classes) throw bad(first + i, fmt::format("VC class {} is out of range", cls));
    entries_[i] = static_cast<uint16_t>(w);
  }
}

RoutingUnit::Result RoutingUnit::route(const Flit& head) const {
  Result r;
  int d = head.start_dim;
  for (int k = 0; k < ndims_; ++k, ++d) {
    if (d == ndims_) d = 0;
    const int coord = (head.dest / stride_[d]) % radix_[d];
    const uint16_t e = entries_[base_[d] + 2 * static_cast<uint32_t>(coord) + ((head.neg_mask >> d) & 1u)];
    const uint8_t port = static_cast<uint8_t>(e & 0xff);
    if (port == kRouteSkip) continue;
    if (port == kRouteInvalid) {
      r.invalid = true;
      return r;
    }
    r.port = port;
    const int pos = std::min(k, cfg_.order_classes - 1);
    r.vc_class = static_cast<uint8_t>((e >> 8) + cfg_.dateline_classes * pos);
    return r;
  }
  r.eject = true;
  return r;
}

}  // namespace torx::model
