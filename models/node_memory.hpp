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
//
// A rank's part (partitioned runs, docs/distributed.md): the memories of the nodes one rank owns
// only. Moved blocks: per block the rank's nodes may hold (a BlockSubset: 0.14 bytes per block of
// the network says which, and each one's rank among them; its nodes' own blocks, the blocks
// destined to them, the blocks of every message they send or receive) an owner word, a flags byte
// and an arrival count byte (6 bytes). A block at rest in a memory is its identity: its content is
// a function of it (ContentModel), so the memory keeps only whether the bytes it was stored with
// were that content (kDamaged). Bytes exist only while they move: a payload slot is taken when a
// sender starts packing the block (filled with the content, byte 0 inverted if damaged) or its
// first byte arrives at an owned node (poisoned, as a fresh slot is), and given back when the
// block comes to rest (stored: compared with the content, once) or has left the rank; so the
// payload held is a few blocks per interface, not the blocks resident (64 bytes per block of 64
// bytes before, 1 GiB on 64x64 t4 over the ranks). What the interfaces see (slot pointers, poison
// behind a sender, a receiver's writes) and what the checker counts are a whole memory's. Copied
// blocks: a slot per (block, owned node). The checker then judges the owned nodes' deliveries (checks());
// a moved block that did not end at its destination is resolved among the ranks (unresolved(),
// owner_answer(), resolve()), and the ranks' counts are summed (partitioned.hpp).
#pragma once

#include <cstdint>
#include <cstring>
#include <memory>
#include <unordered_map>
#include <vector>

#include "core/blocks.hpp"
#include "core/delivery.hpp"

namespace torx::model {

// A set of block ids and each member's rank among them (its index in per-member arrays): a bit per
// block of the network and a count per 512 ids (0.14 bytes per block). insert() every member, then
// seal(); rank(b) costs at most 8 popcounts.
class BlockSubset {
 public:
  BlockSubset() = default;
  explicit BlockSubset(uint64_t universe) : bits_((universe + 63) / 64, 0) {}
  void insert(uint64_t b) { bits_[b >> 6] |= uint64_t{1} << (b & 63); }
  bool contains(uint64_t b) const { return (bits_[b >> 6] >> (b & 63)) & 1; }
  // Counts the members (returned) and indexes them.
  uint64_t seal() {
    base_.assign(bits_.size() / 8 + 1, 0);
    uint64_t n = 0;
    for (size_t w = 0; w < bits_.size(); ++w) {
      if (w % 8 == 0) base_[w / 8] = n;
      n += static_cast<uint64_t>(__builtin_popcountll(bits_[w]));
    }
    return size_ = n;
  }
  uint64_t size() const { return size_; }
  // Members before b (b's index, when b is a member).
  uint64_t rank(uint64_t b) const {
    const size_t w = b >> 6;
    uint64_t r = base_[w / 8];
    for (size_t i = w & ~size_t{7}; i < w; ++i) r += static_cast<uint64_t>(__builtin_popcountll(bits_[i]));
    return r + static_cast<uint64_t>(__builtin_popcountll(bits_[w] & ((uint64_t{1} << (b & 63)) - 1)));
  }

 private:
  std::vector<uint64_t> bits_, base_;
  uint64_t size_ = 0;
};

class NodeMemory : public sw::DeliveryView {
 public:
  static constexpr uint32_t kNoOwner = 0xffffffffu;   // not a block (alltoall diagonal)
  static constexpr uint32_t kInFlight = 0xfffffffeu;  // packed into a worm, not yet stored
  static constexpr uint8_t kPoison = 0xDB;

  // Allocates the arena and writes every node's own blocks with their content.
  NodeMemory(const sw::BlockSpace& space, uint32_t block_bytes, uint64_t seed);
  // A rank's part: `owned[v]` != 0 for the nodes it owns; `needed`, sealed: the moved blocks its
  // nodes may hold (ignored for copied blocks).
  NodeMemory(const sw::BlockSpace& space, uint32_t block_bytes, uint64_t seed, std::vector<uint8_t> owned,
             BlockSubset needed);

  bool moves() const { return moves_; }
  uint32_t block_bytes() const { return block_bytes_; }
  // Payload slot of block b in the memory of node v (moved blocks: v is ignored, there is one slot).
  // (A rank's part, moved blocks: the block's bytes, materialized from its identity if it is at rest;
  // a sender's pointer stays valid until release(b).)
  uint8_t* slot(sw::BlockId b, sw::NodeId v) {
    return part_moves_ ? bytes_of(needed_.rank(b), b) : arena_.data() + index(b, v) * stride_;
  }

  // Whether node v holds block b now (moved: it owns it; copied: it has a valid copy).
  bool holds_now(sw::BlockId b, sw::NodeId v) const {
    if (part_moves_) return needed_.contains(b) && part_owner_[needed_.rank(b)] == static_cast<uint32_t>(v);
    return moves_ ? owner_[b] == static_cast<uint32_t>(v) : (state_[index(b, v)] & kHeld) != 0;
  }
  // Receiver side: the slot the bytes of block b arriving at v go to (a rank's part: a payload slot
  // taken at the first byte).
  uint8_t* slot_to_write(sw::BlockId b, sw::NodeId v) {
    if (part_moves_) return receiving(b);
    return slot(b, v);
  }
  // Sender side, moved blocks: the last byte of b has left this memory for a worm (a rank's part:
  // its payload slot goes back unless the block is already arriving at a node of this rank).
  void release(sw::BlockId b) {
    if (part_moves_) give_back(b);
  }
  // Hints for a network interface about to pack or store block b at node v (large networks: the
  // arena and the owner array are far bigger than the caches).
  void prefetch(sw::BlockId b, sw::NodeId v, bool write, uint32_t offset = 0) const {
    if (part_moves_) return;
    if (write) {
      __builtin_prefetch(arena_.data() + index(b, v) * stride_ + offset, 1);
      if (moves_) __builtin_prefetch(&owner_[b], 1);
      __builtin_prefetch(&state_[index(b, v)], 1);
    } else {
      __builtin_prefetch(arena_.data() + index(b, v) * stride_ + offset);
    }
  }
  // Byte 0 of block b's content as its identity prescribes (fault injection corrupts against it).
  uint8_t pristine_byte0(sw::BlockId b) const { return static_cast<uint8_t>(content_.word(b, 0)); }
  // Sender side, moved blocks: the block leaves v's memory for a worm.
  void take(sw::BlockId b) {
    if (part_moves_) {
      const uint64_t m = needed_.rank(b);
      part_owner_[m] = kInFlight;
      part_flags_[m] |= kSending;
      return;
    }
    owner_[b] = kInFlight;
  }
  // Receiver side: the last byte of b has been written into v's memory.
  void stored(sw::BlockId b, sw::NodeId v);

  // DeliveryView
  const sw::BlockSpace& space() const override { return *space_; }
  sw::NodeId holder(sw::BlockId b) const override;
  bool holds(sw::BlockId b, sw::NodeId node) const override;
  uint32_t arrivals(sw::BlockId b, sw::NodeId node) const override;
  bool intact(sw::BlockId b, sw::NodeId node) const override;
  bool partial() const override { return part_; }
  bool checks(sw::NodeId node) const override { return !part_ || owned_[static_cast<size_t>(node)] != 0; }

  size_t arena_bytes() const { return arena_.size(); }
  // Payload bytes in use at the most (a rank's part, moved blocks: the payload slots of the blocks
  // moving at once; else the arena).
  uint64_t payload_peak_bytes() const { return part_moves_ ? uint64_t{bytes_next_} * stride_ : arena_.size(); }
  // A rank's part, moved blocks: the blocks destined to an owned node that do not end there here
  // (their holder is on another rank, or nowhere: lost); this rank's answer for any block (an owned
  // node holding it, else kInFlight; kNoOwner if its nodes never had it); the holders the ranks
  // agreed on (the minimum of every rank's answer) for this rank's unresolved blocks.
  std::vector<sw::BlockId> unresolved() const;
  uint32_t owner_answer(sw::BlockId b) const;
  void resolve(const std::vector<sw::BlockId>& blocks, const std::vector<uint32_t>& holders);
  // A rank's part, moved blocks: the blocks its nodes may hold, and the most payload slots at once.
  uint64_t part_blocks() const { return needed_.size(); }
  uint64_t payload_peak() const { return bytes_next_; }

 private:
  static constexpr uint8_t kHeld = 0x80;
  static constexpr uint8_t kArrivals = 0x7f;
  static constexpr uint32_t kNoSlot = 0xffffffffu;
  static constexpr uint8_t kSending = 1;    // a rank's block: taken, bytes still leaving for a worm
  static constexpr uint8_t kReceiving = 2;  // a rank's block: bytes arriving, not all stored yet
  static constexpr uint8_t kDamaged = 4;    // a rank's block at rest: not stored as its content
  static constexpr uint32_t kChunk = 1024;  // payload slots per chunk (pointers stay valid)
  // Copied blocks (a rank's part: rows of the owned nodes only).
  size_t index(sw::BlockId b, sw::NodeId v) const {
    if (!part_) return moves_ ? b : b * nodes_ + static_cast<size_t>(v);
    return b * nodes_ + node_slot_[static_cast<size_t>(v)];
  }
  // A rank's part, moved blocks: b's owner (kNoOwner: not here now, or not a block its nodes hold).
  uint32_t part_owner(sw::BlockId b) const { return needed_.contains(b) ? part_owner_[needed_.rank(b)] : kNoOwner; }
  uint8_t* payload(uint32_t i) const { return chunks_[i / kChunk].get() + static_cast<size_t>(i % kChunk) * stride_; }
  uint8_t* bytes_of(uint64_t m, sw::BlockId b);  // member m = block b's rank in needed_
  void to_rest(uint64_t m, sw::BlockId b);
  uint8_t* receiving(sw::BlockId b);
  void give_back(sw::BlockId b);
  void allocate(size_t slots);
  void fill(uint8_t* dst, sw::BlockId b) const;

  const sw::BlockSpace* space_;
  sw::ContentModel content_;
  bool moves_;
  uint32_t block_bytes_;
  size_t stride_;
  size_t nodes_;
  std::vector<uint8_t> arena_;
  std::vector<uint32_t> owner_;   // moved blocks only
  std::vector<uint8_t> state_;    // moved: arrivals at the destination (a rank's part: per needed_
                                  // member); copied: held | arrivals per slot
  mutable std::vector<uint8_t> scratch_;  // intact(): the expected content of one block
  // A rank's part (nodes_ is then the number of owned nodes for copied blocks).
  bool part_ = false;
  bool part_moves_ = false;             // a rank's part of a personalized collective
  std::vector<uint8_t> owned_;          // per node of the network
  BlockSubset needed_;                  // moved: the blocks the rank's nodes may hold
  std::vector<uint32_t> part_owner_;    // moved: per member of needed_, its node, kInFlight or kNoOwner
  std::vector<uint8_t> part_flags_;     // moved: per member, kSending | kReceiving | kDamaged
  std::unordered_map<sw::BlockId, uint32_t> bytes_;  // moved: the blocks with bytes now, their slot
  std::vector<std::unique_ptr<uint8_t[]>> chunks_;   // moved: payload slots, kChunk per chunk
  uint32_t bytes_next_ = 0;             // payload slots ever used (the most at once)
  std::vector<uint32_t> free_;          // payload slots given back, reused last-in first-out
  std::vector<uint32_t> node_slot_;     // copied: per node of the network, its row among the owned
  std::unordered_map<sw::BlockId, uint32_t> resolved_;  // moved: holders found among the ranks
};

}  // namespace torx::model
