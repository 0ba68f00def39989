// SPDX-License-Identifier: Apache-2.0
// NodeMemory: the block memories of all network interfaces, and the DeliveryView the host's checker
// reads at the end of a run (so check_delivery() judges the cycle model exactly as the step model).
//
// Layout. A block's payload is block_bytes bytes: the little-endian bytes of its ContentModel words,
// cut to block_bytes. Rather than one hash map per node, payloads live in one arena:
//  - personalized collectives move blocks, so each block lives in exactly one place at a time (a
//    node's memory, or the flits of one worm): the arena has one slot per block and owner_[b] says
//    whose memory the slot belongs to (or that the block is in flight). 16.7 million 64-byte blocks
//    (t4 on 64x64) take 1 GiB of payload plus 4 bytes of owner each.
//  - broadcast and gossip copy blocks, so the arena has one slot per (block, node).
// A sender that packs bytes of a moved block into a flit overwrites them in its memory with a
// poison pattern, so a receiver that fails to store what arrives is caught by content.
#pragma once

#include <cstdint>
#include <cstring>
#include <vector>

#include "core/blocks.hpp"
#include "core/delivery.hpp"

namespace torx::model {

class NodeMemory : public sw::DeliveryView {
 public:
  static constexpr uint32_t kNoOwner = 0xffffffffu;   // not a block (alltoall diagonal)
  static constexpr uint32_t kInFlight = 0xfffffffeu;  // packed into a worm, not yet stored
  static constexpr uint8_t kPoison = 0xDB;

  // Allocates the arena and writes every node's own blocks with their content.
  NodeMemory(const sw::BlockSpace& space, uint32_t block_bytes, uint64_t seed);

  bool moves() const { return moves_; }
  uint32_t block_bytes() const { return block_bytes_; }
  // Payload slot of block b in the memory of node v (moved blocks: v is ignored, there is one slot).
  uint8_t* slot(sw::BlockId b, sw::NodeId v) { return arena_.data() + index(b, v) * stride_; }
  const uint8_t* slot(sw::BlockId b, sw::NodeId v) const { return arena_.data() + index(b, v) * stride_; }

  // Whether node v holds block b now (moved: it owns it; copied: it has a valid copy).
  bool holds_now(sw::BlockId b, sw::NodeId v) const {
    return moves_ ? owner_[b] == static_cast<uint32_t>(v) : (state_[index(b, v)] & kHeld) != 0;
  }
  // Hints for a network interface about to pack or store block b at node v (large networks: the
  // arena and the owner array are far bigger than the caches).
  void prefetch(sw::BlockId b, sw::NodeId v, bool write, uint32_t offset = 0) const {
    if (write) {
      __builtin_prefetch(slot(b, v) + offset, 1);
      if (moves_) __builtin_prefetch(&owner_[b], 1);
      __builtin_prefetch(&state_[index(b, v)], 1);
    } else {
      __builtin_prefetch(slot(b, v) + offset);
    }
  }
  // Byte 0 of block b's content as its identity prescribes (fault injection corrupts against it).
  uint8_t pristine_byte0(sw::BlockId b) const { return static_cast<uint8_t>(content_.word(b, 0)); }
  // Sender side, moved blocks: the block leaves v's memory for a worm.
  void take(sw::BlockId b) { owner_[b] = kInFlight; }
  // Receiver side: the last byte of b has been written into v's memory.
  void stored(sw::BlockId b, sw::NodeId v);

  // DeliveryView
  const sw::BlockSpace& space() const override { return *space_; }
  sw::NodeId holder(sw::BlockId b) const override;
  bool holds(sw::BlockId b, sw::NodeId node) const override;
  uint32_t arrivals(sw::BlockId b, sw::NodeId node) const override;
  bool intact(sw::BlockId b, sw::NodeId node) const override;

  size_t arena_bytes() const { return arena_.size(); }

  // Partitioned runs (partitioned.hpp): every rank's memory is authoritative only for the nodes it
  // owns. Each rank forgets the rest (owners it cannot vouch for become kInFlight, slots and states
  // of other nodes zero), then the ranks combine: owners by minimum (a node beats kInFlight, which
  // beats kNoOwner), states by maximum, payload bytes by or; afterwards every rank holds what one
  // process would (a block still in flight has a zero slot instead of a stale one: never read).
  template <class Owns, class MinOwner, class MaxState, class OrBytes>
  void merge_partitioned(Owns&& owns, MinOwner&& min_owner, MaxState&& max_state, OrBytes&& or_bytes) {
    if (moves_) {
      for (size_t b = 0; b < owner_.size(); ++b) {
        const uint32_t o = owner_[b];
        if (o == kNoOwner) continue;
        if (o == kInFlight || !owns(static_cast<sw::NodeId>(o))) {
          owner_[b] = kInFlight;
          std::memset(arena_.data() + b * stride_, 0, stride_);
        }
        if (!owns(space_->destination(static_cast<sw::BlockId>(b)))) state_[b] = 0;
      }
      min_owner(owner_.data(), owner_.size());
    } else {
      for (size_t i = 0; i < state_.size(); ++i)
        if (!owns(static_cast<sw::NodeId>(i % nodes_))) {
          state_[i] = 0;
          std::memset(arena_.data() + i * stride_, 0, stride_);
        }
    }
    max_state(state_.data(), state_.size());
    or_bytes(arena_.data(), arena_.size());
  }

 private:
  static constexpr uint8_t kHeld = 0x80;
  static constexpr uint8_t kArrivals = 0x7f;
  size_t index(sw::BlockId b, sw::NodeId v) const { return moves_ ? b : b * nodes_ + static_cast<size_t>(v); }
  void fill(uint8_t* dst, sw::BlockId b) const;

  const sw::BlockSpace* space_;
  sw::ContentModel content_;
  bool moves_;
  uint32_t block_bytes_;
  size_t stride_;
  size_t nodes_;
  std::vector<uint8_t> arena_;
  std::vector<uint32_t> owner_;   // moved blocks only
  std::vector<uint8_t> state_;    // moved: arrivals at the destination; copied: held | arrivals per slot
  mutable std::vector<uint8_t> scratch_;  // intact(): the expected content of one block
};

}  // namespace torx::model
