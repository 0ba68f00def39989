// SPDX-License-Identifier: Apache-2.0
// The byte layout the image fuzz targets read (and image_seeds writes): a small topology, a node,
// two option bytes, then the image as little-endian 32-bit words.
//
//   byte 0      flags: bit 0 mesh (no wraparound), bit 1 reseal the routing image's checksum
//   byte 1      dimensions - 1 (taken modulo 3: 1 to 3 dimensions)
//   bytes 2-4   radix - 2 of x, y, z (taken modulo 15: radices 2 to 16)
//   bytes 5-6   node id, little-endian (taken modulo the number of nodes)
//   byte 7      option: the route class mask (routing) or barrier hop latency - 1 (barrier, x4)
//   bytes 8-    the image's words; a trailing partial word is ignored
//
// A mutated image almost never keeps a valid checksum, so the reseal flag lets the fuzzer reach
// the entry checks behind it; the loaders are also fed images whose checksum is wrong.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/topology.hpp"

namespace torx::fuzz {

inline constexpr size_t kImageHeaderBytes = 8;

struct ImageInput {
  std::vector<int> radix;
  bool mesh = false;
  bool reseal = false;
  uint32_t node = 0;  // reduced modulo the number of nodes by the reader
  uint8_t option = 0;
  std::vector<uint32_t> words;
};

inline std::optional<ImageInput> decode_image_input(const uint8_t* data, size_t size) {
  if (size < kImageHeaderBytes) return std::nullopt;
  ImageInput in;
  in.mesh = data[0] & 1;
  in.reseal = data[0] & 2;
  const int nd = 1 + data[1] % 3;
  for (int d = 0; d < nd; ++d) in.radix.push_back(2 + data[2 + d] % 15);
  in.node = static_cast<uint32_t>(data[5]) | static_cast<uint32_t>(data[6]) << 8;
  in.option = data[7];
  for (size_t i = kImageHeaderBytes; i + 4 <= size; i += 4)
    in.words.push_back(static_cast<uint32_t>(data[i]) | static_cast<uint32_t>(data[i + 1]) << 8 |
                       static_cast<uint32_t>(data[i + 2]) << 16 | static_cast<uint32_t>(data[i + 3]) << 24);
  return in;
}

inline std::string encode_image_input(const sw::Topology& topo, sw::NodeId node, bool reseal, uint8_t option,
                                      const std::vector<uint32_t>& words) {
  std::string out(kImageHeaderBytes, '\0');
  out[0] = static_cast<char>((topo.wrap() ? 0 : 1) | (reseal ? 2 : 0));
  out[1] = static_cast<char>(topo.ndims() - 1);
  for (int d = 0; d < topo.ndims(); ++d) out[2 + d] = static_cast<char>(topo.radix(d) - 2);
  out[5] = static_cast<char>(node & 0xff);
  out[6] = static_cast<char>((node >> 8) & 0xff);
  out[7] = static_cast<char>(option);
  for (uint32_t w : words)
    for (int b = 0; b < 4; ++b) out.push_back(static_cast<char>((w >> (8 * b)) & 0xff));
  return out;
}

}  // namespace torx::fuzz
