// SPDX-License-Identifier: Apache-2.0
// Hardwired oblivious gossip (seed 003; docs/gossip.md, "Hardwired forwarding"): the per-router
// forwarding image the host writes once, built from the forwarding tables (sw/core/forwarding_table.hpp),
// and the GossipUnit that reads it in the router.
//
// A gossip packet carries one block (Flit::msg is the block id) and its age: the links it has
// crossed (Flit::dest in a gossip head). The tables' rules are lock-step rules "a packet that arrived
// through input port i in step t-1 goes out of o in step t if first <= t <= last"; a packet that has
// crossed h links arrived in step inject_step + h - 1, so in hardware, without steps, the rule reads
// "a packet arriving through i with age h goes out of o if first - inject_step <= h <= last -
// inject_step". The age window is the packet's stopping rule: past the last window of its path it is
// only delivered. A packet injected by its node carries its own output mask (Flit::neg_mask in a gossip
// head): the node's injection list says which of its blocks leave on which ports. Prologue packets
// (Flit::start_dim = 1) are delivered where they arrive and never forwarded.
//
// Image (format version 1, 32-bit words, little-endian in a file):
//   word 0      magic 0x54585247 ("TRXG")
//   word 1      version = 1
//   word 2      bits 7:0 D (dimensions), bits 31:8 R (number of rules)
//   word 3      node id
//   word 4      deliver mask: bit i = packets arriving through input port i are handed to the node
//   words 5 ..  R rules, two words each: [in_port 7:0 | out_port 15:8 | 0], [hmin 15:0 | hmax 31:16]
//   last word   checksum: the sum of all words, this one included, is 0 mod 2^32
// Ports as in core/topology.hpp: network port 2 dim + (dir < 0); input port i is the side a packet
// enters through.
#pragma once

#include <cstdint>
#include <vector>

#include "core/forwarding_table.hpp"
#include "core/topology.hpp"

namespace torx::model {

inline constexpr uint32_t kGossipMagic = 0x54585247u;  // "TRXG"
inline constexpr uint32_t kGossipVersion = 1;
inline constexpr uint8_t kGossipPrologue = 1;  // Flit::start_dim of a prologue packet

using GossipImage = std::vector<uint32_t>;

// One image per node from validated forwarding tables on `topo` (throws sw::InputError if the tables
// do not fit the hardware: ages beyond 16 bits, another topology).
std::vector<GossipImage> build_gossip_images(const sw::ForwardingTable& table, const sw::Topology& topo);
void seal_gossip_image(GossipImage& image);

class GossipUnit {
 public:
  // Throws sw::InputError naming the node and the word that is wrong (magic, version, shape, node,
  // a port out of range, an empty window, the checksum).
  void load(const GossipImage& image, const sw::Topology& topo, sw::NodeId node);
  bool loaded() const { return loaded_; }
  // Output ports (bit per network port) a packet arriving through `in_port` with age `hops` is copied to.
  uint32_t forward(int in_port, uint32_t hops) const {
    uint32_t m = 0;
    for (const Rule& r : rules_)
      if (r.in_port == in_port && hops >= r.hmin && hops <= r.hmax) m |= 1u << r.out_port;
    return m;
  }
  bool deliver(int in_port) const { return (deliver_ >> in_port) & 1u; }
  size_t rules() const { return rules_.size(); }

 private:
  struct Rule {
    uint8_t in_port, out_port;
    uint16_t hmin, hmax;
  };
  std::vector<Rule> rules_;
  uint32_t deliver_ = 0;
  bool loaded_ = false;
};

}  // namespace torx::model
