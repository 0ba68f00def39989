// SPDX-License-Identifier: Apache-2.0
// Blocks: the units a collective moves, their identities, compact sets of them, and their content.
//
// Identity. Each collective has a block space whose axes are small integers:
//   alltoall  (complete exchange): axes s_0..s_{D-1}, t_0..t_{D-1}   (source and destination coordinates)
//                                  id = src * N + dst; a node's block to itself does not exist
//   broadcast:                     axis p (piece);                    id = p; the source is the root
//   allgather (gossip):            axes s_0..s_{D-1}, p;              id = src * pieces + p
//
// Compact sets. A Box is one AxisRange per axis; an AxisRange is the cyclic arithmetic progression
// start, start+stride, ... (count values, taken modulo the axis radix). A message's blocks are a
// union of boxes, so a ring phase that carries a trapezoid of (source, destination) pairs, or a T4
// stage that carries every fourth destination of a dilated logical torus, is a handful of boxes and
// not a line per block. The schedule file writes a range as `*`, `v`, `a..b` or `a..b/s`.
//
// Content. The payload of a block is derived from a seeded hash of its identity (block_word()), so a
// checker recognises a wrong, lost, duplicated or corrupted block by its content, not by counting.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/topology.hpp"

namespace torx::sw {

using BlockId = uint64_t;

enum class Collective { kAlltoall, kBroadcast, kAllgather };
std::string_view collective_name(Collective c);                 // "alltoall", "broadcast", "allgather"
Collective parse_collective(std::string_view text);              // throws InputError
// Personalized collectives move blocks (the sender gives them up, seed 000's B_i = B_i - M);
// broadcast and gossip copy them.
inline bool moves_blocks(Collective c) { return c == Collective::kAlltoall; }

struct AxisRange {
  uint32_t start = 0;
  uint32_t count = 0;
  uint32_t stride = 1;
};

inline constexpr int kMaxAxes = 2 * kMaxDims;

class BlockSpace {
 public:
  // pieces: pieces per node (allgather) or of the message (broadcast); ignored for alltoall.
  // Throws InputError if the deliveries the collective requires do not fit in 64 bits.
  BlockSpace(Collective collective, const Topology& topo, int pieces, NodeId root);

  Collective collective() const { return collective_; }
  const Topology& topology() const { return *topo_; }
  int pieces() const { return pieces_; }
  NodeId root() const { return root_; }
  int arity() const { return static_cast<int>(radix_.size()); }
  int axis_radix(int axis) const { return radix_[axis]; }
  // Name of an axis in messages: "source x", "destination y", "piece".
  std::string axis_name(int axis) const;
  // Number of block ids (alltoall: N*N, including the unused diagonal).
  uint64_t universe() const { return universe_; }

  bool exists(BlockId b) const;
  NodeId source(BlockId b) const;
  // The coordinate of block b on an axis.
  uint32_t axis_value(BlockId b, int axis) const { return static_cast<uint32_t>((b / mult_[axis]) % radix_[axis]); }
  // Personalized collectives: the single destination. Broadcast and gossip: every node but the source.
  NodeId destination(BlockId b) const { return static_cast<NodeId>(b % topo_->nodes()); }
  bool is_destination(BlockId b, NodeId node) const;
  // Deliveries the collective requires: N(N-1) for alltoall, (N-1)*pieces for broadcast,
  // N(N-1)*pieces for allgather.
  uint64_t expected_deliveries() const { return expected_; }

  BlockId alltoall_id(NodeId src, NodeId dst) const { return static_cast<BlockId>(src) * topo_->nodes() + dst; }
  BlockId allgather_id(NodeId src, int piece) const { return static_cast<BlockId>(src) * pieces_ + piece; }
  // "(1,2)->(3,4)", "piece 3", "(1,2)#3".
  std::string block_name(BlockId b) const;

  // Box helpers. `box` points at arity() ranges.
  uint64_t box_size(const AxisRange* box) const;
  // Throws InputError (with `what` as prefix) if a range leaves its axis or repeats a value.
  void validate_box(const AxisRange* box, std::string_view what) const;
  // Calls f(BlockId) for every block of the box. The innermost loop runs over the axis with the
  // smallest id multiplier, so consecutive ids are visited consecutively where the box allows it.
  template <class F>
  void for_each_block(const AxisRange* box, F&& f) const;

  // Appends the boxes that cover exactly `ids` (sorted, unique) to `out`: runs of consecutive ids
  // are merged along the innermost axis, and equal runs along the next axes are merged into boxes.
  void compress(const std::vector<BlockId>& ids, std::vector<AxisRange>& out) const;

  // True if two valid boxes share a block (exact: per axis, two cyclic progressions meet).
  bool boxes_overlap(const AxisRange* a, const AxisRange* b) const;

  // Canonical text of a box ("1,0>2..5,*", "#0..3", "2,1#1") and its parser.
  std::string box_string(const AxisRange* box) const;
  void parse_box(std::string_view text, AxisRange* box) const;  // throws InputError naming the field

 private:
  Collective collective_;
  const Topology* topo_;
  int pieces_;
  NodeId root_;
  std::vector<int> radix_;          // per axis
  std::vector<uint64_t> mult_;      // id contribution of one unit on each axis
  std::vector<int> loop_order_;     // axes from outermost to innermost
  uint64_t universe_ = 0;
  uint64_t expected_ = 0;
};

// Finds two boxes that share a block among the boxes of one message (the schedule reader refuses
// them: a message's block sets must be disjoint). Exact, with bounded work whatever the input:
//  1. boxes that differ on an axis where every box holds a single value are disjoint, so only
//     groups equal there are compared (generators' boxes differ in a source coordinate and come
//     sorted: one pass, nothing compared);
//  2. within a group, every pair if it is small, else a sweep over the axis on which the boxes'
//     extents are shortest, testing only pairs whose extents meet on it; kPairBudget pairs at most;
//  3. otherwise every block is marked in a bitmap of the block space if it has at most 2^27 blocks
//     (work at most the space's size: a block seen twice stops it), or the blocks are sorted if
//     there are at most 2^22 of them;
//  4. otherwise the message is refused as too interleaved to check (InputError): no generator
//     writes such a message.
class BoxOverlapFinder {
 public:
  static constexpr uint64_t kPairBudget = uint64_t{1} << 20;
  static constexpr uint64_t kBitmapBlocks = uint64_t{1} << 27;
  static constexpr uint64_t kSortBlocks = uint64_t{1} << 22;

  explicit BoxOverlapFinder(const BlockSpace& space) : space_(&space) {}
  // `boxes` holds `count` boxes of space.arity() ranges each, every one valid (validate_box).
  // Returns the indices of two boxes that overlap, or {-1, -1}.
  std::pair<int64_t, int64_t> find(const AxisRange* boxes, uint32_t count);

 private:
  struct Extent {
    uint32_t lo, hi, box;
  };
  // Pairwise tests (tiers 1 and 2); false if the pair budget ran out before an answer.
  bool by_pairs(const AxisRange* boxes, uint32_t count, std::pair<int64_t, int64_t>& found);
  bool pairs_in(const AxisRange* boxes, const uint32_t* idx, size_t count, uint64_t& pairs,
                std::pair<int64_t, int64_t>& found);
  std::pair<int64_t, int64_t> boxes_holding(const AxisRange* boxes, uint32_t count, BlockId b) const;
  const BlockSpace* space_;
  std::vector<Extent> extents_;
  std::vector<uint32_t> order_;
  std::vector<uint64_t> bitmap_;
  std::vector<BlockId> ids_;
};

// Seeded content of blocks. A payload is `words` 64-bit words; word i of block b is
// splitmix64(seed, collective, b, i). digest() folds a payload into one word so checkers and
// models can compare contents cheaply.
class ContentModel {
 public:
  ContentModel(uint64_t seed, Collective collective) : seed_(seed), salt_(static_cast<uint64_t>(collective) + 1) {}
  uint64_t word(BlockId b, uint32_t index) const;
  uint64_t expected_digest(BlockId b, uint32_t words) const;
  static uint64_t digest(const uint64_t* payload, uint32_t words);
  uint64_t seed() const { return seed_; }

 private:
  uint64_t seed_;
  uint64_t salt_;
};

uint64_t splitmix64(uint64_t x);

// ---------------------------------------------------------------------------------------------
template <class F>
void BlockSpace::for_each_block(const AxisRange* box, F&& f) const {
  const int n = arity();
  // Odometer over every axis but the innermost, keeping the id of the row's first block
  // incrementally; the innermost axis is a tight loop.
  uint32_t idx[kMaxAxes] = {};
  uint32_t val[kMaxAxes];
  uint64_t base = 0;
  const int inner = loop_order_[n - 1];
  for (int a = 0; a < n; ++a) {
    if (box[a].count == 0) return;
    val[a] = box[a].start;
    if (a != inner) base += val[a] * mult_[a];
  }
  const AxisRange ir = box[inner];
  const uint32_t ir_radix = static_cast<uint32_t>(radix_[inner]);
  const uint64_t ir_mult = mult_[inner];
  while (true) {
    uint32_t v = ir.start;
    for (uint32_t i = 0; i < ir.count; ++i) {
      f(base + v * ir_mult);
      v += ir.stride;
      if (v >= ir_radix) v -= ir_radix;
    }
    // Advance the odometer from the second-innermost axis outwards.
    int k = n - 2;
    for (; k >= 0; --k) {
      const int a = loop_order_[k];
      const AxisRange& r = box[a];
      if (++idx[a] < r.count) {
        uint32_t nv = val[a] + r.stride;
        if (nv >= static_cast<uint32_t>(radix_[a])) nv -= radix_[a];
        base += (static_cast<uint64_t>(nv) - val[a]) * mult_[a];  // wraps correctly in unsigned arithmetic
        val[a] = nv;
        break;
      }
      base += (static_cast<uint64_t>(r.start) - val[a]) * mult_[a];
      idx[a] = 0;
      val[a] = r.start;
    }
    if (k < 0) return;
  }
}

}  // namespace torx::sw
