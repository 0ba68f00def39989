// SPDX-License-Identifier: Apache-2.0
#include "models/gossip_table.hpp"

#include <fmt/format.h>

#include "core/errors.hpp"

namespace torx::model {

namespace {
constexpr size_t kHeader = 5;
}  // namespace

void seal_gossip_image(GossipImage& image) {
  TORX_CHECK(!image.empty(), "empty gossip image");
  uint32_t sum = 0;
  for (size_t i = 0; i + 1 < image.size(); ++i) sum += image[i];
  image.back() = 0u - sum;
}

std::vector<GossipImage> build_gossip_images(const sw::ForwardingTable& table, const sw::Topology& topo) {
  if (table.dims != topo.radices() || !topo.wrap())
    throw sw::InputError(fmt::format("the forwarding tables are for a torus {}, the network is the {}",
                                     sw::Topology(table.dims, true).dims_string(), topo.to_string()));
  sw::validate_forwarding_table(table);
  const int np = topo.ports();
  std::vector<GossipImage> images(static_cast<size_t>(topo.nodes()));
  for (sw::NodeId v = 0; v < topo.nodes(); ++v) {
    GossipImage& img = images[v];
    const auto& rules = table.rules[v];
    img = {kGossipMagic, kGossipVersion, static_cast<uint32_t>(topo.ndims()) | static_cast<uint32_t>(rules.size()) << 8,
           static_cast<uint32_t>(v)};
    uint32_t deliver = 0;
    for (int i = 0; i < np; ++i)
      if (table.deliver[v][i]) deliver |= 1u << i;
    img.push_back(deliver);
    for (const sw::ForwardRule& r : rules) {
      const int64_t hmin = r.first - table.inject_step, hmax = r.last - table.inject_step;
      if (hmin < 1 || hmax > 0xffff || hmin > hmax)
        throw sw::InputError(fmt::format("forwarding tables: node {}: the window {}..{} needs ages {}..{}, which a "
                                         "router holds in 16 bits from 1",
                                         v, r.first, r.last, hmin, hmax));
      img.push_back(static_cast<uint32_t>(r.in_port) | static_cast<uint32_t>(r.out_port) << 8);
      img.push_back(static_cast<uint32_t>(hmin) | static_cast<uint32_t>(hmax) << 16);
    }
    img.push_back(0);
    seal_gossip_image(img);
  }
  return images;
}

void GossipUnit::load(const GossipImage& image, const sw::Topology& topo, sw::NodeId node) {
  auto bad = [&](size_t word, const std::string& what) {
    return sw::InputError(fmt::format("gossip image of node {}: word {}: {}", topo.node_name(node), word, what));
  };
  if (image.size() < kHeader + 1) throw bad(image.size(), "the image is shorter than its header");
  if (image[0] != kGossipMagic) throw bad(0, fmt::format("magic {:#010x} is not {:#010x}", image[0], kGossipMagic));
  if (image[1] != kGossipVersion) throw bad(1, fmt::format("version {} is not supported ({})", image[1], kGossipVersion));
  if (static_cast<int>(image[2] & 0xff) != topo.ndims())
    throw bad(2, fmt::format("{} dimensions, the network has {}", image[2] & 0xff, topo.ndims()));
  const size_t r = image[2] >> 8;
  if (image.size() != kHeader + 2 * r + 1)
    throw bad(image.size(), fmt::format("{} rules need {} words, the image has {}", r, kHeader + 2 * r + 1, image.size()));
  uint32_t sum = 0;
  for (uint32_t w : image) sum += w;
  if (sum != 0) throw bad(image.size() - 1, "checksum mismatch (the image is damaged)");
  if (image[3] != static_cast<uint32_t>(node)) throw bad(3, fmt::format("the image is for node {}", image[3]));
  const int np = topo.ports();
  if (image[4] >> np) throw bad(4, "the deliver mask names ports the router does not have");
  deliver_ = image[4];
  rules_.clear();
  for (size_t k = 0; k < r; ++k) {
    const uint32_t a = image[kHeader + 2 * k], w = image[kHeader + 2 * k + 1];
    const uint32_t in = a & 0xff, out = (a >> 8) & 0xff;
    if (a >> 16) throw bad(kHeader + 2 * k, "reserved bits 31:16 must be zero");
    if (static_cast<int>(in) >= np || static_cast<int>(out) >= np)
      throw bad(kHeader + 2 * k, fmt::format("rule {} -> {}: ports are 0..{}", in, out, np - 1));
    if (topo.neighbor(node, sw::Topology::port_dim(static_cast<int>(out)), sw::Topology::port_dir(static_cast<int>(out))) < 0)
      throw bad(kHeader + 2 * k, fmt::format("rule to port {}, which has no link", sw::Topology::port_name(static_cast<int>(out))));
    const uint32_t hmin = w & 0xffff, hmax = w >> 16;
    if (hmin == 0 || hmin > hmax) throw bad(kHeader + 2 * k + 1, fmt::format("empty or zero age window {}..{}", hmin, hmax));
    rules_.push_back({static_cast<uint8_t>(in), static_cast<uint8_t>(out), static_cast<uint16_t>(hmin),
                      static_cast<uint16_t>(hmax)});
  }
  loaded_ = true;
}

}  // namespace torx::model
