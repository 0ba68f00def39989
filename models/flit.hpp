// SPDX-License-Identifier: Apache-2.0
// Flits and credits: small value types, copied through latency lines and VC buffers, never
// allocated on the heap. A flit is one link-width unit of a worm: up to kMaxFlitBytes of payload
// plus the sideband a router needs (head/tail bits, the VC it travels on). The head flit also
// carries the header in its sideband (destination, route class, priority, message id), as BookSim
// and Garnet do, so a worm of m payload bytes is exactly ceil(m / flit_bytes) flits (one flit for a
// null message) and the step model's t_s + m t_x compares with it directly.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace torx::model {

// Widest link the model carries: 32 bytes (256 wires). --flit-bytes above this is refused. The
// limit keeps a flit, sideband included, in exactly one 64-byte cache line: the model's speed on
// large networks is bound by the cache lines a flit touches per hop (docs/cycle-model.md).
inline constexpr uint32_t kMaxFlitBytes = 32;
inline constexpr uint32_t kMaxFlitWords = kMaxFlitBytes / 8;
// Largest block the interfaces move (a block is copied byte by byte into flits; 1 MiB keeps node
// memories of large networks within reach).
inline constexpr uint32_t kMaxBlockBytes = uint32_t{1} << 20;

inline constexpr uint8_t kFlitHead = 1;
inline constexpr uint8_t kFlitTail = 2;
// A gossip packet (docs/gossip.md, "Hardwired forwarding"): msg is its block, and its head carries
// its age (links crossed) in `dest`, an injected packet's output mask in `neg_mask`, and
// start_dim = 1 for a prologue packet (delivered, never forwarded).
inline constexpr uint8_t kFlitGossip = 4;

inline constexpr uint8_t kLaEject = 0xFE;
inline constexpr uint8_t kLaNone = 0xFF;

// One cache line: 32 bytes of sideband and up to 32 bytes of payload.
struct alignas(64) Flit {
  // --- link timing -------------------------------------------------------------------------------
  uint64_t due = 0;        // cycle in which the flit is visible at the far end of its link (link.hpp)
  // --- sideband, meaningful in every flit --------------------------------------------------------
  uint32_t msg = 0;        // message (packet-table) id; lets a stuck-worm report name the worm
  uint32_t seq = 0;        // flit index within the worm (0 = head); checked for wormhole ordering
  // --- header, meaningful in the head flit ---------------------------------------------------------
  int32_t dest = 0;        // destination node id
  uint32_t neg_mask = 0;   // route class: bit d set = travel dimension d in the negative direction
  uint8_t start_dim = 0;   // route class: first dimension of the cyclic dimension order
  uint8_t priority = 0;    // higher is more urgent (carried for throttle-and-preempt routers)
  // --- sideband ------------------------------------------------------------------------------------
  uint8_t vc = 0;          // VC on the link the flit is travelling (set by the sending port)
  uint8_t kind = 0;        // kFlitHead | kFlitTail | kFlitGossip
  // Lookahead routing (docs/timing-contract.md, "Lookahead"): in a head on a router-to-router link,
  // the route at the router it enters, computed by the router it left: the output port (kLaEject:
  // eject; kLaNone: no route) and the VC class. 0 in every other flit and organization.
  uint8_t la_port = 0;
  uint8_t la_class = 0;
  // --- payload -------------------------------------------------------------------------------------
  uint64_t payload[kMaxFlitWords] = {};

  bool head() const { return kind & kFlitHead; }
  bool tail() const { return kind & kFlitTail; }
};

static_assert(sizeof(Flit) == 64, "a flit is one cache line");
static_assert(offsetof(Flit, payload) == 32, "the sideband occupies the first 32 bytes");

// Copies a flit (one cache line). `payload_words` is kept for links whose flits are narrower; the
// whole line is copied because that is as cheap as copying part of it.
inline void copy_flit(Flit& dst, const Flit& src, uint32_t /*payload_words*/) {
  std::memcpy(static_cast<void*>(&dst), &src, sizeof(Flit));
}

// A credit returns one buffer slot of one VC to the upstream sender.
struct Credit {
  uint8_t vc = 0;
};

}  // namespace torx::model
